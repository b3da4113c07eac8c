import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_META_KEY } from '../../../adapters/inbound/mcp/mcp-tools.js';
import { DEMO_TOKEN, request } from '../../support/gateway.js';
import { CLIENT_KINDS, MODERN_META, mcpHarness, rpcBody } from './mcp-harness.js';

// The approval's requestState as a hostile client might send it back (raw 2026-07-28 requests): once only,
// for exactly the call it was issued for, unaltered, and within its 5 minutes. Then the tenant setting
// `required` against clients that cannot ask a person, and the wording REST gets.
const h = mcpHarness({
  GATEWAY_CONFIRM_DESTRUCTIVE: 'true',
  GATEWAY_CONFIRM_SECRET: 'a-confirm-secret-of-at-least-32-characters',
});
beforeAll(h.start);
afterAll(h.stop);

const ELICITING = {
  ...MODERN_META,
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};

/** A raw 2026-07-28 tools/call from a client that can ask a person, with the retry's fields when given. */
const call = async (args: Record<string, unknown>, retry?: { requestState: string; approve: boolean }) => {
  const res = await h.rpc(
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'crm_deleteContact',
        arguments: args,
        _meta: ELICITING,
        ...(retry
          ? {
              requestState: retry.requestState,
              inputResponses: { approval: { action: 'accept', content: { approve: retry.approve } } },
            }
          : {}),
      },
    },
    { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'crm_deleteContact' },
  );
  expect(res.status).toBe(200);
  return (await rpcBody(res)).result;
};

const ask = async (contact: string) => {
  const first = await call({ contact_id: contact });
  expect(first.resultType).toBe('input_required');
  expect(first.inputRequests.approval.method).toBe('elicitation/create');
  expect(first.inputRequests.approval.params.message).toContain(`archive contact ${contact}`);
  expect(typeof first.requestState).toBe('string');
  return first.requestState as string;
};

const exists = async (id: string) =>
  (await request(h.gateway, 'POST', '/v1/tools/crm/getContact', { body: { contact_id: id } })).status === 200;

const refusal = (result: any) => {
  expect(result.isError).toBe(true);
  return result._meta[ERROR_META_KEY] as { code: string; message: string };
};

describe('the approval state (requestState)', () => {
  it('runs the approved call once; the same state replayed is refused', async () => {
    const state = await ask('101');
    expect(await exists('101')).toBe(true);
    const done = await call({ contact_id: '101' }, { requestState: state, approve: true });
    expect(done.isError).not.toBe(true);
    expect(await exists('101')).toBe(false);
    const again = refusal(await call({ contact_id: '101' }, { requestState: state, approve: true }));
    expect(again.code).toBe('INVALID_APPROVAL');
    expect(again.message).toContain('already used');
  });

  it('refuses a state issued for other arguments, and a tampered one', async () => {
    const state = await ask('102');
    const other = refusal(await call({ contact_id: '103' }, { requestState: state, approve: true }));
    expect(other.code).toBe('INVALID_APPROVAL');
    expect(other.message).toContain('issued for another call');
    const last = state.at(-1) === 'A' ? 'B' : 'A';
    const tampered = refusal(
      await call({ contact_id: '102' }, { requestState: state.slice(0, -1) + last, approve: true }),
    );
    expect(tampered.code).toBe('INVALID_APPROVAL');
    const forged = refusal(await call({ contact_id: '102' }, { requestState: 'not-a-state', approve: true }));
    expect(forged.code).toBe('INVALID_APPROVAL');
    // A confirm token (the model's) is not a person's approval, nor the reverse.
    const dry = await h.gateway.callTool(
      'crm_deleteContact',
      { contact_id: '102', dry_run: true },
      {
        principal: { id: 'demo', name: 'demo', tenant: 'default', permissions: new Set(['*']) } as any,
        format: 'json',
      },
    );
    const confirmToken = (dry.body as any).data.confirm_token as string;
    expect(confirmToken).toMatch(/^\d+\./);
    const crossed = refusal(await call({ contact_id: '102' }, { requestState: confirmToken, approve: true }));
    expect(crossed.code).toBe('INVALID_APPROVAL');
    expect(await exists('102')).toBe(true);
    expect(await exists('103')).toBe(true);
  });

  it('refuses an expired state', async () => {
    const state = await ask('104');
    h.gateway.clock.advance(301_000);
    const late = refusal(await call({ contact_id: '104' }, { requestState: state, approve: true }));
    expect(late.code).toBe('INVALID_APPROVAL');
    expect(late.message).toContain('expired');
    expect(await exists('104')).toBe(true);
  });

  it('a declined answer uses the state up and changes nothing', async () => {
    const state = await ask('105');
    const no = refusal(await call({ contact_id: '105' }, { requestState: state, approve: false }));
    expect(no.code).toBe('APPROVAL_DECLINED');
    const yes = refusal(await call({ contact_id: '105' }, { requestState: state, approve: true }));
    expect(yes.code).toBe('INVALID_APPROVAL');
    expect(await exists('105')).toBe(true);
  });
});

