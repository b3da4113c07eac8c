import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fitPage, fitText } from '../../application/runtime/budget.js';
import { defineTool } from '../../application/runtime/define-tool.js';
import { budgetedPair } from '../../application/runtime/envelope.js';
import type { ToolResult } from '../../application/runtime/executor-types.js';
import { renderPage, tableRow, type Page } from '../../application/runtime/markdown.js';
import { ToolRegistry } from '../../application/runtime/registry.js';
import { described, intRange, params } from '../../application/runtime/codecs.js';
import { everyone, testGateway } from '../support/gateway.js';

// The output budget on row data: a list presenter gives a Page (the markdown around a table and the
// table's rows), and the budget keeps the whole rows that fit, says how many, and names the call for the
// rest. Nothing is found in the text by pattern.

const rows = (n: number, pad = 40) =>
  Array.from({ length: n }, (_, i) => [String(i + 1), `name ${i + 1}`, 'x'.repeat(pad)] as const);

const page = (n: number, extra: Partial<Page> = {}): Page => ({
  before: '## Things',
  position: `Showing 1-${n} of ${n}.`,
  columns: ['id', 'name', 'pad'],
  rows: rows(n),
  more: 'This is the last page.',
  after: 'Next steps:\n- things_get {"id":"<id>"}',
  ...extra,
});

const rest = (shown: number) => `things_list {"skip":${shown}}`;

/** The body rows of the page that the text shows, as `table` writes them. */
const shownLines = (text: string, p: Page) => {
  const all = p.rows.map((r) => tableRow(r, p.columns.length));
  return all.filter((line) => text.split('\n').includes(line));
};

describe('fitPage', () => {
  it('gives the whole page, as renderPage writes it, when it fits', () => {
    const p = page(5);
    const fitted = fitPage(p, 10_000, rest);
    expect(fitted).toEqual({ text: renderPage(p) });
    expect(fitted.text).toContain('Showing 1-5 of 5.');
    expect(fitted.text).toContain('This is the last page.');
  });

  it('cuts at whole rows, the first ones, and names the call for the rest', () => {
    const p = page(200);
    const fitted = fitPage(p, 2000, rest);
    expect(fitted.text.length).toBeLessThanOrEqual(2000);
    const shown = fitted.shownRows!;
    expect(shown).toBeGreaterThan(5);
    expect(shown).toBeLessThan(200);
    // exactly the first `shown` rows, each whole
    expect(shownLines(fitted.text, p)).toEqual(p.rows.slice(0, shown).map((r) => tableRow(r, 3)));
    expect(fitted.text.split('\n').filter((l) => l.startsWith('| ')).length).toBe(shown + 1); // + the header
    expect(fitted.text).toContain(
      `showing ${shown} of 200 rows of this answer. The rest: things_list {"skip":${shown}}]`,
    );
    // what is true of the whole page only is left out; what is true of the rows stays
    expect(fitted.text).not.toContain('Showing 1-200 of 200.');
    expect(fitted.text).not.toContain('This is the last page.');
    expect(fitted.text.startsWith('## Things\n\n| id | name | pad |\n|---|---|---|\n| 1 |')).toBe(true);
  });

  it('keeps the markdown after the table when it fits, after the note', () => {
    const fitted = fitPage(page(200), 3000, rest, 5);
    expect(fitted.text).toMatch(/The rest: things_list \{"skip":\d+\}\]\n\nNext steps:\n- things_get/);
  });

  it('shows at most maxRows rows, even when more would fit (to match a structured answer cut shorter)', () => {
    const fitted = fitPage(page(20), 100_000, rest, 7);
    expect(fitted.shownRows).toBe(7);
    expect(shownLines(fitted.text, page(20))).toHaveLength(7);
    expect(fitted.text).toContain('showing 7 of 20 rows of this answer. The rest: things_list {"skip":7}');
  });

  it('says how to get everything when the tool cannot page', () => {
    const fitted = fitPage(page(100), 1500);
    expect(fitted.text).toContain('Ask for a smaller page, narrow the request, or use format=json for all of it.');
    expect(fitted.text.length).toBeLessThanOrEqual(1500);
  });

  it('cuts a single row that alone is too long, with a visible marker, and still names the call for the rest', () => {
    const p = page(3, { rows: [['1', 'huge', 'y'.repeat(5000)], ...rows(2)] });
    const fitted = fitPage(p, 1000, rest);
    expect(fitted.text.length).toBeLessThanOrEqual(1000);
    expect(fitted.shownRows).toBe(1);
    expect(fitted.text).toMatch(/\n\| 1 \| huge \| y+ …\(cut\) \|\n/);
    expect(fitted.text).toContain('showing 1 of 3 rows of this answer. The rest: things_list {"skip":1}]');
  });

  it('drops the text before the table when it leaves no room for a row, keeping the table header', () => {
    const fitted = fitPage(page(50, { before: `## Things\n\n${'z'.repeat(1500)}` }), 1200, rest);
    expect(fitted.text.length).toBeLessThanOrEqual(1200);
    expect(fitted.text.startsWith('| id | name | pad |\n|---|---|---|\n| 1 |')).toBe(true);
    expect(fitted.shownRows).toBeGreaterThan(0);
  });

  it('keeps footer rows (a total) under the rows it keeps, without counting them', () => {
    const p = page(100, { footer: [['**total**', '', '100']] });
    const fitted = fitPage(p, 1500, rest);
    const shown = fitted.shownRows!;
    expect(fitted.text).toContain(`${tableRow(p.rows[shown - 1]!, 3)}\n| **total** |  | 100 |\n\n[Output budget`);
    expect(fitted.text).toContain(`showing ${shown} of 100 rows`);
  });

  it('never reads the text: tables, "Showing" and "Next page" lines outside the rows are left as they are', () => {
    // a larger table in the text before, and lines that the old regular expressions removed
    const before = `## Things\n\n| a | b |\n|---|---|\n${Array.from({ length: 30 }, (_, i) => `| ${i} | b |`).join('\n')}\n\nShowing 3 kinds.`;
    const p = page(60, { before, after: 'Next page of the manual: read it.\nThis is the last page of notes.' });
    const fitted = fitPage(p, 3000, rest, 10);
    expect(fitted.text.startsWith(before)).toBe(true);
    expect(fitted.text).toContain('Next page of the manual: read it.\nThis is the last page of notes.');
    expect(shownLines(fitted.text, p)).toHaveLength(fitted.shownRows!);
    expect(fitted.text).toContain(`showing ${fitted.shownRows} of 60 rows`);
  });
});

