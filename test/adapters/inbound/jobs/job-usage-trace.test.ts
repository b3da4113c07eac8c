import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SystemClock } from '../../../../adapters/outbound/system-clock.js';
import { InMemoryPodioAccount } from '../../../../adapters/outbound/memory/in-memory-podio-account.js';
import { createGateway, type Gateway } from '../../../../composition/gateway.js';
import { OtlpReceiver, type ReceivedSpan } from '../../../fakes/otlp-receiver.js';
import { PodioServer } from '../../../fakes/podio-server.js';
import { servePodioItems } from '../../../fakes/podio-items.js';
import { request } from '../../../support/gateway.js';

// A job's usage and traces, end to end (issue 40): a batch run as a job against the Podio stand-in counts its
// vendor calls to the tenant of the call that started it, in the usage records GET /v1/usage reads (every
// call the stand-in saw, no more, no fewer), and its spans (the job's execute_tool span and a CLIENT span per
// vendor call under it) continue the trace of the REST call that started it, read back from the OTLP
// receiver stand-in as the tracing tests do.

const TOKEN = 'job-usage-trace-token-0123456789';
const RECORDS = 60;
const [INTERNAL, CLIENT] = [1, 3];

let podio: PodioServer;
let receiver: OtlpReceiver;
let g: Gateway;

beforeAll(async () => {
  const clock = new SystemClock();
  podio = await PodioServer.start({ clock, refreshTokens: [{ refreshToken: 'job-usage-refresh', userId: 5001 }] });
  servePodioItems(podio, clock, InMemoryPodioAccount.withDemoData());
  receiver = await OtlpReceiver.start();
  g = createGateway({
    env: {
      GATEWAY_DEMO_TOKEN: TOKEN,
      GATEWAY_DATA_DIR: mkdtempSync(join(tmpdir(), 'job-usage-trace-')),
      RECORDS_BACKEND: 'podio',
      WORKSPACES_BACKEND: 'podio',
      PODIO_BASE_URL: podio.baseUrl,
      PODIO_CLIENT_ID: podio.clientId,
      PODIO_CLIENT_SECRET: podio.clientSecret,
      PODIO_REFRESH_TOKEN: 'job-usage-refresh',
      RATE_LIMIT_PER_MINUTE: '100000',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.tracesUrl,
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
    },
    logger: pino({ level: 'silent' }),
  });
});
afterAll(async () => {
  await g.close().catch(() => undefined);
  await podio.close();
  await receiver.close();
});

const hex = (n: number) =>
  [...crypto.getRandomValues(new Uint8Array(n))].map((b) => b.toString(16).padStart(2, '0')).join('');

const usageToday = async () => {
  const r = await request(g, 'GET', '/v1/usage', { token: TOKEN });
  expect(r.status, r.raw).toBe(200);
  return r.body.data.day;
};
const vendorCalls = async (): Promise<{ total: number; by_vendor: Record<string, number> }> =>
  (await usageToday()).vendor_calls;

/** The spans from `span` up to the trace's root, by parent. */
const ancestry = (spans: readonly ReceivedSpan[], span: ReceivedSpan): string[] => {
  const ids: string[] = [];
  let at: ReceivedSpan | undefined = span;
  while (at?.parentSpanId) {
    ids.push(at.parentSpanId);
    at = spans.find((s) => s.spanId === at!.parentSpanId);
  }
  return ids;
};

describe('a job against the Podio stand-in', () => {
  it("counts its vendor calls to the starting call's tenant, and continues that call's trace", async () => {
    const before = await vendorCalls();
    const seenBefore = podio.requests.length;
    const [traceId, callerSpan] = [hex(16), hex(8)];
    const inputs = Array.from({ length: RECORDS }, (_, i) => ({ fields: { name: `Counted lead ${i}` } }));
    const started = await request(g, 'POST', '/v1/tools/records/batchCreateRecords', {
      body: { app_id: 3001, inputs },
      token: TOKEN,
      headers: { prefer: 'respond-async', traceparent: `00-${traceId}-${callerSpan}-01` },
    });
    expect(started.status, started.raw).toBe(202);
    const location = started.headers.get('location')!;
    let job: any;
    for (let i = 0; i < 800; i++) {
      job = (await request(g, 'GET', location, { token: TOKEN })).body.data;
      if (['completed', 'failed', 'cancelled'].includes(job?.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(job, JSON.stringify(job)).toMatchObject({ status: 'completed', progress: { done: RECORDS, failed: 0 } });
    const seen = podio.requests.length - seenBefore; // the token endpoint too: a vendor call as any other
    expect(podio.apiRequests().filter((r) => r.method === 'POST' && r.path === '/item/app/3001/')).toHaveLength(
      RECORDS,
    );
    expect(podio.violations).toEqual([]);

    // Usage: every vendor call the stand-in saw for this job is counted to the tenant (added about once a second).
    let after = await vendorCalls();
    for (let i = 0; i < 200 && after.total - before.total < seen; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      after = await vendorCalls();
    }
    expect(after.total - before.total).toBe(seen);
    expect(Object.keys(after.by_vendor)).toHaveLength(1);
    expect(Object.values(after.by_vendor)[0]! - (Object.values(before.by_vendor)[0] ?? 0)).toBe(seen);
    // The job is one tool call: the call that started it is `accepted`, its run `ok`.
    expect((await usageToday()).tool_calls.by_tool['records_batchCreateRecords']).toEqual({ accepted: 1, ok: 1 });

    // Traces: closing the gateway flushes its spans to the receiver.
    await g.close();
    const spans = receiver.trace(traceId);
    const runs = spans.filter((s) => s.kind === INTERNAL && s.name === 'execute_tool records_batchCreateRecords');
    // The REST call that queued the job, and the job's run: both in the caller's trace, under the caller's span.
    expect(runs, JSON.stringify(spans.map((s) => s.name))).toHaveLength(2);
    for (const run of runs) expect(ancestry(spans, run)).toContain(callerSpan);
    const writes = spans.filter((s) => s.kind === CLIENT && s.name === 'POST /item/app/{id}/');
    expect(writes).toHaveLength(RECORDS);
    // Each vendor write is the child of the job's run (not of the call that queued it, which answered at once).
    const runIds = new Set(runs.map((r) => r.spanId));
    const parents = new Set(writes.map((w) => w.parentSpanId));
    expect(parents.size).toBe(1);
    expect(runIds.has([...parents][0]!)).toBe(true);
    expect(spans.filter((s) => s.kind === CLIENT).length).toBe(seen);
  }, 60_000);
});
