import { appendFileSync } from 'node:fs';
import { expect } from 'vitest';
import { SKIP_LOG_VARIABLE } from './skip-summary.js';

// Why a suite is skipped on this machine, and what enables it. A test file (or a helper it calls) registers
// the reason where it decides to skip; `npm test` prints every reason once at the end of the run, with the
// files it applies to (test/support/skip-summary.ts, wired in vitest.config.ts).

/** One registered reason: the test file that skipped and why (naming the variable or install that enables it). */
export interface SkipRecord {
  readonly file: string;
  readonly reason: string;
}

/** Records that the current test file skips some of its tests, and why. Outside `npm test` it does nothing. */
export const registerSkip = (reason: string): void => {
  const log = process.env[SKIP_LOG_VARIABLE];
  if (!log) return;
  const record: SkipRecord = { file: expect.getState().testPath ?? 'an unknown test file', reason };
  // One short append per reason: whole lines, even with several workers writing at once.
  appendFileSync(log, `${JSON.stringify(record)}\n`);
};

/**
 * `describe.skipIf(skipUnless(condition, reason))`: true (skip) when the condition is false, after
 * registering the reason for the summary; false (run) otherwise.
 */
export const skipUnless = (condition: unknown, reason: string): boolean => {
  if (condition) return false;
  registerSkip(reason);
  return true;
};

/** The reasons several files share, so that the summary names each once. */
export const SKIP_REASONS = {
  redis: 'Redis suites: set REDIS_URL (for example redis://127.0.0.1:6379), or run a Docker engine for testcontainers.',
  postgres:
    'PostgreSQL suites: set DATABASE_URL (for example postgres://postgres@127.0.0.1:5432/test), run PostgreSQL on 127.0.0.1:5432 with a database "test", or run a Docker engine for testcontainers.',
  redisServer: 'Redis-loss suite: install redis-server (on PATH; the suite starts, stalls and kills its own).',
  chromium: `Browser tests: install Chromium at /usr/bin/chromium (bash .ci/install-chromium) or set CHROMIUM_PATH.`,
} as const;
