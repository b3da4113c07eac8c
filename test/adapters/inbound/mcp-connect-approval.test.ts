import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitationCompleteNotificationSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import type { Gateway } from '../../../composition/gateway.js';
import { HUBSPOT_TEST_TOKEN, type HubSpotServer } from '../../fakes/hubspot-server.js';
import { connectAsPerson, startHubSpotConnect, type HubSpotConnectWorld } from '../../support/hubspot-connect.js';
import { NOW, request } from '../../support/gateway.js';

// Issue 43: a call that needs both a person's approval and a connection (crm_deleteContact, not yet connected)
// asks its person to connect first and to approve once, after connecting: never to approve, then connect,
// then approve again. The official clients on both revisions, declaring form and URL elicitation.

const AGENT = 'token-acme-agent-0123456789';
/** A key of the default tenant, whose HubSpot is the environment's (to make the contact to delete). */
const SEEDER = 'token-default-seed-0123456789';

let hubspot: HubSpotServer;
let g: Gateway;
let base = '';
const clock = new FixedClock(NOW);

let world: HubSpotConnectWorld | undefined;
beforeAll(async () => {
  world = await startHubSpotConnect({
    prefix: 'mcp-connect-approval',
    clock,
    keys: [
      { name: 'acme-agent', token: AGENT, permissions: ['crm:*'], tenant: 'acme' },
      { name: 'default-seed', token: SEEDER, permissions: ['crm:*'], tenant: 'default' },
    ],
    env: () => ({ HUBSPOT_ACCESS_TOKEN: HUBSPOT_TEST_TOKEN, HUBSPOT_APP_URL: 'https://app.hubspot.example' }),
    listen: true,
  });
  ({ g, hubspot, base } = world);
});
afterAll(() => world?.close());

/** The person: opens the URL, signs in to the gateway with `key`, approves at HubSpot, lands on the callback. */
const followUrl = (url: string, key: string): Promise<number> => connectAsPerson(g, hubspot, url, key);

const disconnect = () =>
  g.http.request('/v1/connections/hubspot?scope=user', {
    method: 'DELETE',
    headers: { authorization: `Bearer ${AGENT}` },
  });

interface Asked {
  readonly mode?: string;
  readonly url?: string;
  readonly message?: string;
}

type Kind = 'v2 client, 2026-07-28' | 'v2 client, 2025-11-25' | 'v1 client, 2025-11-25';
const KINDS: readonly Kind[] = ['v2 client, 2026-07-28', 'v2 client, 2025-11-25', 'v1 client, 2025-11-25'];

/**
 * A client of `kind` declaring form and URL elicitation; its person follows a URL (connects) and approves
 * every approval form. `asked` lists what the person was asked, in order.
 */
const connect = async (kind: Kind, beforeApproving?: () => Promise<unknown>) => {
  const asked: Asked[] = [];
  let person: Promise<number> | undefined;
  const onAsk = async (params: Asked): Promise<{ action: 'accept'; content?: { approve: boolean } }> => {
    asked.push(params);
    if (params.mode === 'url' && params.url) {
      person = followUrl(params.url, AGENT);
      return { action: 'accept' };
    }
    await beforeApproving?.();
    return { action: 'accept', content: { approve: true } };
  };
  const requestInit = { headers: { authorization: `Bearer ${AGENT}` } };
  const url = new URL(`${base}/mcp`);
  const capabilities = { elicitation: { form: {}, url: {} } };
  if (kind === 'v1 client, 2025-11-25') {
    const client = new V1Client({ name: 'connect-approval-v1', version: '1.0.0' }, { capabilities });
    client.setRequestHandler(ElicitRequestSchema, (req) => onAsk(req.params as Asked) as never);
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, () => undefined);
    await client.connect(new V1Transport(url, { requestInit }));
    return {
      asked,
      person: () => person,
      call: (args: Record<string, unknown>) => client.callTool({ name: 'crm_deleteContact', arguments: args }),
      close: () => client.close(),
    };
  }
  const client = new Client(
    { name: 'connect-approval-v2', version: '1.0.0' },
    {
      capabilities,
      ...(kind === 'v2 client, 2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  client.setRequestHandler('elicitation/create', async (req: any) => onAsk(req.params));
  client.setNotificationHandler('notifications/elicitation/complete', () => undefined);
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit }));
  return {
    asked,
    person: () => person,
    call: (args: Record<string, unknown>) =>
      client.callTool({ name: 'crm_deleteContact', arguments: args }) as Promise<any>,
    close: () => client.close(),
  };
};

/** A contact at the HubSpot stand-in, made through the environment's connection of the default tenant. */
const contactToDelete = async (email: string): Promise<string> => {
  const made = await request(g, 'POST', '/v1/tools/crm/createContact', { body: { values: { email } }, token: SEEDER });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const id = /Created contact (\d+)\./.exec(String(made.body.data))?.[1];
  expect(id).toBeDefined();
  return id!;
};

describe.each(KINDS)('a gated call that also needs a connection (%s)', (kind) => {
  // The approval's preview reads the contact on the caller's connection, so a call that lacks one asks to
  // connect before anything is approved.
  it('asks to connect first, then to approve once, and the call runs', async () => {
    const id = await contactToDelete(`delete-${kind.replace(/\W+/g, '-')}@acme.example`);
    const c = await connect(kind);
    try {
      const result: any = await c.call({ contact_id: id });
      expect(result.isError, JSON.stringify(result)).not.toBe(true);
      expect(await c.person()).toBe(200);
      // Connect (a URL), then one approval (a form): not approve, connect, approve again.
      expect(c.asked.map((a) => a.mode ?? 'form')).toEqual(['url', 'form']);
      expect(c.asked[1]!.message).toContain(`archive contact ${id}`);
      const archived = hubspot.requests.filter((r) => r.method === 'DELETE' && r.path.includes(id));
      expect(archived).toHaveLength(1);
    } finally {
      await c.close();
      expect((await disconnect()).status).toBe(200);
    }
  });

  it('a connection lost after the person approved (disconnected meanwhile): connect, and the approval carries over', async () => {
    const id = await contactToDelete(`carry-${kind.replace(/\W+/g, '-')}@acme.example`);
    // Connected before the call, so the preview works and the person is asked to approve first...
    const denied = await request(g, 'POST', '/v1/tools/crm/getContact', { body: { contact_id: id }, token: AGENT });
    expect(await followUrl(denied.body.error.details.connect_url as string, AGENT)).toBe(200);
    // ... and, while the approval form is open, the connection is deleted.
    const c = await connect(kind, async () => expect((await disconnect()).status).toBe(200));
    try {
      const result: any = await c.call({ contact_id: id });
      expect(result.isError, JSON.stringify(result)).not.toBe(true);
      expect(await c.person()).toBe(200);
      // Approve, then connect; not approve again.
      expect(c.asked.map((a) => a.mode ?? 'form')).toEqual(['form', 'url']);
      const archived = hubspot.requests.filter((r) => r.method === 'DELETE' && r.path.includes(id));
      expect(archived).toHaveLength(1);
    } finally {
      await c.close();
      expect((await disconnect()).status).toBe(200);
    }
  });
});
