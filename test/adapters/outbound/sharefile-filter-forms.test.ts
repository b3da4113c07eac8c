import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureResilience } from '../../../adapters/outbound/http/resilience.js';
import { ShareFileItemStore } from '../../../adapters/outbound/sharefile/sharefile-item-store.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import { filterToOData, parseFilter } from '../../../domain/files/query.js';
import { E } from '../../../domain/shared/fp.js';
import { shareFileTestClient, startShareFileServer, type ShareFileStandIn } from '../../fakes/sharefile-server.js';
import { ok, right } from '../../support/run.js';

// Issue 42: the string functions go to ShareFile in the form its own SDK writes,
// `startswith(Name, 'x') eq true` (ShareFile-NET Requests/Filters, FunctionEqualityFilter.PropertyThenValue).

configureResilience({ maxAttempts: 1, breakerFailures: 1_000_000 });

describe('ShareFile $filter string functions', () => {
  const clock = new FixedClock(new Date('2026-11-28T10:00:00.000Z'));
  let fake: ShareFileStandIn;
  beforeAll(async () => {
    fake = await startShareFileServer({ clock });
  });
  afterAll(() => fake.close());

  it("writes startswith(Name, 'x') eq true, and reads it back", async () => {
    const filter = right(parseFilter("startswith(Name,'pla') and not endswith(Name,'.tmp')"));
    expect(filterToOData(filter)).toBe("(startswith(Name, 'pla') eq true and not (endswith(Name, '.tmp') eq true))");
    expect(right(parseFilter(filterToOData(filter)))).toEqual(filter);
    expect(filterToOData(right(parseFilter("substringof('an',Name)")))).toBe("substringof('an', Name) eq true");
    const file = fake.items.addFile('home', 'plan.txt', new TextEncoder().encode('p'), { overwrite: false });
    if (E.isLeft(file)) throw new Error('seed');
    const items = new ShareFileItemStore({ client: shareFileTestClient(fake, clock), maxUploadBytes: 1024 });
    const page = await ok(items.children('home', { top: 10, skip: 0, includeDeleted: false, filter, orderBy: [] }));
    expect(page.items.map((i) => i.Name)).toEqual(['plan.txt']);
    const sent = fake.requests.filter((q) => q.path.endsWith('/Children')).at(-1)!;
    expect(sent.query.get('$filter')).toBe(
      "(startswith(Name, 'pla') eq true and not (endswith(Name, '.tmp') eq true))",
    );
    expect(fake.violations).toEqual([]);
  });
});
