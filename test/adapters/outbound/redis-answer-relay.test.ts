import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { serve, type ServerType } from '@hono/node-server';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authInfoFor, createGatewayMcpHandler } from '../../../adapters/inbound/mcp/mcp-server.js';
import { ERROR_META_KEY } from '../../../adapters/inbound/mcp/mcp-tools.js';
import { resilientRedisOptions } from '../../../adapters/outbound/redis/redis-availability.js';
import { RedisAnswerRelay } from '../../../adapters/outbound/redis/redis-answer-relay.js';
import { testGateway } from '../../support/gateway.js';
import { APPROVE, initializeEliciting, LEGACY_REVISIONS, postAnswer, startToolCall } from '../../support/legacy-mcp.js';
import { ownRedisServer, redisForTests, type OwnRedis } from '../../support/redis.js';

// Issue 39, point 3: a 2025-era approval answered through another instance. Two "instances" (two MCP
// handlers, each with its own awaited answers and its own Redis relay) on one Redis: the call is held by A,
// the client's answer is posted to B, and B hands it to A through Redis. Then what happens when Redis is
// gone (a redis-server of the test's own, killed): the client is told at once, and no call waits longer
// than its wait.

const gateway = testGateway();
const principal = { id: 'key:relay', name: 'relay', tenant: 'default', permissions: new Set(['*']) } as any;
const intruder = { id: 'key:other', name: 'other', tenant: 'globex', permissions: new Set(['*']) } as any;
const clients: Redis[] = [];
const relays: RedisAnswerRelay[] = [];
const servers: ServerType[] = [];

const redisClient = (url: string, options: object = {}) => {
  const c = new Redis(url, { ...resilientRedisOptions(), ...options });
  c.on('error', () => undefined);
  clients.push(c);
  return c;
};

/** One instance on `redisUrl` (its own client, subscriber and relay), served on a port of its own: its /mcp URL. */
const instance = async (redisUrl: string, prefix: string, waitMs: number, who = principal) => {
  const errors: string[] = [];
  const relay = new RedisAnswerRelay({
    redis: redisClient(redisUrl),
    subscriber: () => redisClient(redisUrl, { autoResubscribe: false }),
    prefix,
    onError: (what) => errors.push(what),
  });
  relays.push(relay);
  const handler = createGatewayMcpHandler({
    executor: gateway.executor,
    version: 'test',
    maxBodyBytes: 1 << 20,
    approvalWaitMs: waitMs,
    answerRelay: relay,
  });
  const server = await new Promise<ServerType>((resolve) => {
    const s: ServerType = serve(
      {
        port: 0,
        hostname: '127.0.0.1',
        fetch: async (req) => {
          const parsedBody = await req.clone().json();
          const as = req.headers.get('x-as') === 'intruder' ? intruder : who;
          return handler(req, { authInfo: authInfoFor('t', { principal: as, requestId: 'r' }), parsedBody });
        },
      },
      () => resolve(s),
    );
  });
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, errors, relay };
};

const exists = async (id: string) =>
  (await gateway.callTool('crm_getContact', { contact_id: id }, { principal })).status === 200;
const until = async (done: () => boolean | Promise<boolean>, ms = 10_000) => {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
};

let shared: Awaited<ReturnType<typeof redisForTests>>;
let own: OwnRedis | { skip: string };
beforeAll(async () => {
  shared = await redisForTests();
  own = await ownRedisServer();
});
afterAll(async () => {
  for (const r of relays) await r.close();
  for (const c of clients) c.disconnect();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  if ('stop' in shared) await shared.stop();
  if ('stop' in own) await own.stop();
  await gateway.close();
});

describe('the answer relay in Redis', () => {
  it('forwards once, only for the caller it was asked of, and keeps an answer nobody heard', async (ctx) => {
    if ('skip' in shared) return ctx.skip(shared.skip);
    const { url } = shared;
    const prefix = `t-${randomBytes(4).toString('hex')}:`;
    const relay = (errors: string[] = []) => {
      const r = new RedisAnswerRelay({
        redis: redisClient(url),
        subscriber: () => redisClient(url, { autoResubscribe: false }),
        prefix,
        onError: (what) => errors.push(what),
      });
      relays.push(r);
      return r;
    };
    const a = relay();
    const b = relay();
    const heard: string[] = [];
    a.receive((id, owner, answer) => heard.push(`${id} ${owner} ${answer}`));
    await a.hold('tg-one', 'default:alice', 10_000);
    expect(await b.forward('tg-one', 'globex:alice', '{}')).toBe('unknown');
    expect(await b.forward('tg-none', 'default:alice', '{}')).toBe('unknown');
    expect(await b.forward('tg-one', 'default:alice', '{"a":1}')).toBe('delivered');
    await until(() => heard.length === 1);
    expect(heard).toEqual(['tg-one default:alice {"a":1}']);
    expect(await b.forward('tg-one', 'default:alice', '{"a":1}')).toBe('unknown'); // taken once
    // A holder that stopped listening: the answer finds nobody, and stays for a second try.
    await a.hold('tg-two', 'default:alice', 10_000);
    await a.close();
    expect(await b.forward('tg-two', 'default:alice', '{}')).toBe('unreachable');
    expect(await b.forward('tg-two', 'default:alice', '{}')).toBe('unreachable');
    // Released entries are gone.
    await b.hold('tg-three', 'default:alice', 10_000);
    b.release('tg-three');
    await until(async () => (await b.forward('tg-three', 'default:alice', '{}')) === 'unknown');
  });
});

