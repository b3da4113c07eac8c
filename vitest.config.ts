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
    env: { [SKIP_LOG_VARIABLE]: skipLog },
    reporters: ['default', new SkipSummary(skipLog)],
  },
});
