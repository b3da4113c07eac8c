// The scale-out test (issue 32): the topology of deploy/compose.yaml as processes on this machine. Three
// BUILT gateways (plain node) on the machine's PostgreSQL and Redis, behind haproxy from Debian's packages,
// with a HubSpot stand-in as the shared vendor. It checks what an operator who runs many instances relies on:
//
//   1. a connection made through instance 1 is used by instance 2's next call (Redis pub/sub, not the 30 s re-read);
//   2. rate limits are global: a principal's limit holds across the three instances together;
//   3. an idempotent write sent to instance 1 and again to instance 2 reaches HubSpot once, answers the same,
//      and the audit log counts it once (the replay marked as one);
//   4. tenants stay isolated (another tenant neither uses the connection nor reads the audit);
//   5. an instance stopped (SIGTERM) under load through haproxy fails no call;
//   6. an instance killed (SIGKILL) under load fails only the calls that were in flight on it;
//   7. (run before 5 and 6, while all three serve) a 2025-era approval answered through another instance
//      than the one holding the call, on 2025-06-18 and 2025-11-25, and through haproxy without affinity
//      (approval.ts).
//
//   npm run build && npm run test:scale-out        (REDIS_URL and DATABASE_URL set; haproxy on PATH or /usr/sbin)
//
// Without haproxy, Redis or PostgreSQL it says what is missing and exits 0 (CI installs haproxy with
// .ci/install-haproxy and sets both URLs). Any failed check exits 1.

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { HubSpotServer } from '../fakes/hubspot-server.js';
import { approvalsAcrossInstances } from './approval.js';

const root = resolve(import.meta.dirname, '../..');
const entry = resolve(process.env['GATEWAY_ENTRY'] ?? join(root, 'dist/composition/main.js'));
const haproxyBin = ['/usr/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/sbin/haproxy'].find((p) => existsSync(p));
const { REDIS_URL: redisUrl, DATABASE_URL: databaseUrl } = process.env;
/** Concurrent callers in the load steps (each with one call out at a time). */
const WORKERS = 6;

const missing = [
  !haproxyBin && 'haproxy (bash .ci/install-haproxy)',
  !redisUrl && 'REDIS_URL',
  !databaseUrl && 'DATABASE_URL',
  !existsSync(entry) && `${entry} (npm run build)`,
].filter(Boolean);
if (missing.length) {
  process.stdout.write(`scale-out test SKIPPED: needs ${missing.join(', ')}\n`);
  process.exit(0);
}

