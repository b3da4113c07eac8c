import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';

// The server entry under a real signal. GATEWAY_ENTRY=dist/composition/main.js runs the built server
// (CI does, after the build); by default the sources run through tsx.
const root = resolve(import.meta.dirname, '../..');
const entry = process.env['GATEWAY_ENTRY'];
const args = entry ? [entry] : ['--import', 'tsx', 'composition/main.ts'];
const token = 'shutdown-test-token-123';

it('finishes every in-flight request after SIGTERM, then exits 0', async () => {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, PORT: '0', GATEWAY_DEMO_TOKEN: token, GATEWAY_SIMULATED_LATENCY_MS: '700', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const base = await new Promise<string>((ok, fail) => {
    const timer = setInterval(() => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearInterval(timer);
        ok(m[1]!);
      }
    }, 50);
    setTimeout(() => fail(new Error(`no start: ${out}`)), 20_000);
  });

  const call = () =>
    fetch(`${base}/v1/tools/crm/getContact`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: '{"contact_id":"101"}' }).then(async (r) => ({
      status: r.status,
      body: await r.text(),
    }));
  const inFlight = Array.from({ length: 8 }, call);
  await new Promise((r) => setTimeout(r, 250));
  child.kill('SIGTERM');
  const answers = await Promise.all(inFlight);
  expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
  expect(answers.every((a) => a.body.includes('Maria Alvarez'))).toBe(true);
  expect(await exited).toBe(0);
  await expect(call()).rejects.toThrow();
}, 40_000);
