import { randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { SystemClock } from '../adapters/outbound/system-clock.js';
import { InMemoryPodioAccount } from '../adapters/outbound/memory/in-memory-podio-account.js';
import { createGateway, type Gateway } from '../composition/gateway.js';
import { PodioServer } from '../test/fakes/podio-server.js';
import { servePodioItems } from '../test/fakes/podio-items.js';

// npm run bench:jobs (issue 40): a 5,000-record records_batchCreateRecords run as a job against the Podio
// stand-in behind a proxy that adds 150 ms to every call and Podio's rate-limit headers, on two gateway
// instances sharing PostgreSQL (DATABASE_URL), and Redis when REDIS_URL is set (BullMQ dispatches the job,
// as in every multi-instance deployment; without it, the single-process lease path). Twice: undisturbed, then with the instance that holds the
// job stopped (halted, as if killed) when half the records are written. Prints the time to finish, vendor
// calls per second, the progress updates a poller saw, and whether every record exists exactly once (one
// item POST per record: a record written twice would be a second POST). BENCH_JOBS_INLINE=1 times batches
// sent without a job instead (see inline).

const RECORDS = Number(process.env['BENCH_JOB_RECORDS'] ?? 5_000);
const LATENCY_MS = Number(process.env['BENCH_VENDOR_LATENCY_MS'] ?? 150);
const HOURLY = 1_000_000; // the stand-in's hourly budget: generous, so the run measures writes, not waits
const LEASE_MS = 5_000;
const TOKEN = 'bench-jobs-token-0123456789';
/** The instances' shared key for connection secrets (a bench's own, random per run). */
const ENCRYPTION_KEY = randomBytes(32).toString('base64');

interface Tally {
  calls: number;
  posts: number;
  finds: number;
}

/** A proxy in front of the stand-in: 150 ms a call, X-Rate-Limit-* headers, and a count of calls. */
const slowProxy = async (target: string, tally: Tally): Promise<{ url: string; server: Server }> => {
  const to = new URL(target);
  const server = createServer((req, res) => {
    tally.calls++;
    if (req.method === 'POST' && /^\/item\/app\/\d+\/$/.test(req.url?.split('?')[0] ?? '')) tally.posts++;
    if (req.method === 'GET' && (req.url ?? '').includes('/external_id/')) tally.finds++;
    setTimeout(() => {
      const out = httpRequest(
        {
          host: to.hostname,
          port: to.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: to.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, {
            ...answer.headers,
            'x-rate-limit-limit': String(HOURLY),
            'x-rate-limit-remaining': String(Math.max(0, HOURLY - tally.calls)),
          });
          answer.pipe(res);
        },
      );
      out.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      req.pipe(out);
    }, LATENCY_MS);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
};

const gatewayAt = (podioUrl: string, podio: PodioServer, databaseUrl: string, name: string): Gateway =>
  createGateway({
    env: {
      GATEWAY_DEMO_TOKEN: TOKEN,
      GATEWAY_DATA_DIR: `/tmp/gateway-bench-jobs-${process.pid}-${name}`,
      DATABASE_URL: databaseUrl,
      // With REDIS_URL, BullMQ dispatches the job (its own queue, under a prefix of this run's).
      ...(process.env['REDIS_URL']
        ? { REDIS_URL: process.env['REDIS_URL'], REDIS_KEY_PREFIX: `bench${process.pid}:` }
        : {}),
      GATEWAY_ENCRYPTION_KEY: ENCRYPTION_KEY,
      RECORDS_BACKEND: 'podio',
      WORKSPACES_BACKEND: 'podio',
      PODIO_BASE_URL: podioUrl,
      PODIO_CLIENT_ID: podio.clientId,
      PODIO_CLIENT_SECRET: podio.clientSecret,
      PODIO_REFRESH_TOKEN: 'bench-jobs-refresh',
      GATEWAY_RATE_LIMIT_PER_MINUTE: '100000',
      GATEWAY_MAX_BODY_BYTES: String(16 * 1024 * 1024),
    },
    logger: pino({ level: 'silent' }),
    jobs: { worker: `${name}-${process.pid}`, leaseMs: LEASE_MS, pollMs: 200 },
  });

interface JobPage {
  readonly job_id: string;
  readonly status: string;
  readonly resumed: boolean;
  readonly progress: { readonly done: number; readonly failed: number };
}

const get = async (g: Gateway, path: string) => {
  const res = await g.http.request(path, { headers: { authorization: `Bearer ${TOKEN}` } });
  return (await res.json()) as { data: JobPage };
};

const run = async (label: string, a: Gateway, b: Gateway, tally: Tally, killAtHalf: boolean) => {
  tally.calls = tally.posts = tally.finds = 0;
  const inputs = Array.from({ length: RECORDS }, (_, i) => ({ fields: { name: `${label} lead ${i}` } }));
  const started = performance.now();
  const res = await a.http.request('/v1/tools/records/batchCreateRecords', {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', prefer: 'respond-async' },
    body: JSON.stringify({ app_id: 3001, inputs }),
  });
  if (res.status !== 202) throw new Error(`${res.status} ${await res.text()}`);
  const location = res.headers.get('location')!;
  const seen = new Set<number>();
  let killed: string | undefined;
  for (;;) {
    const job = (await get(a, location)).data;
    seen.add(job.progress.done);
    if (killAtHalf && !killed && job.progress.done >= RECORDS / 2) {
      const row = await a.jobs.store.get(job.job_id);
      const holder = row?.worker === a.jobs.worker ? a : b;
      holder.jobs.halt();
      killed = row?.worker ?? '?';
    }
    if (['completed', 'failed', 'cancelled'].includes(job.status)) {
      const seconds = (performance.now() - started) / 1000;
      const all = (await a.jobs.store.outcomes(job.job_id, 0, RECORDS + 1, false)) as {
        success: boolean;
        record_id?: number;
      }[];
      const ids = new Set(all.map((o) => o.record_id));
      return {
        run: label,
        status: job.status,
        records: RECORDS,
        seconds: Number(seconds.toFixed(1)),
        vendor_calls: tally.calls,
        calls_per_s: Number((tally.calls / seconds).toFixed(1)),
        progress_updates_seen: seen.size,
        item_posts: tally.posts,
        lookups_by_mark: tally.finds,
        distinct_records: ids.size,
        failed: job.progress.failed,
        resumed: job.resumed,
        killed_instance: killed ?? '-',
        exactly_once: tally.posts === RECORDS && ids.size === RECORDS && all.every((o) => o.success),
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
};

/**
 * BENCH_JOBS_INLINE=1: batches sent without a job (no `Prefer`), as a call that must answer within the request
 * deadline (GATEWAY_REQUEST_TIMEOUT_MS, 30 s): each size's time and item POSTs, and from the 500-input call
 * (10 chunks, one after another) the time of a chunk and how many records a call writes within the deadline.
 */
const inline = async (g: Gateway, tally: Tally) => {
  const rows = [];
  // The first call also fetches the token and the app's definition: a one-record warm-up, not shown.
  for (const size of [1, 50, 100, 250, 500]) {
    tally.calls = tally.posts = tally.finds = 0;
    const inputs = Array.from({ length: size }, (_, i) => ({ fields: { name: `inline ${size} lead ${i}` } }));
    const started = performance.now();
    const res = await g.http.request('/v1/tools/records/batchCreateRecords?format=json', {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ app_id: 3001, inputs }),
    });
    const seconds = (performance.now() - started) / 1000;
    const body = (await res.json()) as { data?: { successful?: number } };
    const chunkSeconds = seconds / Math.ceil(size / 50);
    if (size === 1) continue;
    rows.push({
      inputs: size,
      status: res.status,
      written: body.data?.successful ?? 0,
      item_posts: tally.posts,
      seconds: Number(seconds.toFixed(2)),
      seconds_per_chunk: Number(chunkSeconds.toFixed(3)),
      records_within_30s: Math.floor(30 / chunkSeconds) * 50,
    });
  }
  console.table(rows);
};

const main = async () => {
  const databaseUrl = process.env['DATABASE_URL'];
  if (!databaseUrl) throw new Error('bench:jobs needs DATABASE_URL (two instances share PostgreSQL)');
  const clock = new SystemClock();
  const podio = await PodioServer.start({
    clock,
    refreshTokens: [{ refreshToken: 'bench-jobs-refresh', userId: 5001 }],
  });
  servePodioItems(podio, clock, InMemoryPodioAccount.withDemoData());
  const tally: Tally = { calls: 0, posts: 0, finds: 0 };
  const proxy = await slowProxy(podio.baseUrl, tally);
  if (process.env['BENCH_JOBS_INLINE'] === '1') {
    const g = gatewayAt(proxy.url, podio, databaseUrl, 'inline');
    await inline(g, tally);
    console.log(`${LATENCY_MS} ms a vendor call, chunks of 50 in parallel; Node ${process.version}`);
    await g.close();
    proxy.server.close();
    await podio.close();
    return;
  }
  const rows = [];
  for (const kill of [false, true]) {
    const a = gatewayAt(proxy.url, podio, databaseUrl, kill ? 'a2' : 'a1');
    const b = gatewayAt(proxy.url, podio, databaseUrl, kill ? 'b2' : 'b1');
    b.jobs.start();
    rows.push(await run(kill ? 'killed at half' : 'undisturbed', a, b, tally, kill));
    await Promise.all([a.close(), b.close()]);
  }
  console.table(rows);
  console.log(
    `${RECORDS} records, ${LATENCY_MS} ms a vendor call, chunks of 50 in parallel, lease ${LEASE_MS / 1000} s; Node ${process.version}`,
  );
  proxy.server.close();
  await podio.close();
};

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