let failures = 0;
const check = (ok: boolean, what: string, detail = '') => {
  if (!ok) failures++;
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${what}${detail ? `: ${detail}` : ''}\n`);
};

const freePort = async (): Promise<number> => {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise((ok) => probe.close(ok));
  return port;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = async (done: () => Promise<boolean>, ms: number): Promise<number> => {
  const started = Date.now();
  while (!(await done().catch(() => false))) {
    if (Date.now() - started > ms) return -1;
    await sleep(20);
  }
  return Date.now() - started;
};

const run = randomBytes(4).toString('hex');
const tenant = `so-${run}`;
const otherTenant = `so-other-${run}`;
const token = (name: string) => `so-${name}-${run}-${randomUUID()}`;
const ADMIN = token('admin');
const LIMITED = token('limited');
const LOAD = token('load');
const OTHER = token('other');
const HUBSPOT_TOKEN = 'pat-na1-scale-out';
const CRM_PER_MINUTE = 20;

const children: ChildProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), 'scale-out-'));
const stopAll = async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
  await Promise.all(
    children.map((c) => (c.exitCode === null && c.signalCode === null ? once(c, 'exit') : Promise.resolve())),
  );
  rmSync(dir, { recursive: true, force: true });
};

const startProcess = async (cmd: string, args: string[], env: NodeJS.ProcessEnv, ready: RegExp, what: string) => {
  const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let log = '';
  const seen = new Promise<void>((ok, fail) => {
    const look = (d: Buffer) => {
      log += d.toString();
      if (ready.test(log)) ok();
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    child.on('exit', (code) => fail(new Error(`${what} exited (${code}) during start-up:\n${log}`)));
    setTimeout(() => fail(new Error(`${what} did not start in 30 s:\n${log}`)), 30_000).unref();
  });
  await seen;
  return { child, log: () => log };
};

/** The shipped haproxy's balancing algorithm and timeouts (deploy/haproxy.cfg). */
const shippedHaproxy = () => {
  const text = readFileSync(join(root, 'deploy/haproxy.cfg'), 'utf8');
  const setting = (re: RegExp) => {
    const m = re.exec(text);
    if (!m) throw new Error(`deploy/haproxy.cfg has no ${re.source}`);
    return m[1]!;
  };
  return {
    balance: setting(/^\s*balance\s+(\S+)\s*$/m),
    client: setting(/^\s*timeout client\s+(\S+)\s*$/m),
    server: setting(/^\s*timeout server\s+(\S+)\s*$/m),
  };
};

const main = async () => {
  const shipped = shippedHaproxy();
  const hubspot = await HubSpotServer.start({ accessTokens: [HUBSPOT_TOKEN] });
  const [p1, p2, p3, front, shippedFront] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  const base = `http://127.0.0.1:${front}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'],
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: base,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: `so-${run}:`,
    GATEWAY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    GATEWAY_CONFIRM_SECRET: randomBytes(32).toString('hex'),
    GATEWAY_DATA_DIR: dir,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000',
    RATE_LIMIT_GROUPS: JSON.stringify({ crm: CRM_PER_MINUTE }),
    CRM_BACKEND: 'hubspot',
    HUBSPOT_BASE_URL: hubspot.baseUrl,
    HUBSPOT_CLIENT_ID: hubspot.oauth.clientId,
    HUBSPOT_CLIENT_SECRET: hubspot.oauth.clientSecret,
    GATEWAY_API_KEYS: JSON.stringify([
      { name: 'admin', token: ADMIN, permissions: ['*'], tenant },
      { name: 'limited', token: LIMITED, permissions: ['crm:read'], tenant },
      { name: 'load', token: LOAD, permissions: ['records:read'], tenant },
      { name: 'other', token: OTHER, permissions: ['*'], tenant: otherTenant },
    ]),
  };
  const instances: Awaited<ReturnType<typeof startProcess>>[] = [];
  for (const port of [p1, p2, p3]) {
    // one after another: the first applies the migrations under the advisory lock, the others find none
    instances.push(
      await startProcess(process.execPath, [entry], { ...env, PORT: String(port) }, /listening on/, `gateway :${port}`),
    );
  }
  const cfg = join(dir, 'haproxy.cfg');
  writeFileSync(
    cfg,
    [
      'global',
      '    maxconn 1024',
      'defaults',
      '    mode http',
      '    timeout connect 2s',
      '    timeout client 30s',
      '    timeout server 30s',
      '    retries 2',
      '    option redispatch',
      'frontend gateway',
      `    bind 127.0.0.1:${front}`,
      '    default_backend gateways',
      'backend gateways',
      '    balance roundrobin',
      '    option httpchk',
      '    http-check send meth GET uri /readyz',
      '    http-check expect status 200',
      '    default-server check inter 300ms fall 2 rise 1',
      ...[p1, p2, p3].map((p, i) => `    server gateway-${i + 1} 127.0.0.1:${p}`),
      // The shipped deploy/haproxy.cfg's balancing and timeouts (no stick table), for step 7's approvals.
      'frontend shipped',
      `    bind 127.0.0.1:${shippedFront}`,
      `    timeout client ${shipped.client}`,
      '    default_backend shipped',
      'backend shipped',
      `    balance ${shipped.balance}`,
      `    timeout server ${shipped.server}`,
      ...[p1, p2, p3].map((p, i) => `    server shipped-${i + 1} 127.0.0.1:${p}`),
      '',
    ].join('\n'),
  );
  const haproxy = spawn(haproxyBin!, ['-db', '-f', cfg], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(haproxy);
  const up = await until(async () => (await fetch(`${base}/readyz`)).status === 200, 10_000);
  if (up < 0) throw new Error('haproxy did not answer /readyz within 10 s');
  await sleep(1_000); // every server checked at least twice

  const call = (to: string, tool: string, body: unknown, key: string, headers: Record<string, string> = {}) =>
    fetch(`${to}/v1/tools/${tool}?format=json`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, headers: r.headers, body: (await r.json()) as any }));
  const direct = (port: number) => `http://127.0.0.1:${port}`;
  const getContact = (to: string, key: string) => call(to, 'crm/getContact', { contact_id: '101' }, key);

  // 1. A connection made through instance 1 is used by instance 2's next call.
  const before = await getContact(direct(p2), ADMIN);
  check(before.body?.error?.code === 'NOT_CONNECTED', 'instance 2 answers NOT_CONNECTED before', String(before.status));
  const saved = await fetch(`${direct(p1)}/v1/connections/hubspot`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ key: HUBSPOT_TOKEN }),
  });
  check(saved.status === 201, 'a connection made through instance 1', String(saved.status));
  const seenIn = await until(async () => (await getContact(direct(p2), ADMIN)).status === 404, 2_000);
  check(seenIn >= 0, "instance 2's next call uses it (reaches HubSpot)", seenIn >= 0 ? `${seenIn} ms` : 'not in 2 s');

  // 2. Rate limits are global: CRM_PER_MINUTE calls a minute for one principal, across the three instances.
  const answers = [];
  for (let i = 0; i < CRM_PER_MINUTE + 10; i++) answers.push(await getContact(base, LIMITED));
  const served = answers.filter((a) => a.status === 404).length;
  const limited = answers.filter((a) => a.status === 429).length;
  check(
    served === CRM_PER_MINUTE && limited === 10,
    `rate limit global over three instances (${CRM_PER_MINUTE}/min)`,
    `${served} served, ${limited} refused`,
  );

  // 3. An idempotent write replayed on another instance: HubSpot sees it once; audited once.
  const created = () => hubspot.requests.filter((r) => r.method === 'POST' && /contacts$/.test(r.path)).length;
  const createsBefore = created();
  const key = `so-${randomUUID()}`;
  const write = (port: number) =>
    call(direct(port), 'crm/createContact', { values: { email: `so-${run}@example.com` } }, ADMIN, {
      'idempotency-key': key,
    });
  const first = await write(p1);
  const again = await write(p2);
  check(first.status === 200 && again.status === 200, 'a write and its replay on another instance answer 200');
  check(JSON.stringify(first.body) === JSON.stringify(again.body), 'the replay answers the same');
  check(again.headers.get('idempotent-replayed') === 'true', 'the replay says it is one');
  check(created() - createsBefore === 1, 'HubSpot saw the write once', `${created() - createsBefore}`);
  const audit = await fetch(`${direct(p3)}/v1/audit?tool=crm_createContact`, {
    headers: { authorization: `Bearer ${ADMIN}` },
  }).then((r) => r.json() as Promise<any>);
  const rows = (audit?.data?.entries ?? []) as { replay?: boolean }[];
  check(
    rows.filter((e) => !e.replay).length === 1,
    'the audit log counts the write once',
    `${rows.length} rows, ${rows.filter((e) => e.replay).length} marked as replays`,
  );

  // 4. Another tenant neither uses the connection nor reads the audit.
  const other = await getContact(base, OTHER);
  check(other.body?.error?.code === 'NOT_CONNECTED', "another tenant does not use this tenant's connection");
  const otherAudit = await fetch(`${base}/v1/audit?tool=crm_createContact`, {
    headers: { authorization: `Bearer ${OTHER}` },
  }).then((r) => r.json() as Promise<any>);
  check((otherAudit?.data?.entries ?? []).length === 0, "another tenant does not read this tenant's audit");

  // 7. A 2025-era approval answered through another instance than the one holding the call.
  await approvalsAcrossInstances({
    check,
    hubspot,
    token: ADMIN,
    createContact: async (email) => {
      const made = await call(base, 'crm/createContact', { values: { email } }, ADMIN);
      if (made.status !== 200) throw new Error(`createContact answered ${made.status}: ${JSON.stringify(made.body)}`);
      return String(made.body.data.id);
    },
    holder: direct(p1),
    other: direct(p2),
    balancer: `http://127.0.0.1:${shippedFront}`,
    run,
  });

  // Calls through haproxy from six workers until `stop` has run and 1.5 s more have passed; each failure with
  // the time its call was sent.
  const underLoad = async (stop: () => Promise<void>) => {
    let running = true;
    let calls = 0;
    const failed: { readonly sentAt: number; readonly what: string }[] = [];
    const worker = async () => {
      while (running) {
        const sentAt = performance.now();
        const r = await call(base, 'records/listApps', {}, LOAD).catch((e: Error) => ({
          status: 0,
          body: `${e.message} (${String((e.cause as { code?: string } | undefined)?.code ?? e.cause)})`,
        }));
        calls++;
        if (r.status !== 200) failed.push({ sentAt, what: `${r.status} ${JSON.stringify(r.body).slice(0, 120)}` });
      }
    };
    const load = Promise.all(Array.from({ length: WORKERS }, worker));
    await sleep(1_000);
    const stoppedAt = performance.now();
    await stop();
    const goneAt = performance.now();
    await sleep(1_500);
    running = false;
    await load;
    const said = `${calls} calls, ${failed.length} failed${
      failed.length
        ? `: ${failed
            .slice(0, 3)
            .map((f) => f.what)
            .join(' | ')}`
        : ''
    }`;
    return { calls, failed, stoppedAt, goneAt, said };
  };

  // 5. Under load through haproxy, instance 3 is stopped (SIGTERM, as a rolling update does): no call fails.
  const stopped = await underLoad(async () => {
    instances[2]!.child.kill('SIGTERM');
    await once(instances[2]!.child, 'exit');
  });
  check(
    stopped.failed.length === 0 && stopped.calls > 50,
    'an instance stopped under load fails no call',
    stopped.said,
  );

  // 6. Under load, instance 2 is killed (SIGKILL: a crash, no draining): the only calls that may fail are those
  // in flight on it: of the calls sent before the kill at most as many as the workers (each has one call out
  // at a time), and any sent while it was dying (between the signal and its exit, which takes a few ms: a
  // worker whose call failed at once sends the next); every call sent after it exited is served by instance 1
  // (haproxy sends a refused connection to another server, and its check takes the dead one out).
  const killed = await underLoad(async () => {
    instances[1]!.child.kill('SIGKILL');
    await once(instances[1]!.child, 'exit');
  });
  const late = killed.failed.filter((f) => f.sentAt >= killed.goneAt);
  const beforeKill = killed.failed.filter((f) => f.sentAt < killed.stoppedAt);
  check(
    killed.calls > 50 && late.length === 0 && beforeKill.length <= WORKERS,
    'an instance killed under load fails only calls in flight on it',
    `${killed.said}; ${beforeKill.length} of the failures sent before the kill, ${
      killed.failed.length - beforeKill.length - late.length
    } while it was dying, ${late.length} after it exited`,
  );

  await hubspot.close();
};

const started = Date.now();
main()
  .catch((error: unknown) => {
    failures++;
    process.stdout.write(`FAIL the scale-out test could not run: ${(error as Error).stack ?? String(error)}\n`);
  })
  .finally(async () => {
    await stopAll();
    process.stdout.write(
      `scale-out test: ${failures === 0 ? 'passed' : `${failures} failed`} in ${Date.now() - started} ms\n`,
    );
    process.exit(failures === 0 ? 0 : 1);
  });
