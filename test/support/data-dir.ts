import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A data dir of this test process's own (the embedded database), so that test files never write into
 * the work tree's ./.gateway-data, and parallel test processes never share one.
 */
export const TEST_DATA_DIR = mkdtempSync(join(tmpdir(), 'gateway-test-data-'));
process.once('exit', () => rmSync(TEST_DATA_DIR, { recursive: true, force: true }));
