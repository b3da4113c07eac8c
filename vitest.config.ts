import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { SKIP_LOG_VARIABLE, SkipSummary } from './test/support/skip-summary.js';

// Where the test files register why they skip (test/support/skips.ts); the summary prints them at the end.
const skipLog = join(tmpdir(), `tool-gateway-skips-${process.pid}.jsonl`);

/**
 * The test files that must run alone: the adversarial ones (several watch the event loop for stalls over
 * 200 ms, and a file on the other core shows up as 238 ms spikes), the headless-Chromium pages, and the ones
 * that time shutdowns, parser threads or the first minutes of a start.
 */
export const ALONE = [
  'test/adversarial/**',
  'test/**/*.browser.test.ts',
  'test/composition/shutdown.test.ts',
  'test/composition/first-minutes.test.ts',
  'test/adapters/outbound/documents/parser-pool.test.ts',
];

// TEST_SET (scripts/test.mjs, which `npm test` runs): `together` runs every other file two at a time (one per
// core: 490 s down to about 370 s for the whole suite on 2 cores), `alone` runs ALONE one file at a time.
// Unset (`npx vitest run`): every file, one at a time.
const set = process.env['TEST_SET'];

export default defineConfig({
  test: {
    include: set === 'alone' ? ALONE.map((g) => (g.endsWith('**') ? `${g}/*.test.ts` : g)) : ['test/**/*.test.ts'],
    ...(set === 'together' ? { exclude: ALONE, maxWorkers: 2 } : { maxWorkers: 1 }),
    setupFiles: ['test/setup.ts'],
    // A PostgreSQL database of the run's own, dropped at its end (test/support/postgres-database.ts).
    globalSetup: ['test/support/postgres-database.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    env: { [SKIP_LOG_VARIABLE]: skipLog },
    reporters: ['default', new SkipSummary(skipLog)],
  },
});
