import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import { createGateway } from '../../../composition/gateway.js';
import { TEST_DATA_DIR } from '../../support/data-dir.js';
import { NOW, request } from '../../support/gateway.js';

// One audit row per Write or Destructive call: who, which tool, which ids, how it ended; never other
// argument values. GET /v1/audit needs audit:read and shows the caller's tenant only.

const ADMIN = 'token-acme-admin-0123456789';
const AGENT = 'token-acme-agent-0123456789';
const GLOBEX = 'token-globex-admin-0123456789';

const gateway = (env: Record<string, string> = {}) => {
  const clock = new FixedClock(NOW);
  return Object.assign(
    createGateway({
      env: {
        GATEWAY_DATA_DIR: TEST_DATA_DIR,
        GATEWAY_API_KEYS: JSON.stringify([
          { name: 'acme-admin', token: ADMIN, permissions: ['*'], tenant: 'acme' },
          { name: 'acme-agent', token: AGENT, permissions: ['crm:*', 'skiptrace:*'], tenant: 'acme' },
          { name: 'globex-admin', token: GLOBEX, permissions: ['*'], tenant: 'globex' },
        ]),
        ...env,
      },
      logger: pino({ level: 'silent' }),
      overrides: { clock },
    }),
    { clock },
  );
};

type G = ReturnType<typeof gateway>;
const call = (g: G, token: string, tool: string, body: unknown) => {
  const [group, name] = tool.split('_') as [string, string];
  return request(g, 'POST', `/v1/tools/${group}/${name}?format=json`, { body, token });
};
const audit = (g: G, token: string, query = '') => request(g, 'GET', `/v1/audit${query}`, { token });

describe('the audit log', () => {
  it('records writes and deletes with their ids and outcome, and nothing of reads, dry runs or other values', async () => {
    const g = gateway();
    const created = await call(g, AGENT, 'crm_createContact', { values: { email: 'secret-value@acme.example' } });
    const id = String(created.body.data.id);
    await call(g, AGENT, 'crm_getContact', { contact_id: id });
    await call(g, AGENT, 'crm_deleteContact', { contact_id: id, dry_run: true });
    await call(g, AGENT, 'crm_deleteContact', { contact_id: id });
    await call(g, AGENT, 'crm_deleteContact', { contact_id: '999999' }); // no such contact: recorded with its 404
    g.clock.advance(1000);
    await call(g, AGENT, 'skiptrace_skipTraceProperty', {
      street: '1011 Rosegold St',
      zip: '11010',
      purpose: 'DPPA (b)(3): verify information the owner gave us',
    });

    const refused = await audit(g, AGENT);
    expect(refused.status).toBe(403);
    expect(refused.body.error.details.permission).toBe('audit:read');

    const log = await audit(g, ADMIN);
    expect(log.status).toBe(200);
    const entries = log.body.data.entries as Record<string, unknown>[];
    expect(entries.map((e) => [e['tool'], e['status']])).toEqual([
      ['skiptrace_skipTraceProperty', 200],
      ['crm_deleteContact', 404],
      ['crm_deleteContact', 200],
      ['crm_createContact', 200],
    ]);
    expect(entries[0]).toMatchObject({
      principal: 'key:acme-agent',
      vendor: 'memory',
      purpose: 'DPPA (b)(3): verify information the owner gave us',
    });
    expect(entries[1]).toMatchObject({ code: 'NOT_FOUND', targets: ['999999'] });
    expect(entries[2]).toMatchObject({ targets: [id] });
    expect(entries[3]!['targets']).toEqual([id]);
    expect(typeof entries[3]!['request_id']).toBe('string');
    expect(JSON.stringify(log.body)).not.toContain('secret-value');

    // Filters: tool, principal, since; and another tenant sees none of it.
    expect((await audit(g, ADMIN, '?tool=crm_deleteContact')).body.data.entries).toHaveLength(2);
    expect((await audit(g, ADMIN, '?principal=key:nobody')).body.data.entries).toEqual([]);
    const since = new Date(NOW.getTime() + 500).toISOString();
    expect((await audit(g, ADMIN, `?since=${since}`)).body.data.entries).toHaveLength(1);
    expect((await audit(g, ADMIN, '?since=yesterday')).status).toBe(400);
    expect((await audit(g, GLOBEX)).body.data.entries).toEqual([]);
  });

  it('makes the purpose of a skip trace required for the tenants SKIPTRACE_PURPOSE_REQUIRED names', async () => {
    const g = gateway({ SKIPTRACE_PURPOSE_REQUIRED: 'acme' });
    const property = { street: '1011 Rosegold St', zip: '11010' };
    const missing = await call(g, AGENT, 'skiptrace_skipTraceProperty', property);
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.parameter).toBe('purpose');
    const given = await call(g, AGENT, 'skiptrace_skipTraceProperty', {
      ...property,
      purpose: 'GLBA fraud prevention',
    });
    expect(given.status).toBe(200);
    expect((await call(g, GLOBEX, 'skiptrace_skipTraceProperty', property)).status).toBe(200);
  });
});
