// Every list tool (a `rows` declaration in the registry) over data of a chosen size, in memory mode, and
// the two ways a client follows a cut answer: the structured answer alone, or the text alone.
// Shared by budget-continuations.property.test.ts and the 305-record scenario.
import { InMemoryPodioAccount } from '../../adapters/outbound/memory/in-memory-podio-account.js';
import { InMemoryRecords } from '../../adapters/outbound/memory/in-memory-records.js';
import { seedDemoRecords, type DemoRecordCounts } from '../../adapters/outbound/memory/demo/records.js';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import { budgetedPair } from '../../application/runtime/envelope.js';
import { TE } from '../../domain/shared/fp.js';
import { RecordApps } from '../../ports/record-apps.js';
import { RecordComments } from '../../ports/record-comments.js';
import { RecordStore } from '../../ports/record-store.js';
import { RecordsSettings } from '../../ports/records-settings.js';
import { everyone, NOW, testGateway } from '../support/gateway.js';

/** A gateway in memory mode whose records store holds `counts` demo records. */
export const recordsWorld = (counts: DemoRecordCounts, env: Record<string, string> = {}) => {
  const clock = new FixedClock(NOW);
  const store = new InMemoryRecords({ clock, account: InMemoryPodioAccount.withDemoData() });
  seedDemoRecords(store, counts);
  const g = testGateway(
    {
      clock,
      ports: [
        [RecordApps, store],
        [RecordStore, store],
        [RecordComments, store.commentsPort()],
        [RecordsSettings, { timeZone: 'UTC', activeProfileId: () => TE.right(9101) }],
      ],
    },
    { RATE_LIMIT_PER_MINUTE: '1000000', ...env },
  );
  const run = (tool: string, args: Record<string, unknown>) =>
    g.executor.run({ tool: g.executor.registry.get(tool)!, args, principal: everyone, requestId: 'world' });
  /** One call's whole payload (no budget), which must succeed. */
  const data = async (tool: string, args: Record<string, unknown>): Promise<any> => {
    const r = await run(tool, args);
    if (!r.ok) throw new Error(`${tool}: ${r.error.message}`);
    return r.payload;
  };
  return { g, run, data };
};
export type World = ReturnType<typeof recordsWorld>;

/**
 * One answer as an MCP client gets it, with the given text and JSON budgets: the text and structuredContent
 * (budgetedPair on the MCP surface, as toCallToolResult gives them).
 */
export const mcpAnswer = async (w: World, tool: string, args: Record<string, unknown>, text: number, json: number) => {
  const r = await w.run(tool, args);
  if (!r.ok) throw new Error(`${tool} ${JSON.stringify(args)}: ${r.error.message}`);
  const answer = budgetedPair(r, { text, json }, 'mcp');
  return { text: answer.text, data: answer.payload as any };
};

/** The first cells of the body rows of a text's largest table, without total rows (`**total**`). */
export const tableCells = (text: string): string[] => {
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
  return best.filter((c) => !c.startsWith('**'));
};

/** The call a text names for what follows: after "The rest:" (a cut page) or "Next page:" (the tool's own). */
export const textContinuation = (text: string): [string, Record<string, unknown>] | undefined => {
  const m = /(?:The rest: |Next page: )`?(\w+) (\{[^\n`]*\})/.exec(text);
  return m ? [m[1]!, JSON.parse(m[2]!) as Record<string, unknown>] : undefined;
};

type Args = Record<string, unknown>;
const offsetOf = (a: Args, key = 'offset') => Number(a[key] ?? 0);

/**
 * Where a tool without a cursor member pages by its own structured members (skip and has_more, offset and
 * total): the next call's arguments as a client computes them from the payload alone.
 */
export const OWN_PAGING: Readonly<Record<string, (d: any, a: Args) => Args | undefined>> = {
  files_listChildren: (d, a) => (d.has_more ? { ...a, skip: offsetOf(a, 'skip') + d.returned_count } : undefined),
  files_listShares: (d, a) => (d.has_more ? { ...a, skip: offsetOf(a, 'skip') + d.returned_count } : undefined),
  workspaces_getSpaceMembers: (d, a) =>
    d.offset + d.members.length < d.total ? { ...a, offset: d.offset + d.members.length } : undefined,
  crm_getProperties: (d, a) =>
    d.offset + d.properties.length < d.total ? { ...a, offset: d.offset + d.properties.length } : undefined,
  records_aggregateRecords: (d, a) =>
    d.groups && (d.offset ?? 0) + d.groups.length < (d.group_count ?? 0)
      ? { ...a, offset: (d.offset ?? 0) + d.groups.length }
      : undefined,
  records_getRelatedRecords: (d, a) =>
    offsetOf(a) + d.records.length < d.total ? { ...a, offset: offsetOf(a) + d.records.length } : undefined,
  records_findRelatableRecords: (d, a) =>
    offsetOf(a) + d.records.length < d.total ? { ...a, offset: offsetOf(a) + d.records.length } : undefined,
};

