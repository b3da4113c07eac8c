import { describe, expect, it } from 'vitest';
import { CRM_ALL_TOKEN, post, request, testGateway } from '../support/gateway.js';

// Safe deletes: dry_run previews exactly what a Destructive call would remove, whatever the setting; with
// GATEWAY_CONFIRM_DESTRUCTIVE=true a call without a valid confirm_token changes nothing and answers 428
// with the preview and a token (HMAC over tenant, principal, tool and arguments; 5 minutes; once).

const SECRET = 'a-confirm-secret-of-at-least-32-characters';
const confirming = () => testGateway({}, { GATEWAY_CONFIRM_DESTRUCTIVE: 'true', GATEWAY_CONFIRM_SECRET: SECRET });

const contactExists = async (g: ReturnType<typeof testGateway>, id: string) =>
  (await post(g, '/v1/tools/crm/getContact', { contact_id: id })).status === 200;

describe('dry runs (any setting)', () => {
  it('preview a delete, change nothing, and hand out a token for the real call', async () => {
    const g = testGateway();
    const dry = await post(g, '/v1/tools/crm/deleteContact', { contact_id: '101', dry_run: true });
    expect(dry.status).toBe(200);
    expect(dry.body.data).toContain('Dry run of crm_deleteContact: nothing was changed');
    expect(dry.body.data).toContain('archive contact 101, Maria Alvarez <maria.alvarez@rosegoldrealty.com>');
    expect(await contactExists(g, '101')).toBe(true);

    const json = await post(g, '/v1/tools/crm/deleteContact?format=json', { contact_id: '101', dry_run: true });
    expect(json.body.data).toMatchObject({ dry_run: true, preview: { contact_id: '101', name: 'Maria Alvarez' } });
    // Confirmation is off: the token is optional, and works.
    const run = await post(g, '/v1/tools/crm/deleteContact', {
      contact_id: '101',
      confirm_token: json.body.data.confirm_token,
    });
    expect(run.status).toBe(200);
    expect(await contactExists(g, '101')).toBe(false);
  });

  it('name what a folder holds, and what a space takes with it (apps and record counts)', async () => {
    const g = testGateway();
    const found = await post(g, '/v1/tools/files/searchItems?format=json', { query: 'Projects' });
    const folder = found.body.data.results.find((i: any) => i.Name === 'Projects');
    expect(folder).toBeDefined();
    const item = await post(g, '/v1/tools/call?format=json', {
      name: 'files_deleteItem',
      arguments: { item_id: folder.Id, dry_run: true },
    });
    expect(item.status).toBe(200);
    expect(item.body.data.preview).toMatchObject({ name: 'Projects', type: 'Folder' });
    expect(item.body.data.preview.file_count).toBeGreaterThan(0);
    expect(item.body.data.would).toMatch(/^move the folder "Projects" \(id \S+\) with its \d+ file\(s\)/);

    const space = await post(g, '/v1/tools/workspaces/deleteSpace?format=json', { space_id: 2001, dry_run: true });
    expect(space.status).toBe(200);
    const apps = space.body.data.preview.apps.map((a: any) => a.name);
    expect(apps).toEqual(expect.arrayContaining(['Properties', 'Leads', 'Deals']));
    const leads = space.body.data.preview.apps.find((a: any) => a.name === 'Leads');
    const counted = await post(g, '/v1/tools/records/filterRecords?format=json', {
      app_id: leads.app_id,
      filters: [],
      count_only: true,
    });
    expect(leads.records).toBe(counted.body.data.total);
    expect(space.body.data.would).toContain('this cannot be undone');
    expect(space.body.data.preview.records).toBe(
      space.body.data.preview.apps.reduce((n: number, a: any) => n + a.records, 0),
    );
    // The space is still there.
    expect((await post(g, '/v1/tools/workspaces/getSpace', { space_id: 2001 })).status).toBe(200);
  });

  it('answer a missing target with the error the call itself would give', async () => {
    const g = testGateway();
    const r = await post(g, '/v1/tools/crm/deleteContact', { contact_id: '999999', dry_run: true });
    expect(r.status).toBe(404);
  });
});

