import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptionKey, newEncryptionKey, SecretBox } from '../../adapters/outbound/persistence/secret-box.js';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import { createGateway, type Gateway } from '../../composition/gateway.js';
import type { ContainerOverrides } from '../../composition/container.js';
import { OneTimeMarks } from '../../ports/one-time-marks.js';
import { HUBSPOT_TEST_TOKEN, HubSpotServer } from '../fakes/hubspot-server.js';
import { NOW, request } from '../support/gateway.js';
import { redisForTests } from '../support/redis.js';
import { openConnectLink, signInOnConnectPage } from '../support/connect-flow.js';

// The attacks on the connect flow (issue 26, item 5), against the local HubSpot stand-in (which checks
// the PKCE verifier): the OAuth state and the connect ticket were sealed alike and a state could be used
// any number of times, by anyone. So whoever saw a NOT_CONNECTED link could hand its ticket to the
// callback as a state, with a code of their own account (no PKCE verifier needed), and whoever saw a
// state could replay it, or finish a flow another person (or another tenant) started. After the fix: a
// ticket never opens as a state (nor a state as a ticket), a state is consumed once in the shared store
// (Redis across instances), and it finishes only in the browser that started the flow (a cookie bound to
// the flow's tenant and principal); the shared store being down refuses the callback.

const ADMIN = 'token-acme-admin-0123456789';
const AGENT = 'token-acme-agent-0123456789';
const GLOBEX = 'token-globex-admin-0123456789';
const CALLBACK = 'https://gateway.example/oauth/callback';

let hubspot: HubSpotServer;
const dirs: string[] = [];
const clock = new FixedClock(NOW);
const open: Gateway[] = [];

