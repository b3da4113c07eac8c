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
    // Vitest's default is one worker fewer than the cores: on the 2-core machines CI and developers run
    // on, that ran every file one after another. Two files at a time took the suite from 340 s to 250 s here.
    maxWorkers: 2,
    env: { [SKIP_LOG_VARIABLE]: skipLog },
    reporters: ['default', new SkipSummary(skipLog)],
  },
});
