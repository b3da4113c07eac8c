// Soak: does the gateway's memory level off under steady load across tenants (issue 38)? The built server
// (memory mode, every feature on, logging at info to /dev/null) runs with --expose-gc and a probe
// (bench/soak/probe.mjs) that reports RSS, heap and event-loop delay over IPC; 30 connections send the mixed
// REST + MCP load of bench/soak/load.ts for 15 minutes; a sample every 20 s; then a minute idle and a full GC.
//
//   npm run bench:soak                       (builds first; 15 minutes, 5 of them warm-up)
//   SOAK_MINUTES=6 SOAK_WARMUP_MINUTES=2 npx tsx bench/soak.ts      (the current build, shorter)
//   npm run bench:soak -- --ci               (3 minutes; exits 1 when memory still grows in the last minute)
//   SOAK_GATEWAY_ENV='{"LOG_LEVEL":"warn"}' ...   (other settings for the gateway)
//
// Verdicts of the full run: RSS in the last five minutes within 10% of its lowest there; RSS under the
// ceiling of docs/operations.md ("Memory under load"); the heap after idle and GC within 1.5x of the heap
// after GC at the end of the warm-up; event-loop p99 under 50 ms in every sample after the warm-up.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { startProbed, type Probe } from './soak/gateway.js';
import { DEMO_TOKEN, TENANT_KEYS, checkEveryKind, runLoad, type Tally } from './soak/load.js';

const root = resolve(import.meta.dirname, '..');
const ci = process.argv.includes('--ci');
const minutes = Number(process.env.SOAK_MINUTES ?? (ci ? 3 : 15));
const warmupMinutes = Number(process.env.SOAK_WARMUP_MINUTES ?? (ci ? 1 : 5));
const sampleSeconds = Number(process.env.SOAK_SAMPLE_SECONDS ?? 20);
const idleSeconds = Number(process.env.SOAK_IDLE_SECONDS ?? (ci ? 15 : 60));
const connections = Number(process.env.SOAK_CONNECTIONS ?? 30);
/** The RSS ceiling derived in docs/operations.md ("Memory under load"). */
const ceilingMb = Number(process.env.SOAK_RSS_CEILING_MB ?? 400);
const entry = resolve(root, process.env.GATEWAY_ENTRY ?? 'dist/composition/main.js');

const fmt = (n: number) => n.toFixed(1).padStart(7);

