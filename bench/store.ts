import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbedded, openPostgres, type OpenDatabase } from '../adapters/outbound/persistence/databases.js';
import { SqlAuditLog } from '../adapters/outbound/persistence/sql-audit-log.js';

// The embedded store's budget (issue 13): resident memory it adds, time of the first open (load SQLite's
// WebAssembly, create the file, migrate), and the p95 of one durable audit write once the table holds
// 100,000 rows. With DATABASE_URL set, the same write figures for PostgreSQL.
//
//   npx tsx bench/store.ts            (embedded, in a temp dir)
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/store.ts

const ROWS = 100_000;
const SAMPLES = 500;

const measure = async (name: string, open: () => Promise<OpenDatabase>) => {
  global.gc?.();
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  const db = await open();
  const openMs = performance.now() - t0;
  const rssOpen = process.memoryUsage().rss - rss0;
  const audit = new SqlAuditLog(async () => db.db);
  const tenant = `bench-${Date.now()}`;
  const row = (i: number) => ({
    at: new Date(1_700_000_000_000 + i * 1000).toISOString(),
    tenant,
    principal: 'key:bench',
    tool: 'crm_createContact',
    vendor: 'hubspot',
    targets: JSON.stringify([String(i)]),
    status: 200,
    code: null,
    request_id: `r-${i}`,
    purpose: null,
  });
  const fill = performance.now();
  for (let i = 0; i < ROWS; i += 1000) {
    const batch = Array.from({ length: 1000 }, (_, j) => row(i + j));
    await db.db.insertInto('gateway_audit').values(batch).execute();
  }
  const fillMs = performance.now() - fill;
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const s = performance.now();
    await audit.record({
      at: new Date(),
      tenant,
      principal: 'key:bench',
      tool: 'crm_deleteContact',
      vendor: 'hubspot',
      targets: [String(i)],
      status: 200,
      requestId: `w-${i}`,
    });
    times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.floor(times.length * p)]!.toFixed(2);
  const rssAll = process.memoryUsage().rss - rss0;
  console.log(`${name}`);
  console.log(`  first open (load, create, migrate): ${openMs.toFixed(0)} ms; RSS +${(rssOpen / 1e6).toFixed(1)} MB`);
  console.log(`  ${ROWS} audit rows written in ${(fillMs / 1000).toFixed(1)} s (batches of 1,000)`);
  console.log(
    `  one durable audit write with ${ROWS}+ rows: p50 ${pct(0.5)} ms, p95 ${pct(0.95)} ms, p99 ${pct(0.99)} ms`,
  );
  console.log(`  RSS after all of it: +${(rssAll / 1e6).toFixed(1)} MB`);
  await db.db.deleteFrom('gateway_audit').where('tenant', '=', tenant).execute();
  await db.db.destroy();
};

const url = process.env['DATABASE_URL'];
if (url) await measure('PostgreSQL', () => openPostgres(url));
else {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-bench-store-'));
  try {
    await measure('embedded SQLite (node-sqlite3-wasm, WAL, synchronous=FULL)', () => openEmbedded(dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
