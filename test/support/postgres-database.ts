import { randomBytes } from 'node:crypto';
import pg from 'pg';

// Vitest's global setup (vitest.config.ts): the PostgreSQL suites run in a database this run creates, on the
// server DATABASE_URL names (else the default local address, 127.0.0.1:5432), and drops at its end. So `npm
// test` never writes into a database it did not create (issue 37: it wrote into "test", someone's own). The
// workers find it in TEST_DATABASE_URL (test/support/postgres.ts); without a server, nothing is created.

const LOCAL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** The server's maintenance database, reached with the same credentials. */
const maintenanceUrl = (url: string): string => {
  const u = new URL(url);
  u.pathname = '/postgres';
  return u.toString();
};

const run = async (url: string, sql: string): Promise<void> => {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end().catch(() => undefined);
  }
};

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env['TEST_DATABASE_URL']) return undefined; // an outer run made one (npm test's two runs share none)
  const server = process.env['DATABASE_URL'] ?? LOCAL;
  const name = `tool_gateway_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  try {
    await run(maintenanceUrl(server), `create database "${name}"`);
  } catch (e) {
    // No server here, or no right to create one: the suites use DATABASE_URL as given, or skip.
    if (process.env['DATABASE_URL'])
      process.stderr.write(
        `PostgreSQL suites: could not create a database of their own (${(e as Error).message}); they use DATABASE_URL as given.\n`,
      );
    return undefined;
  }
  const url = new URL(server);
  url.pathname = `/${name}`;
  process.env['TEST_DATABASE_URL'] = url.toString();
  return async () => {
    delete process.env['TEST_DATABASE_URL'];
    await run(maintenanceUrl(server), `drop database if exists "${name}" with (force)`).catch((e: unknown) =>
      process.stderr.write(`PostgreSQL suites: could not drop ${name}: ${(e as Error).message}\n`),
    );
  };
}
