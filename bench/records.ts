// filterRecords and aggregateRecords over 100,000 in-memory records, through the use cases.
// Run: npx tsx bench/records.ts
import 'reflect-metadata';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { InMemoryPodioAccount } from '../adapters/outbound/memory/in-memory-podio-account.js';
import { LEADS_APP, seedDemoRecords } from '../adapters/outbound/memory/demo/records.js';
import { InMemoryRecords } from '../adapters/outbound/memory/in-memory-records.js';
import { FixedClock } from '../adapters/outbound/system-clock.js';
import { AggregateRecords, AggregateRecordsParams } from '../application/records/aggregate-records.js';
import { FilterRecords, FilterRecordsParams } from '../application/records/filter-records.js';
import { TE } from '../domain/shared/fp.js';

const clock = new FixedClock(new Date('2026-11-21T10:00:00Z'));
const store = new InMemoryRecords({ clock, account: InMemoryPodioAccount.withDemoData() });
const t0 = performance.now();
seedDemoRecords(store, { properties: 500, leads: 100_000, deals: 200 });
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} before seeding`,
);
console.log(`seeded ${store.countActive(LEADS_APP)} leads in ${Math.round(performance.now() - t0)} ms`);
const settings = { timeZone: 'UTC', activeProfileId: () => TE.right(9101) };
// The executor decodes the arguments (filling in defaults) before a use case runs; so does the bench.
const filterRecords = new FilterRecords(store, store, settings, clock);
const filter = {
  execute: (args: unknown) => {
    const decoded = FilterRecordsParams.decode(args);
    if (decoded._tag === 'Left') throw new Error('bench: invalid filterRecords arguments');
    return filterRecords.execute(decoded.right);
  },
};
const aggregateRecords = new AggregateRecords(store, store, settings, clock);
const aggregate = {
  execute: (args: unknown) => {
    const decoded = AggregateRecordsParams.decode(args);
    if (decoded._tag === 'Left') throw new Error('bench: invalid aggregateRecords arguments');
    return aggregateRecords.execute(decoded.right);
  },
};

const cases: [string, () => Promise<unknown>][] = [
  [
    'filter: status incomplete + score >= 50 (limit 100)',
    () =>
      filter.execute({
        app_id: LEADS_APP,
        filters: [
          { field_id: 'status', match_type: 'incomplete' },
          { field_id: 'score', match_type: 'larger_or_equal', values: [{ value: 50 }] },
        ],
      })(),
  ],
  [
    'filter: name contains "ana" + created -90d',
    () =>
      filter.execute({
        app_id: LEADS_APP,
        filters: [
          { field_id: 'name', match_type: 'contains', values: [{ value: 'ana' }] },
          { field_type: 'created_on', match_type: 'on_or_after', values: [{ value: '-90d' }] },
        ],
      })(),
  ],
  [
    'filter: motivation any [1,3], sort by score desc',
    () =>
      filter.execute({
        app_id: LEADS_APP,
        filters: [{ field_id: 'motivation', match_type: 'any', values: [{ value: 1 }, { value: 3 }] }],
        sort_by: 'score',
        sort_desc: true,
      })(),
  ],
  ['filter: count_only, all records', () => filter.execute({ app_id: LEADS_APP, filters: [], count_only: true })()],
  [
    'aggregate: sum/avg budget by status',
    () =>
      aggregate.execute({
        app_id: LEADS_APP,
        aggregations: [
          { field_id: 'budget', operation: 'sum' },
          { field_id: 'budget', operation: 'avg' },
        ],
        group_by: { field_id: 'status' },
      })(),
  ],
  [
    'aggregate: count by first-contact month, score >= 50',
    () =>
      aggregate.execute({
        app_id: LEADS_APP,
        filters: [{ field_id: 'score', match_type: 'larger_or_equal', values: [{ value: 50 }] }],
        aggregations: [{ field_id: 'score', operation: 'avg' }],
        group_by: { field_id: 'first-contact', interval: 'month' },
      })(),
  ],
];

for (const [name, run] of cases) {
  for (let i = 0; i < 3; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const s = performance.now();
    const r = (await run()) as { _tag: string; left?: { message: string } };
    if (r._tag !== 'Right') throw new Error(`${name}: ${r.left?.message}`);
    times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  console.log(`${name.padEnd(56)} median ${times[10]!.toFixed(1)} ms   p95 ${times[18]!.toFixed(1)} ms`);
}
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} after the runs`,
);
