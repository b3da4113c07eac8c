// Step 7 of the scale-out test (issue 39): a 2025-era approval answered through ANOTHER instance than the one
// holding the call, on both revisions that use the relay (2025-06-18 and 2025-11-25). The client's
// `tools/call` goes to instance 1, which asks the person (`elicitation/create` on the call's stream); the
// person's answer is posted to instance 2, which hands it to instance 1 through Redis; the delete then
// reaches HubSpot once. Then the same through haproxy balancing as the shipped deploy/haproxy.cfg does
// (least connections, its timeouts, no stick table): the call's open stream counts on its instance, so the
// answer goes to another one.

import type { HubSpotServer } from '../fakes/hubspot-server.js';
import {
  APPROVE,
  initializeEliciting,
  LEGACY_REVISIONS,
  postAnswer,
  startToolCall,
  type LegacyRevision,
} from '../support/legacy-mcp.js';

export interface ApprovalStep {
  readonly check: (ok: boolean, what: string, detail?: string) => void;
  readonly hubspot: HubSpotServer;
  /** An API key with crm:* on the tenant that connected HubSpot. */
  readonly token: string;
  /** Creates a contact through the gateway; its id. */
  readonly createContact: (email: string) => Promise<string>;
  readonly holder: string;
  readonly other: string;
  readonly balancer: string;
  readonly run: string;
}

const deletesOf = (hubspot: HubSpotServer, id: string) =>
  hubspot.requests.filter((r) => r.method === 'DELETE' && r.path.endsWith(`/contacts/${id}`)).length;

/** One approval: the call sent to `callAt`, the answer to `answerAt`; what the person saw, the answer's status, the result. */
const approveOnce = async (
  step: ApprovalStep,
  revision: LegacyRevision,
  callAt: string,
  answerAt: string,
  contactId: string,
) => {
  const session = await initializeEliciting(`${callAt}/mcp`, step.token, revision);
  const call = await startToolCall(`${callAt}/mcp`, session, 'crm_deleteContact', { contact_id: contactId });
  const ask = await call.nextNonNotification();
  if (ask?.method !== 'elicitation/create') {
    await call.cancel();
    return { asked: false, posted: 0, result: ask, session };
  }
  const posted = await postAnswer(`${answerAt}/mcp`, session, ask.id, APPROVE);
  const result = await call.nextNonNotification();
  return { asked: true, posted: posted.status, result, session };
};

export const approvalsAcrossInstances = async (step: ApprovalStep): Promise<void> => {
  const { check, hubspot } = step;
  for (const revision of LEGACY_REVISIONS) {
    const id = await step.createContact(`approve-${revision}-${step.run}@example.com`);
    const done = await approveOnce(step, revision, step.holder, step.other, id);
    check(
      done.session.sessionId.startsWith('tg-elicit.'),
      `${revision}: a client declaring elicitation is told it can be asked`,
    );
    check(
      done.asked,
      `${revision}: instance 1 asks the person (elicitation/create)`,
      done.asked ? '' : JSON.stringify(done.result).slice(0, 200),
    );
    check(done.posted === 202, `${revision}: the answer posted to instance 2 is taken`, String(done.posted));
    check(
      done.result?.result !== undefined && done.result.result.isError !== true,
      `${revision}: the call held by instance 1 runs with the answer given through instance 2`,
      done.result?.result?.isError === true ? JSON.stringify(done.result).slice(0, 200) : '',
    );
    check(deletesOf(hubspot, id) === 1, `${revision}: HubSpot saw the delete once`, String(deletesOf(hubspot, id)));
  }
  // Through the balancer as shipped: no stickiness; with least connections the answer lands elsewhere.
  const throughBalancer = [];
  for (let i = 0; i < 3; i++) {
    const id = await step.createContact(`approve-lb-${i}-${step.run}@example.com`);
    const done = await approveOnce(step, '2025-11-25', step.balancer, step.balancer, id);
    throughBalancer.push(done.posted === 202 && done.result?.result?.isError !== true && deletesOf(hubspot, id) === 1);
  }
  check(
    throughBalancer.every(Boolean),
    'approvals through haproxy as shipped (leastconn, no stick table) all run',
    throughBalancer.map((ok) => (ok ? 'ok' : 'failed')).join(', '),
  );
};
