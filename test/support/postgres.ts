import { existsSync } from 'node:fs';
import pg from 'pg';
import { registerSkip, SKIP_REASONS } from './skips.js';

const answers = async (url: string): Promise<boolean> => {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
};

/**
 * A PostgreSQL for integration tests: the database this test run created (TEST_DATABASE_URL, made by
 * postgres-database.ts on the server DATABASE_URL names, or on 127.0.0.1:5432, and dropped after the run);
 * else DATABASE_URL as given, when the run could not create one there; else a throwaway container through
 * testcontainers where a Docker engine runs; else none, and the caller skips with a message. Never a database
 * the run did not create or was not given.
 */
export const postgresForTests = async (): Promise<{ url: string; stop(): Promise<void> } | { skip: string }> => {
  const own = process.env['TEST_DATABASE_URL'];
  if (own && (await answers(own))) return { url: own, stop: async () => {} };
  const given = process.env['DATABASE_URL'];
  if (given) return { url: given, stop: async () => {} };
  if (!existsSync('/var/run/docker.sock') && !process.env['DOCKER_HOST']) {
    registerSkip(SKIP_REASONS.postgres);
    return {
      skip: 'PostgreSQL tests skipped: DATABASE_URL is not set, none answers at 127.0.0.1:5432 (where the run would create a database of its own), and no Docker engine is available for testcontainers.',
    };
  }
  try {
    const { GenericContainer, Wait } = await import('testcontainers');
    const container = await new GenericContainer('postgres:15-alpine')
      .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust', POSTGRES_DB: 'test' })
      .withExposedPorts(5432)
      .withWaitStrategy(Wait.forLogMessage(/ready to accept connections/, 2))
      .start();
    return {
      url: `postgres://postgres@${container.getHost()}:${container.getMappedPort(5432)}/test`,
      stop: async () => void (await container.stop()),
    };
  } catch (e) {
    registerSkip(SKIP_REASONS.postgres);
    return { skip: `PostgreSQL tests skipped: could not start a container (${(e as Error).message}).` };
  }
};
