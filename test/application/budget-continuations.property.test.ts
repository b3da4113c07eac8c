import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { testGateway } from '../support/gateway.js';
import { followStructured, followText, recordsWorld, ROW_IDS, tableCells, type World } from './list-tools-world.js';

// Budgets that cut by text, over every list tool: with random data sizes and random text and JSON budgets,
// a client that follows the structured answer alone (its cursor, or where the tool has none its own paging
// members or `truncated.next`), and one that follows the text alone ("The rest:", "Next page:"), each get
// every row exactly once, in the order of the same listing read without budgets. Every cut answer shows the
// same rows in its text as in its structured answer, and its cursor is the call for the rest.

type Args = Record<string, unknown>;
const UNLIMITED = { text: 100_000_000, json: 100_000_000 };

/** How a list tool's data is made `n` rows long (about: some listings hold demo rows too), and its first call. */
interface Fixture {
  readonly maxN: number;
  /** The records the world is seeded with, for a size `n`. */
  readonly counts?: (n: number) => { properties: number; leads: number; deals: number };
  readonly first: (w: World, n: number) => Promise<[string, Args]>;
}

const DEFAULT_COUNTS = { properties: 24, leads: 30, deals: 6 };
const leadIds = async (w: World): Promise<number[]> =>
  (await w.data('records_listRecords', { app_id: 3001, limit: 500 })).records.map((r: any) => r.record_id);

/** A folder of `n` files. */
const folderOf = async (w: World, n: number): Promise<string> => {
  const folder = await w.data('files_createFolder', { parent_id: 'home', name: `Many ${n}` });
  for (let i = 0; i < n; i++)
    await w.data('files_writeFile', { folder_id: folder.Id, file_name: `f-${i}.txt`, content: 'x' });
  return folder.Id;
};

/** A batch of `n` created records; its answer's batch_id for getBatchResults. */
const batchArgs = (n: number) => ({
  app_id: 3002,
  inputs: Array.from({ length: n }, (_, i) => ({ fields: { address: `${i} Batch Rd` } })),
});

const FIXTURES: Readonly<Record<string, Fixture>> = {
  records_listRecords: {
    maxN: 400,
    counts: (n) => ({ properties: n, leads: 5, deals: 1 }),
    first: async () => ['records_listRecords', { app_id: 3002 }],
  },
  records_filterRecords: {
    maxN: 400,
    counts: (n) => ({ properties: n, leads: 5, deals: 1 }),
    first: async () => ['records_filterRecords', { app_id: 3002, filters: [] }],
  },
  records_aggregateRecords: {
    maxN: 300,
    counts: (n) => ({ properties: n, leads: 2 * n, deals: 1 }),
    first: async () => [
      'records_aggregateRecords',
      { app_id: 3001, group_by: { field_id: 'property' }, aggregations: [{ field_id: 'score', operation: 'sum' }] },
    ],
  },
  records_getRelatedRecords: {
    // Its continuation repeats every record id asked about: past about 100 ids the call for the rest no longer
    // fits a 1,000-character text with a row, and the text's cut marker hides it (a known limit, issue 30).
    maxN: 60,
    counts: (n) => ({ properties: n, leads: n, deals: 1 }),
    first: async (w) => [
      'records_getRelatedRecords',
      { app_id: 3001, related_app_id: 3002, record_ids: await leadIds(w), direction: 'forward' },
    ],
  },
  records_findRelatableRecords: {
    maxN: 200,
    counts: (n) => ({ properties: n, leads: 5, deals: 1 }),
    first: async () => ['records_findRelatableRecords', { field_id: 300111, text: 'a' }],
  },
  records_getRecordRevisions: {
    maxN: 60,
    first: async (w, n) => {
      const [id] = await leadIds(w);
      for (let i = 0; i < n; i++) await w.data('records_updateRecord', { record_id: id, fields: { score: i } });
      return ['records_getRecordRevisions', { record_id: id }];
    },
  },
  records_listRecordComments: {
    maxN: 80,
    first: async (w, n) => {
      const [id] = await leadIds(w);
      for (let i = 0; i < n; i++)
        await w.data('records_createRecordComment', { record_id: id, value: `Note ${i} ${'x'.repeat(i % 40)}` });
      return ['records_listRecordComments', { record_id: id }];
    },
  },
  records_batchCreateRecords: { maxN: 120, first: async (_w, n) => ['records_batchCreateRecords', batchArgs(n)] },
  records_batchUpdateRecords: {
    maxN: 60,
    first: async (w, n) => {
      const ids = (await leadIds(w)).slice(0, n);
      const updates = ids.map((record_id, i) => ({ record_id, fields: { score: i } }));
      return ['records_batchUpdateRecords', { app_id: 3001, updates }];
    },
  },
  records_getBatchResults: {
    maxN: 120,
    first: async (w, n) => {
      const batch = await w.data('records_batchCreateRecords', batchArgs(n));
      return ['records_getBatchResults', { batch_id: batch.batch_id }];
    },
  },
  files_listChildren: {
    maxN: 150,
    first: async (w, n) => ['files_listChildren', { folder_id: await folderOf(w, n) }],
  },
  files_getItem: {
    maxN: 150,
    first: async (w, n) => ['files_getItem', { item_id: await folderOf(w, n), include_children: true }],
  },
  files_listShares: {
    maxN: 60,
    first: async (w, n) => {
      const file = await w.data('files_writeFile', { folder_id: 'home', file_name: 'shared.txt', content: 'x' });
      for (let i = 0; i < n; i++)
        await w.data('files_createShare', { share_type: 'Send', items: [file.Id], title: `Share ${i}` });
      return ['files_listShares', {}];
    },
  },
  workspaces_getSpaceMembers: {
    // the demo organization's user limit (8) leaves room for 3 more in space 2001
    maxN: 3,
    first: async (w, n) => {
      const mails = Array.from({ length: n }, (_, i) => `guest${i}@example.com`);
      if (n) await w.data('workspaces_addMemberToSpace', { space_id: 2001, role: 'regular', mails });
      return ['workspaces_getSpaceMembers', { space_id: 2001 }];
    },
  },
  crm_searchContacts: {
    maxN: 120,
    first: async (w, n) => {
      for (let i = 0; i < n; i++)
        await w.data('crm_createContact', { values: { email: `p${i}@example.com`, firstname: `Person ${i}` } });
      return ['crm_searchContacts', {}];
    },
  },
  crm_getProperties: { maxN: 0, first: async () => ['crm_getProperties', { object_type: 'contacts' }] },
};

