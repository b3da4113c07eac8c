import { randomBytes, randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { newEncryptionKey } from '../../../adapters/outbound/persistence/secret-box.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import { createGateway, type Gateway } from '../../../composition/gateway.js';
import type { AuditEntry, AuditLog } from '../../../ports/audit-log.js';
import { TEST_DATA_DIR } from '../../support/data-dir.js';
import { inEachAuditStore } from '../../support/audit-stores.js';
import { NOW, request } from '../../support/gateway.js';
import { postgresForTests } from '../../support/postgres.js';
import { redisForTests } from '../../support/redis.js';

// Issue 32, item 3: a write replayed under its Idempotency-Key (nothing ran) is audited once as the write
// and once as a replay (replay: true, replay_of the request id of the call that ran), in every audit store
// and across instances that share Redis and PostgreSQL.

const tenant = `replay-${randomBytes(4).toString('hex')}`;
const ADMIN = `token-${tenant}-admin-0123456789`;

const gateways: Gateway[] = [];
afterAll(async () => {
  for (const g of gateways) await g.close();
});

const gateway = (env: Record<string, string>): Gateway => {
  const g = createGateway({
    env: {
      GATEWAY_API_KEYS: JSON.stringify([{ name: 'admin', token: ADMIN, permissions: ['*'], tenant }]),
      ...env,
    },
    logger: pino({ level: 'silent' }),
    overrides: { clock: new FixedClock(NOW) },
  });
  gateways.push(g);
  return g;
};

const write = (g: Gateway, key: string, requestId: string) =>
  request(g, 'POST', '/v1/tools/crm/createContact?format=json', {
    body: { values: { email: `${key}@example.com` } },
    token: ADMIN,
    headers: { 'idempotency-key': key, 'x-request-id': requestId },
  });

const auditRows = async (g: Gateway) => {
  const answer = await request(g, 'GET', '/v1/audit?tool=crm_createContact', { token: ADMIN });
  expect(answer.status).toBe(200);
  return answer.body.data.entries as Record<string, unknown>[];
};

/** The same write twice with one key, the second on `second`: one write row and one replay row. */
const writeTwice = async (first: Gateway, second: Gateway) => {
  const key = `k-${randomUUID()}`;
  const [one, two] = [`req-${randomUUID()}`, `req-${randomUUID()}`];
  const a = await write(first, key, one);
  const b = await write(second, key, two);
  expect(a.status).toBe(200);
  expect(b.status).toBe(200);
  expect(b.headers.get('idempotent-replayed')).toBe('true');
  expect(b.body).toEqual(a.body);
  const rows = (await auditRows(second)).filter((r) => r['request_id'] === one || r['request_id'] === two);
  expect(rows.filter((r) => !r['replay']).map((r) => r['request_id'])).toEqual([one]);
  expect(rows.filter((r) => r['replay'])).toEqual([
    expect.objectContaining({ request_id: two, replay: true, replay_of: one, status: 200 }),
  ]);
  expect(rows[0]!['targets']).toEqual(rows[1]!['targets']);
};

describe('a replayed write in the audit log', () => {
  it('one gateway in memory: one write row, one replay row pointing at it', async () => {
    const g = gateway({ GATEWAY_DATA_DIR: TEST_DATA_DIR });
    await writeTwice(g, g);
  });

  it('two gateways sharing Redis and PostgreSQL: the replay on the other instance is marked too', async (ctx) => {
    const pg = await postgresForTests();
    if ('skip' in pg) return ctx.skip(pg.skip);
    const redis = await redisForTests();
    if ('skip' in redis) return ctx.skip(redis.skip);
    const env = {
      DATABASE_URL: pg.url,
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: `${tenant}:`,
      GATEWAY_ENCRYPTION_KEY: newEncryptionKey(),
    };
    await writeTwice(gateway(env), gateway(env));
  });
});

describe('the replay marker in each audit store', () => {
  const entry = (requestId: string, replayOf?: string): AuditEntry => ({
    at: NOW,
    tenant: `${tenant}-stores`,
    principal: 'key:agent',
    tool: 'crm_createContact',
    targets: ['101'],
    status: 200,
    requestId,
    approver: 'nobody',
    ...(replayOf ? { replay: true, replayOf } : {}),
  });
  const roundTrip = async (log: AuditLog) => {
    await log.record(entry('req-1'));
    await log.record(entry('req-2', 'req-1'));
    await log.record({ ...entry('req-3'), replay: true }); // an outcome stored before request ids were kept
    const rows = await log.query({ tenant: `${tenant}-stores`, limit: 10 });
    expect(rows.map((r) => [r.requestId, r.replay, r.replayOf])).toEqual([
      ['req-3', true, undefined],
      ['req-2', true, 'req-1'],
      ['req-1', undefined, undefined],
    ]);
  };

  inEachAuditStore('audit-replay-', roundTrip);
});
