import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import { loadConfig } from '../../composition/config.js';
import { createGateway, type Gateway } from '../../composition/gateway.js';
import { E } from '../../domain/shared/fp.js';
import { NOW, request } from '../support/gateway.js';

// Issue 38: the in-process idempotency records' bounds are configured (the soak in CI makes them small so that
// they are full after its first minute); a tenant keeps at most a tenth of them, its own oldest going first.

const TOKEN = 'idem-bounds-token-0123456789';
const gateways: Gateway[] = [];
afterAll(async () => {
  for (const g of gateways) await g.close();
});

const update = (g: Gateway, key: string, title: string) =>
  request(g, 'POST', '/v1/tools/crm/updateContact?format=json', {
    body: { contact_id: '101', values: { jobtitle: title } },
    token: TOKEN,
    headers: { 'idempotency-key': key },
  });

describe('the in-process idempotency bounds', () => {
  it('default to 100,000 records and 64 MiB, and refuse values out of range by name', () => {
    const ok = loadConfig({});
    expect(E.isRight(ok) && ok.right.idempotencyMemory).toEqual({ maxEntries: 100_000, maxBytes: 64 * 2 ** 20 });
    const bad = loadConfig({ IDEMPOTENCY_MEMORY_MAX_ENTRIES: '5', IDEMPOTENCY_MEMORY_MAX_MB: 'lots' });
    const problems = E.isLeft(bad) ? bad.left.join('\n') : '';
    expect(problems).toContain('IDEMPOTENCY_MEMORY_MAX_ENTRIES');
    expect(problems).toContain('IDEMPOTENCY_MEMORY_MAX_MB');
  });

  it('hold a tenth of IDEMPOTENCY_MEMORY_MAX_ENTRIES per tenant: the oldest key is no longer replayed', async () => {
    const g = createGateway({
      env: { GATEWAY_DEMO_TOKEN: TOKEN, IDEMPOTENCY_MEMORY_MAX_ENTRIES: '100' },
      logger: pino({ level: 'silent' }),
      overrides: { clock: new FixedClock(NOW) },
    });
    gateways.push(g);
    const keys = Array.from({ length: 11 }, () => randomUUID());
    for (const [i, key] of keys.entries()) expect((await update(g, key, `t${i}`)).status).toBe(200);
    // The newest ten are kept: the same write again is a replay...
    const kept = await update(g, keys[10]!, 't10');
    expect(kept.headers.get('idempotent-replayed')).toBe('true');
    // ...and the eleventh key pushed the first out: the same key runs again.
    const dropped = await update(g, keys[0]!, 't0');
    expect(dropped.headers.get('idempotent-replayed')).toBeNull();
  });
});
