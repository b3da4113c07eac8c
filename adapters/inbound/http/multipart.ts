import { Busboy, type BusboyFileStream, type BusboyInstance } from '@fastify/busboy';
import type { Context } from 'hono';
import { bodyTimeout, streamBody, type BodyBytes } from './body-reader.js';
import { ByteSpool } from './byte-spool.js';

// Uploads as multipart/form-data, parsed as they stream in: one file part is kept (at most `limit`
// bytes of it), a few small fields are allowed and ignored, and anything past the limits stops the
// reading at once, as does a form that stops coming (no byte for the body deadline).

export type UploadBody = BodyBytes | { readonly kind: 'invalid'; readonly message: string };

/** Room for the part headers, boundaries and small fields around the file. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
const LIMITS = {
  files: 1,
  fields: 16,
  fieldSize: 4096,
  fieldNameSize: 100,
  parts: 24,
  headerPairs: 32,
  headerSize: 8192,
} as const;

export const isMultipart = (contentType: string | undefined): boolean =>
  /^multipart\/form-data\s*;/i.test(contentType ?? '');

/** The bytes of the form's file (the "Filedata" field, as ShareFile names it, or the only file sent). */
export const readMultipartFile = async (c: Context, contentType: string, limit: number): Promise<UploadBody> => {
  let parser: BusboyInstance;
  try {
    parser = new Busboy({ headers: { 'content-type': contentType }, limits: { ...LIMITS, fileSize: limit } });
  } catch (e) {
    return {
      kind: 'invalid',
      message: `The multipart body cannot be read (${e instanceof Error ? e.message : 'bad Content-Type'}).`,
    };
  }
  const spool = new ByteSpool();
  let fileSeen = false;
  let tooLarge = false;
  let problem: string | undefined;
  parser.on('file', (_field: string, stream: BusboyFileStream) => {
    fileSeen = true;
    stream.on('data', (chunk: Buffer) => {
      if (!tooLarge) spool.append(chunk);
    });
    stream.on('limit', () => {
      tooLarge = true;
      spool.discard();
    });
  });
  parser.on('partsLimit', () => (problem ??= `The form has more than ${LIMITS.parts} parts.`));
  parser.on('fieldsLimit', () => (problem ??= `The form has more than ${LIMITS.fields} fields.`));
  parser.on('error', (e: Error) => (problem ??= `The multipart body cannot be read (${e.message}).`));
  const finished = new Promise<void>((resolve) => {
    for (const event of ['finish', 'error', 'close']) parser.on(event, () => resolve());
  });

  const end = await streamBody(c, limit + FORM_OVERHEAD_BYTES, (chunk) => {
    try {
      parser.write(chunk);
    } catch (e) {
      problem ??= `The multipart body cannot be read (${e instanceof Error ? e.message : 'parse error'}).`;
    }
    return !tooLarge && problem === undefined;
  });
  if (tooLarge || end === 'too-large') return discard(parser, spool, { kind: 'too-large' });
  if (problem !== undefined) return discard(parser, spool, { kind: 'invalid', message: problem });
  if (end === 'timeout') return discard(parser, spool, { kind: 'aborted', timedOutAfterMs: bodyTimeout() });
  if (end !== 'ok') return discard(parser, spool, { kind: 'aborted' });
  parser.end();
  await finished;
  if (tooLarge) return discard(parser, spool, { kind: 'too-large' });
  if (problem !== undefined) return discard(parser, spool, { kind: 'invalid', message: problem });
  if (!fileSeen) return { kind: 'ok', bytes: Buffer.alloc(0) };
  return { kind: 'ok', bytes: spool.take() };
};

const discard = <T>(parser: BusboyInstance, spool: ByteSpool, outcome: T): T => {
  spool.discard();
  parser.removeAllListeners('file');
  parser.on('error', () => undefined);
  parser.destroy();
  return outcome;
};