describe('REST, which cannot ask a person', () => {
  it('says the confirmation is the model’s, and the audit log says model', async () => {
    const first = await request(h.gateway, 'POST', '/v1/tools/crm/deleteContact', { body: { contact_id: '106' } });
    expect(first.status).toBe(428);
    expect(first.body.error.code).toBe('CONFIRMATION_REQUIRED');
    expect(first.body.error.message).toContain('cannot ask a person');
    expect(first.body.error.message).toContain("the confirmation is yours (the model's), not a person's");
    const token = first.body.error.details.confirm_token;
    const done = await request(h.gateway, 'POST', '/v1/tools/crm/deleteContact', {
      body: { contact_id: '106', confirm_token: token },
    });
    expect(done.status).toBe(200);
    expect(done.raw).toContain('Confirmed by the model (a confirm token), not by a person');
    const skip = await request(h.gateway, 'POST', '/v1/tools/skiptrace/skipTraceProperty', {
      body: { street: '1011 Rosegold St', zip: '11010', purpose: 'rest approval test' },
    });
    expect(skip.status).toBe(200);
    const rows = (await request(h.gateway, 'GET', '/v1/audit')).body.data.entries as any[];
    expect(rows.find((r) => r.tool === 'crm_deleteContact' && r.targets.includes('106'))?.approver).toBe('model');
    expect(rows.find((r) => r.purpose === 'rest approval test')?.approver).toBe('nobody');
    // Asking a person is not an audited event (as a dry run is not); the calls that followed are.
    expect(rows.some((r) => r.code === 'APPROVAL_REQUIRED')).toBe(false);
  });
});

describe('human_approval: required', () => {
  const strict = mcpHarness({ HUMAN_APPROVAL: 'required' });
  beforeAll(strict.start);
  afterAll(strict.stop);

  it.each(CLIENT_KINDS)('refuses a client that cannot ask a person (%s), and says why', async (kind) => {
    const client = await strict.connect(kind);
    const refused = await client.callTool({ name: 'crm_deleteContact', arguments: { contact_id: '107' } });
    expect(refused.isError).toBe(true);
    expect(refused._meta[ERROR_META_KEY].code).toBe('HUMAN_APPROVAL_REQUIRED');
    expect(refused.content[0].text).toContain('requires a person to approve');
    expect(refused.content[0].text).toContain('elicitation');
    const skip = await client.callTool({
      name: 'skiptrace_skipTraceProperty',
      arguments: { street: '1011 Rosegold St', zip: '11010' },
    });
    expect(skip._meta[ERROR_META_KEY].code).toBe('HUMAN_APPROVAL_REQUIRED');
    // A dry run changes nothing and is still answered.
    const dry = await client.callTool({ name: 'crm_deleteContact', arguments: { contact_id: '107', dry_run: true } });
    expect(dry.isError).not.toBe(true);
    // ... and offers no confirm-token route the workspace would refuse (issue 41)
    expect(dry.content[0].text).not.toContain('confirm_token');
    expect(dry.content[0].text).toContain('requires a person to approve');
    expect(dry.structuredContent).toMatchObject({ dry_run: true, human_approval: 'required' });
    expect(dry.structuredContent).not.toHaveProperty('confirm_token');
  });

  it('refuses REST with 403 HUMAN_APPROVAL_REQUIRED, and audits the refusal with approver nobody', async () => {
    const res = await request(strict.gateway, 'POST', '/v1/tools/crm/deleteContact', {
      body: { contact_id: '107' },
      token: DEMO_TOKEN,
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('HUMAN_APPROVAL_REQUIRED');
    const rows = (await request(strict.gateway, 'GET', '/v1/audit')).body.data.entries as any[];
    expect(rows[0]).toMatchObject({ tool: 'crm_deleteContact', code: 'HUMAN_APPROVAL_REQUIRED', approver: 'nobody' });
  });
});
