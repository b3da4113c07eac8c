// The sequence every client of the matrix runs, as an agent host does: connect and list the tools, then a
// success, a tool error, a bad argument and an unknown tool, each judged by what a model would be given.

import { line, STEP_TIMEOUT_MS, withTimeout } from './report.js';

/** What a client made of a tools/call: a result (maybe isError) or a thrown error. */
export type Outcome = { kind: 'result'; isError: boolean; text: string } | { kind: 'thrown'; message: string };

export interface Session {
  list(): Promise<string[]>;
  call(name: string, args: Record<string, unknown>): Promise<Outcome>;
  close(): Promise<void>;
}

const textOf = (result: any): string =>
  ((result?.content ?? []) as { type: string; text?: string }[])
    .filter((b) => b.type === 'text')
    .map((b) => b.text ?? '')
    .join('\n');

export const outcomeOf = (p: Promise<any>): Promise<Outcome> =>
  p.then(
    (result) => ({ kind: 'result', isError: result?.isError === true, text: textOf(result) }),
    (e: unknown) => ({ kind: 'thrown', message: e instanceof Error ? e.message : String(e) }),
  );

const describeOutcome = (o: Outcome) =>
  o.kind === 'thrown' ? `threw: ${o.message}` : `${o.isError ? 'isError result' : 'result'}: ${o.text}`;

interface Check {
  step: string;
  tool: string;
  args: Record<string, unknown>;
  /** Undefined when the outcome is what a model should get; otherwise why not. */
  judge(o: Outcome): string | undefined;
}

const UNKNOWN_TOOL = 'crm_getContacts';

const CHECKS: readonly Check[] = [
  {
    step: 'success',
    tool: 'crm_getContact',
    args: { contact_id: '101' },
    judge: (o) =>
      o.kind === 'result' && !o.isError && o.text.includes('Maria Alvarez')
        ? undefined
        : 'expected a result whose text names Maria Alvarez',
  },
  {
    step: 'tool error',
    tool: 'crm_getContact',
    args: { contact_id: '999999' },
    judge: (o) =>
      o.kind === 'result' && o.isError && o.text.includes('NOT_FOUND') && o.text.includes('No contact with id 999999')
        ? undefined
        : 'expected an isError result carrying the NOT_FOUND message',
  },
  {
    step: 'bad argument',
    tool: 'crm_getContact',
    args: { contact_id: true },
    judge: (o) =>
      o.kind === 'result' && o.isError && o.text.includes('INVALID_PARAMETER') && o.text.includes('contact_id')
        ? undefined
        : 'expected an isError result carrying the INVALID_PARAMETER message naming contact_id',
  },
  {
    step: 'unknown tool',
    tool: UNKNOWN_TOOL,
    args: { contact_id: '101' },
    judge: (o) =>
      (o.kind === 'thrown' ? o.message : o.isError ? o.text : '').includes(UNKNOWN_TOOL)
        ? undefined
        : `expected an error naming ${UNKNOWN_TOOL}`,
  },
];

/** Connects, lists, runs every check; one line each. A client that cannot connect fails every step. */
export const runClient = async (client: string, open: () => Promise<Session>) => {
  let session: Session | undefined;
  let t = Date.now();
  try {
    session = await withTimeout(open(), STEP_TIMEOUT_MS, 'connect');
    const names = await withTimeout(session.list(), STEP_TIMEOUT_MS, 'tools/list');
    if (names.includes('crm_getContact')) line('PASS', client, 'tools/list', `${names.length} tools`, Date.now() - t);
    else line('FAIL', client, 'tools/list', `crm_getContact not listed (${names.length} tools)`, Date.now() - t);
  } catch (e) {
    line('FAIL', client, 'tools/list', `could not connect and list: ${(e as Error).message}`, Date.now() - t);
    for (const c of CHECKS) line('FAIL', client, c.step, 'not run: the client did not connect');
    await session?.close().catch(() => undefined);
    return;
  }
  for (const c of CHECKS) {
    t = Date.now();
    const o = await withTimeout(session.call(c.tool, c.args), STEP_TIMEOUT_MS, c.step).catch((e: Error): Outcome => ({
      kind: 'thrown',
      message: e.message,
    }));
    const problem = c.judge(o);
    line(
      problem ? 'FAIL' : 'PASS',
      client,
      c.step,
      `${problem ? `${problem}; ` : ''}${describeOutcome(o)}`,
      Date.now() - t,
    );
  }
  await session.close().catch(() => undefined);
};
