import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { post, testGateway } from '../support/gateway.js';

// A lost page: every cut answer, at any page size (limit) and any output budget (max_chars), names the
// exact call that returns the next rows, and following those calls returns every row exactly once. The
// follower below knows nothing of the tools: it reads the first column of the answer's table and the
// call after "Next page:" or "The rest:".

const CONTINUATION = /(?:The rest: |Next page: )`?(\w+) (\{[^\n`]*\})/;

/** The first cell of each body row of the answer's largest table. */
const rowIds = (text: string): string[] => {
  const lines = text.split('\n');
  let best: string[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!lines[i]!.startsWith('|') || !/^\|(\s*-{3,}\s*\|)+$/.test(lines[i + 1]!)) continue;
    const body: string[] = [];
    let j = i + 2;
    for (; j < lines.length && lines[j]!.startsWith('|'); j++) body.push(lines[j]!.split('|')[1]!.trim());
    if (body.length > best.length) best = body;
    i = j;
  }
  return best;
};

// The configured budget is out of the way (max_chars sets it per call), so that \`everything\` gets whole pages.
const g = testGateway({}, { RATE_LIMIT_PER_MINUTE: '1000000', GATEWAY_OUTPUT_BUDGET_CHARS: '10000000' });

/** Follows the continuations from a first call; every id seen, in order. */
const follow = async (tool: string, args: Record<string, unknown>, maxChars: number) => {
  const seen: string[] = [];
  let call: [string, unknown] | undefined = [tool, args];
  for (let page = 0; call && page < 200; page++) {
    const r = await post(g, `/v1/tools/call?max_chars=${maxChars}`, { name: call[0], arguments: call[1] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const text = r.body.data as string;
    expect(text.length).toBeLessThanOrEqual(maxChars);
    seen.push(...rowIds(text));
    const m = CONTINUATION.exec(text);
    call = m ? [m[1]!, JSON.parse(m[2]!)] : undefined;
  }
  return seen;
};

/**
 * Follows the continuations of format=json answers: \`truncated.next\` where the budget cut a page, else the
 * tool's own cursor (\`own\`). Every id seen, in order; each answer within max_chars unless it is one row.
 */
const followJson = async (
  tool: string,
  args: Record<string, unknown>,
  maxChars: number,
  ids: (data: any) => string[],
  own: (data: any, args: Record<string, unknown>) => Record<string, unknown> | undefined,
) => {
  const seen: string[] = [];
  let call: [string, Record<string, unknown>] | undefined = [tool, args];
  for (let page = 0; call && page < 400; page++) {
    const r = await post(g, `/v1/tools/call?format=json&max_chars=${maxChars}`, { name: call[0], arguments: call[1] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const rows = ids(r.body.data);
    if (rows.length > 1) expect(JSON.stringify(r.body.data).length).toBeLessThanOrEqual(maxChars);
    seen.push(...rows);
    const cut = r.body.data.truncated;
    if (cut) {
      expect(cut.shown).toBe(rows.length);
      call = [cut.next.tool, cut.next.arguments];
    } else {
      const next = own(r.body.data, call[1]);
      call = next && [call[0], next];
    }
  }
  return seen;
};

/** Every id of a listing, from one uncut JSON answer. */
const everything = async (tool: string, args: Record<string, unknown>, pick: (data: any) => string[]) =>
  pick((await post(g, '/v1/tools/call?format=json', { name: tool, arguments: args })).body.data);

let commented = 0;
let leadIds: number[] = [];
let folderId = '';
beforeAll(async () => {
  const folder = await post(g, '/v1/tools/files/createFolder?format=json', { parent_id: 'home', name: 'Many files' });
  folderId = folder.body.data.Id;
  for (let i = 0; i < 30; i++) {
    await post(g, '/v1/tools/files/writeFile', { folder_id: folderId, file_name: `note-${i}.txt`, content: 'x' });
  }
  const leads = await post(g, '/v1/tools/records/listRecords?format=json', { app_id: 3001, limit: 100 });
  commented = leads.body.data.records[0].record_id;
  leadIds = leads.body.data.records.map((r: any) => r.record_id);
  for (let i = 0; i < 23; i++) {
    await post(g, '/v1/tools/records/createRecordComment', {
      record_id: commented,
      value: `Note ${i}: ${'x'.repeat(i * 7)}`,
    });
    await post(g, '/v1/tools/records/updateRecord', { record_id: commented, fields: { score: i } });
  }
});

const LISTINGS = [
  {
    tool: 'records_listRecords',
    ids: (d: any) => (d.records ?? []).map((r: any) => String(r.record_id)),
    own: (d: any, a: Record<string, unknown>) => (d.cursor ? { ...a, cursor: d.cursor } : undefined),
    args: (limit: number) => ({ app_id: 3001, limit }),
    all: () =>
      everything('records_listRecords', { app_id: 3001, limit: 500 }, (d) =>
        d.records.map((r: any) => String(r.record_id)),
      ),
    maxLimit: 500,
  },
  {
    tool: 'records_filterRecords',
    ids: (d: any) => (d.records ?? []).map((r: any) => String(r.record_id)),
    own: (d: any, a: Record<string, unknown>) => (d.cursor ? { ...a, cursor: d.cursor } : undefined),
    args: (limit: number) => ({
      app_id: 3001,
      filters: [{ field_id: 'score', match_type: 'larger', values: [{ value: 20 }] }],
      sort_by: 'score',
      sort_desc: true,
      limit,
    }),
    all: () =>
      everything(
        'records_filterRecords',
        { app_id: 3001, filters: [{ field_id: 'score', match_type: 'larger', values: [{ value: 20 }] }], limit: 500 },
        (d) => d.records.map((r: any) => String(r.record_id)),
      ),
    maxLimit: 500,
  },
  {
    tool: 'crm_searchContacts',
    ids: (d: any) => d.results.map((c: any) => String(c.id)),
    own: (d: any, a: Record<string, unknown>) => (d.after ? { ...a, after: d.after } : undefined),
    args: (limit: number) => ({ limit }),
    all: () => everything('crm_searchContacts', { limit: 100 }, (d) => d.results.map((c: any) => String(c.id))),
    maxLimit: 100,
  },
  {
    tool: 'workspaces_getSpaceMembers',
    ids: (d: any) => d.members.map((m: any) => String(m.profile.user_id)),
    own: (d: any, a: Record<string, unknown>) =>
      d.offset + d.members.length < d.total ? { ...a, offset: d.offset + d.members.length } : undefined,
    args: (limit: number) => ({ space_id: 2001, limit }),
    all: () =>
      everything('workspaces_getSpaceMembers', { space_id: 2001, limit: 500 }, (d) =>
        d.members.map((m: any) => String(m.profile.user_id)),
      ),
    maxLimit: 500,
  },
  {
    tool: 'records_listRecordComments',
    ids: (d: any) => d.comments.map((c: any) => String(c.comment_id)),
    own: (d: any, a: Record<string, unknown>) => (d.cursor ? { ...a, cursor: d.cursor } : undefined),
    args: (limit: number) => ({ record_id: commented, limit }),
    all: () =>
      everything('records_listRecordComments', { record_id: commented, limit: 100 }, (d) =>
        d.comments.map((c: any) => String(c.comment_id)),
      ),
    maxLimit: 100,
  },
  {
    tool: 'crm_getProperties',
    ids: (d: any) => d.properties.map((p: any) => String(p.name)),
    own: () => undefined,
    args: () => ({ object_type: 'contacts' }),
    all: () => everything('crm_getProperties', {}, (d) => d.properties.map((p: any) => String(p.name))),
    maxLimit: 1,
  },
  {
    tool: 'records_getRecordRevisions',
    ids: (d: any) => d.revisions.map((r: any) => String(r.revision)),
    own: () => undefined,
    args: () => ({ record_id: commented }),
    all: () =>
      everything('records_getRecordRevisions', { record_id: commented }, (d) =>
        d.revisions.map((r: any) => String(r.revision)),
      ),
    maxLimit: 1,
  },
  {
    // getItem's contents, cut, continue in files_listChildren (same order), which then pages with skip
    tool: 'files_getItem',
    ids: (d: any) => (d.Children ?? d.items ?? []).map((x: any) => String(x.Id)),
    own: (d: any, a: Record<string, unknown>) =>
      d.has_more ? { ...a, skip: Number(a['skip'] ?? 0) + d.returned_count } : undefined,
    args: () => ({ item_id: folderId, include_children: true }),
    all: () =>
      everything('files_listChildren', { folder_id: folderId, top: 1000 }, (d) =>
        d.items.map((x: any) => String(x.Id)),
      ),
    maxLimit: 1,
  },
  {
    tool: 'records_findRelatableRecords',
    ids: (d: any) => d.records.map((r: any) => String(r.record_id)),
    own: () => undefined,
    args: () => ({ field_id: 300111, text: 'a' }),
    all: () =>
      everything('records_findRelatableRecords', { field_id: 300111, text: 'a' }, (d) =>
        d.records.map((r: any) => String(r.record_id)),
      ),
    maxLimit: 1,
  },
  {
    tool: 'records_getRelatedRecords',
    ids: (d: any) => d.records.map((r: any) => String(r.record_id)),
    own: () => undefined,
    args: () => ({ app_id: 3001, related_app_id: 3002, record_ids: leadIds, direction: 'forward' }),
    all: () =>
      everything(
        'records_getRelatedRecords',
        { app_id: 3001, related_app_id: 3002, record_ids: leadIds, direction: 'forward' },
        (d) => d.records.map((r: any) => String(r.record_id)),
      ),
    maxLimit: 1,
  },
] as const;

describe('no lost pages', () => {
  for (const listing of LISTINGS) {
    it(`${listing.tool}: following the named calls returns every row exactly once`, async () => {
      const all = await listing.all();
      expect(all.length).toBeGreaterThan(2);
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: listing.maxLimit }),
          fc.integer({ min: 1000, max: 6000 }),
          async (limit, maxChars) => {
            const seen = await follow(listing.tool, listing.args(limit), maxChars);
            expect(seen.length, `limit ${limit}, max_chars ${maxChars}`).toBe(all.length);
            expect(new Set(seen)).toEqual(new Set(all));
          },
        ),
        { numRuns: 15 },
      );
    });

    it(`${listing.tool}: format=json answers keep to the budget and lose no row either`, async () => {
      const all = await listing.all();
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: listing.maxLimit }),
          fc.integer({ min: 1000, max: 20000 }),
          async (limit, maxChars) => {
            const seen = await followJson(listing.tool, listing.args(limit), maxChars, listing.ids, listing.own);
            expect(seen.length, `limit ${limit}, max_chars ${maxChars}`).toBe(all.length);
            expect(new Set(seen)).toEqual(new Set(all));
          },
        ),
        { numRuns: 10 },
      );
    });
  }
});

