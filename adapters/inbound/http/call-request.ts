import { randomUUID } from 'node:crypto';
import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import type { ResponseFormat } from '../../../application/runtime/envelope.js';
import { toolError, type ToolError } from '../../../application/runtime/tool-error.js';
import { readCapped, type BodyBytes } from './body-reader.js';

// Reading a request to the HTTP surface: headers, the request id, the query options and the JSON body.

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A header from Node's raw header list (name in lower case): cheaper than Node's lazy headers object. */
export const rawHeader = (raw: readonly string[], name: string): string | undefined => {
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i]!;
    if (key.length === name.length && key.toLowerCase() === name) return raw[i + 1];
  }
  return undefined;
};

/**
 * A request header (name in lower case). On @hono/node-server it comes from Node's request: Hono's own
 * accessor would first build a WHATWG Headers object, a noticeable cost on every call.
 */
export const header = (c: Context, name: string): string | undefined => {
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  return incoming ? rawHeader(incoming.rawHeaders, name) : c.req.header(name);
};

/** The caller's X-Request-Id when it is a sensible one, otherwise a new id. */
export const requestIdFrom = (given: string | undefined): string =>
  given && REQUEST_ID.test(given) ? given : randomUUID();

export const requestIdOf = (c: Context): string => requestIdFrom(header(c, 'x-request-id'));

export type QueryOptions = { format: ResponseFormat; base64: boolean; maxChars?: number } | ToolError;

/** The least `max_chars`: room for a table header, a row and the call that fetches the rest. */
export const MIN_MAX_CHARS = 1000;

/** The options of a request without a query string (most calls). */
const NO_QUERY: QueryOptions = Object.freeze({ format: 'text', base64: false });

export const readQuery = (c: Context): QueryOptions => {
  // Under @hono/node-server the raw request target tells at once whether there is a query at all.
  const target = (c.env as Partial<HttpBindings> | undefined)?.incoming?.url;
  if (target !== undefined && !target.includes('?')) return NO_QUERY;
  return queryOptions((name) => c.req.query(name));
};

const queryOptions = (query: (name: string) => string | undefined): QueryOptions => {
  const format = query('format');
  const base64 = query('base64');
  const maxChars = query('max_chars');
  if (maxChars !== undefined && (!/^\d+$/.test(maxChars) || Number(maxChars) < MIN_MAX_CHARS)) {
    return toolError(
      400,
      'INVALID_PARAMETER',
      `Query parameter "max_chars" must be a whole number of at least ${MIN_MAX_CHARS}; got "${maxChars}".`,
      {
        parameter: 'max_chars',
        expected: `integer of at least ${MIN_MAX_CHARS}`,
      },
    );
  }
  if (format !== undefined && format !== 'json' && format !== 'text') {
    return toolError(400, 'INVALID_PARAMETER', `Query parameter "format" must be "json" or "text"; got "${format}".`, {
      parameter: 'format',
      expected: '"json" or "text"',
    });
  }
  if (base64 !== undefined && !['true', 'false', '1', '0', ''].includes(base64)) {
    return toolError(400, 'INVALID_PARAMETER', `Query parameter "base64" must be "true" or "false"; got "${base64}".`, {
      parameter: 'base64',
      expected: '"true" or "false"',
    });
  }
  return {
    format: format === 'json' ? 'json' : 'text',
    base64: base64 === 'true' || base64 === '1' || base64 === '',
    ...(maxChars !== undefined ? { maxChars: Number(maxChars) } : {}),
  };
};

export type BodyResult = { ok: true; value: unknown } | { ok: false; error: ToolError };

/** Reads the JSON body: none at all is `undefined` (fine when every parameter is optional). */
export const readBody = async (c: Context, limit: number): Promise<BodyResult> =>
  parseBody(await readCapped(c, limit), limit);

/** The body's bytes as JSON, or the error that explains why they are not. */
export const parseBody = (read: BodyBytes, limit: number): BodyResult => {
  if (read.kind === 'too-large') return { ok: false, error: tooLarge(limit) };
  if (read.kind === 'aborted' && read.timedOutAfterMs !== undefined) {
    return { ok: false, error: bodyTimedOut(read.timedOutAfterMs) };
  }
  if (read.kind === 'aborted') {
    return {
      ok: false,
      error: toolError(400, 'INVALID_PARAMETER', 'The request body ended before its declared length. Send it again.', {
        parameter: 'body',
        expected: 'JSON object',
      }),
    };
  }
  if (read.bytes.length === 0) return { ok: true, value: undefined };
  const text = read.bytes.toString('utf8');
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    // A body of nothing but whitespace is no parameters, like an empty one.
    if (text.trim() === '') return { ok: true, value: undefined };
    const why = e instanceof SyntaxError ? e.message : 'invalid JSON';
    return {
      ok: false,
      error: toolError(
        400,
        'INVALID_PARAMETER',
        `The request body is not valid JSON (${why}). Send a JSON object of parameters.`,
        {
          parameter: 'body',
          expected: 'JSON object',
        },
      ),
    };
  }
};

/** A body still arriving when its deadline passed (the answer closes the connection). */
export const bodyTimedOut = (ms: number): ToolError =>
  toolError(
    408,
    'REQUEST_TIMEOUT',
    `The request body was still arriving after ${ms} ms, the most the gateway waits for one. Send the whole body at once.`,
    { parameter: 'body', timeout_ms: ms },
  );

const tooLarge = (limit: number): ToolError =>
  toolError(413, 'PAYLOAD_TOO_LARGE', `The request body is larger than the ${limit}-byte limit.`, {
    limit_bytes: limit,
  });

/** A percent-encoded path segment, decoded; undefined when its escapes are malformed. */
export const decodeSegment = (segment: string): string | undefined => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
};

/** Caller text echoed in a message, cut to a readable length. */
export const clip = (text: string, max = 120): string => (text.length > max ? `${text.slice(0, max)}…` : text);
