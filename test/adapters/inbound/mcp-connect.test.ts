import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitationCompleteNotificationSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import type { Gateway } from '../../../composition/gateway.js';
import { type HubSpotServer } from '../../fakes/hubspot-server.js';
import { signInOnConnectPage } from '../../support/connect-flow.js';
import { connectAsPerson, startHubSpotConnect, type HubSpotConnectWorld } from '../../support/hubspot-connect.js';
import { NOW } from '../../support/gateway.js';

// Issue 43, connect in the conversation: a call that needs HubSpot, from a client that declared URL-mode
// elicitation, asks the client to open the gateway's connect page for its person; a scripted person follows
// the URL (signs in to the gateway as the caller, approves at the HubSpot stand-in's OAuth page, comes back
// to the callback), and the original call completes. The official clients on both revisions: the v2 client
// on 2026-07-28 (input_required, then the retry) and on 2025-11-25, and the v1 client (2025-11-25), where the
// gateway also sends notifications/elicitation/complete with the elicitation's id.

const AGENT = 'token-acme-agent-0123456789';
const OTHER = 'token-acme-other-0123456789';

let hubspot: HubSpotServer;
let g: Gateway;
let base = '';
const clock = new FixedClock(NOW);

let world: HubSpotConnectWorld | undefined;
beforeAll(async () => {
  world = await startHubSpotConnect({
    prefix: 'mcp-connect',
    clock,
    keys: [
      { name: 'acme-agent', token: AGENT, permissions: ['crm:*'], tenant: 'acme' },
      { name: 'acme-other', token: OTHER, permissions: ['crm:*'], tenant: 'acme' },
    ],
    env: () => ({ HUBSPOT_APP_URL: 'https://app.hubspot.example' }),
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
  readonly elicitationId?: string;
}

/** What the person did: the URL elicitations the client received, the completions, and the person's own steps. */
interface Seen {
  readonly asked: Asked[];
  readonly completed: string[];
  person?: Promise<number>;
}

type Kind = 'v2 client, 2026-07-28' | 'v2 client, 2025-11-25' | 'v1 client, 2025-11-25';
const KINDS: readonly Kind[] = ['v2 client, 2026-07-28', 'v2 client, 2025-11-25', 'v1 client, 2025-11-25'];

/**
 * A client of `kind` declaring URL elicitation, whose handler accepts at once and lets the person follow the
 * URL afterwards (as a host that opens a browser does); `answer` may decline instead.
 */
const connect = async (kind: Kind, answer: 'accept' | 'decline' = 'accept') => {
  const seen: Seen = { asked: [], completed: [] };
  const onAsk = (params: Asked) => {
    seen.asked.push(params);
    if (answer === 'accept' && params.mode === 'url' && params.url) seen.person = followUrl(params.url, AGENT);
    return { action: answer };
  };
  const requestInit = { headers: { authorization: `Bearer ${AGENT}` } };
  const url = new URL(`${base}/mcp`);
  if (kind === 'v1 client, 2025-11-25') {
    const client = new V1Client(
      { name: 'connect-v1', version: '1.0.0' },
      { capabilities: { elicitation: { url: {} } } },
    );
    client.setRequestHandler(ElicitRequestSchema, (req) => onAsk(req.params as Asked) as never);
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => {
      seen.completed.push(n.params.elicitationId);
    });
    await client.connect(new V1Transport(url, { requestInit }));
    await client.listTools();
    return {
      seen,
      call: (args: Record<string, unknown>) => client.callTool({ name: 'crm_createContact', arguments: args }),
      close: () => client.close(),
    };
  }
  const client = new Client(
    { name: 'connect-v2', version: '1.0.0' },
    {
      capabilities: { elicitation: { url: {} } },
      ...(kind === 'v2 client, 2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  client.setRequestHandler('elicitation/create', async (req: any) => onAsk(req.params));
  client.setNotificationHandler('notifications/elicitation/complete', (n: any) => {
    seen.completed.push(n.params.elicitationId);
  });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit }));
  expect(client.getProtocolEra()).toBe(kind === 'v2 client, 2026-07-28' ? 'modern' : 'legacy');
  await client.listTools();
  return {
    seen,
    call: (args: Record<string, unknown>) =>
      client.callTool({ name: 'crm_createContact', arguments: args }) as Promise<any>,
    close: () => client.close(),
  };
};

describe.each(KINDS)('connect in the conversation (%s)', (kind) => {
  it('elicits the connect page, the person connects, and the original call completes', async () => {
    const c = await connect(kind);
    try {
      const email = `${kind.replace(/\W+/g, '-')}@acme.example`;
      const result: any = await c.call({ values: { email } });
      expect(result.isError).not.toBe(true);
      expect(result.structuredContent.id).toMatch(/^\d+$/);
      // The contact was created at HubSpot, with the token the person's connection gave.
      const created = hubspot.requests.filter((r) => r.method === 'POST' && JSON.stringify(r.body).includes(email));
      expect(created).toHaveLength(1);
      expect(created[0]!.status).toBe(201);
      expect(await c.seen.person).toBe(200);
      expect(c.seen.asked).toHaveLength(1);
      const asked = c.seen.asked[0]!;
      expect(asked.mode).toBe('url');
      expect(asked.url).toMatch(/^https:\/\/gateway\.example\/connect\/hubspot\?ticket=/);
      expect(asked.message).toContain('sign in to the gateway');
      if (kind === 'v2 client, 2026-07-28') {
        // 2026-07-28 has neither the elicitationId on the wire nor the completion notification.
        expect(c.seen.completed).toEqual([]);
      } else {
        expect(asked.elicitationId).toMatch(/^[\w-]{20,}$/);
        expect(c.seen.completed).toEqual([asked.elicitationId]);
      }
      // The URL is bound to the caller: another person of the same workspace cannot use it.
      const other = await signInOnConnectPage(g, asked.url!, OTHER);
      expect(other.status).toBe(403);
      expect(other.headers.get('location')).toBeNull();
    } finally {
      await c.close();
      expect((await disconnect()).status).toBe(200);
    }
  });

  it('a person who declines gets the answer with the link, and nothing waits', async () => {
    const c = await connect(kind, 'decline');
    try {
      const result: any = await c.call({ values: { email: 'declined@acme.example' } });
      expect(result.isError).toBe(true);
      expect(result._meta['tool-gateway/error'].code).toBe('NOT_CONNECTED');
      expect(c.seen.asked).toHaveLength(1);
      expect(c.seen.completed).toEqual([]);
    } finally {
      await c.close();
    }
  });
});

describe('a client without URL elicitation', () => {
  const CASES = [
    ['2026-07-28', 'form elicitation only', { elicitation: { form: {} } }],
    ['2025-11-25', 'form elicitation only', { elicitation: { form: {} } }],
    ['2026-07-28', 'no elicitation', {}],
    ['2025-11-25', 'no elicitation', {}],
  ] as const;
  it.each(CASES)(
    '(%s, %s) gets NOT_CONNECTED with a link that needs the caller’s own sign-in, and is asked nothing',
    async (era, _what, capabilities) => {
      const asked: unknown[] = [];
      const client = new Client(
        { name: 'connect-without-url', version: '1.0.0' },
        {
          capabilities,
          ...(era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
        },
      );
      if ('elicitation' in capabilities)
        client.setRequestHandler('elicitation/create', async (req: any) => {
          asked.push(req.params);
          return { action: 'cancel' };
        });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${AGENT}` } },
        }),
      );
      try {
        await client.listTools();
        const email = `without-url-${era}-${Object.keys(capabilities).length}@acme.example`;
        const result: any = await client.callTool({ name: 'crm_createContact', arguments: { values: { email } } });
        expect(result.isError).toBe(true);
        const error = result._meta['tool-gateway/error'];
        expect(error.code).toBe('NOT_CONNECTED');
        const link = error.details.connect_url as string;
        expect(link).toMatch(/^https:\/\/gateway\.example\/connect\/hubspot\?ticket=/);
        expect(result.content[0].text).toContain('they sign in to the gateway there; the link works for them only');
        expect(asked).toEqual([]);
        // The link opened alone is a sign-in form, not the way to HubSpot; another person of the same
        // workspace is refused; only the caller's own sign-in goes on to HubSpot's authorization page.
        const page = await g.http.request(link.replace(/^https:\/\/gateway\.example/, ''));
        expect(page.status).toBe(200);
        expect(page.headers.get('location')).toBeNull();
        expect(await page.text()).toContain('Sign in to the gateway to connect your HubSpot account');
        const other = await signInOnConnectPage(g, link, OTHER);
        expect(other.status).toBe(403);
        expect(other.headers.get('location')).toBeNull();
        const own = await signInOnConnectPage(g, link, AGENT);
        expect(own.status).toBe(303);
        expect(own.headers.get('location')).toMatch(/^https:\/\/app\.hubspot\.example\//);
        // Nothing was created at HubSpot.
        expect(hubspot.requests.filter((r) => JSON.stringify(r.body ?? '').includes(email))).toEqual([]);
      } finally {
        await client.close();
      }
    },
  );
});
