import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import { createGateway } from '../../composition/gateway.js';
import { NOW, request, type Answer } from '../support/gateway.js';

// The attack: a tenant reading or changing another tenant's data. In memory mode every tenant gets its
// own demo account; a contact, record, file, share or space made by one is invisible to every other.

const ACME = 'token-acme-0123456789';
const GLOBEX = 'token-globex-0123456789';
const DEFAULT = 'token-default-0123456789';

const gateway = (env: Record<string, string> = {}) => {
  const clock = new FixedClock(NOW);
  return Object.assign(
    createGateway({
      env: {
        GATEWAY_API_KEYS: JSON.stringify([
          { name: 'acme-bot', token: ACME, permissions: ['*'], tenant: 'acme' },
          { name: 'globex-bot', token: GLOBEX, permissions: ['*'], tenant: 'globex' },
          { name: 'default-bot', token: DEFAULT, permissions: ['*'] },
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
const call = (g: G, token: string, tool: string, body: unknown = {}): Promise<Answer> => {
  const [group, name] = tool.split('_') as [string, string];
  return request(g, 'POST', `/v1/tools/${group}/${name}?format=json`, { body, token });
};

describe('tenant isolation in memory mode', () => {
  it('keeps every write of one tenant away from the others, in every group', async () => {
    const g = gateway();

    // crm
    const contact = await call(g, ACME, 'crm_createContact', { values: { email: 'only-acme@example.com' } });
    expect(contact.status).toBe(200);
    const contactId = String(contact.body.data.id);
    expect((await call(g, ACME, 'crm_getContact', { contact_id: contactId })).status).toBe(200);
    for (const other of [GLOBEX, DEFAULT]) {
      const seen = await call(g, other, 'crm_searchContacts', { query: 'only-acme@example.com' });
      expect(seen.status).toBe(200);
      expect(JSON.stringify(seen.body.data)).not.toContain('only-acme');
    }

    // files
    const folder = await call(g, ACME, 'files_createFolder', { parent_id: 'home', name: 'Acme only' });
    expect(folder.status).toBe(200);
    const listing = async (token: string) =>
      JSON.stringify((await call(g, token, 'files_listChildren', { folder_id: 'home', top: 200 })).body.data);
    expect(await listing(ACME)).toContain('Acme only');
    expect(await listing(GLOBEX)).not.toContain('Acme only');
    expect(await listing(DEFAULT)).not.toContain('Acme only');
    expect((await call(g, GLOBEX, 'files_getItem', { item_id: folder.body.data.Id })).status).toBe(404);

    // records
    const record = await call(g, ACME, 'records_createRecord', { app_id: 3001, fields: { name: 'Acme Seller' } });
    expect(record.status).toBe(200);
    const recordId = String(record.body.data.record_id);
    expect((await call(g, ACME, 'records_getRecord', { record_id: recordId })).status).toBe(200);
    expect((await call(g, GLOBEX, 'records_getRecord', { record_id: recordId })).status).toBe(404);
    expect((await call(g, DEFAULT, 'records_getRecord', { record_id: recordId })).status).toBe(404);

    // workspaces
    const space = await call(g, ACME, 'workspaces_createSpace', { org_id: 1001, name: 'Acme Deal Room' });
    expect(space.status).toBe(200);
    const spaceId = String(space.body.data.space_id);
    expect((await call(g, ACME, 'workspaces_getSpace', { space_id: spaceId })).status).toBe(200);
    expect((await call(g, GLOBEX, 'workspaces_getSpace', { space_id: spaceId })).status).toBe(404);
    const orgs = await call(g, DEFAULT, 'workspaces_getOrganizations');
    expect(JSON.stringify(orgs.body.data)).not.toContain('Acme Deal Room');
  });

  it('seeds each tenant with the demo data on first use, and a change in one leaves the others as seeded', async () => {
    const g = gateway();
    const before = await call(g, GLOBEX, 'crm_getContact', { contact_id: '101' });
    expect(before.status).toBe(200);
    expect(JSON.stringify(before.body.data)).toContain('Maria');
    const deleted = await call(g, ACME, 'crm_deleteContact', { contact_id: '101' });
    expect(deleted.status).toBe(200);
    expect((await call(g, ACME, 'crm_getContact', { contact_id: '101' })).status).toBe(404);
    expect((await call(g, GLOBEX, 'crm_getContact', { contact_id: '101' })).status).toBe(200);
    expect((await call(g, DEFAULT, 'crm_getContact', { contact_id: '101' })).status).toBe(200);
  });

  it("serves a tenant's file links under its own prefix, and never another tenant's file through them", async () => {
    const g = gateway({ FILES_SIGNING_SECRET: 'one-secret-for-every-tenant-0123' });
    const upload = await call(g, ACME, 'files_getUploadUrl', { folder_id: 'home', file_name: 'acme.txt' });
    expect(upload.status).toBe(200);
    const url = new URL(JSON.stringify(upload.body.data).match(/http[^"]*chunk[^"]*/)![0]);
    expect(url.pathname.startsWith('/t/acme/files/transfer/upload/')).toBe(true);
    const sent = await g.http.request(`${url.pathname}${url.search}`, { method: 'POST', body: 'hello acme' });
    expect(sent.status).toBeLessThan(300);

    // The same signed path under another tenant's prefix, or without a prefix, is refused: each
    // tenant signs with its own key (derived from the one secret).
    const path = url.pathname.slice('/t/acme'.length);
    for (const elsewhere of [`/t/globex${path}`, path]) {
      const replayed = await g.http.request(`${elsewhere}${url.search}`, { method: 'POST', body: 'x' });
      expect(replayed.status).toBeGreaterThanOrEqual(400);
    }
  });

  it('never makes a tenant for an unauthenticated request', async () => {
    const g = gateway();
    const r = await g.http.request('/t/newcomer/files/shares/abc');
    expect(r.status).toBe(404);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });
});

describe('tenant scopes are bounded', () => {
  it('keeps at most GATEWAY_TENANTS_MAX tenants, dropping the one used longest ago', async () => {
    const tokens = ['t1', 't2', 't3'].map((t) => ({
      name: t,
      token: `token-${t}-0123456789`,
      permissions: ['*'],
      tenant: t,
    }));
    const clock = new FixedClock(NOW);
    const g = createGateway({
      env: { GATEWAY_API_KEYS: JSON.stringify(tokens), GATEWAY_TENANTS_MAX: '2' },
      logger: pino({ level: 'silent' }),
      overrides: { clock },
    });
    const del = (i: number) =>
      request(g, 'POST', '/v1/tools/crm/deleteContact', { body: { contact_id: '101' }, token: tokens[i]!.token });
    const get = (i: number) =>
      request(g, 'POST', '/v1/tools/crm/getContact', { body: { contact_id: '101' }, token: tokens[i]!.token });
    expect((await del(0)).status).toBe(200);
    expect((await del(1)).status).toBe(200);
    expect((await get(0)).status).toBe(404); // t1 is kept, and now the most recently used
    expect((await del(2)).status).toBe(200); // t3 arrives: t2, used longest ago, is dropped
    expect((await get(0)).status).toBe(404);
    expect((await get(1)).status).toBe(200); // t2 starts again from the demo data
  });

  it('drops a tenant idle longer than GATEWAY_TENANT_IDLE_SECONDS', async () => {
    const clock = new FixedClock(NOW);
    const g = createGateway({
      env: {
        GATEWAY_API_KEYS: JSON.stringify([{ name: 'a', token: ACME, permissions: ['*'], tenant: 'acme' }]),
        GATEWAY_TENANT_IDLE_SECONDS: '600',
      },
      logger: pino({ level: 'silent' }),
      overrides: { clock },
    });
    const body = { contact_id: '101' };
    expect((await request(g, 'POST', '/v1/tools/crm/deleteContact', { body, token: ACME })).status).toBe(200);
    clock.advance(599_000);
    expect((await request(g, 'POST', '/v1/tools/crm/getContact', { body, token: ACME })).status).toBe(404);
    clock.advance(601_000);
    expect((await request(g, 'POST', '/v1/tools/crm/getContact', { body, token: ACME })).status).toBe(200);
  });
});
