import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { SKIP_LOG_VARIABLE, SkipSummary } from './test/support/skip-summary.js';

// Where the test files register why they skip (test/support/skips.ts); the summary prints them at the end.
const skipLog = join(tmpdir(), `tool-gateway-skips-${process.pid}.jsonl`);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // One file at a time (Vitest's default on 2 cores). Two at a time took the suite from 340 s to 250 s, but
    // the adversarial tests that watch the event loop (no stall over 200 ms) then saw 238 ms spikes caused by
    // the other file on the other core; those tests are the point, so CI runs slower instead.
    env: { [SKIP_LOG_VARIABLE]: skipLog },
    reporters: ['default', new SkipSummary(skipLog)],
  },
});
