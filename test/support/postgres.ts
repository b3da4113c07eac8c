import { existsSync } from 'node:fs';
import pg from 'pg';
import { registerSkip, SKIP_REASONS } from './skips.js';

const LOCAL = 'postgres://postgres@127.0.0.1:5432/test';

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
 * A PostgreSQL for integration tests: DATABASE_URL when set (CI sets it); else the one on this machine
 * (127.0.0.1:5432, database test) when it answers; else a throwaway container through testcontainers
 * where a Docker engine runs; else none, and the caller skips with a message.
 */
export const postgresForTests = async (): Promise<{ url: string; stop(): Promise<void> } | { skip: string }> => {
  const given = process.env['DATABASE_URL'];
  if (given) return { url: given, stop: async () => {} };
  if (await answers(LOCAL)) return { url: LOCAL, stop: async () => {} };
  if (!existsSync('/var/run/docker.sock') && !process.env['DOCKER_HOST']) {
    registerSkip(SKIP_REASONS.postgres);
    return {
      skip: 'PostgreSQL tests skipped: DATABASE_URL is not set, none answers at 127.0.0.1:5432, and no Docker engine is available for testcontainers.',
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