const main = async () => {
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run npm run build first`);
  const { child, base, ask } = await startProbed(entry, {
    GATEWAY_DEMO_TOKEN: DEMO_TOKEN,
    GATEWAY_API_KEYS: JSON.stringify(TENANT_KEYS),
    RATE_LIMIT_PER_MINUTE: '1000000',
    LOG_LEVEL: 'info',
    ...(JSON.parse(process.env.SOAK_GATEWAY_ENV ?? '{}') as Record<string, string>),
  });
  await checkEveryKind(base);
  const atStart = await ask(true);
  console.log(
    `gateway ${base}, Node ${process.versions.node}; after start and GC: RSS ${atStart.rssMb.toFixed(0)} MB, heap ${atStart.heapUsedMb.toFixed(0)} MB`,
  );
  console.log(
    `${connections} connections, ${minutes} min (warm-up ${warmupMinutes}), a sample every ${sampleSeconds} s\n`,
  );
  console.log('    t    rss   heap  heapTot  extern  arrBuf  eld p99  eld max   calls/s  failed');
  const tally: Tally = { ok: 0, failed: 0 };
  const began = Date.now();
  const endAt = began + minutes * 60_000;
  const load = runLoad(base, connections, tally, () => Date.now() >= endAt);
  const samples: Array<Probe & { t: number }> = [];
  let warmHeap: Probe | undefined;
  let lastCalls = 0;
  let lastAt = began;
  for (let next = began + sampleSeconds * 1000; next <= endAt + 1; next += sampleSeconds * 1000) {
    await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())));
    const t = (Date.now() - began) / 1000;
    const gcNow = !warmHeap && t >= warmupMinutes * 60;
    const p = await ask(gcNow);
    if (gcNow) warmHeap = p;
    const calls = tally.ok + tally.failed;
    const rate = ((calls - lastCalls) * 1000) / (Date.now() - lastAt);
    [lastCalls, lastAt] = [calls, Date.now()];
    samples.push({ ...p, t });
    console.log(
      `${t.toFixed(0).padStart(5)} ${fmt(p.rssMb)}${fmt(p.heapUsedMb)}${fmt(p.heapTotalMb)}  ${fmt(p.externalMb)}${fmt(p.arrayBuffersMb)}  ${fmt(p.eldP99Ms)}  ${fmt(p.eldMaxMs)}  ${rate.toFixed(0).padStart(7)}  ${tally.failed}${gcNow ? '   (after GC: end of warm-up)' : ''}`,
    );
  }
  await load;
  const endOfLoad = await ask(true);
  await new Promise((r) => setTimeout(r, idleSeconds * 1000));
  const idle = await ask(true);
  child.kill('SIGTERM');
  console.log(
    `\nafter the load and GC: RSS ${endOfLoad.rssMb.toFixed(0)} MB, heap ${endOfLoad.heapUsedMb.toFixed(0)} MB`,
  );
  console.log(
    `after ${idleSeconds} s idle and GC: RSS ${idle.rssMb.toFixed(0)} MB, heap ${idle.heapUsedMb.toFixed(0)} MB`,
  );
  console.log(
    `calls: ${tally.ok} answered well, ${tally.failed} not${tally.lastFailure ? ` (last: ${tally.lastFailure})` : ''}`,
  );

  const after = samples.filter((s) => s.t > warmupMinutes * 60);
  const verdicts: Array<[string, boolean]> = [];
  const heapBase = warmHeap?.heapUsedMb ?? atStart.heapUsedMb;
  if (ci) {
    // The last minute against the minute before it: the lowest RSS of each, and the heap after GC.
    const last = samples.filter((s) => s.t > (minutes - 1) * 60);
    const before = samples.filter((s) => s.t > (minutes - 2) * 60 && s.t <= (minutes - 1) * 60);
    const low = (xs: typeof samples) => Math.min(...xs.map((s) => s.rssMb));
    const growth = low(last) / low(before) - 1;
    verdicts.push([`RSS growth in the last minute ${(growth * 100).toFixed(1)}% (at most 5%)`, growth <= 0.05]);
    verdicts.push([
      `heap after GC at the end ${endOfLoad.heapUsedMb.toFixed(0)} MB vs ${heapBase.toFixed(0)} MB after the warm-up (at most 1.5x)`,
      endOfLoad.heapUsedMb <= heapBase * 1.5,
    ]);
  } else {
    const lastFive = samples.filter((s) => s.t > (minutes - 5) * 60).map((s) => s.rssMb);
    const spread = Math.max(...lastFive) / Math.min(...lastFive) - 1;
    verdicts.push([`RSS in the last five minutes within ${(spread * 100).toFixed(1)}% (at most 10%)`, spread <= 0.1]);
    const peak = Math.max(...samples.map((s) => s.rssMb));
    verdicts.push([`highest RSS ${peak.toFixed(0)} MB (ceiling ${ceilingMb} MB)`, peak <= ceilingMb]);
    verdicts.push([
      `heap after idle and GC ${idle.heapUsedMb.toFixed(0)} MB vs ${heapBase.toFixed(0)} MB after the warm-up (at most 1.5x)`,
      idle.heapUsedMb <= heapBase * 1.5,
    ]);
    const worst = Math.max(...after.map((s) => s.eldP99Ms));
    verdicts.push([`event-loop p99 at most ${worst.toFixed(1)} ms after the warm-up (under 50 ms)`, worst < 50]);
  }
  verdicts.push([`every call answered well`, tally.failed === 0]);
  console.log('');
  for (const [text, ok] of verdicts) console.log(`${ok ? 'met   ' : 'MISSED'} ${text}`);
  if (verdicts.some(([, ok]) => !ok)) process.exitCode = 1;
};

await main();
