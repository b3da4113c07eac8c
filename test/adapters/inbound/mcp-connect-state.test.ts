import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_META_KEY } from '../../../adapters/inbound/mcp/mcp-tools.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import type { Gateway } from '../../../composition/gateway.js';
import { type HubSpotServer } from '../../fakes/hubspot-server.js';
import { startHubSpotConnect, type HubSpotConnectWorld } from '../../support/hubspot-connect.js';
import { NOW } from '../../support/gateway.js';
import { MODERN_META, rpcBody } from './mcp-harness.js';

// Issue 43: the requestState of a 2026-07-28 connect elicitation ("tg-connect:...") is sealed and bound to the
// caller it was given to. Raw 2026-07-28 requests, as a hostile client might send them: the unsealed form of
// before, an altered one, one sent by another person of the workspace, an expired one: each refused plainly,
// and nothing waits or runs; the genuine one is taken.

const AGENT = 'token-acme-agent-0123456789';
const OTHER = 'token-acme-other-0123456789';

let hubspot: HubSpotServer;
let g: Gateway;
const clock = new FixedClock(NOW);

let world: HubSpotConnectWorld | undefined;
beforeAll(async () => {
  world = await startHubSpotConnect({
    prefix: 'mcp-connect-state',
    clock,
    keys: [
      { name: 'acme-agent', token: AGENT, permissions: ['crm:*'], tenant: 'acme' },
      { name: 'acme-other', token: OTHER, permissions: ['crm:*'], tenant: 'acme' },
    ],
  });
  ({ g, hubspot } = world);
});
afterAll(() => world?.close());

const URL_ELICITING = {
  ...MODERN_META,
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { url: {} } },
};

/** A raw 2026-07-28 crm_createContact from a client that can open a URL, with a retry's fields when given. */
const call = async (token: string, retry?: { requestState: string; action: 'accept' | 'decline' }) => {
  const res = await g.http.request('/mcp', {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'crm_createContact',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'crm_createContact',
        arguments: { values: { email: 'state@acme.example' } },
        _meta: URL_ELICITING,
        ...(retry ? { requestState: retry.requestState, inputResponses: { connect: { action: retry.action } } } : {}),
      },
    }),
  });
  expect(res.status).toBe(200);
  return (await rpcBody(res)).result;
};

const stateFor = async (token: string): Promise<string> => {
  const first = await call(token);
  expect(first.resultType).toBe('input_required');
  expect(first.inputRequests.connect.params.mode).toBe('url');
  return first.requestState as string;
};

const refusal = (result: any) => {
  expect(result.isError).toBe(true);
  return result._meta[ERROR_META_KEY] as { code: string; message: string };
};

const contactsMade = () => hubspot.requests.filter((r) => r.method === 'POST' && r.path.includes('contacts')).length;

describe('the connect requestState (2026-07-28)', () => {
  it('is sealed: it names no vendor in the clear, and the genuine one is taken', async () => {
    const state = await stateFor(AGENT);
    expect(state).toMatch(/^tg-connect:/);
    expect(state).not.toContain('hubspot');
    // Declined: the call answers as it stands (the link), at once.
    const declined = refusal(await call(AGENT, { requestState: state, action: 'decline' }));
    expect(declined.code).toBe('NOT_CONNECTED');
  });

  it('refuses the unsealed form and an altered one: nothing waits or runs', async () => {
    const before = contactsMade();
    const plain = refusal(await call(AGENT, { requestState: 'tg-connect:hubspot', action: 'accept' }));
    expect(plain.code).toBe('INVALID_PARAMETER');
    expect(plain.message).toContain('not issued by the gateway');
    const state = await stateFor(AGENT);
    const last = state.at(-2) === 'A' ? 'B' : 'A';
    const altered = refusal(
      await call(AGENT, { requestState: `${state.slice(0, -2)}${last}${state.at(-1)}`, action: 'accept' }),
    );
    expect(altered.code).toBe('INVALID_PARAMETER');
    expect(altered.message).toContain('not issued by the gateway');
    expect(contactsMade()).toBe(before);
  });

  it("refuses another caller's state (another person of the same workspace)", async () => {
    const state = await stateFor(AGENT);
    const crossed = refusal(await call(OTHER, { requestState: state, action: 'accept' }));
    expect(crossed.code).toBe('INVALID_PARAMETER');
    expect(crossed.message).toContain('issued to another caller');
  });

  it('refuses an expired state (past 15 minutes)', async () => {
    const state = await stateFor(AGENT);
    clock.advance(16 * 60 * 1000);
    const late = refusal(await call(AGENT, { requestState: state, action: 'accept' }));
    expect(late.code).toBe('INVALID_PARAMETER');
    expect(late.message).toContain('expired');
  });
});
