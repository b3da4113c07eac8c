import { upstreamFailure, type GatewayError } from '../../../domain/shared/errors.js';
import { E, type Either } from '../../../domain/shared/fp.js';
import { SHAREFILE } from './sharefile-client.js';

// What ShareFile's storage host answers to a Standard upload. It answers HTTP 200 whether or not it stored
// the file: plain text `OK` or `ERROR: <reason>` by default, and with `fmt=json` on the ChunkUri
// `{"error": false, "value": [{id, filename, parentid, md5, size, ...}]}` or
// `{"error": true, "errorMessage": "...", "errorCode": n}`. Source: the official .NET SDK, citrix/ShareFile-NET
// @ 679b33144720c2e40c749164ca4ddab4fec07a1f, src/ShareFile.Api.Client/Transfers/Uploaders/UploaderBase.cs
// (`GetChunkUriForStandardUploads` adds `fmt=json`; `ValidateStorageCenterResponse` throws on `error: true`
// whatever the status, and reads a body without `error` as ShareFile's OData error),
// Transfers/ShareFileApiResponse.cs and Transfers/UploadResponse.cs (the UploadedFile members). The SDK's JSON
// reader ignores case, so members are read here in any case too.

/**
 * The ChunkUri with `fmt=json` appended to the string as it came (`&fmt=json`, or `?fmt=json` when it has no
 * query), unless it already asks for a format: as the SDK appends it, so the storage host's signed query is
 * sent byte for byte (a URL re-serialisation would re-encode `:`, `/`, `=` or `%20` in it; issue 42).
 */
export const withJsonFormat = (chunkUri: string): string => {
  const hash = chunkUri.indexOf('#');
  const uri = hash < 0 ? chunkUri : chunkUri.slice(0, hash);
  const query = uri.indexOf('?');
  if (query >= 0 && /(?:^|&)fmt=/i.test(uri.slice(query + 1))) return uri;
  const joiner = query < 0 ? '?' : uri.endsWith('?') || uri.endsWith('&') ? '' : '&';
  return `${uri}${joiner}fmt=json`;
};

const member = (o: Record<string, unknown>, name: string): unknown => {
  const key = Object.keys(o).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : o[key];
};

const refused = (fileName: string, reason: string, code?: number): GatewayError =>
  upstreamFailure(
    SHAREFILE,
    `ShareFile's storage refused the upload of "${fileName}": ${reason}${code !== undefined ? ` (upload error ${code})` : ''}. Nothing was stored.`,
    { retryable: false },
  );

/**
 * Reads a 2xx answer of the storage host: the stored file's id (undefined when the answer names none, as a
 * plain `OK` does), or the refusal it carries.
 */
export const storageAnswer = (fileName: string, body: unknown): Either<GatewayError, string | undefined> => {
  const text = typeof body === 'string' ? body.trim() : JSON.stringify(body ?? '');
  if (/^ERROR\b/i.test(text)) return E.left(refused(fileName, text.replace(/^ERROR:?\s*/i, '') || 'no reason given'));
  if (/^OK\b/i.test(text) || text === '') return E.right(undefined);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return E.left(refused(fileName, `an answer the gateway cannot read (${text.slice(0, 120)})`));
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return E.left(refused(fileName, 'an answer the gateway cannot read'));
  const o = parsed as Record<string, unknown>;
  const error = member(o, 'error');
  if (error === true) {
    const message = member(o, 'errorMessage');
    const code = member(o, 'errorCode');
    return E.left(
      refused(
        fileName,
        typeof message === 'string' && message ? message : 'no reason given',
        typeof code === 'number' ? code : undefined,
      ),
    );
  }
  if (error !== false) {
    // no `error` member: ShareFile's error body ({code, message: {value}}), as the SDK reads it
    const m = member(o, 'message');
    const value = typeof m === 'object' && m !== null ? member(m as Record<string, unknown>, 'value') : m;
    return E.left(refused(fileName, typeof value === 'string' && value ? value : 'no reason given'));
  }
  const files = member(o, 'value');
  const first: unknown = Array.isArray(files) ? files[0] : undefined;
  const id = typeof first === 'object' && first !== null ? member(first as Record<string, unknown>, 'id') : undefined;
  return E.right(typeof id === 'string' && id ? id : undefined);
};
