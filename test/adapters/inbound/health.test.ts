import { expect, it } from 'vitest';
import { request, testGateway } from '../../support/gateway.js';

it('answers health checks without a token', async () => {
  const r = await request(testGateway(), 'GET', '/health', { token: null });
  expect(r.status).toBe(200);
  expect(r.body).toEqual({ status: 'ok' });
});
