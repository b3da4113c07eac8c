import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../../composition/gateway.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

// The job engine does no work at start-up (issue 40): in memory mode with a data dir that already holds the
// embedded store, nothing opens that store before the server listens; once it listens, the engine looks
// once, finds the job the last run left running (its instance died mid-job) and resumes it to the end. The
// server entry (main.ts) in a process of its own, and the library (createGateway) in this one.

const TOKEN = 'jobs-at-start-token-0123456789';
const TOTAL = 120;
const SETTLED = 50;

const gatewayOn = (dir: string): Gateway =>
  createGateway({
    env: { GATEWAY_DATA_DIR: dir, GATEWAY_DEMO_TOKEN: TOKEN, GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' },
    logger: pino({ level: 'silent' }),
  });

const call = async (g: Gateway, method: string, path: string, body?: unknown, prefer?: string) => {
  const res = await g.http.request(path, {
    method,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      ...(prefer ? { prefer } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
};

/**
 * A data dir whose embedded store holds a job of the demo caller left running by an instance that died:
 * TOTAL items, the first SETTLED settled, the next chunk started with no outcome, its lease run out.
 */
const dirWithJobLeftRunning = async (): Promise<{ dir: string; id: string }> => {
  const dir = mkdtempSync(join(tmpdir(), 'jobs-at-start-'));
  const g = gatewayOn(dir);
  // A first job, run to its end, gives the demo caller's principal as the store keeps it.
  const first = await call(
    g,
    'POST',
    '/v1/tools/records/batchCreateRecords',
    {
      app_id: 3001,
      inputs: [{ fields: { name: 'First' } }],
    },
    'respond-async',
  );
  expect(first.status, JSON.stringify(first.body)).toBe(202);
  const firstId = String(first.body.data.job_id);
  for (let i = 0; i < 400 && (await g.jobs.store.get(firstId))?.status !== 'completed'; i++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  const row = (await g.jobs.store.get(firstId))!;
  expect(row.status).toBe('completed');
  g.jobs.halt(); // this instance's engine stops here: it must not take the job left running below
  const id = `j${'5'.repeat(32)}`;
  const created = new Date(Date.now() - 60_000);
  await g.jobs.store.create({
    id,
    tenant: row.tenant,
    owner: row.owner,
    principal: row.principal,
    tool: 'records_batchCreateRecords',
    params: JSON.stringify({
      app_id: 3001,
      inputs: Array.from({ length: TOTAL }, (_, i) => ({ fields: { name: `Left ${i}` } })),
    }),
    request_id: 'req-left-running',
    trace: null,
    created_at: created.toISOString(),
    expires_at: new Date(Date.now() + 3_600_000).toISOString(),
  });
  // A worker that is gone took it, counted the items, settled the first chunk and started the second.
  expect(await g.jobs.store.claim('gone', created, 1_000, 2)).toMatchObject({ id });
  await g.jobs.store.setTotal(id, TOTAL);
  await g.jobs.store.start(
    id,
    Array.from({ length: SETTLED + 50 }, (_, i) => i),
  );
  await g.jobs.store.settle(
    id,
    Array.from({ length: SETTLED }, (_, i) => ({ index: i, success: true, record_id: 900_000 + i })),
  );
  await g.close();
  expect(existsSync(join(dir, 'gateway.sqlite'))).toBe(true);
  return { dir, id };
};

const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const s of servers) {
    s.child.kill('SIGTERM');
    await s.exited;
  }
});

describe('the job engine at start-up, with a data dir that holds the embedded store', () => {
  it('the server opens no store before it listens, then resumes the job left running to its end', async () => {
    const { dir, id } = await dirWithJobLeftRunning();
    const server = await startServerProcess({ GATEWAY_DATA_DIR: dir, GATEWAY_DEMO_TOKEN: TOKEN, LOG_LEVEL: 'info' });
    servers.push(server);
    let job: any;
    for (let i = 0; i < 600; i++) {
      const res = await fetch(`${server.base}/v1/jobs/${id}`, { headers: { authorization: `Bearer ${TOKEN}` } });
      job = ((await res.json()) as any).data;
      if (job?.status === 'completed') break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(job, server.output()).toMatchObject({ status: 'completed', resumed: true });
    expect(job.progress).toMatchObject({ done: TOTAL, total: TOTAL, failed: 0 });
    // The first chunk's outcomes are the dead instance's: settled items are not written again.
    expect(job.items[0]).toMatchObject({ index: 0, record_id: 900_000 });
    const out = server.output();
    const listening = out.indexOf('"msg":"listening"');
    const opened = out.indexOf('"msg":"database open"');
    expect(listening, out).toBeGreaterThan(-1);
    expect(opened, out).toBeGreaterThan(listening);
    expect(out).not.toMatch(/job engine fault/);
  }, 60_000);

  it('the library opens no store until resume() (what the server calls once it listens), which resumes the job', async () => {
    const { dir, id } = await dirWithJobLeftRunning();
    const g = gatewayOn(dir);
    try {
      // Serving before resume: no engine, and the data dir was not taken (opening the store writes owner.pid).
      expect((await g.http.request('/health')).status).toBe(200);
      expect((await call(g, 'GET', '/v1/tools')).status).toBeLessThan(500);
      expect(g.jobs.started).toBe(false);
      expect(existsSync(join(dir, 'owner.pid'))).toBe(false);
      await g.jobs.resume();
      expect(g.jobs.started).toBe(true);
      let row = await g.jobs.store.get(id);
      for (let i = 0; i < 600 && row?.status !== 'completed'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        row = await g.jobs.store.get(id);
      }
      expect(row).toMatchObject({ status: 'completed', done: TOTAL, total: TOTAL, failed: 0, attempts: 2 });
    } finally {
      await g.close();
    }
  }, 60_000);

  it('an empty data dir (no store file) stays untouched after resume(): the first job starts the engine', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jobs-at-start-empty-'));
    const g = gatewayOn(dir);
    try {
      await g.jobs.resume();
      expect(g.jobs.started).toBe(false);
      expect(existsSync(join(dir, 'gateway.sqlite'))).toBe(false);
      const started = await call(
        g,
        'POST',
        '/v1/tools/records/batchCreateRecords',
        {
          app_id: 3001,
          inputs: [{ fields: { name: 'Late' } }],
        },
        'respond-async',
      );
      expect(started.status).toBe(202);
      expect(g.jobs.started).toBe(true);
    } finally {
      await g.close();
    }
  });
});
