// The matrix's step-up run (issue 37): a client with no token signs in through the gateway's own
// authorization server with the scopes of the first 401 challenge (the read scopes), sees the read tools
// only, then creates a contact (a write: 403 insufficient_scope, the person consents to crm:write, the
// call goes through), sees the write tools listed, and deletes that contact (crm:destructive, consented the
// same way). One line per client and step.

import { line, STEP_TIMEOUT_MS, withTimeout } from './report.js';
import type { Outcome, Session } from './sequence.js';

/** What a step-up run may also tell about its client (the SDK hosts know these; mcp-remote does not say). */
export interface StepUpSession extends Session {
  readonly registeredWith?: readonly (string | undefined)[];
  readonly signIns?: () => number;
  readonly tokenScope?: () => string | undefined;
  readonly hostStepUps?: () => number;
}

const WRITE = 'crm_createContact';

/** The held token's scope, where the client tells it. */
const scopeOf = (session: StepUpSession) => {
  const scope = session.tokenScope?.();
  return scope ? `; token scope "${scope}"` : '';
};
const DELETE = 'crm_deleteContact';

const describe = (o: Outcome) =>
  o.kind === 'thrown' ? `threw: ${o.message}` : `${o.isError ? 'isError: ' : ''}${o.text}`;

/**
 * A call as a person at a host would see it through: mcp-remote answers the call that needed a new sign-in
 * with an error while it sends the person to the browser, and a person asks again; the SDK hosts retry by
 * themselves, so a second try only happens when the first did not succeed.
 */
const callUntilDone = async (session: StepUpSession, name: string, args: Record<string, unknown>) => {
  let o = await withTimeout(session.call(name, args), STEP_TIMEOUT_MS * 2, name);
  for (let retry = 0; retry < 3 && (o.kind === 'thrown' || o.isError); retry++) {
    await new Promise((ok) => setTimeout(ok, 2000));
    o = await withTimeout(session.call(name, args), STEP_TIMEOUT_MS * 2, name);
  }
  return o;
};

export const runStepUp = async (client: string, open: () => Promise<StepUpSession>) => {
  const steps = ['sign in', 'reads only', 'write', 'writes listed', 'destructive'];
  let t = Date.now();
  let session: StepUpSession;
  try {
    session = await withTimeout(open(), STEP_TIMEOUT_MS * 2, 'connect');
  } catch (e) {
    line('FAIL', client, 'sign in', `could not connect: ${(e as Error).message}`, Date.now() - t);
    for (const s of steps.slice(1)) line('FAIL', client, s, 'not run: the client did not connect');
    return;
  }
  try {
    const registered = session.registeredWith?.length ? `registered with "${session.registeredWith.join('", "')}"` : '';
    line('PASS', client, 'sign in', `${registered || 'signed in'}${scopeOf(session)}`, Date.now() - t);

    t = Date.now();
    const first = await withTimeout(session.list(), STEP_TIMEOUT_MS, 'tools/list');
    const readsOnly = first.includes('crm_getContact') && !first.includes(WRITE) && !first.includes(DELETE);
    line(
      readsOnly ? 'PASS' : 'FAIL',
      client,
      'reads only',
      `${first.length} tools, ${WRITE} ${first.includes(WRITE) ? 'listed' : 'not listed'}`,
      Date.now() - t,
    );

    t = Date.now();
    const email = `step-up-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const created = await callUntilDone(session, WRITE, { values: { email, firstname: 'Step' } });
    const id = created.kind === 'result' && !created.isError ? /contact (\d+)/i.exec(created.text)?.[1] : undefined;
    line(id ? 'PASS' : 'FAIL', client, 'write', `${describe(created)}${scopeOf(session)}`, Date.now() - t);

    t = Date.now();
    const after = await withTimeout(session.list(), STEP_TIMEOUT_MS, 'tools/list');
    line(
      after.includes(WRITE) ? 'PASS' : 'FAIL',
      client,
      'writes listed',
      `${after.length} tools, ${WRITE} ${after.includes(WRITE) ? 'listed' : 'not listed'}`,
      Date.now() - t,
    );

    t = Date.now();
    if (!id) {
      line('FAIL', client, 'destructive', 'not run: no contact was created');
    } else {
      const deleted = await callUntilDone(session, DELETE, { contact_id: id });
      const ok = deleted.kind === 'result' && !deleted.isError;
      const gone = await withTimeout(session.call('crm_getContact', { contact_id: id }), STEP_TIMEOUT_MS, 'read back');
      const confirmed = gone.kind === 'result' && gone.isError && gone.text.includes('NOT_FOUND');
      line(
        ok && confirmed ? 'PASS' : 'FAIL',
        client,
        'destructive',
        `${describe(deleted)}; read back: ${describe(gone)}${session.signIns ? `; ${session.signIns()} sign-ins` : ''}${session.hostStepUps?.() ? ` (${session.hostStepUps()} started by the host: the SDK refreshes instead)` : ''}`,
        Date.now() - t,
      );
    }
  } catch (e) {
    line('FAIL', client, 'step-up', (e as Error).message, Date.now() - t);
  } finally {
    await session.close().catch(() => undefined);
  }
};
