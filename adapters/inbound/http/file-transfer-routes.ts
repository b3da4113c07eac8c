import type { Context, Hono } from 'hono';
import yazl from 'yazl';
import { E } from '../../../domain/shared/fp.js';
import type { Authenticator } from '../../../ports/authenticator.js';
import type { Clock } from '../../../ports/clock.js';
import type { FilePayload, ShareDesk, ShareVisitor, TransferRefusal, UploadDesk } from '../../../ports/file-transfers.js';
import type { LinkSigner } from '../../../ports/link-signer.js';

// The files group's data plane in memory mode: signed, expiring upload and download addresses (no
// bearer token, like ShareFile's), and the public pages of shares.

export interface FileTransferRouteDeps {
  readonly uploads: UploadDesk;
  readonly shares: ShareDesk;
  readonly signer: LinkSigner;
  readonly clock: Clock;
  readonly authenticator: Authenticator;
}

const JSON_TYPE = 'application/json; charset=utf-8';

const answer = (status: number, body: unknown, extra: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': JSON_TYPE, 'cache-control': 'no-store', ...extra } });

const refusal = (r: TransferRefusal): Response => answer(r.status, { success: false, error: { code: r.code, message: r.message, details: r.details ?? {} } });

const fail = (status: TransferRefusal['status'], code: TransferRefusal['code'], message: string, details?: Record<string, unknown>) =>
  refusal({ status, code, message, ...(details ? { details } : {}) });

/** Reads the request body, stopping as soon as it passes `limit` bytes. */
const readBody = async (c: Context, limit: number): Promise<Uint8Array | 'too-large'> => {
  const declared = Number(c.req.header('content-length') ?? 'NaN');
  if (Number.isFinite(declared) && declared > limit) return 'too-large';
  const type = c.req.header('content-type') ?? '';
  if (type.startsWith('multipart/form-data')) {
    const form = await c.req.parseBody();
    const file = form['Filedata'] ?? Object.values(form).find((v) => typeof v === 'object');
    if (file && typeof file === 'object' && 'arrayBuffer' in file) {
      const bytes = new Uint8Array(await (file as Blob).arrayBuffer());
      return bytes.length > limit ? 'too-large' : bytes;
    }
    return new Uint8Array(0);
  }
  const stream = c.req.raw.body;
  if (!stream) return new Uint8Array(0);
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return 'too-large';
    }
    parts.push(value);
  }
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

const zipOf = (payload: FilePayload): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const zip = new yazl.ZipFile();
    for (const e of payload.entries) zip.addBuffer(Buffer.from(e.bytes), e.name, { mtime: e.date });
    zip.end();
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (b: Buffer) => chunks.push(b));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });

