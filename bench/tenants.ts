import 'reflect-metadata';
import pino from 'pino';
import { createGateway, principal } from '../composition/gateway.js';

// What one memory-mode tenant costs: heap after N tenants each made one call to every group (so every
// group's demo account is seeded), and the time of a tenant's first call (its container and demo data).
//
//   npx tsx --expose-gc bench/tenants.ts [tenants=200]

const count = Number(process.argv[2] ?? 200);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc (npx tsx --expose-gc bench/tenants.ts)');

const gateway = createGateway({ env: { GATEWAY_TENANTS_MAX: String(count + 10) }, logger: pino({ level: 'silent' }) });
const calls: [string, unknown][] = [
  ['crm_getContact', { contact_id: '101' }],
  ['files_listChildren', { folder_id: 'home' }],
  ['records_getRecord', { record_id: '4001' }],
  ['workspaces_getOrganizations', {}],
  ['skiptrace_skipTraceProperty', { street: '1011 Rosegold St', zip: '11010' }],
];
const warm = principal('warm', ['*'], 'warm-up');
for (const [name, args] of calls) await gateway.callTool(name, args, { principal: warm });

gc();
const before = process.memoryUsage().heapUsed;
const firstCall: number[] = [];
for (let i = 0; i < count; i++) {
  const who = principal('bench', ['*'], `tenant-${i}`);
  const start = performance.now();
  await gateway.callTool('crm_getContact', { contact_id: '101' }, { principal: who });
  firstCall.push(performance.now() - start);
  for (const [name, args] of calls.slice(1)) await gateway.callTool(name, args, { principal: who });
}
gc();
const after = process.memoryUsage().heapUsed;
firstCall.sort((a, b) => a - b);
const pct = (p: number) => firstCall[Math.min(firstCall.length - 1, Math.floor(firstCall.length * p))]!.toFixed(2);
console.log(`tenants: ${count}`);
console.log(`heap per tenant (every group seeded): ${((after - before) / count / 1024).toFixed(0)} KiB`);
console.log(`first call of a tenant (container + crm demo data): p50 ${pct(0.5)} ms, p95 ${pct(0.95)} ms`);
await gateway.close();
