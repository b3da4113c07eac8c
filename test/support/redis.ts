import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { registerSkip, SKIP_REASONS } from './skips.js';

/**
 * A Redis for integration tests: REDIS_URL when set (CI sets it); otherwise a throwaway container
 * through testcontainers where a Docker engine runs; otherwise none, and the caller skips with a message.
 */
export const redisForTests = async (): Promise<{ url: string; stop(): Promise<void> } | { skip: string }> => {
  if (process.env['REDIS_URL']) return { url: process.env['REDIS_URL'], stop: async () => {} };
  if (!existsSync('/var/run/docker.sock') && !process.env['DOCKER_HOST']) {
    registerSkip(SKIP_REASONS.redis);
    return { skip: 'Redis tests skipped: REDIS_URL is not set and no Docker engine is available for testcontainers.' };
  }
  try {
    const { GenericContainer } = await import('testcontainers');
    const container = await new GenericContainer('redis:7-alpine').withExposedPorts(6379).start();
    return {
      url: `redis://${container.getHost()}:${container.getMappedPort(6379)}`,
      stop: async () => void (await container.stop()),
    };
  } catch (e) {
    registerSkip(SKIP_REASONS.redis);
    return { skip: `Redis tests skipped: could not start a Redis container (${(e as Error).message}).` };
  }
};

/** A redis-server of a test's own, on a free loopback port, that the test may kill and start again. */
export interface OwnRedis {
  readonly url: string;
  readonly port: number;
  /** SIGKILL: the server vanishes mid-command, as in a crash or a lost host. */
  kill(): Promise<void>;
  /** SIGSTOP: the server keeps its connections but answers nothing (a stalled host). */
  pause(): void;
  /** SIGCONT after `pause`. */
  resume(): void;
  /** Starts a fresh, empty server on the same port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const redisServerPath = (): string | undefined => {
  for (const dir of (process.env['PATH'] ?? '').split(':')) {
    const candidate = `${dir}/redis-server`;
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
};

const freePort = async (): Promise<number> => {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
};

/** Starts `redis-server` without persistence; `{ skip }` when it is not on PATH. */
export const ownRedisServer = async (): Promise<OwnRedis | { skip: string }> => {
  const binary = redisServerPath();
  if (!binary) {
    registerSkip(SKIP_REASONS.redisServer);
    return { skip: 'Redis-loss tests skipped: redis-server is not on PATH.' };
  }
  const { spawn } = await import('node:child_process');
  const { connect } = await import('node:net');
  const port = await freePort();
  let child: ChildProcess | undefined;

  const accepting = (): Promise<boolean> =>
    new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });

  const start = async (): Promise<void> => {
    child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    const deadline = Date.now() + 10_000;
    while (!(await accepting())) {
      if (Date.now() > deadline) throw new Error(`redis-server did not start on port ${port}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };

  const kill = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise<void>((r) => running.once('exit', () => r()));
    running.kill('SIGKILL');
    await exited;
  };

  await start();
  const signal = (name: NodeJS.Signals) => () => void child?.kill(name);
  const stop = async (): Promise<void> => {
    child?.kill('SIGCONT');
    await kill();
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill,
    pause: signal('SIGSTOP'),
    resume: signal('SIGCONT'),
    restart: start,
    stop,
  };
};
