import type { Context, Hono } from 'hono';
import yazl from 'yazl';
import { E } from '../../../domain/shared/fp.js';
import type { Authenticator } from '../../../ports/authenticator.js';
import type { Clock } from '../../../ports/clock.js';
import type {
  FilePayload,
  ShareDesk,
  ShareVisitor,
  TransferRefusal,
  UploadDesk,
} from '../../../ports/file-transfers.js';
import type { LinkSigner } from '../../../ports/link-signer.js';
import { isAllowed } from '../../../application/runtime/define-tool.js';
import { authenticateBearer } from './bearer.js';
import { readCapped } from './body-reader.js';
import { isMultipart, readMultipartFile, type UploadBody } from './multipart.js';

// The files group's data plane in memory mode: signed, expiring upload and download addresses (no
// bearer token, like ShareFile's), and the public pages of shares.

export interface FileTransferRouteDeps {
  readonly uploads: UploadDesk;
  readonly shares: ShareDesk;
  readonly signer: LinkSigner;
  readonly clock: Clock;
  readonly authenticator: Authenticator;
  /** The tenant whose shares these routes serve: a token of another tenant does not sign in here. */
  readonly tenant: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';

const answer = (status: number, body: unknown, extra: Record<string, string> = {}): Response => {
  const text = JSON.stringify(body);
  // The length is given so that the transfer's log line can say how many bytes went out.
  return new Response(text, {
    status,
    headers: {
      'content-type': JSON_TYPE,
      'content-length': String(Buffer.byteLength(text)),
      'cache-control': 'no-store',
      ...extra,
    },
  });
};

const refusal = (r: TransferRefusal): Response =>
  answer(r.status, { success: false, error: { code: r.code, message: r.message, details: r.details ?? {} } });

const fail = (
  status: TransferRefusal['status'],
  code: TransferRefusal['code'],
  message: string,
  details?: Record<string, unknown>,
) => refusal({ status, code, message, ...(details ? { details } : {}) });

/**
 * The uploaded file's bytes: a raw body or the file of a multipart form, never more than `limit` of them
 * held. An upload may be large and slow, so its deadline is a pause: no byte for GATEWAY_BODY_TIMEOUT_MS.
 */
const readUpload = (c: Context, limit: number): Promise<UploadBody> => {
  const type = c.req.header('content-type');
  return isMultipart(type) ? readMultipartFile(c, type!, limit) : readCapped(c, limit, 'steady');
};

const tooLarge = (message: string, limit: number): Response =>
  answer(413, { success: false, error: { code: 'PAYLOAD_TOO_LARGE', message, details: { limit_bytes: limit } } });

/** An upload body that could not be read (not too large: that is answered by the caller). */
const unreadable = (body: Exclude<UploadBody, { kind: 'ok' } | { kind: 'too-large' }>): Response =>
  body.kind === 'aborted' && body.timedOutAfterMs !== undefined
    ? answer(408, {
        success: false,
        error: {
          code: 'REQUEST_TIMEOUT',
          message: `The upload stopped: no byte came for ${body.timedOutAfterMs} ms. Send it again (an unfinished chunked upload resumes).`,
          details: { parameter: 'body', timeout_ms: body.timedOutAfterMs },
        },
      })
    : body.kind === 'invalid'
      ? answer(400, {
          success: false,
          error: {
            code: 'INVALID_PARAMETER',
            message: body.message,
            details: { parameter: 'body', expected: 'the file bytes, raw or as multipart/form-data with one file' },
          },
        })
      : answer(400, {
          success: false,
          error: {
            code: 'INVALID_PARAMETER',
            message: 'The request body ended early. Send the upload again.',
            details: { parameter: 'body' },
          },
        });

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

const contentDisposition = (name: string): string =>
  `attachment; filename="${name.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

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

/** What a signed-in share visitor needs (a require_login share): the files group's read permission. */
const SHARE_PERMISSION = 'files:read';

const intQuery = (v: string | undefined): number | undefined | 'bad' =>
  v === undefined || v === '' ? undefined : /^\d+$/.test(v) ? Number(v) : 'bad';

export const mountFileTransferRoutes = (app: Hono, deps: FileTransferRouteDeps): void => {
  const { uploads, shares, signer, clock, authenticator } = deps;
  const inFlight = new Map<string, number>();

  const checkLink = (c: Context, path: string): Response | undefined => {
    const check = signer.verify(path, c.req.query('expires'), c.req.query('sig'), clock.now());
    if (check === 'valid') return undefined;
    return check === 'expired'
      ? fail(
          410,
          'GONE',
          'This address has expired. Ask the gateway for a new one (files_getUploadUrl or files_getDownloadUrl); an unfinished upload resumes.',
        )
      : fail(
          403,
          'FORBIDDEN',
          'This address is not valid (its signature does not match). Use the exact address the gateway returned.',
        );
  };

  /**
   * Who opens a share page. Signed in means a bearer token the gateway accepts AND the files:read
   * permission; `refused` says why a token that was sent does not count, for require_login shares.
   */
  const visitor = async (
    c: Context,
  ): Promise<{ readonly visitor: ShareVisitor; readonly refused?: TransferRefusal }> => {
    const name = c.req.query('name')?.trim();
    const email = c.req.query('email')?.trim();
    const identity = { ...(name ? { name } : {}), ...(email ? { email } : {}) };
    const bearer = await authenticateBearer(authenticator, c.req.header('authorization'));
    if (bearer.kind === 'missing') return { visitor: { signedIn: false, ...identity } };
    if (bearer.kind !== 'principal') {
      const reason = bearer.kind === 'refused' ? bearer.reason : 'the Authorization header is not "Bearer <token>"';
      return {
        visitor: { signedIn: false, ...identity },
        refused: {
          status: 401,
          code: 'UNAUTHORIZED',
          message: `This share requires sign-in, and the bearer token was refused: ${reason}.`,
        },
      };
    }
    const outcome = bearer.principal;
    if (!isAllowed(outcome, SHARE_PERMISSION)) {
      return {
        visitor: { signedIn: false, ...identity },
        refused: {
          status: 403,
          code: 'FORBIDDEN',
          message: `This share requires sign-in with a token that has the "${SHARE_PERMISSION}" permission; this one lacks it.`,
          details: { permission: SHARE_PERMISSION },
        },
      };
    }
    if (outcome.tenant !== deps.tenant) {
      return {
        visitor: { signedIn: false, ...identity },
        refused: {
          status: 403,
          code: 'FORBIDDEN',
          message: 'This share belongs to another workspace: a token of this one does not sign in to it.',
          details: {},
        },
      };
    }
    return { visitor: { signedIn: true, ...identity } };
  };

  /** The store's "sign in first" becomes the precise reason when a token was sent and refused. */
  const shareRefusal = (r: TransferRefusal, refused: TransferRefusal | undefined): Response =>
    refusal(r.status === 401 && refused ? refused : r);

  app.post('/files/transfer/upload/:id/chunk', async (c) => {
    const id = c.req.param('id');
    const bad = checkLink(c, `/files/transfer/upload/${id}/chunk`);
    if (bad) return bad;
    const session = uploads.session(id);
    if (!session)
      return fail(
        404,
        'NOT_FOUND',
        'This upload is finished, was abandoned or never existed. Ask files_getUploadUrl for a new upload address.',
      );
    const index = intQuery(c.req.query('index'));
    const offset = intQuery(c.req.query('byteOffset') ?? c.req.query('byteoffset') ?? c.req.query('offset'));
    if (index === 'bad' || offset === 'bad')
      return fail(400, 'INVALID_PARAMETER', '"index" and "byteOffset" must be whole numbers.', {
        parameter: index === 'bad' ? 'index' : 'byteOffset',
      });
    if (index !== undefined && offset === undefined)
      return fail(
        400,
        'INVALID_PARAMETER',
        'A chunk with an index also needs its "byteOffset" (the position of its first byte).',
        { parameter: 'byteOffset' },
      );
    const running = inFlight.get(id) ?? 0;
    if (running >= session.maxThreads) {
      return fail(
        429,
        'RATE_LIMITED',
        `This upload accepts at most ${session.maxThreads} chunk${session.maxThreads === 1 ? '' : 's'} at a time (MaxNumberOfThreads). Retry this chunk when another one has finished.`,
        {
          max_threads: session.maxThreads,
        },
      );
    }
    inFlight.set(id, running + 1);
    try {
      const body = await readUpload(c, session.limitBytes);
      if (body.kind === 'too-large') {
        uploads.discard(id);
        return tooLarge(
          `The upload is larger than the ${session.limitBytes}-byte limit of this upload. It was discarded and nothing was stored.`,
          session.limitBytes,
        );
      }
      if (body.kind !== 'ok') return unreadable(body);
      const bytes = body.bytes;
      const finish = /^(true|1)$/i.test(c.req.query('finish') ?? '');
      const fileHash = c.req.query('filehash') ?? undefined;
      const r = await uploads.receive(id, {
        ...(index !== undefined ? { index, offset: offset! } : {}),
        bytes,
        finish,
        ...(fileHash ? { fileHash } : {}),
      })();
      if (E.isLeft(r)) return refusal(r.left);
      const o = r.right;
      return o.kind === 'received'
        ? answer(200, {
            success: true,
            data: { received: true, index: o.index, byte_offset: o.offset, received_bytes: o.receivedBytes },
          })
        : answer(200, {
            success: true,
            data: {
              completed: true,
              Id: o.item.Id,
              Name: o.item.Name,
              FileSizeBytes: o.item.FileSizeBytes,
              MD5: o.item.MD5,
              version: o.version,
              Parent: o.item.Parent?.Id,
            },
          });
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
    return answer(200, {
      success: true,
      data: {
        completed: true,
        Id: item.Id,
        Name: item.Name,
        FileSizeBytes: item.FileSizeBytes,
        MD5: item.MD5,
        version,
        Parent: item.Parent?.Id,
      },
    });
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
    const who = await visitor(c);
    const r = await shares.open(id, who.visitor)();
    if (E.isLeft(r)) return shareRefusal(r.left, who.refused);
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
          : {
              upload_url: link('/upload?name=<file name>'),
              how_to_upload:
                'POST the raw bytes of one file to upload_url with its name in the "name" query parameter.',
            }),
      },
    });
  });

  // The share's direct download address (files_getShare's download_url): the whole share at once.
  app.get('/files/shares/:share/download', async (c) => {
    const who = await visitor(c);
    const r = await shares.downloadAll(c.req.param('share'), who.visitor)();
    return E.isLeft(r) ? shareRefusal(r.left, who.refused) : sendFile(r.right);
  });

  app.get('/files/shares/:share/items/:item', async (c) => {
    const who = await visitor(c);
    const r = await shares.download(c.req.param('share'), c.req.param('item'), who.visitor)();
    return E.isLeft(r) ? shareRefusal(r.left, who.refused) : sendFile(r.right);
  });

  app.post('/files/shares/:share/upload', async (c) => {
    const name = c.req.query('name')?.trim();
    if (!name)
      return fail(400, 'INVALID_PARAMETER', 'Give the file name in the "name" query parameter.', { parameter: 'name' });
    const who = await visitor(c);
    const opened = await shares.open(c.req.param('share'), who.visitor)();
    if (E.isLeft(opened)) return shareRefusal(opened.left, who.refused);
    const body = await readUpload(c, uploads.maxUploadBytes);
    if (body.kind === 'too-large')
      return tooLarge(
        `The file is larger than the ${uploads.maxUploadBytes}-byte limit. Nothing was stored.`,
        uploads.maxUploadBytes,
      );
    if (body.kind !== 'ok') return unreadable(body);
    const r = await shares.upload(c.req.param('share'), name, body.bytes, who.visitor)();
    if (E.isLeft(r)) return shareRefusal(r.left, who.refused);
    return answer(201, {
      success: true,
      data: { uploaded: true, Id: r.right.Id, Name: r.right.Name, FileSizeBytes: r.right.FileSizeBytes },
    });
  });
};
