import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HmacLinkSigner } from '../../../adapters/outbound/memory/hmac-link-signer.js';
import type { InMemoryItemStore } from '../../../adapters/outbound/memory/in-memory-item-store.js';
import type { Clock } from '../../../ports/clock.js';
import { E } from '../../../domain/shared/fp.js';

// ShareFile's storage host answering a Standard upload (one POST of the whole file to the ChunkUri). As the
// official .NET SDK reads it (citrix/ShareFile-NET @ 679b331, Transfers/Uploaders/UploaderBase.cs
// `GetChunkUriForStandardUploads` and `ValidateStorageCenterResponse`, Transfers/ShareFileApiResponse.cs):
// with `fmt=json` the answer is `{"error": false, "value": [UploadedFile...]}` or, refused,
// `{"error": true, "errorMessage": "...", "errorCode": n}`; without it, plain text `OK` or `ERROR: ...`.
// Both at HTTP 200: the status does not say whether the file was stored.

export interface StorageHostFlags {
  /** Refuses the next Standard uploads with this message (HTTP 200, as the storage host does). */
  refuseUploads: string | undefined;
}

const readBytes = (req: IncomingMessage): Promise<Uint8Array> =>
  new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(new Uint8Array(Buffer.concat(parts))));
    req.on('error', reject);
  });

const send = (res: ServerResponse, json: boolean, body: unknown): void => {
  res.writeHead(200, { 'content-type': json ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8' });
  res.end(json ? JSON.stringify(body) : String(body));
};

/** Handles `POST /files/transfer/upload/{id}/chunk` without `index` (a Standard upload); false when it is not one. */
export const standardUpload = async (
  req: IncomingMessage,
  res: ServerResponse,
  u: URL,
  deps: { items: InMemoryItemStore; signer: HmacLinkSigner; clock: Clock; flags: StorageHostFlags },
): Promise<boolean> => {
  const m = /^\/files\/transfer\/upload\/([^/]+)\/chunk$/.exec(u.pathname);
  if (req.method !== 'POST' || !m || u.searchParams.has('index')) return false;
  const json = u.searchParams.get('fmt') === 'json';
  const bytes = await readBytes(req);
  const refuse = (message: string, code: number): void =>
    send(res, json, json ? { error: true, errorMessage: message, errorCode: code } : `ERROR: ${message}`);
  const check = deps.signer.verify(
    u.pathname,
    u.searchParams.get('expires') ?? undefined,
    u.searchParams.get('sig') ?? undefined,
    deps.clock.now(),
  );
  if (check !== 'valid') {
    refuse(`upload address ${check}`, 605);
    return true;
  }
  if (deps.flags.refuseUploads !== undefined) {
    refuse(deps.flags.refuseUploads, 612);
    return true;
  }
  const r = await deps.items.receive(m[1]!, { bytes, finish: true })();
  if (E.isLeft(r)) refuse(r.left.message, 600);
  else if (r.right.kind !== 'completed') refuse('the upload did not complete', 600);
  else {
    const item = r.right.item;
    send(
      res,
      json,
      json
        ? {
            error: false,
            value: [
              {
                displayname: item.Name,
                filename: item.Name,
                id: item.Id,
                parentid: item.Parent?.Id,
                md5: item.type === 'File' ? item.MD5 : undefined,
                size: item.FileSizeBytes,
                uploadid: m[1],
              },
            ],
          }
        : 'OK',
    );
  }
  return true;
};
