import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresForTests } from '../support/postgres.js';
import { tcpProxy, until, withParams } from '../support/pg-faults.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

// Issue 37, "audit that loses nothing": with DATABASE_URL set, PostgreSQL is cut (a TCP proxy the test stops)
// while audited writes run. Before: a write answered 200 and its audit row was lost; POST /register answered a
// bare 500; a DATABASE_URL naming a closed port or a missing database started with nothing said. After: every
// write that answers 200 has its audit row in the database once it is back (kept meanwhile in the spool in the
// data directory); the OAuth endpoints answer 503 with Retry-After while it is away; the start names the
// database that cannot be used (without its password) in one line.

const found = await postgresForTests();
if ('skip' in found) console.warn(found.skip);
const pgUrl = 'skip' in found ? '' : found.url;
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  if (!('skip' in found)) await found.stop();
});
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'pgf-audit-'));
  dirs.push(dir);
  return dir;
};
const stop = async (server: ServerProcess | undefined) => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
};

describe.skipIf('skip' in found)('audit rows and the OAuth endpoints while PostgreSQL is cut', () => {
  const tenant = `pga-${randomBytes(5).toString('hex')}`;
  const token = `pga-token-${randomUUID()}`;
  let proxy: Awaited<ReturnType<typeof tcpProxy>>;
  let server: ServerProcess;

  beforeAll(async () => {
    proxy = await tcpProxy(new URL(pgUrl));
    server = await startServerProcess(
      {
        DATABASE_URL: withParams(pgUrl, { application_name: `pga-${tenant}` }, proxy.hostPort),
        GATEWAY_DATA_DIR: dataDir(),
        GATEWAY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        GATEWAY_API_KEYS: JSON.stringify([{ name: 'ops', token, permissions: ['*'], tenant }]),
        // The writes below run back to back from four workers; the rate limit is not what this file tests.
        RATE_LIMIT_PER_MINUTE: '1000000',
      },
      30_000,
    );
  }, 40_000);
  afterAll(async () => {
    await stop(server);
    await proxy?.close();
  });

  const write = async (requestId: string) => {
    const r = await fetch(`${server.base}/v1/tools/crm/createContact?format=json`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-request-id': requestId },
      body: JSON.stringify({ values: { email: `pga-${randomUUID()}@example.com` } }),
    }).catch((e: unknown) => e as Error);
    if (r instanceof Error) return { status: 0, retryAfter: null, body: String(r) };
    return { status: r.status, retryAfter: r.headers.get('retry-after'), body: await r.text() };
  };
  /** Every request id in the tenant's audit log of crm_createContact (all pages). */
  const audited = async (): Promise<Set<string>> => {
    const ids = new Set<string>();
    let before: number | undefined;
    for (;;) {
      const r = await fetch(`${server.base}/v1/audit?tool=crm_createContact${before ? `&before=${before}` : ''}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      if (r.status !== 200) return ids;
      const body = (await r.json()) as { data: { entries: { request_id: string }[]; next_before?: number } };
      for (const e of body.data.entries) ids.add(e.request_id);
      if (!body.data.next_before) return ids;
      before = body.data.next_before;
    }
  };

  it('no write answers 200 without its audit row stored once the database is back', async () => {
    expect((await write(randomUUID())).status).toBe(200); // the database is open and migrated
    const answered: { id: string; status: number; whileCut: boolean; body: string }[] = [];
    let cut = false;
    let running = true;
    const worker = async () => {
      while (running) {
        const id = randomUUID();
        const whileCut = cut;
        const a = await write(id);
        answered.push({ id, status: a.status, whileCut: whileCut && cut, body: a.body });
        if (a.status === 0) return;
      }
    };
    const load = Promise.all(Array.from({ length: 4 }, worker));
    await new Promise((r) => setTimeout(r, 300));
    proxy.cut();
    cut = true;
    await new Promise((r) => setTimeout(r, 1_200));
    cut = false;
    proxy.restore();
    await new Promise((r) => setTimeout(r, 300));
    running = false;
    await load;

    expect(answered.filter((a) => a.status !== 200 && a.status !== 503)).toEqual([]);
    const ok = answered.filter((a) => a.status === 200);
    expect(answered.filter((a) => a.whileCut && a.status === 200).length).toBeGreaterThan(0);
    // The spooled rows are written within the spool's retry time (5 s) of the database answering again.
    let missing: string[] = [];
    await until(async () => {
      const ids = await audited();
      missing = ok.map((a) => a.id).filter((id) => !ids.has(id));
      return missing.length === 0;
    }, 20_000).catch(() => undefined);
    expect(missing).toEqual([]);
    expect(server.output()).toContain('audit log unavailable');
  }, 60_000);

  it('the OAuth endpoints answer 503 with Retry-After while it is away, and work again after', async () => {
    const registration = () =>
      fetch(`${server.base}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          client_name: 'Cut Agent',
          redirect_uris: ['http://127.0.0.1:9/callback'],
          token_endpoint_auth_method: 'none',
          application_type: 'native',
        }),
      });
    proxy.cut();
    try {
      const during = await registration();
      expect(during.status).toBe(503);
      expect(during.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(await during.json()).toMatchObject({ error: 'temporarily_unavailable' });
      const tokenDuring = await fetch(`${server.base}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x'.repeat(43), client_id: 'nobody' }),
      });
      expect(tokenDuring.status).toBe(503);
      expect(tokenDuring.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    } finally {
      proxy.restore();
    }
    await until(async () => (await registration()).status === 201, 15_000);
  }, 40_000);
});

describe.skipIf('skip' in found)('a DATABASE_URL that cannot be used is named at start', () => {
  let server: ServerProcess | undefined;
  afterAll(() => stop(server));

  it('a closed port: one line naming host, port and database, without the password', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    server = await startServerProcess({
      DATABASE_URL: `postgres://gw:hunter2-secret@127.0.0.1:${port}/gatewaydb`,
      GATEWAY_DATA_DIR: dataDir(),
      GATEWAY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    });
    await until(() => server!.output().includes('cannot be used'), 10_000);
    const lines = server
      .output()
      .split('\n')
      .filter((l) => l.includes('cannot be used'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`postgres://gw@127.0.0.1:${port}/gatewaydb`);
    expect(lines[0]).toContain('ECONNREFUSED');
    expect(lines[0]).toContain('tool calls still work');
    expect(server.output()).not.toContain('hunter2-secret');
    await stop(server);
  }, 40_000);

  it('a database that does not exist: named the same way, with the server saying why', async () => {
    const missing = `gw_missing_${randomBytes(4).toString('hex')}`;
    const url = new URL(pgUrl);
    url.pathname = `/${missing}`;
    server = await startServerProcess({
      DATABASE_URL: url.toString(),
      GATEWAY_DATA_DIR: dataDir(),
      GATEWAY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    });
    await until(() => server!.output().includes('cannot be used'), 10_000);
    const line = server
      .output()
      .split('\n')
      .find((l) => l.includes('cannot be used'))!;
    expect(line).toContain(`/${missing}`);
    expect(line).toContain('does not exist');
    await stop(server);
  }, 40_000);
});