describe('aggregateRecords groups', () => {
  // The text table ends with a total row (the totals of every group), which is not a group.
  const groups = (d: any): string[] => (d.groups ?? []).map((x: any) => String(x.group));
  const args = {
    app_id: 3001,
    group_by: { field_id: 'property' },
    aggregations: (['sum', 'avg', 'min', 'max'] as const).map((operation) => ({ field_id: 'score', operation })),
  };

  it('following the named calls returns every group exactly once, in text and in format=json', async () => {
    const all = await everything('records_aggregateRecords', args, groups);
    expect(all.length).toBeGreaterThan(10);
    // the property below exercises cut pages: at the smallest budget the first page is cut in both forms
    const cut = await post(g, '/v1/tools/call?format=json&max_chars=1000', {
      name: 'records_aggregateRecords',
      arguments: args,
    });
    expect(cut.body.data.truncated.next.arguments.offset).toBe(cut.body.data.groups.length);
    const small = await post(g, '/v1/tools/call?max_chars=1000', { name: 'records_aggregateRecords', arguments: args });
    expect(small.body.data).toMatch(/The rest: records_aggregateRecords \{.*"offset":\d+/);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1000, max: 4000 }), async (maxChars) => {
        const text = (await follow('records_aggregateRecords', args, maxChars)).filter((x) => x !== '**total**');
        expect(text).toEqual(all);
        const json = await followJson('records_aggregateRecords', args, maxChars, groups, () => undefined);
        expect(json).toEqual(all);
      }),
      { numRuns: 8 },
    );
  });
});
