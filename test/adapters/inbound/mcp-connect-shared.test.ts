import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitationCompleteNotificationSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEncryptionKey } from '../../../adapters/outbound/persistence/secret-box.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import { createGateway, type Gateway } from '../../../composition/gateway.js';
import { HubSpotServer } from '../../fakes/hubspot-server.js';
import { NOW } from '../../support/gateway.js';
import { postgresForTests } from '../../support/postgres.js';
import { redisForTests } from '../../support/redis.js';
import { connectAsPerson, hubspotOAuthEnv } from '../../support/hubspot-connect.js';

// Issue 43 on two instances (one PostgreSQL, one Redis): the call that elicited the connect page waits on
// instance A, and the person's browser connects through instance B. A hears of the new connection through the
// change B announces in Redis, at once (its own look again every 15 s would find its cached "not connected"
// for up to 30 s): the client's 10 s request timeout would end the call otherwise.

let hubspot: HubSpotServer;
let pg: { url: string; stop(): Promise<void> } | { skip: string };
let redis: { url: string; stop(): Promise<void> } | { skip: string };
const clock = new FixedClock(NOW);
const gateways: Gateway[] = [];
const servers: ServerType[] = [];
const tenant = `t${randomUUID().slice(0, 8)}`;
const AGENT = `token-${tenant}-agent-0123456789`;
/** Another person of the tenant (connections here are each person's own): not connected by the first test. */
const AGENT2 = `token-${tenant}-agent2-0123456789`;
const key = newEncryptionKey();

beforeAll(async () => {
  hubspot = await HubSpotServer.start({ clock });
  pg = await postgresForTests();
  redis = await redisForTests();
});
afterAll(async () => {
  for (const s of servers) await new Promise((resolve) => s.close(resolve));
  for (const g of gateways) await g.close();
  await hubspot.close();
  if ('stop' in pg) await pg.stop();
  if ('stop' in redis) await redis.stop();
});

const instance = (): Gateway => {
  if (!('url' in pg) || !('url' in redis)) throw new Error('no database');
  const g = createGateway({
    env: {
      ...hubspotOAuthEnv(hubspot),
      DATABASE_URL: pg.url,
      REDIS_URL: redis.url,
      GATEWAY_ENCRYPTION_KEY: key,
      GATEWAY_API_KEYS: JSON.stringify([
        { name: 'agent', token: AGENT, permissions: ['crm:*'], tenant },
        { name: 'agent2', token: AGENT2, permissions: ['crm:*'], tenant },
      ]),
    },
    logger: pino({ level: 'silent' }),
    overrides: { clock },
  });
  gateways.push(g);
  return g;
};

const listen = (g: Gateway): Promise<string> =>
  new Promise((resolve) => {
    const s = serve({ fetch: g.http.fetch, port: 0, hostname: '127.0.0.1', autoCleanupIncoming: false }, () =>
      resolve(`http://127.0.0.1:${(s.address() as AddressInfo).port}`),
    );
    servers.push(s);
  });

describe('connect in the conversation across instances', () => {
  it('the call waiting on one instance completes when the person connects through another', async (ctx) => {
    if ('skip' in pg) return ctx.skip(pg.skip);
    if ('skip' in redis) return ctx.skip(redis.skip);
    const [a, b] = [instance(), instance()];
    const base = await listen(a);
    // B has answered once (so it is up, its change channel subscribed) before the person uses it.
    expect((await b.http.request('/healthz')).status).toBe(200);

    let person: Promise<number> | undefined;
    const completed: string[] = [];
    const asked: { url?: string; elicitationId?: string }[] = [];
    const client = new V1Client(
      { name: 'connect-shared', version: '1.0.0' },
      { capabilities: { elicitation: { url: {} } } },
    );
    client.setRequestHandler(ElicitRequestSchema, (req) => {
      const params = req.params as { url?: string; elicitationId?: string };
      asked.push(params);
      person = connectAsPerson(b, hubspot, params.url!, AGENT);
      return { action: 'accept' } as never;
    });
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => {
      completed.push(n.params.elicitationId);
    });
    await client.connect(
      new V1Transport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${AGENT}` } } }),
    );
    try {
      await client.listTools();
      const email = `shared-${tenant}@example.com`;
      const result: any = await client.callTool(
        { name: 'crm_createContact', arguments: { values: { email } } },
        undefined,
        { timeout: 10_000 },
      );
      expect(await person).toBe(200);
      expect(result.isError).not.toBe(true);
      expect(result.structuredContent.id).toMatch(/^\d+$/);
      expect(asked).toHaveLength(1);
      expect(completed).toEqual([asked[0]!.elicitationId]);
    } finally {
      await client.close();
    }
  });

  it("a 2025-11-25 client's answer to the URL elicitation posted to the other instance: relayed, and the call completes", async (ctx) => {
    if ('skip' in pg) return ctx.skip(pg.skip);
    if ('skip' in redis) return ctx.skip(redis.skip);
    const [a, b] = [instance(), instance()];
    const [baseA, baseB] = [await listen(a), await listen(b)];
    expect((await b.http.request('/healthz')).status).toBe(200);

    // The person connects (through A) at once, often while A looks again after the accept: that change must
    // wake the call, not wait for the 15 s look (this test found the lost wake-up; ConnectionWatch.mark).
    // A load balancer without affinity: the client's POST of its answer (a JSON-RPC response) reaches B,
    // while the call, and its stream, stay on A.
    const answersToB: string[] = [];
    const balancer = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const body = typeof init?.body === 'string' ? init.body : undefined;
      const message = body ? (JSON.parse(body) as { method?: unknown; id?: unknown }) : undefined;
      if (init?.method === 'POST' && message && message.method === undefined && message.id !== undefined) {
        answersToB.push(body!);
        return fetch(String(input).replace(baseA, baseB), init);
      }
      return fetch(input, init);
    };

    let person: Promise<number> | undefined;
    const completed: string[] = [];
    const asked: { url?: string; elicitationId?: string }[] = [];
    const client = new V1Client(
      { name: 'connect-shared-relay', version: '1.0.0' },
      { capabilities: { elicitation: { url: {} } } },
    );
    client.setRequestHandler(ElicitRequestSchema, (req) => {
      const params = req.params as { url?: string; elicitationId?: string };
      asked.push(params);
      person = connectAsPerson(a, hubspot, params.url!, AGENT2);
      return { action: 'accept' } as never;
    });
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => {
      completed.push(n.params.elicitationId);
    });
    await client.connect(
      new V1Transport(new URL(`${baseA}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${AGENT2}` } },
        fetch: balancer,
      }),
    );
    try {
      await client.listTools();
      const email = `relayed-${tenant}@example.com`;
      const result: any = await client.callTool(
        { name: 'crm_createContact', arguments: { values: { email } } },
        undefined,
        { timeout: 10_000 },
      );
      expect(await person).toBe(200);
      expect(result.isError, JSON.stringify(result)).not.toBe(true);
      expect(result.structuredContent.id).toMatch(/^\d+$/);
      expect(asked).toHaveLength(1);
      // The accept went to B (and only there), and A heard it: the call went on and completed.
      expect(answersToB).toHaveLength(1);
      expect(JSON.parse(answersToB[0]!).result).toEqual({ action: 'accept' });
      expect(completed).toEqual([asked[0]!.elicitationId]);
    } finally {
      await client.close();
    }
  });
});
