import { describe, expect, it } from 'vitest';
import { DEMO_TOKEN, request, testGateway } from '../support/gateway.js';

// Attack: a require_login share served its file list and bytes to "Authorization: Bearer garbage"
// (the share pages took an authentication failure object for a signed-in visitor). Sign-in now means a
// token the gateway accepts, with files:read: 401 for a missing or refused token, 403 without files:read.

const FILES_READER = 'share-files-reader-token-0123456789';
const CRM_ONLY = 'share-crm-only-token-0123456789';

const keys = JSON.stringify([
  { name: 'files-reader', token: FILES_READER, permissions: ['files:read'] },
  { name: 'crm-only', token: CRM_ONLY, permissions: ['crm:read'] },
]);

const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

describe('require_login shares', () => {
  const gateway = testGateway({}, { GATEWAY_API_KEYS: keys });
  const tool = (name: string, args: unknown) =>
    request(gateway, 'POST', `/v1/tools/files/${name}?format=json`, { body: args });

  const setUp = async () => {
    const folder = (
      await tool('createFolder', { parent_id: 'home', name: `Login ${Math.random().toString(36).slice(2)}` })
    ).body.data.Id as string;
    const spec = (await tool('getUploadUrl', { folder_id: folder, file_name: 'secret.txt' })).body.data;
    const uploaded = await gateway.http.request(local(spec.ChunkUri), { method: 'POST', body: 'the secret bytes' });
    const fileId = ((await uploaded.json()) as { data: { Id: string } }).data.Id;
    const send = (await tool('createShare', { share_type: 'Send', items: [fileId], require_login: true })).body.data;
    const receive = (await tool('createShare', { share_type: 'Request', parent_id: folder, require_login: true })).body
      .data;
    return { fileId, send: local(send.Uri), receive: local(receive.Uri) };
  };

  const page = (path: string, authorization?: string, method = 'GET', body?: string) =>
    gateway.http.request(path, {
      method,
      headers: authorization === undefined ? {} : { authorization },
      ...(body !== undefined ? { body } : {}),
    });

  const refusals: readonly [string, string | undefined, number, string][] = [
    ['no token', undefined, 401, 'UNAUTHORIZED'],
    ['a garbage bearer token', 'Bearer garbage', 401, 'UNAUTHORIZED'],
    ['an unknown well-formed token', 'Bearer not-a-real-token-0123456789abcdef', 401, 'UNAUTHORIZED'],
    ['a malformed Authorization header', 'Basic Zm9vOmJhcg==', 401, 'UNAUTHORIZED'],
    ['a token without files:read', `Bearer ${CRM_ONLY}`, 403, 'FORBIDDEN'],
  ];

  it.each(refusals)(
    'refuses the file list, the bytes and uploads with %s',
    async (_label, authorization, status, code) => {
      const { fileId, send, receive } = await setUp();
      for (const res of [
        await page(send, authorization),
        await page(`${send}/items/${fileId}`, authorization),
        await page(`${receive}/upload?name=x.txt`, authorization, 'POST', 'planted'),
      ]) {
        expect(res.status).toBe(status);
        const text = await res.text();
        expect(text).not.toContain('the secret bytes');
        expect(text).not.toContain('secret.txt');
        expect(JSON.parse(text).error.code).toBe(code);
      }
      // Nothing was uploaded through the Request share.
      const names = (await tool('searchItems', { query: 'x.txt' })).body.data.results.map(
        (r: { Name: string }) => r.Name,
      );
      expect(names).not.toContain('x.txt');
    },
  );

  it('serves a signed-in visitor whose token has files:read', async () => {
    const { fileId, send } = await setUp();
    for (const token of [FILES_READER, DEMO_TOKEN]) {
      const listing = await page(send, `Bearer ${token}`);
      expect(listing.status).toBe(200);
      expect(JSON.stringify(await listing.json())).toContain('secret.txt');
      const bytes = await page(`${send}/items/${fileId}`, `Bearer ${token}`);
      expect(bytes.status).toBe(200);
      expect(await bytes.text()).toBe('the secret bytes');
    }
  });

  it('ignores a bad token on a share that needs no sign-in', async () => {
    const folder = (await tool('createFolder', { parent_id: 'home', name: 'Open share' })).body.data.Id as string;
    const spec = (await tool('getUploadUrl', { folder_id: folder, file_name: 'open.txt' })).body.data;
    const id = (
      (await (await gateway.http.request(local(spec.ChunkUri), { method: 'POST', body: 'open' })).json()) as {
        data: { Id: string };
      }
    ).data.Id;
    const share = (await tool('createShare', { share_type: 'Send', items: [id] })).body.data;
    expect((await page(local(share.Uri), 'Bearer garbage')).status).toBe(200);
  });
});