const contentDisposition = (name: string): string => `attachment; filename="${name.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

const sendFile = async (payload: FilePayload): Promise<Response> => {
  const body = payload.zip ? await zipOf(payload) : Buffer.from(payload.entries[0]?.bytes ?? new Uint8Array(0));
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': payload.contentType,
      'content-length': String(body.length),
      'content-disposition': contentDisposition(payload.fileName),
      'cache-control': 'no-store',
      ...(payload.md5 ? { etag: `"${payload.md5}"` } : {}),
    },
  });
};

const intQuery = (v: string | undefined): number | undefined | 'bad' => (v === undefined || v === '' ? undefined : /^\d+$/.test(v) ? Number(v) : 'bad');

export const mountFileTransferRoutes = (app: Hono, deps: FileTransferRouteDeps): void => {
  const { uploads, shares, signer, clock, authenticator } = deps;
  const inFlight = new Map<string, number>();

  const checkLink = (c: Context, path: string): Response | undefined => {
    const check = signer.verify(path, c.req.query('expires'), c.req.query('sig'), clock.now());
    if (check === 'valid') return undefined;
    return check === 'expired'
      ? fail(410, 'GONE', 'This address has expired. Ask the gateway for a new one (files_getUploadUrl or files_getDownloadUrl); an unfinished upload resumes.')
      : fail(403, 'FORBIDDEN', 'This address is not valid (its signature does not match). Use the exact address the gateway returned.');
  };

  const visitor = async (c: Context): Promise<ShareVisitor> => {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
    const principal = m ? await authenticator.authenticate(m[1]!) : undefined;
    const name = c.req.query('name')?.trim();
    const email = c.req.query('email')?.trim();
    return { signedIn: !!principal, ...(name ? { name } : {}), ...(email ? { email } : {}) };
  };

  app.post('/files/transfer/upload/:id/chunk', async (c) => {
    const id = c.req.param('id');
    const bad = checkLink(c, `/files/transfer/upload/${id}/chunk`);
    if (bad) return bad;
    const session = uploads.session(id);
    if (!session) return fail(404, 'NOT_FOUND', 'This upload is finished, was abandoned or never existed. Ask files_getUploadUrl for a new upload address.');
    const index = intQuery(c.req.query('index'));
    const offset = intQuery(c.req.query('byteOffset') ?? c.req.query('byteoffset') ?? c.req.query('offset'));
    if (index === 'bad' || offset === 'bad') return fail(400, 'INVALID_PARAMETER', '"index" and "byteOffset" must be whole numbers.', { parameter: index === 'bad' ? 'index' : 'byteOffset' });
    if (index !== undefined && offset === undefined) return fail(400, 'INVALID_PARAMETER', 'A chunk with an index also needs its "byteOffset" (the position of its first byte).', { parameter: 'byteOffset' });
    const running = inFlight.get(id) ?? 0;
    if (running >= session.maxThreads) {
      return fail(429, 'RATE_LIMITED', `This upload accepts at most ${session.maxThreads} chunk${session.maxThreads === 1 ? '' : 's'} at a time (MaxNumberOfThreads). Retry this chunk when another one has finished.`, {
        max_threads: session.maxThreads,
      });
    }
    inFlight.set(id, running + 1);
    try {
      const bytes = await readBody(c, uploads.maxUploadBytes);
      if (bytes === 'too-large') {
        uploads.discard(id);
        return fail(413, 'PAYLOAD_TOO_LARGE', `The upload is larger than the ${uploads.maxUploadBytes}-byte limit. It was discarded and nothing was stored.`, { limit_bytes: uploads.maxUploadBytes });
      }
      const finish = /^(true|1)$/i.test(c.req.query('finish') ?? '');
      const fileHash = c.req.query('filehash') ?? undefined;
      const r = await uploads.receive(id, { ...(index !== undefined ? { index, offset: offset! } : {}), bytes, finish, ...(fileHash ? { fileHash } : {}) })();
      if (E.isLeft(r)) return refusal(r.left);
      const o = r.right;
      return o.kind === 'received'
        ? answer(200, { success: true, data: { received: true, index: o.index, byte_offset: o.offset, received_bytes: o.receivedBytes } })
        : answer(200, { success: true, data: { completed: true, Id: o.item.Id, Name: o.item.Name, FileSizeBytes: o.item.FileSizeBytes, MD5: o.item.MD5, version: o.version, Parent: o.item.Parent?.Id } });
    } finally {
      const left = (inFlight.get(id) ?? 1) - 1;
      if (left <= 0) inFlight.delete(id);
      else inFlight.set(id, left);
    }
  });

  app.post('/files/transfer/upload/:id/finish', async (c) => {
    const id = c.req.param('id');
    const bad = checkLink(c, `/files/transfer/upload/${id}/finish`);
    if (bad) return bad;
    const r = await uploads.finish(id, c.req.query('filehash') ?? undefined)();
    if (E.isLeft(r)) return refusal(r.left);
    const { item, version } = r.right;
    return answer(200, { success: true, data: { completed: true, Id: item.Id, Name: item.Name, FileSizeBytes: item.FileSizeBytes, MD5: item.MD5, version, Parent: item.Parent?.Id } });
  });

  app.get('/files/transfer/download/:item/:version', async (c) => {
    const item = c.req.param('item');
    const version = c.req.param('version');
    const bad = checkLink(c, `/files/transfer/download/${item}/${version}`);
    if (bad) return bad;
    const v = version === 'all' ? 'all' : /^\d+$/.test(version) ? Number(version) : undefined;
    if (v === undefined) return fail(404, 'NOT_FOUND', 'Unknown download address.');
    const r = await uploads.read(item, v)();
    return E.isLeft(r) ? refusal(r.left) : sendFile(r.right);
  });

  app.get('/files/shares/:share', async (c) => {
    const id = c.req.param('share');
    const r = await shares.open(id, await visitor(c))();
    if (E.isLeft(r)) return refusal(r.left);
    const { share, files } = r.right;
    const base = new URL(share.Uri);
    const link = (path: string) => `${base.origin}${base.pathname}${path}`;
    return answer(200, {
      success: true,
      data: {
        Id: share.Id,
        ShareType: share.ShareType,
        Title: share.Title,
        ExpirationDate: share.ExpirationDate,
        MaxDownloads: share.MaxDownloads,
        TotalDownloads: share.TotalDownloads,
        IsViewOnly: share.IsViewOnly,
        ...(share.ShareType === 'Send'
          ? {
              files: files.map((f) => ({
                Id: f.item.Id,
                Name: f.item.Name,
                Path: f.path,
                FileSizeBytes: f.item.FileSizeBytes,
                ...(share.IsViewOnly ? {} : { download_url: link(`/items/${f.item.Id}`) }),
              })),
            }
          : { upload_url: link('/upload?name=<file name>'), how_to_upload: 'POST the raw bytes of one file to upload_url with its name in the "name" query parameter.' }),
      },
    });
  });

  app.get('/files/shares/:share/items/:item', async (c) => {
    const r = await shares.download(c.req.param('share'), c.req.param('item'), await visitor(c))();
    return E.isLeft(r) ? refusal(r.left) : sendFile(r.right);
  });

  app.post('/files/shares/:share/upload', async (c) => {
    const name = c.req.query('name')?.trim();
    if (!name) return fail(400, 'INVALID_PARAMETER', 'Give the file name in the "name" query parameter.', { parameter: 'name' });
    const who = await visitor(c);
    const opened = await shares.open(c.req.param('share'), who)();
    if (E.isLeft(opened)) return refusal(opened.left);
    const bytes = await readBody(c, uploads.maxUploadBytes);
    if (bytes === 'too-large') return fail(413, 'PAYLOAD_TOO_LARGE', `The file is larger than the ${uploads.maxUploadBytes}-byte limit. Nothing was stored.`, { limit_bytes: uploads.maxUploadBytes });
    const r = await shares.upload(c.req.param('share'), name, bytes, who)();
    if (E.isLeft(r)) return refusal(r.left);
    return answer(201, { success: true, data: { uploaded: true, Id: r.right.Id, Name: r.right.Name, FileSizeBytes: r.right.FileSizeBytes } });
  });
};
