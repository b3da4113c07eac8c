import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../adapters/outbound/persistence/databases.js';
import { migrateOAuth } from '../../adapters/outbound/persistence/oauth-store.js';
import { migrateSettings } from '../../composition/migrate.js';
import { postgresForTests } from '../support/postgres.js';

// The migration entry (issue 32: the Kubernetes Job and the compose service that migrate once before the
// gateways start): `node dist/composition/migrate.js`. MIGRATE_ENTRY=dist/composition/migrate.js runs the
// build; by default the sources run through tsx. Each run here gets a database of its own, made and dropped.

const root = resolve(import.meta.dirname, '../..');
const entry = process.env['MIGRATE_ENTRY'];
const args = entry ? [entry] : ['--import', 'tsx', 'composition/migrate.ts'];

const run = (env: Record<string, string>): Promise<{ code: number | null; output: string }> =>
  new Promise((done) => {
    const { DATABASE_URL: _omitted, ...rest } = process.env;
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...rest, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('exit', (code) => done({ code, output }));
  });

describe('migrateSettings', () => {
  it('reads DATABASE_URL and GATEWAY_DATA_DIR as the gateway does, and names a bad one', () => {
    expect(migrateSettings({})).toEqual({ dataDir: './.gateway-data' });
    expect(migrateSettings({ DATABASE_URL: 'postgres://u@h/db', GATEWAY_DATA_DIR: '/data' })).toEqual({
      databaseUrl: 'postgres://u@h/db',
      dataDir: '/data',
    });
    expect(migrateSettings({ DATABASE_URL: 'mysql://u@h/db' })).toEqual({
      problem: expect.stringContaining('DATABASE_URL must be a postgres:// or postgresql:// URL') as string,
    });
  });
});

const found = await postgresForTests();
if ('skip' in found) console.warn(found.skip);

describe.skipIf('skip' in found)('node dist/composition/migrate.js against PostgreSQL', () => {
  const base = 'url' in found ? found.url : '';
  const name = `gw_migrate_${randomBytes(6).toString('hex')}`;
  const fresh = (() => {
    const u = new URL(base);
    u.pathname = `/${name}`;
    return u.toString();
  })();
  let admin: pg.Client;
  const query = async <R extends pg.QueryResultRow>(text: string): Promise<R[]> => {
    const client = new pg.Client({ connectionString: fresh });
    await client.connect();
    try {
      return (await client.query<R>(text)).rows;
    } finally {
      await client.end();
    }
  };
  const migrationRows = async () => ({
    schema: (await query<{ name: string }>('select name from gateway_migrations order by name')).map((r) => r.name),
    oauth: (await query<{ name: string }>('select name from gateway_oauth_migrations order by name')).map(
      (r) => r.name,
    ),
  });

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${name}`);
  });
  afterAll(async () => {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    if ('stop' in found) await found.stop();
  });

  it('migrates an empty database, twice at once, and leaves the gateway nothing to migrate', async () => {
    // Two runs together (as two Job pods might): both succeed, the advisory lock lets one migrate.
    const [one, two] = await Promise.all([run({ DATABASE_URL: fresh }), run({ DATABASE_URL: fresh })]);
    expect(one.code, one.output).toBe(0);
    expect(two.code, two.output).toBe(0);
    expect(one.output).toContain('database schema up to date');
    expect(one.output).toContain('"dialect":"postgres"');

    const tables = (
      await query<{ table_name: string }>(
        "select table_name from information_schema.tables where table_schema = 'public' order by table_name",
      )
    ).map((r) => r.table_name);
    expect(tables).toEqual(expect.arrayContaining(['gateway_audit', 'gateway_oauth', 'gateway_migrations']));
    const after = await migrationRows();
    expect(after.schema.length).toBeGreaterThan(0);
    expect(after.oauth.length).toBeGreaterThan(0);

    // What the gateway runs at first use finds nothing pending.
    const open = await openPostgres(fresh, 1);
    await migrateOAuth(open.db, open.dialect);
    await open.db.destroy();
    expect(await migrationRows()).toEqual(after);

    // And a third run is a no-op that still exits 0.
    const again = await run({ DATABASE_URL: fresh });
    expect(again.code, again.output).toBe(0);
    expect(await migrationRows()).toEqual(after);
  }, 60_000);

  it('exits 1 when the database cannot be reached, 2 when DATABASE_URL is not a PostgreSQL URL', async () => {
    const unreachable = await run({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', LOG_LEVEL: 'error' });
    expect(unreachable.code, unreachable.output).toBe(1);
    expect(unreachable.output).toContain('migration failed');
    const bad = await run({ DATABASE_URL: 'mysql://root@127.0.0.1/db' });
    expect(bad.code, bad.output).toBe(2);
    expect(bad.output).toContain('DATABASE_URL must be');
  }, 60_000);
});

// Without DATABASE_URL it migrates the embedded file in GATEWAY_DATA_DIR (as the gateway would on first use).
describe('node dist/composition/migrate.js on the embedded store', () => {
  it('creates and migrates the embedded database in the data dir', async () => {
    const { mkdtempSync, readdirSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(resolve(tmpdir(), 'gateway-migrate-'));
    try {
      const result = await run({ GATEWAY_DATA_DIR: dir });
      expect(result.code, result.output).toBe(0);
      expect(result.output).toContain('"dialect":"sqlite"');
      expect(readdirSync(dir).length).toBeGreaterThan(0);
      expect(readdirSync(dir)).not.toContain('encryption.key');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
