import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureResilience } from '../../../adapters/outbound/http/resilience.js';
import { ShareFileItemStore } from '../../../adapters/outbound/sharefile/sharefile-item-store.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import { filterToShareFile, SHAREFILE_FILTER_LIMITS } from '../../../domain/files/filter-odata.js';
import { parseFilter } from '../../../domain/files/query.js';
import { E } from '../../../domain/shared/fp.js';
import { shareFileTestClient, startShareFileServer, type ShareFileStandIn } from '../../fakes/sharefile-server.js';
import { filterFormProblems } from '../../fakes/sharefile/filter-forms.js';
import { left, ok, right } from '../../support/run.js';

// Issue 42: the $filter goes to ShareFile only in the forms ShareFile-NET's query builder writes
// (Requests/Filters: eq, ne, gt, lt; startswith/endswith/substringof ... eq true|false; isof; and/or without
// parentheses; dates as .NET "u"). No ge, le, not, datetime'…' nor grouping.

configureResilience({ maxAttempts: 1, breakerFailures: 1_000_000 });

const write = (source: string): string => right(filterToShareFile(right(parseFilter(source))));

describe('ShareFile $filter in the SDK forms', () => {
  it('writes the string functions as FunctionEqualityFilter does, a negated one with eq false', () => {
    expect(write("startswith(Name,'pla') and not endswith(Name,'.tmp')")).toBe(
      "startswith(Name, 'pla') eq true and endswith(Name, '.tmp') eq false",
    );
    expect(write("substringof('an',Name)")).toBe("substringof('an', Name) eq true");
  });

  it('writes ge and le as gt or eq, lt or eq, and pushes not down to the conditions', () => {
    expect(write('FileSizeBytes ge 10')).toBe('FileSizeBytes gt 10 or FileSizeBytes eq 10');
    expect(write("not (FileSizeBytes le 10 or Name eq 'a')")).toBe("FileSizeBytes gt 10 and Name ne 'a'");
    expect(write("not (FileSizeBytes lt 10 and Name ne 'a')")).toBe(
      "FileSizeBytes gt 10 or FileSizeBytes eq 10 or Name eq 'a'",
    );
    expect(write("not isof('Files.Api.Models.File')")).toBe("isof('ShareFile.Api.Models.Folder')");
  });

  it('brings and-ed or-groups to alternatives without parentheses (and binds first)', () => {
    expect(write("(Name eq 'a' or Name eq 'b') and FileSizeBytes gt 1")).toBe(
      "Name eq 'a' and FileSizeBytes gt 1 or Name eq 'b' and FileSizeBytes gt 1",
    );
  });

  it('writes dates as .NET\'s DateTime.ToString("u"), unquoted, and reads them back', () => {
    expect(write("CreationDate gt datetime'2026-01-31T10:00:00'")).toBe('CreationDate gt 2026-01-31 10:00:00Z');
    expect(write('CreationDate lt 2026-02-01')).toBe('CreationDate lt 2026-02-01 00:00:00Z');
    expect(right(parseFilter('CreationDate gt 2026-01-31 10:00:00Z'))).toEqual(
      right(parseFilter('CreationDate gt 2026-01-31T10:00:00Z')),
    );
  });

  it('refuses a filter whose alternatives pass the bound, naming why', () => {
    const groups = Array.from({ length: 7 }, (_, i) => `(Name eq 'a${i}' or Name eq 'b${i}')`).join(' and ');
    const e = left(filterToShareFile(right(parseFilter(groups))));
    expect(e._tag).toBe('InvalidInput');
    expect(e.message).toContain(`more than ${SHAREFILE_FILTER_LIMITS.maxAlternatives} alternatives`);
    expect(filterToShareFile(right(parseFilter(groups.split(' and ').slice(0, 5).join(' and '))))._tag).toBe('Right');
  });

  it("the stand-in's check flags what the gateway wrote before (ge, not, parentheses, datetime, bare startswith)", () => {
    const before =
      "((FileSizeBytes ge 1 and not (startswith(Name, 'x'))) or CreationDate le datetime'2026-01-01T00:00:00Z')";
    expect(
      filterFormProblems(before).map((p) => /"(\w+)"|(parentheses)|(\w+)\(…\)/.exec(p)?.slice(1).find(Boolean)),
    ).toEqual(['parentheses', 'ge', 'not', 'startswith', 'le', 'datetime']);
    expect(
      filterFormProblems(write("(FileSizeBytes ge 1 and not startswith(Name,'x')) or CreationDate le 2026-01-01")),
    ).toEqual([]);
  });
});

describe('ShareFile listing with a filter, against the stand-in', () => {
  const clock = new FixedClock(new Date('2026-01-30T10:00:00.000Z'));
  let fake: ShareFileStandIn;
  let items: ShareFileItemStore;
  const bytes = (n: number) => new Uint8Array(n).fill(65);
  beforeAll(async () => {
    fake = await startShareFileServer({ clock });
    // one file a day, growing: dates and sizes that the comparisons split
    for (const [i, name] of ['plan.txt', 'notes.tmp', 'Plan B.docx', 'budget.xlsx', 'planets.tmp'].entries()) {
      clock.advance(86_400_000);
      if (E.isLeft(fake.items.addFile('home', name, bytes(10 * (i + 1)), { overwrite: false })))
        throw new Error('seed');
    }
    items = new ShareFileItemStore({ client: shareFileTestClient(fake, clock), maxUploadBytes: 1024 });
  });
  afterAll(() => fake.close());

  const filters = [
    'FileSizeBytes ge 30',
    'FileSizeBytes le 20',
    "not (FileSizeBytes lt 20 or endswith(Name,'.tmp'))",
    "(startswith(Name,'pla') or FileSizeBytes ge 40) and not endswith(Name,'.tmp')",
    'CreationDate ge 2026-02-02T10:00:00Z and CreationDate le 2026-02-03T10:00:00Z',
    "not (CreationDate gt 2026-02-02T10:00:00Z) and not substringof('tes',Name)",
    "not (isof('Files.Api.Models.Folder') or Name eq 'budget.xlsx')",
  ];

  it.each(filters)('%s: same items as the filter read directly, sent in SDK forms only', async (source) => {
    const filter = right(parseFilter(source));
    const query = { top: 50, skip: 0, includeDeleted: false, filter, orderBy: [] };
    const expected = await ok(fake.items.children('home', query));
    const seen = fake.requests.length;
    const page = await ok(items.children('home', query));
    expect(page.items.map((i) => i.Name).sort()).toEqual(expected.items.map((i) => i.Name).sort());
    expect(expected.items.length).toBeGreaterThan(0);
    expect(expected.items.length).toBeLessThan(5);
    const sent = fake.requests.slice(seen).find((q) => q.path.endsWith('/Children'))!;
    expect(filterFormProblems(sent.query.get('$filter')!)).toEqual([]);
    expect(fake.violations).toEqual([]);
  });
});