describe.each(LEGACY_REVISIONS)('a %s approval answered through another instance', (revision) => {
  const [approved, declinedOrStray] = revision === '2025-06-18' ? ['101', '102'] : ['103', '104'];

  it('runs the call held by the first instance once the answer posted to the second arrives', async (ctx) => {
    if ('skip' in shared) return ctx.skip(shared.skip);
    const prefix = `t-${randomBytes(4).toString('hex')}:`;
    const a = await instance(shared.url, prefix, 20_000);
    const b = await instance(shared.url, prefix, 20_000);
    const session = await initializeEliciting(a.url, 't', revision);
    expect(session.sessionId).toMatch(/^tg-elicit\./);
    const call = await startToolCall(a.url, session, 'crm_deleteContact', { contact_id: approved });
    const ask = await call.nextNonNotification();
    expect(ask.method).toBe('elicitation/create');
    expect(ask.params.message).toContain(`contact ${approved}`);
    // Another tenant's caller cannot answer it, through either instance.
    const stranger = await fetch(b.url, {
      method: 'POST',
      headers: {
        'x-as': 'intruder',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': revision,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: ask.id, result: APPROVE }),
    });
    await stranger.body?.cancel();
    expect(await exists(approved)).toBe(true);
    const posted = await postAnswer(b.url, session, ask.id, APPROVE);
    expect(posted.status).toBe(202);
    const done = await call.nextNonNotification();
    expect(done.id).toBe(2);
    expect(done.result.isError).not.toBe(true);
    expect(await exists(approved)).toBe(false);
    // The same answer again: nobody awaits it any more (the SDK's own answer to a stray response).
    const again = await postAnswer(b.url, session, ask.id, APPROVE);
    expect(again.status).not.toBe(503);
    expect(await exists(declinedOrStray)).toBe(true);
  });
});

describe('when Redis is gone', () => {
  it('refuses at once to ask, tells an answer it could not hand on, and never waits past the wait', async (ctx) => {
    if ('skip' in own) return ctx.skip(own.skip);
    const prefix = `t-${randomBytes(4).toString('hex')}:`;
    const waitMs = 3_000;
    const a = await instance(own.url, prefix, waitMs);
    const b = await instance(own.url, prefix, waitMs);
    const session = await initializeEliciting(a.url, 't', '2025-11-25');

    // Redis lost after the question went out: the answer posted to B is refused plainly (503, Retry-After),
    // and the call on A ends when its wait runs out, having changed nothing.
    const call = await startToolCall(a.url, session, 'crm_deleteContact', { contact_id: '105' });
    const ask = await call.nextNonNotification();
    expect(ask.method).toBe('elicitation/create');
    await own.kill();
    const started = Date.now();
    const posted = await postAnswer(b.url, session, ask.id, APPROVE);
    expect(posted.status).toBe(503);
    expect(posted.retryAfter).toBe('5');
    expect(JSON.parse(posted.body).error.message).toContain('shared store (Redis) is unavailable');
    const ended = await call.nextNonNotification();
    expect(Date.now() - started).toBeLessThan(waitMs + 2_000);
    expect(ended.result._meta[ERROR_META_KEY].code).toBe('TIMEOUT');
    // Said as it is: the answer may have been given and lost with Redis.
    expect(ended.result.content[0].text).toContain('shared store (Redis)');
    expect(ended.result._meta[ERROR_META_KEY].details.answers_interrupted).toBe(true);
    expect(await exists('105')).toBe(true);

    // Redis still away: a gated call is refused at once, nobody is asked, nothing changes.
    const refused = await startToolCall(a.url, session, 'crm_deleteContact', { contact_id: '106' });
    const first = await refused.nextNonNotification();
    expect(first.method).toBeUndefined(); // no elicitation/create: the answer itself
    expect(first.result._meta[ERROR_META_KEY].code).toBe('UNAVAILABLE');
    expect(first.result.content[0].text).toContain('nobody was asked');
    expect(first.result._meta[ERROR_META_KEY].details.retry_after_seconds).toBe(5);
    expect(await exists('106')).toBe(true);

    // Redis back (empty): both instances subscribe again, and an answer through B reaches A's call.
    await own.restart();
    const again = await until(async () => {
      const attempt = await startToolCall(a.url, session, 'crm_deleteContact', { contact_id: '106' });
      const m = await attempt.nextNonNotification();
      if (m.method === 'elicitation/create') {
        const relayed = await postAnswer(b.url, session, m.id, APPROVE);
        expect(relayed.status).toBe(202);
        const result = await attempt.nextNonNotification();
        return result.result.isError !== true;
      }
      return false;
    }).then(
      () => true,
      () => false,
    );
    expect(again).toBe(true);
    expect(await exists('106')).toBe(false);
  });
});