describe('GATEWAY_CONFIRM_DESTRUCTIVE=true', () => {
  it('refuses an unconfirmed delete with 428, a preview and a token; the token then runs it once', async () => {
    const g = confirming();
    const first = await post(g, '/v1/tools/crm/deleteContact', { contact_id: '102' });
    expect(first.status).toBe(428);
    expect(first.body.error.code).toBe('CONFIRMATION_REQUIRED');
    expect(first.body.error.message).toContain('Nothing was changed');
    expect(first.body.error.details.preview.contact_id).toBe('102');
    expect(await contactExists(g, '102')).toBe(true);

    const token = first.body.error.details.confirm_token as string;
    const confirmed = await post(g, '/v1/tools/crm/deleteContact', { contact_id: '102', confirm_token: token });
    expect(confirmed.status).toBe(200);
    expect(await contactExists(g, '102')).toBe(false);

    const again = await post(g, '/v1/tools/crm/deleteContact', { contact_id: '102', confirm_token: token });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toContain('was already used');
  });

  it('refuses a token for other arguments, another caller, or past its 5 minutes', async () => {
    const g = confirming();
    const token = (await post(g, '/v1/tools/crm/deleteContact', { contact_id: '103' })).body.error.details
      .confirm_token as string;
    const other = await post(g, '/v1/tools/crm/deleteContact', { contact_id: '104', confirm_token: token });
    expect(other.status).toBe(400);
    expect(other.body.error.message).toContain('issued for another call');
    const byOther = await request(g, 'POST', '/v1/tools/crm/deleteContact', {
      body: { contact_id: '103', confirm_token: token },
      token: CRM_ALL_TOKEN,
    });
    expect(byOther.status).toBe(400);
    // Another last character, and strings that decode to the same signature: a stray character (base64url
    // decoding skips it) and the last character with other spare bits (flaky before, about once in a thousand).
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = token.at(-1)!;
    // The signature's 32 bytes take 43 characters; the last one's two low bits are spare (always 0 as issued).
    const spareBits = alphabet[alphabet.indexOf(last) + 1]!;
    for (const tampered of [
      `${token.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`,
      `${token.slice(0, -1)}$${last}`,
      `${token.slice(0, -1)}${spareBits}`,
    ]) {
      expect(
        (await post(g, '/v1/tools/crm/deleteContact', { contact_id: '103', confirm_token: tampered })).status,
        tampered,
      ).toBe(400);
    }
    g.clock.advance(301_000);
    const late = await post(g, '/v1/tools/crm/deleteContact', { contact_id: '103', confirm_token: token });
    expect(late.status).toBe(400);
    expect(late.body.error.message).toContain('has expired');
    expect(await contactExists(g, '103')).toBe(true);
  });

  it('leaves reads and writes alone', async () => {
    const g = confirming();
    expect((await post(g, '/v1/tools/crm/getContact', { contact_id: '101' })).status).toBe(200);
    const created = await post(g, '/v1/tools/crm/createContact', { values: { email: 'confirm.test@example.com' } });
    expect(created.status).toBe(200);
  });

  it('checks dry_run and confirm_token types, and keeps them off tools that are not Destructive', async () => {
    const g = confirming();
    const badType = await post(g, '/v1/tools/crm/deleteContact', { contact_id: '101', dry_run: 'yes' });
    expect(badType.status).toBe(400);
    expect(badType.body.error.details.parameter).toBe('dry_run');
    const onRead = await post(g, '/v1/tools/crm/getContact', { contact_id: '101', dry_run: true });
    expect(onRead.status).toBe(400);
    expect(onRead.body.error.details.parameter).toBe('dry_run');
  });
});