beforeAll(async () => {
  hubspot = await HubSpotServer.start({ clock });
});
afterAll(async () => {
  for (const g of open) await g.close();
  await hubspot.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const gateway = (extra: Record<string, string> = {}, overrides: ContainerOverrides = {}): Gateway => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-oauth-state-'));
  dirs.push(dataDir);
  const g = createGateway({
    env: {
      CRM_BACKEND: 'hubspot',
      HUBSPOT_ACCESS_TOKEN: HUBSPOT_TEST_TOKEN,
      HUBSPOT_BASE_URL: hubspot.baseUrl,
      HUBSPOT_CLIENT_ID: hubspot.oauth.clientId,
      HUBSPOT_CLIENT_SECRET: hubspot.oauth.clientSecret,
      HUBSPOT_APP_URL: 'https://app.hubspot.example',
      PUBLIC_BASE_URL: 'https://gateway.example',
      GATEWAY_DATA_DIR: dataDir,
      GATEWAY_API_KEYS: JSON.stringify([
        { name: 'acme-admin', token: ADMIN, permissions: ['*'], tenant: 'acme' },
        { name: 'acme-agent', token: AGENT, permissions: ['crm:*'], tenant: 'acme' },
        { name: 'globex-admin', token: GLOBEX, permissions: ['*'], tenant: 'globex' },
      ]),
      ...extra,
    },
    logger: pino({ level: 'silent' }),
    overrides: { clock, ...overrides },
  });
  open.push(g);
  return g;
};

const createContact = (g: Gateway, token: string) =>
  request(g, 'POST', '/v1/tools/crm/createContact?format=json', {
    body: { values: { email: `x${Math.random()}@example.com` } },
    token,
  });

/** The connect link an agent relays when its call answers NOT_CONNECTED. */
/** Whose call each link was made for: the person who signs in on its connect page (issue 43). */
const askedBy = new Map<string, string>();

const linkFor = async (g: Gateway, token: string): Promise<string> => {
  const denied = await createContact(g, token);
  expect(denied.body.error.code).toBe('NOT_CONNECTED');
  const link = denied.body.error.details.connect_url as string;
  askedBy.set(link, token);
  return link;
};

interface Flow {
  readonly authorize: URL;
  readonly state: string;
  /** The `name=value` the gateway set in the browser that opened the link ('' when it set none). */
  readonly cookie: string;
}

/** A browser opens the link: off to HubSpot, with whatever cookie the gateway set. */
const start = async (g: Gateway, link: string): Promise<Flow> => {
  const flow = await openConnectLink(g, link, askedBy.get(link)!);
  expect(flow.authorize.origin).toBe('https://app.hubspot.example');
  return flow;
};

/** The person approves at HubSpot: a code bound to the flow's PKCE challenge. */
const approve = (flow: Flow): string =>
  hubspot.grantCode({ redirectUri: CALLBACK, codeChallenge: flow.authorize.searchParams.get('code_challenge')! });

/** HubSpot sends the browser back. */
const finish = async (
  g: Gateway,
  state: string,
  code: string,
  cookie = '',
): Promise<{ status: number; text: string; setCookie: string[] }> => {
  const res = await g.http.request(
    `/oauth/callback?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`,
    cookie ? { headers: { cookie } } : {},
  );
  return { status: res.status, text: await res.text(), setCookie: res.headers.getSetCookie() };
};

const renamed = (cookie: string, like: string): string =>
  `${like.split('=')[0]}=${cookie.split('=').slice(1).join('=')}`;

const tokenExchanges = () => hubspot.requests.filter((r) => r.path === '/oauth/2026-03/token').length;

describe('the OAuth connect flow under attack', () => {
  it('still connects: link, HubSpot with PKCE, callback in the same browser', async () => {
    const g = gateway();
    const flow = await start(g, await linkFor(g, AGENT));
    expect(flow.authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(flow.cookie).toMatch(/^__Host-tg-connect-[\w-]+=/);
    const done = await finish(g, flow.state, approve(flow), flow.cookie);
    expect(done.status).toBe(200);
    expect(done.text).toContain('is now connected to the workspace &#34;acme&#34;');
    expect(done.setCookie).toEqual([expect.stringMatching(new RegExp(`^${flow.cookie.split('=')[0]}=; Max-Age=0;`))]);
    expect((await createContact(g, AGENT)).status).toBe(200);
    await request(g, 'DELETE', '/v1/connections/hubspot?scope=user', { token: AGENT });
  });

  it('sets the flow cookie HttpOnly, SameSite=Lax, Secure on https, for the state lifetime only', async () => {
    const g = gateway();
    const opened = await signInOnConnectPage(g, await linkFor(g, ADMIN), ADMIN);
    expect(opened.status).toBe(303);
    const set = opened.headers.getSetCookie().find((c) => c.startsWith('__Host-tg-connect-')) ?? '';
    expect(set).toMatch(/; HttpOnly/);
    expect(set).toMatch(/; SameSite=Lax/);
    expect(set).toMatch(/; Secure/);
    expect(set).toMatch(/; Path=\//);
    expect(set).toMatch(/; Max-Age=600/);
  });

  it('refuses a state used a second time (a replay), without trading the second code', async () => {
    const g = gateway();
    const flow = await start(g, await linkFor(g, ADMIN));
    expect((await finish(g, flow.state, approve(flow), flow.cookie)).status).toBe(200);
    const exchanges = tokenExchanges();
    const replay = await finish(g, flow.state, approve(flow), flow.cookie);
    expect(replay.status).toBe(400);
    expect(replay.text).toContain('already used');
    expect(tokenExchanges()).toBe(exchanges);
    await request(g, 'DELETE', '/v1/connections/hubspot', { token: ADMIN });
  });

  it('refuses a connect ticket given as the state (no verifier, nothing connected)', async () => {
    const g = gateway();
    const link = await linkFor(g, ADMIN);
    const ticket = new URL(link).searchParams.get('ticket')!;
    // The attacker's own approval, with no PKCE challenge: HubSpot then takes any verifier.
    const code = hubspot.grantCode({ redirectUri: CALLBACK });
    const exchanges = tokenExchanges();
    const forged = await finish(g, ticket, code);
    expect(forged.status).toBe(400);
    expect(forged.text).toContain('not a connection in progress');
    // Even with a cookie of a flow the attacker started from the same link.
    const own = await start(g, link);
    expect((await finish(g, ticket, code, own.cookie)).status).toBe(400);
    expect(tokenExchanges()).toBe(exchanges);
    expect((await createContact(g, ADMIN)).body.error.code).toBe('NOT_CONNECTED');
  });

  it('refuses a state given as a connect ticket', async () => {
    const g = gateway();
    const flow = await start(g, await linkFor(g, ADMIN));
    const opened = await g.http.request(`/connect/hubspot?ticket=${encodeURIComponent(flow.state)}`);
    expect(opened.status).toBe(400);
    expect(opened.headers.get('location')).toBeNull();
  });

  it("refuses tenant A's state in a callback with tenant B's flow cookie", async () => {
    const g = gateway();
    const acme = await start(g, await linkFor(g, ADMIN));
    const globex = await start(g, await linkFor(g, GLOBEX));
    const code = approve(acme);
    const exchanges = tokenExchanges();
    expect((await finish(g, acme.state, code, globex.cookie)).status).toBe(400);
    // The attacker renames their cookie to the one the victim's flow would have: still not theirs.
    const forged = await finish(g, acme.state, code, renamed(globex.cookie, acme.cookie));
    expect(forged.status).toBe(400);
    expect(forged.text).toContain('browser');
    expect(tokenExchanges()).toBe(exchanges);
    expect((await createContact(g, ADMIN)).body.error.code).toBe('NOT_CONNECTED');
    expect((await createContact(g, GLOBEX)).body.error.code).toBe('NOT_CONNECTED');
    // The refusals did not use the state up: the browser that started the flow still finishes it.
    expect((await finish(g, acme.state, code, acme.cookie)).status).toBe(200);
    await request(g, 'DELETE', '/v1/connections/hubspot', { token: ADMIN });
  });

  it('refuses a state whose flow started under another cookie or another principal of the same tenant', async () => {
    const g = gateway();
    const agent = await start(g, await linkFor(g, AGENT)); // the agent's own connection
    const admin = await start(g, await linkFor(g, ADMIN)); // the tenant-wide one
    const code = approve(agent);
    const exchanges = tokenExchanges();
    for (const cookie of ['', admin.cookie, renamed(admin.cookie, agent.cookie), `${agent.cookie}x`]) {
      const refused = await finish(g, agent.state, code, cookie);
      expect(refused.status).toBe(400);
    }
    expect(tokenExchanges()).toBe(exchanges);
    expect((await createContact(g, AGENT)).body.error.code).toBe('NOT_CONNECTED');
  });

  it('fails closed when the one-time store cannot answer: 503, nothing traded, nothing connected', async () => {
    const down: OneTimeMarks = { consume: () => Promise.reject(new Error('Redis is not connected')) };
    const g = gateway({}, { ports: [[OneTimeMarks, down]] });
    const flow = await start(g, await linkFor(g, ADMIN));
    const exchanges = tokenExchanges();
    const res = await g.http.request(
      `/oauth/callback?code=${encodeURIComponent(approve(flow))}&state=${encodeURIComponent(flow.state)}`,
      { headers: { cookie: flow.cookie } },
    );
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).not.toBeNull();
    expect(tokenExchanges()).toBe(exchanges);
    expect((await createContact(g, ADMIN)).body.error.code).toBe('NOT_CONNECTED');
  });
});

describe('one key per purpose', () => {
  it('a value sealed for one purpose opens for no other, nor as a stored secret, even with the same context', () => {
    const root = new SecretBox(encryptionKey(newEncryptionKey()));
    const [ticket, state] = [root.forPurpose('connect-ticket'), root.forPurpose('oauth-state')];
    const sealed = ticket.seal('{"typ":"ticket"}', 'ctx');
    expect(ticket.open(sealed, 'ctx')).toBe('{"typ":"ticket"}');
    expect(() => state.open(sealed, 'ctx')).toThrow();
    expect(() => root.open(sealed, 'ctx')).toThrow();
    expect(() => ticket.open(root.seal('x', 'ctx'), 'ctx')).toThrow();
    // Deterministic: another instance with the same key derives the same purpose key.
    expect(root.forPurpose('connect-ticket').open(sealed, 'ctx')).toBe('{"typ":"ticket"}');
  });
});

const redis = await redisForTests();
if ('skip' in redis) console.warn(`oauth-state cross-instance test: ${redis.skip}`);

describe.skipIf('skip' in redis)('two instances on one Redis', () => {
  afterAll(async () => {
    if ('stop' in redis) await redis.stop();
  });

  it('a state consumed on one instance is refused on the other', async () => {
    const shared = { REDIS_URL: (redis as { url: string }).url, GATEWAY_ENCRYPTION_KEY: newEncryptionKey() };
    const [a, b] = [gateway(shared), gateway(shared)];
    const flow = await start(a, await linkFor(a, ADMIN));
    // The callback may land on either instance: the state and the cookie are sealed with the shared key.
    expect((await finish(b, flow.state, approve(flow), flow.cookie)).status).toBe(200);
    const exchanges = tokenExchanges();
    const replay = await finish(a, flow.state, approve(flow), flow.cookie);
    expect(replay.status).toBe(400);
    expect(replay.text).toContain('already used');
    expect(tokenExchanges()).toBe(exchanges);
    await request(b, 'DELETE', '/v1/connections/hubspot', { token: ADMIN });
  });
});
