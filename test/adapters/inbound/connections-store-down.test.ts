import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createGateway } from '../../../composition/gateway.js';
import { request } from '../../support/gateway.js';

// The connection store (here a PostgreSQL that is not there) failing under a connections request is the
// gateway's outage: 503 UNAVAILABLE with Retry-After, never a 500.

const ADMIN = 'token-store-down-admin-0123456789';
const g = createGateway({
  env: {
    DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere',
    GATEWAY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    GATEWAY_API_KEYS: JSON.stringify([{ name: 'admin', token: ADMIN, permissions: ['*'], tenant: 'acme' }]),
    PUBLIC_BASE_URL: 'https://gateway.example',
  },
  logger: pino({ level: 'silent' }),
});
afterAll(() => g.close());

describe('connection store down', () => {
  it('answers the connections API with 503 UNAVAILABLE and a retry time', async () => {
    for (const [method, path] of [
      ['GET', '/v1/connections'],
      ['DELETE', '/v1/connections/batchdata'],
      ['GET', '/v1/audit'],
    ] as const) {
      const r = await request(g, method, path, { token: ADMIN });
      expect(r.status, `${method} ${path}`).toBe(503);
      expect(r.body.error.code).toBe('UNAVAILABLE');
      expect(r.body.error.details.retry_after_seconds).toBe(5);
      expect(r.headers.get('retry-after')).toBe('5');
    }
  });
});
