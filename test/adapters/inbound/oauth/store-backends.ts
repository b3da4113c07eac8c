import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { openEmbedded, openPostgres, type OpenDatabase } from '../../../../adapters/outbound/persistence/databases.js';
import { postgresForTests } from '../../../support/postgres.js';

// The databases the OAuth store's tests run on: the embedded SQLite (a folder of the file's own) and
// PostgreSQL (skipped with its reason when none is reachable). Call once at a file's top level: it registers
// the file's beforeAll and afterAll.

export interface StoreBackend {
  readonly name: 'embedded SQLite' | 'PostgreSQL';
  open(): Promise<OpenDatabase>;
  /** Why this backend's tests skip, or undefined when they run (known once the file's beforeAll ran). */
  skipped(): string | undefined;
}

export const oauthStoreBackends = (folderPrefix: string): readonly StoreBackend[] => {
  const dirs: string[] = [];
  let pgUrl: string | undefined;
  let pgSkip: string | undefined;
  let stopPg: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const found = await postgresForTests();
    if ('skip' in found) pgSkip = found.skip;
    else {
      pgUrl = found.url;
      stopPg = found.stop;
    }
  });
  afterAll(async () => {
    await stopPg?.();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  return [
    {
      name: 'embedded SQLite',
      open: () => {
        const dir = mkdtempSync(join(tmpdir(), folderPrefix));
        dirs.push(dir);
        return Promise.resolve(openEmbedded(dir));
      },
      skipped: () => undefined,
    },
    { name: 'PostgreSQL', open: () => openPostgres(pgUrl!, 4), skipped: () => pgSkip },
  ];
};