describe('fitText (any answer that is not a list page)', () => {
  it('leaves a short text alone, tidied', () => {
    expect(fitText('short  \n\n\n\ntext', 100)).toBe('short\n\ntext');
  });

  it('cuts a long text with a visible marker, within the budget, tables or not', () => {
    const text = `## One\n\n| id |\n|---|\n${'| y |\n'.repeat(5000)}`;
    const out = fitText(text, 1000);
    expect(out.length).toBeLessThanOrEqual(1000);
    expect(out).toMatch(/\[\.\.\. cut: \d+ more characters\. Ask with format=json for the full value\.\]$/);
  });
});

describe('the budget code reads no text', () => {
  it('has no pattern over an answer in budget.ts or envelope.ts but tidy’s whitespace rule', () => {
    for (const file of ['budget.ts', 'envelope.ts']) {
      const source = readFileSync(new URL(`../../application/runtime/${file}`, import.meta.url), 'utf8');
      expect(source).not.toMatch(/largestTable|isRule|isRow|\.split\('\\n'\)/);
      expect(source).not.toMatch(/Showing|Next page|This is the last page/);
    }
  });
});

// A list tool declared as every list tool is (defineTool, rows, continuation), with a ToolResult made as the
// executor makes one: budgetedPair must give the text and the structured answer the same rows.
interface Things {
  readonly offset: number;
  readonly total: number;
  readonly things: readonly { id: number; name: string }[];
}
interface ThingsArgs {
  readonly offset: number;
}
const ThingsParams = params({}, { offset: described(intRange(0), 'Rows to skip.', 0) });
const thingsTool = defineTool<ThingsArgs, Things>({
  group: 'records',
  name: 'listThings',
  title: 'List things',
  description: 'Things, a page at a time.',
  annotations: { kind: 'Read', idempotent: true },
  params: ThingsParams,
  useCase: Symbol('ListThings'),
  rows: { key: 'things' },
  continuation: (p, r, shown) => (r.offset + shown < r.total ? { ...p, offset: r.offset + shown } : undefined),
  text: (r) => ({
    before: `## Things: ${r.total}`,
    position: `Showing ${r.offset + 1}-${r.offset + r.things.length} of ${r.total}.`,
    columns: ['id', 'name'],
    rows: r.things.map((x) => [x.id, x.name]),
  }),
});
const registered = new ToolRegistry([thingsTool]).get('records_listThings')!;

