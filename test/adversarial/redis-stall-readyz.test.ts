import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway } from '../../composition/gateway.js';
import { request } from '../support/gateway.js';
import { ownRedisServer, type OwnRedis } from '../support/redis.js';

// Issue 32, item 1: a Redis that stalls (SIGSTOP: it keeps its connections and answers nothing) is shared by
// every instance, so it must not fail their readiness together: /readyz answers 200 "degraded" within about
// a second, gateway_dependency_up says redis 0, and "ready" again once Redis answers.

let server: OwnRedis | { skip: string };
beforeAll(async () => {
  server = await ownRedisServer();
});
afterAll(async () => {
  if ('stop' in server) await server.stop();
});

describe('readiness while Redis stalls', () => {
  it('answers 200 degraded within about a second, and ready once Redis answers again', async (ctx) => {
    if ('skip' in server) return ctx.skip(server.skip);
    const token = 'metrics-token-0123456789';
    const g = createGateway({
      env: { REDIS_URL: server.url, METRICS_TOKEN: token },
      logger: pino({ level: 'silent' }),
    });
    try {
      const before = await request(g, 'GET', '/readyz', { token: null });
      expect(before.status).toBe(200);
      expect(before.body).toEqual({ status: 'ready', checks: { configuration: true, accepting: true, redis: 'ok' } });

      server.pause();
      try {
        const started = performance.now();
        const during = await request(g, 'GET', '/readyz', { token: null });
        expect(performance.now() - started).toBeLessThan(2_500);
        expect(during.status).toBe(200);
        expect(during.body).toEqual({
          status: 'degraded',
          checks: { configuration: true, accepting: true, redis: 'down' },
        });
        const scraped = await request(g, 'GET', '/metrics', { token });
        expect(scraped.raw).toMatch(/^gateway_dependency_up\{dependency="redis"\} 0$/m);
      } finally {
        server.resume();
      }
      const deadline = Date.now() + 10_000;
      let after = await request(g, 'GET', '/readyz', { token: null });
      while (after.body.status !== 'ready' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        after = await request(g, 'GET', '/readyz', { token: null });
      }
      expect(after.body.status).toBe('ready');
      const scraped = await request(g, 'GET', '/metrics', { token });
      expect(scraped.raw).toMatch(/^gateway_dependency_up\{dependency="redis"\} 1$/m);
    } finally {
      await g.close();
    }
  }, 30_000);
});
