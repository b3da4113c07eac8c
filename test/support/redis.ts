import { existsSync } from 'node:fs';

/**
 * A Redis for integration tests: REDIS_URL when set (CI sets it); otherwise a throwaway container
 * through testcontainers where a Docker engine runs; otherwise none, and the caller skips with a message.
 */
export const redisForTests = async (): Promise<{ url: string; stop(): Promise<void> } | { skip: string }> => {
  if (process.env['REDIS_URL']) return { url: process.env['REDIS_URL'], stop: async () => {} };
  if (!existsSync('/var/run/docker.sock') && !process.env['DOCKER_HOST']) {
    return { skip: 'Redis tests skipped: REDIS_URL is not set and no Docker engine is available for testcontainers.' };
  }
  try {
    const { GenericContainer } = await import('testcontainers');
    const container = await new GenericContainer('redis:7-alpine').withExposedPorts(6379).start();
    return { url: `redis://${container.getHost()}:${container.getMappedPort(6379)}`, stop: async () => void (await container.stop()) };
  } catch (e) {
    return { skip: `Redis tests skipped: could not start a Redis container (${(e as Error).message}).` };
  }
};
