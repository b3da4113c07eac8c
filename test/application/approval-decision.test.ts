import { describe, expect, it } from 'vitest';
import { decideApproval, type ApprovalDecision } from '../../application/runtime/approval.js';
import { approvalError, type ApprovalOutcome } from '../../application/runtime/approval-outcomes.js';
import type { DestructiveGate, PersonChannel } from '../../application/runtime/executor-types.js';
import { observedStatus } from '../../ports/call-observer.js';
import type { HumanApproval } from '../../ports/tenant-settings.js';
import { everyone, testGateway } from '../support/gateway.js';

// Approval as one typed path (issue 39): decideApproval answers who approves a call and how; the executor
// answers a person's approval to ask as a ToolResult variant (`awaiting: 'approval'`), not as an error; and
// how an approval ended is a tagged union worded once (approvalError).

const g = testGateway({}, { GATEWAY_CONFIRM_DESTRUCTIVE: 'true' });
const tool = (name: string) => g.executor.registry.get(name)!;
const destructive = tool('crm_deleteContact');
const billed = tool('skiptrace_skipTraceProperty');
const read = tool('crm_getContact');
// decideApproval only asks whether the gateway has tokens; nothing here is called.
const gate = {} as DestructiveGate;

const who = (d: ApprovalDecision): string =>
  d.by === 'person' ? `person:${d.step}` : d.by === 'dry-run' ? `dry-run>${who(d.then)}` : d.by;

const decide = (
  t: typeof destructive,
  mode: HumanApproval,
  person: PersonChannel | undefined,
  controls: { dryRun: boolean; confirmToken?: string } | undefined,
  tokens = true,
) => who(decideApproval({ tool: t, mode, person, controls, gate: tokens ? gate : undefined }));

const ASK: PersonChannel = {};
const ANSWER: PersonChannel = { answer: { token: 't', approved: true } };
const PLAIN = { dryRun: false };
const DRY = { dryRun: true };

describe('decideApproval: who approves a call, and how', () => {
  it('a read needs nobody, whatever the setting or the client', () => {
    for (const mode of ['off', 'when_possible', 'required'] as const)
      expect(decide(read, mode, ASK, undefined)).toBe('none');
  });

  it.each([
    // tool, mode, client, controls, gateway has tokens -> who
    ['destructive', 'when_possible', ASK, PLAIN, true, 'person:ask'],
    ['destructive', 'when_possible', ANSWER, PLAIN, true, 'person:answer'],
    ['destructive', 'when_possible', undefined, PLAIN, true, 'confirm-token'],
    ['destructive', 'required', ASK, PLAIN, true, 'person:ask'],
    ['destructive', 'required', undefined, PLAIN, true, 'refused'],
    ['destructive', 'off', ASK, PLAIN, true, 'confirm-token'],
    ['destructive', 'when_possible', ASK, PLAIN, false, 'nobody'],
    ['destructive', 'when_possible', ASK, DRY, true, 'dry-run>person:ask'],
    ['destructive', 'required', undefined, DRY, true, 'dry-run>refused'],
    ['destructive', 'off', ASK, DRY, true, 'dry-run>confirm-token'],
    ['billed', 'when_possible', ASK, undefined, true, 'person:ask'],
    ['billed', 'when_possible', undefined, undefined, true, 'nobody'],
    ['billed', 'required', undefined, undefined, true, 'refused'],
    ['billed', 'off', ASK, undefined, true, 'nobody'],
  ] as const)('%s, %s, client %j, controls %j, tokens %s: %s', (kind, mode, person, controls, tokens, expected) => {
    expect(decide(kind === 'destructive' ? destructive : billed, mode, person, controls, tokens)).toBe(expected);
  });
});

