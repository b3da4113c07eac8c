// `npm test` and `npm run test:runtime`: the test files that may share the machine two at a time, then the ones
// that must run alone (vitest.config.ts, ALONE), passing the same file filters to both runs. Exits with the
// first failing run's code.
import { spawnSync } from 'node:child_process';

const filters = process.argv.slice(2);
for (const set of ['together', 'alone']) {
  const run = spawnSync('npx', ['vitest', 'run', '--passWithNoTests', ...filters], {
    stdio: 'inherit',
    env: { ...process.env, TEST_SET: set },
  });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