/**
 * The first cells a text follower read, where a row too long for the budget alone was shown cut ("70001 …(cut)"):
 * such a cell stands for the row it begins, when it begins the row expected there.
 */
const legible = (seen: readonly string[], expected: readonly string[]): string[] =>
  seen.map((cell, i) => {
    const shown = cell.endsWith('…(cut)') ? cell.slice(0, -'…(cut)'.length).trim() : undefined;
    return shown !== undefined && expected[i]?.startsWith(shown) ? expected[i]! : cell;
  });

const LIST_TOOLS = testGateway()
  .executor.registry.tools.filter((t) => t.declaration.rows)
  .map((t) => t.name);

describe('budgets that cut by text: every list tool, followed by its structured answer or its text alone', () => {
  it('has a fixture for every tool with a rows declaration', () => {
    expect(LIST_TOOLS.length).toBeGreaterThan(10);
    expect(LIST_TOOLS.filter((t) => !FIXTURES[t] || !ROW_IDS[t])).toEqual([]);
  });

  for (const tool of LIST_TOOLS) {
    const fixture = FIXTURES[tool];
    if (!fixture) continue;
    it(`${tool}: every row exactly once, by the structured cursor alone and by the text alone`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: Math.min(1, fixture.maxN), max: fixture.maxN }),
          fc.integer({ min: 1000, max: 16_000 }),
          fc.integer({ min: 1000, max: 250_000 }),
          async (n, text, json) => {
            const w = recordsWorld(fixture.counts?.(n) ?? DEFAULT_COUNTS);
            try {
              const first = await fixture.first(w, n);
              // The same listing read without budgets: what both followers must see, each row once.
              const all = await followStructured(w, first, UNLIMITED);
              expect(new Set(all.ids).size).toBe(all.ids.length);
              const allText = await followText(w, first, UNLIMITED);
              expect(new Set(allText.ids).size).toBe(allText.ids.length);

              const budgets = { text, json };
              const structured = await followStructured(w, first, budgets, (name, answer) => {
                expect(answer.text.length).toBeLessThanOrEqual(text);
                const cut = answer.data?.truncated;
                if (!cut) return;
                const rows = ROW_IDS[name]!(answer.data);
                if (rows.length > 1) expect(JSON.stringify(answer.data).length).toBeLessThanOrEqual(json);
                expect(cut.shown).toBe(rows.length);
                // a text that shows the rows (a batch's compact answer shows none) shows exactly these, and the
                // same call for the rest
                if (tableCells(answer.text).length) {
                  expect(tableCells(answer.text).length).toBe(rows.length);
                  expect(answer.text).toContain(`The rest: ${cut.next.tool} ${JSON.stringify(cut.next.arguments)}`);
                }
                // a cut page's cursor is the call for the rest
                const cursor = w.g.executor.registry.get(name)!.declaration.rows?.cursor;
                if (cursor) expect(answer.data[cursor]).toBe(cut.next.arguments[cursor]);
              });
              expect(structured.ids).toEqual(all.ids);
              const byText = await followText(w, first, budgets);
              expect(legible(byText.ids, allText.ids)).toEqual(allText.ids);
            } finally {
              await w.g.close();
            }
          },
        ),
        { numRuns: 6 },
      );
    }, 120_000);
  }
});