/** The ids of a payload's rows, by tool (what "every row exactly once" counts). */
export const ROW_IDS: Readonly<Record<string, (d: any) => string[]>> = {
  files_getItem: (d) => (d.Children ?? []).map((x: any) => String(x.Id)),
  files_listChildren: (d) => d.items.map((x: any) => String(x.Id)),
  files_listShares: (d) => d.shares.map((x: any) => String(x.Id ?? x.id)),
  records_listRecords: (d) => (d.records ?? []).map((r: any) => String(r.record_id)),
  records_filterRecords: (d) => (d.records ?? []).map((r: any) => String(r.record_id)),
  records_aggregateRecords: (d) => (d.groups ?? []).map((x: any) => JSON.stringify(x.group)),
  records_getRelatedRecords: (d) => d.records.map((r: any) => String(r.record_id)),
  records_findRelatableRecords: (d) => d.records.map((r: any) => String(r.record_id)),
  records_getRecordRevisions: (d) => d.revisions.map((r: any) => String(r.revision)),
  records_listRecordComments: (d) => d.comments.map((c: any) => String(c.comment_id)),
  records_batchCreateRecords: (d) => d.items.map((i: any) => String(i.index)),
  records_batchUpdateRecords: (d) => d.items.map((i: any) => String(i.index)),
  records_getBatchResults: (d) => d.items.map((i: any) => String(i.index)),
  workspaces_getSpaceMembers: (d) => d.members.map((m: any) => String(m.profile?.user_id ?? m.profile?.mail ?? m.mail)),
  crm_searchContacts: (d) => d.results.map((c: any) => String(c.id)),
  crm_getProperties: (d) => d.properties.map((p: any) => String(p.name)),
};

export interface Followed {
  /** Every row id seen, in order. */
  readonly ids: string[];
  readonly calls: number;
}

/**
 * Follows the structured answers alone: the payload's cursor member where the tool declares one (`cursor`,
 * `after`), else its own paging members (OWN_PAGING), else `truncated.next` (a list no parameter pages, or
 * one that another tool continues). `check` sees every answer.
 */
export const followStructured = async (
  w: World,
  first: [string, Args],
  budgets: { text: number; json: number },
  check: (tool: string, answer: { text: string; data: any }) => void = () => undefined,
): Promise<Followed> => {
  const ids: string[] = [];
  let call: [string, Args] | undefined = first;
  let calls = 0;
  for (; call && calls < 2000; calls++) {
    const tool: string = call[0];
    const args: Args = call[1];
    const answer = await mcpAnswer(w, tool, args, budgets.text, budgets.json);
    check(tool, answer);
    const d = answer.data;
    ids.push(...ROW_IDS[tool]!(d));
    const cursor: string | undefined = w.g.executor.registry.get(tool)!.declaration.rows?.cursor;
    const own = OWN_PAGING[tool];
    if (cursor) call = d[cursor] ? [tool, { ...args, [cursor]: d[cursor] }] : undefined;
    else if (own) {
      const next = own(d, args);
      call = next && [tool, next];
    } else call = d.truncated ? [d.truncated.next.tool, d.truncated.next.arguments] : undefined;
  }
  return { ids, calls };
};

/** Follows the text alone: the first cells of each answer's table, and the call it names for the rest. */
export const followText = async (
  w: World,
  first: [string, Args],
  budgets: { text: number; json: number },
): Promise<Followed> => {
  const ids: string[] = [];
  let call: [string, Args] | undefined = first;
  let calls = 0;
  for (; call && calls < 2000; calls++) {
    const answer = await mcpAnswer(w, call[0], call[1], budgets.text, budgets.json);
    ids.push(...tableCells(answer.text));
    call = textContinuation(answer.text);
  }
  return { ids, calls };
};