const resultOf = (result: Things, p: ThingsArgs = { offset: 0 }): Extract<ToolResult, { ok: true }> => ({
  ok: true,
  tool: registered,
  payload: result,
  text: () => thingsTool.text(result, p),
  presentation: () => thingsTool.present(result, p),
  next: (shown) => {
    const args = thingsTool.continuation!(p, result, shown);
    return args ? { tool: registered.name, arguments: args } : undefined;
  },
});

const things = (n: number, name = (i: number) => `thing number ${i} ${'w'.repeat(30)}`): Things => ({
  offset: 0,
  total: n + 10,
  things: Array.from({ length: n }, (_, i) => ({ id: 1000 + i, name: name(i) })),
});

const textIds = (text: string) => text.split('\n').flatMap((l) => /^\| (\d{4}) \|/.exec(l)?.[1] ?? []);

describe('text and structured answer of one call (budgetedPair)', () => {
  it.each([1000, 1500, 2500, 4000, 8000])('show the same rows at a budget of %i, and name the same call', (budget) => {
    // both budgets alike here: the JSON's decides (its rows are longer), and the text follows it
    const { text, payload } = budgetedPair(resultOf(things(120)), { text: budget, json: budget });
    const structured = payload as Things & { truncated?: { shown: number; next: { arguments: unknown } } };
    expect(text.length).toBeLessThanOrEqual(budget);
    expect(JSON.stringify(structured).length).toBeLessThanOrEqual(budget);
    expect(textIds(text)).toEqual(structured.things.map((x) => String(x.id)));
    expect(structured.truncated!.shown).toBe(structured.things.length);
    expect(text).toContain(`The rest: records_listThings ${JSON.stringify(structured.truncated!.next.arguments)}]`);
  });

  it('agree when the text is the shorter one (wide text rows, small payload rows)', () => {
    const wide = things(60, (i) => `${i}`.padEnd(200, '.'));
    const { text, payload } = budgetedPair(resultOf(wide), { text: 3000, json: 3000 });
    const structured = payload as Things;
    expect(textIds(text)).toEqual(structured.things.map((x) => String(x.id)));
  });

  it('give the whole page, position and all, when it fits', () => {
    const { text, payload } = budgetedPair(resultOf(things(3)));
    expect(text).toContain('Showing 1-3 of 13.');
    expect(payload).toEqual(things(3));
  });
});

describe("a list tool's presentation", () => {
  it('is the Page its presenter drew (rows as data), and its text that page rendered whole', () => {
    const result = resultOf(things(2));
    const presentation = result.presentation!();
    expect(typeof presentation).toBe('object');
    expect((presentation as Page).rows).toEqual([
      [1000, things(2).things[0]!.name],
      [1001, things(2).things[1]!.name],
    ]);
    // idempotent replays keep the text: the page rendered whole
    expect(result.text()).toBe(renderPage(presentation as Page));
  });
});

describe('list tools over the gateway', () => {
  const g = testGateway({}, { GATEWAY_OUTPUT_BUDGET_CHARS: '10000000' });
  it.each([
    ['records_listRecords', { app_id: 3001, limit: 60 }],
    ['records_filterRecords', { app_id: 3001, filters: [], limit: 60 }],
    [
      'records_aggregateRecords',
      { app_id: 3001, group_by: { field_id: 'property' }, aggregations: [{ field_id: 'score', operation: 'sum' }] },
    ],
    ['records_findRelatableRecords', { field_id: 300111, text: 'a' }],
    ['records_getApp', { app_id: 3001 }],
    ['crm_searchContacts', { limit: 50 }],
    ['crm_getProperties', {}],
    ['workspaces_getSpaceMembers', { space_id: 2001 }],
    ['files_getItem', { item_id: 'home', include_children: true }],
    ['files_searchItems', { query: 'a' }],
  ] as const)('%s is cut at whole rows, never by characters', async (tool, args) => {
    const whole = await g.callTool(tool, args, { principal: everyone });
    const cut = await g.callTool(tool, args, { principal: everyone, maxChars: 700 });
    const text = String(cut.body.success && cut.body.data);
    expect(text.length).toBeLessThanOrEqual(700);
    expect(text).toMatch(/\[Output budget of 700 characters reached: showing \d+ of \d+ rows of this answer\./);
    expect(text).not.toContain('[... cut:');
    // every row shown is a whole row of the uncut answer
    const wholeLines = new Set(String(whole.body.success && whole.body.data).split('\n'));
    const shown = text.split('\n').filter((l) => l.startsWith('| ') && !l.endsWith('…(cut) |'));
    expect(shown.length).toBeGreaterThan(1);
    for (const line of shown) expect(wholeLines.has(line), line).toBe(true);
  });
});
