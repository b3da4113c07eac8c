import { describe, expect, it } from 'vitest';
import { request, testGateway, type Answer } from '../support/gateway.js';

// Attack: a files:read token asked files_getUploadUrl (declared Read) for an upload address and, with
// overwrite: true, replaced a file's content. Rule now: getUploadUrl is a Write tool, and a token without
// files:destructive never removes or replaces existing content (overwrite on upload, create, copy, move).

const READ_ONLY = 'files-read-only-token-0123456789';
const WRITER = 'files-writer-token-0123456789';
const DESTROYER = 'files-destroyer-token-0123456789';

const keys = JSON.stringify([
  { name: 'files-reader', token: READ_ONLY, permissions: ['files:read'] },
  { name: 'files-writer', token: WRITER, permissions: ['files:read', 'files:write'] },
  { name: 'files-destroyer', token: DESTROYER, permissions: ['files:read', 'files:write', 'files:destructive'] },
]);

const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

describe('file writes need the right permissions', () => {
  const gateway = testGateway({}, { GATEWAY_API_KEYS: keys });
  const call = (tool: string, args: unknown, token: string): Promise<Answer> =>
    request(gateway, 'POST', `/v1/tools/files/${tool}?format=json`, { body: args, token });
  const upload = async (token: string, folder: string, name: string, text: string, overwrite?: boolean) => {
    const spec = await call(
      'getUploadUrl',
      { folder_id: folder, file_name: name, ...(overwrite !== undefined ? { overwrite } : {}) },
      token,
    );
    if (spec.status !== 200) return spec;
    const res = await gateway.http.request(local(spec.body.data.ChunkUri), { method: 'POST', body: text });
    return { status: res.status, body: await res.json(), headers: res.headers, raw: '' } as Answer;
  };
  const contentOf = async (itemId: string): Promise<string> => {
    const link = await call('getDownloadUrl', { item_id: itemId }, DESTROYER);
    const res = await gateway.http.request(local(link.body.data.DownloadUrl));
    return res.text();
  };

  it('lists files_getUploadUrl as a Write tool that needs files:write', async () => {
    const listing = await request(gateway, 'GET', '/v1/tools', { token: null });
    const tool = listing.body.data.tools.find((t: { name: string }) => t.name === 'files_getUploadUrl');
    expect(tool).toMatchObject({ permission: 'files:write', readOnlyHint: false, destructiveHint: false });
  });

  it('refuses an upload address to a files:read token, with or without overwrite', async () => {
    for (const overwrite of [undefined, false, true]) {
      const r = await call(
        'getUploadUrl',
        { folder_id: 'home', file_name: 'notes.txt', ...(overwrite !== undefined ? { overwrite } : {}) },
        READ_ONLY,
      );
      expect(r.status).toBe(403);
      expect(r.body.error).toMatchObject({ code: 'FORBIDDEN', details: { permission: 'files:write' } });
    }
  });

  it('lets files:write add content but not replace it; files:destructive may replace', async () => {
    const folder = (await call('createFolder', { parent_id: 'home', name: 'Permissions' }, WRITER)).body.data
      .Id as string;
    const first = await upload(WRITER, folder, 'contract.txt', 'original terms');
    expect(first.status).toBe(200);
    const fileId = first.body.data.Id as string;

    // A writer without files:destructive: overwrite is refused up front, and nothing changes.
    const refused = await call(
      'getUploadUrl',
      { folder_id: folder, file_name: 'contract.txt', overwrite: true },
      WRITER,
    );
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: 'FORBIDDEN',
      details: { permission: 'files:destructive', parameter: 'overwrite' },
    });
    expect(refused.body.error.message).toContain('without overwrite');
    expect(await contentOf(fileId)).toBe('original terms');

    // Without overwrite the writer's upload is a new, numbered file: the original is untouched.
    const second = await upload(WRITER, folder, 'contract.txt', 'forged terms');
    expect(second.status).toBe(200);
    expect(second.body.data.Id).not.toBe(fileId);
    expect(await contentOf(fileId)).toBe('original terms');

    // With files:destructive the overwrite is allowed.
    const replaced = await upload(DESTROYER, folder, 'contract.txt', 'amended terms', true);
    expect(replaced.status).toBe(200);
    expect(replaced.body.data.Id).toBe(fileId);
    expect(await contentOf(fileId)).toBe('amended terms');
  });

  it('refuses overwrite on createFolder, copyItem and moveItem without files:destructive, and changes nothing', async () => {
    const root = (await call('createFolder', { parent_id: 'home', name: 'Overwrite targets' }, WRITER)).body.data
      .Id as string;
    const source = (await call('createFolder', { parent_id: 'home', name: 'Keep' }, WRITER)).body.data.Id as string;
    const existing = (await call('createFolder', { parent_id: root, name: 'Keep' }, WRITER)).body.data.Id as string;
    const before = (await call('listChildren', { folder_id: root }, WRITER)).body.data;

    const attempts = [
      ['createFolder', { parent_id: root, name: 'Keep', overwrite: true }],
      ['copyItem', { item_id: source, target_folder_id: root, overwrite: true }],
      ['moveItem', { item_id: source, target_folder_id: root, overwrite: true }],
    ] as const;
    for (const [tool, args] of attempts) {
      const r = await call(tool, args, WRITER);
      expect(r.status, tool).toBe(403);
      expect(r.body.error.details, tool).toMatchObject({
        permission: 'files:destructive',
        parameter: 'overwrite',
        tool: `files_${tool}`,
      });
    }
    expect((await call('listChildren', { folder_id: root }, WRITER)).body.data).toEqual(before);
    expect((await call('getItem', { item_id: existing }, WRITER)).status).toBe(200);
    expect((await call('getItem', { item_id: source }, WRITER)).body.data.Parent.Id).not.toBe(root);

    // The same calls without overwrite are ordinary writes (a clash is a conflict, not a replacement).
    expect((await call('createFolder', { parent_id: root, name: 'Keep' }, WRITER)).status).toBe(409);
    // And a token with files:destructive may replace.
    expect((await call('createFolder', { parent_id: root, name: 'Keep', overwrite: true }, DESTROYER)).status).toBe(
      200,
    );
    expect((await call('getItem', { item_id: existing }, WRITER)).status).toBe(404);
  });
});