describe('the executor answers a person to ask as a typed variant', () => {
  const run = (person: PersonChannel | undefined, args: Record<string, unknown> = { contact_id: '105' }) =>
    g.executor.run({ tool: destructive, args, principal: everyone, requestId: 'approval-decision', person });

  it('asks with the preview and a token, and nothing ran', async () => {
    const first = await run({});
    expect(first.ok).toBe(false);
    if (first.awaiting !== 'approval') throw new Error('expected a person to be asked');
    expect(first.tool.name).toBe('crm_deleteContact');
    expect(first.ask.would).toContain('archive contact 105');
    expect(first.ask.reason).toBe('it deletes data');
    expect(first.ask.token).toMatch(/^\d+\.[\w-]+\.[\w-]+$/);
    expect(first.ask.expiresInSeconds).toBe(300);
    expect('error' in first).toBe(false);
    // the contact is still there
    const still = await g.executor.run({
      tool: read,
      args: { contact_id: '105' },
      principal: everyone,
      requestId: 'approval-decision',
    });
    expect(still.ok).toBe(true);
  });

  it('a declined answer, and a token for other arguments, end as their own outcomes', async () => {
    const first = await run({});
    if (first.awaiting !== 'approval') throw new Error('expected a person to be asked');
    const declined = await run({ answer: { token: first.ask.token, approved: false } });
    expect(!declined.ok && !declined.awaiting && declined.error.code).toBe('APPROVAL_DECLINED');
    const other = await run({ answer: { token: first.ask.token, approved: true } }, { contact_id: '104' });
    expect(!other.ok && !other.awaiting && other.error.message).toContain('was issued for another call');
    const used = await run({ answer: { token: first.ask.token, approved: true } });
    expect(!used.ok && !used.awaiting && used.error.message).toContain('was already used');
  });

  it('a client that cannot ask a person gets no approval variant (the confirm flow)', async () => {
    const answer = await run(undefined);
    expect(answer.awaiting).toBeUndefined();
    expect(!answer.ok && !answer.awaiting && answer.error.code).toBe('CONFIRMATION_REQUIRED');
  });

  it('a dry run says what comes next by the decision: with approval off, a client that asks is not asked', async () => {
    const off = testGateway({}, { GATEWAY_CONFIRM_DESTRUCTIVE: 'true', HUMAN_APPROVAL: 'off' });
    const dry = (gw: typeof g) =>
      gw.executor.run({
        tool: destructive,
        args: { contact_id: '104', dry_run: true },
        principal: everyone,
        requestId: 'approval-decision',
        person: {},
      });
    const offDry = await dry(off);
    if (!offDry.ok) throw new Error('expected a dry run');
    expect(offDry.text()).toContain('"confirm_token"');
    expect(offDry.text()).not.toContain('ask a person');
    const onDry = await dry(g);
    if (!onDry.ok) throw new Error('expected a dry run');
    expect(onDry.text()).toContain('your client will ask a person to approve it');
  });
});

describe('how an approval ended, worded once', () => {
  it.each([
    [{ kind: 'declined' }, 403, 'APPROVAL_DECLINED'],
    [{ kind: 'expired' }, 400, 'INVALID_APPROVAL'],
    [{ kind: 'refused-token', why: 'used' }, 400, 'INVALID_APPROVAL'],
    [{ kind: 'unverifiable' }, 503, 'UNAVAILABLE'],
    [{ kind: 'cannot-ask', gatedBy: 'billed' }, 403, 'HUMAN_APPROVAL_REQUIRED'],
    [{ kind: 'unanswered', why: { kind: 'timeout', waitMs: 2000, answersLost: false } }, 504, 'TIMEOUT'],
    [{ kind: 'unanswered', why: { kind: 'relay-unavailable', retryAfterSeconds: 5 } }, 503, 'UNAVAILABLE'],
    [
      { kind: 'unanswered', why: { kind: 'too-many-waiting', scope: 'tenant', limit: 3, retryAfterSeconds: 7 } },
      503,
      'UNAVAILABLE',
    ],
    [{ kind: 'unanswered', why: { kind: 'client-failed', detail: 'boom' } }, 502, 'UPSTREAM_ERROR'],
  ] as const)('%j: %i %s', (outcome, status, code) => {
    const e = approvalError('crm_deleteContact', outcome as Exclude<ApprovalOutcome, { kind: 'approved' }>);
    expect([e.status, e.code]).toEqual([status, code]);
    expect(e.message).toMatch(/[Nn]othing (was|has) changed|A person declined/);
  });

  it('says which bound refused and when to retry', () => {
    const e = approvalError('crm_deleteContact', {
      kind: 'unanswered',
      why: { kind: 'too-many-waiting', scope: 'tenant', limit: 3, retryAfterSeconds: 7 },
    });
    expect(e.message).toContain('your workspace has 3 of 3 approvals waiting');
    expect(e.details).toMatchObject({ retry_after_seconds: 7, scope: 'tenant', limit: 3 });
  });
});

describe('logs and metrics see a person asked as 428, as before', () => {
  it('observedStatus', () => {
    expect(observedStatus({ ok: false, awaiting: 'approval' })).toEqual({ status: 428, code: 'APPROVAL_REQUIRED' });
    expect(observedStatus({ ok: true })).toEqual({ status: 200 });
    expect(observedStatus({ ok: false, error: { status: 404, code: 'NOT_FOUND' } })).toEqual({
      status: 404,
      code: 'NOT_FOUND',
    });
  });
});