describe('a full audit spool while the database is away', () => {
  let server: ServerProcess | undefined;
  afterAll(() => stop(server));

  it('refuses writes with 503 UNAVAILABLE and Retry-After before they run; reads go on', async () => {
    // A spool left full (1 MB, the smallest bound) by an instance that stopped while the database was away.
    const dir = dataDir();
    const row = JSON.stringify({
      at: new Date().toISOString(),
      tenant: 'spool-filler',
      principal: 'key:filler',
      tool: 'crm_createContact',
      targets: [],
      status: 200,
      requestId: 'filler',
    });
    writeFileSync(join(dir, 'audit-spool.jsonl'), `${row}\n`.repeat(Math.ceil((1 << 20) / row.length) + 10));
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const token = `full-token-${randomUUID()}`;
    server = await startServerProcess({
      DATABASE_URL: `postgres://gw@127.0.0.1:${port}/gatewaydb`,
      GATEWAY_DATA_DIR: dir,
      GATEWAY_AUDIT_SPOOL_MB: '1',
      GATEWAY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      GATEWAY_API_KEYS: JSON.stringify([{ name: 'ops', token, permissions: ['*'], tenant: 'full' }]),
    });
    const call = (tool: string, args: unknown) =>
      fetch(`${server!.base}/v1/tools/crm/${tool}?format=json`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(args),
      });
    const email = `full-${randomUUID()}@example.com`;
    const refused = await call('createContact', { values: { email } });
    const body = (await refused.json()) as {
      error: { code: string; message: string; details: Record<string, unknown> };
    };
    expect(refused.status).toBe(503);
    expect(body.error.code).toBe('UNAVAILABLE');
    expect(body.error.message).toMatch(/Nothing was changed/);
    expect(refused.headers.get('retry-after')).toBe(String(body.error.details['retry_after_seconds']));
    // Nothing was done: the contact is not there, and reads are served.
    const search = await call('searchContacts', { query: email });
    expect(search.status).toBe(200);
    expect(((await search.json()) as { data: { results: unknown[] } }).data.results).toEqual([]);
  }, 40_000);
});
