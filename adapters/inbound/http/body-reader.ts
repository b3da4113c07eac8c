import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import { ByteSpool } from './byte-spool.js';

// The one way request bodies are read: REST tool calls, the MCP endpoint and the files data plane.
// Bytes are counted as they arrive and reading stops as soon as the limit is passed, so a body larger
// than the limit never costs more memory than the limit (a declared Content-Length over it costs none).
// A body has a deadline too (GATEWAY_BODY_TIMEOUT_MS): one that stops coming is given up on, answered
// (408) and its connection closed, instead of holding the request open until the client goes away.

export type BodyBytes =
  | { readonly kind: 'ok'; readonly bytes: Buffer }
  | { readonly kind: 'too-large' }
  /** The body did not arrive whole: the client stopped, or (`timedOutAfterMs`) it was still coming at its deadline. */
  | { readonly kind: 'aborted'; readonly timedOutAfterMs?: number };

/** How a streamed body ended: `stopped` when the consumer asked to stop before the end, `timeout` past the deadline. */
export type StreamEnd = 'ok' | 'too-large' | 'aborted' | 'stopped' | 'timeout';

/**
 * How a body's deadline counts: `whole`, the whole body within it (tool calls and MCP messages, small
 * and sent at once); `steady`, never that long without a byte (uploads, which may be large and slow).
 */
export type BodyPace = 'whole' | 'steady';

export const DEFAULT_BODY_TIMEOUT_MS = 10_000;

let bodyTimeoutMs = DEFAULT_BODY_TIMEOUT_MS;

/**
 * Sets the body deadline of this process (GATEWAY_BODY_TIMEOUT_MS; the gateway sets it as it starts, like
 * the vendor clients' resilience settings).
 */
export const setBodyTimeout = (ms: number): void => {
  bodyTimeoutMs = ms;
};

export const bodyTimeout = (): number => bodyTimeoutMs;

/** After the answer to a body that was not read to its end, how long the rest is read and dropped before the connection is cut. */
const DISCARD_GRACE_MS = 1000;

/**
 * Where a body comes from: Node's request and response (under @hono/node-server or the tool-call fast
 * path), or a WHATWG stream (app.request in tests, other runtimes).
 */
export interface BodySource {
  readonly incoming?: IncomingMessage;
  readonly outgoing?: ServerResponse;
  readonly contentLength: string | undefined;
  readonly web?: () => ReadableStream<Uint8Array> | null;
}

/** The body source of a Hono request. */
export const sourceOf = (c: Context): BodySource => {
  const env = c.env as Partial<HttpBindings> | undefined;
  const incoming = env?.incoming;
  return incoming
    ? { incoming, outgoing: env.outgoing, contentLength: incoming.headers['content-length'] }
    : { contentLength: c.req.header('content-length'), web: () => c.req.raw.body };
};

/**
 * Drops what is left of a body that will not be read. The client gets its answer on an open connection
 * (closing a socket with unread data in it resets it, and the client could lose the answer); if the
 * body is still coming a moment after the answer was sent, the connection is cut.
 */
const discardRest = (outgoing: ServerResponse | undefined, incoming: IncomingMessage): void => {
  let timer: NodeJS.Timeout | undefined;
  const cut = () => {
    if (!incoming.readableEnded) incoming.socket?.destroy();
  };
  incoming.once('end', () => clearTimeout(timer));
  const later = () => {
    timer = setTimeout(cut, DISCARD_GRACE_MS);
    timer.unref();
  };
  if (!outgoing || outgoing.writableFinished) later();
  else outgoing.once('finish', later);
  // Without a 'data' listener a flowing stream drops what it reads.
  incoming.resume();
};

/**
 * The answer to a body that ran out of time closes its connection: what the client may still send is
 * not a request to read, and a client that stalled once is not kept waiting on a socket.
 */
const closeAfterAnswer = (outgoing: ServerResponse | undefined): void => {
  if (outgoing && !outgoing.headersSent) outgoing.setHeader('connection', 'close');
};

/** Node's request while its body is still unread. */
const unread = (s: BodySource): IncomingMessage | undefined =>
  s.incoming && !s.incoming.readableEnded ? s.incoming : undefined;

/** The request's Content-Length, when it gives a whole number. */
const lengthOf = (s: BodySource): number | undefined => {
  const raw = s.contentLength;
  return raw !== undefined && /^\d{1,16}$/.test(raw) ? Number(raw) : undefined;
};

export const declaredLength = (c: Context): number | undefined => lengthOf(sourceOf(c));

/**
 * Hands the body to `onChunk` piece by piece and counts the bytes. Past `limit`, or when `onChunk`
 * returns false, reading stops: what is left of a Node request is dropped as it arrives (never kept),
 * and the connection is cut soon after the answer if the client keeps sending.
 */
export const streamBody = (
  c: Context,
  limit: number,
  onChunk: (chunk: Uint8Array) => boolean | void,
  pace: BodyPace = 'steady',
): Promise<StreamEnd> => streamFrom(sourceOf(c), limit, onChunk, pace);

const streamFrom = (
  s: BodySource,
  limit: number,
  onChunk: (chunk: Uint8Array) => boolean | void,
  pace: BodyPace,
): Promise<StreamEnd> => {
  const declared = lengthOf(s);
  const incoming = unread(s);
  if (declared !== undefined && declared > limit) {
    if (incoming) discardRest(s.outgoing, incoming);
    return Promise.resolve('too-large');
  }
  if (incoming) {
    return new Promise((resolve) => {
      let size = 0;
      let done = false;
      const finish = (end: StreamEnd) => {
        if (done) return;
        done = true;
        clearTimeout(deadline);
        incoming.off('data', onData);
        incoming.off('end', onEnd);
        incoming.off('error', onError);
        if (end === 'timeout') closeAfterAnswer(s.outgoing);
        if (end === 'too-large' || end === 'stopped' || end === 'timeout') discardRest(s.outgoing, incoming);
        resolve(end);
      };
      const deadline = setTimeout(() => finish('timeout'), bodyTimeoutMs);
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) return finish('too-large');
        if (onChunk(chunk) === false) return finish('stopped');
        if (pace === 'steady') deadline.refresh();
      };
      const onEnd = () => finish('ok');
      const onError = () => finish('aborted');
      incoming.on('data', onData);
      incoming.on('end', onEnd);
      incoming.on('error', onError);
    });
  }
  return streamWeb(s.web?.() ?? null, limit, onChunk, pace);
};

/** The same over a WHATWG stream (app.request in tests, other runtimes). */
const streamWeb = async (
  stream: ReadableStream<Uint8Array> | null,
  limit: number,
  onChunk: (chunk: Uint8Array) => boolean | void,
  pace: BodyPace,
): Promise<StreamEnd> => {
  if (!stream) return 'ok';
  const reader = stream.getReader();
  let size = 0;
  let timedOut = false;
  // Cancelling ends the pending read (done), which is then told apart from the body's own end.
  const deadline = setTimeout(() => {
    timedOut = true;
    reader.cancel().catch(() => undefined);
  }, bodyTimeoutMs);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (timedOut) return 'timeout';
      if (done) return 'ok';
      size += value.length;
      const end = size > limit ? 'too-large' : onChunk(value) === false ? 'stopped' : undefined;
      if (end) {
        await reader.cancel().catch(() => undefined);
        return end;
      }
      if (pace === 'steady') deadline.refresh();
    }
  } catch {
    return timedOut ? 'timeout' : 'aborted';
  } finally {
    clearTimeout(deadline);
  }
};

/** What a read that did not end well tells its caller. */
const unfinished = (end: 'aborted' | 'timeout'): BodyBytes =>
  end === 'timeout' ? { kind: 'aborted', timedOutAfterMs: bodyTimeoutMs } : { kind: 'aborted' };

/**
 * Reads the whole body, or says that it is larger than `limit` bytes (having kept at most that many), or
 * that it did not arrive in time (`pace` says how its deadline counts).
 */
export const readCapped = (c: Context, limit: number, pace: BodyPace = 'whole'): Promise<BodyBytes> =>
  readCappedFrom(sourceOf(c), limit, pace);

const readCappedFrom = async (s: BodySource, limit: number, pace: BodyPace): Promise<BodyBytes> => {
  const declared = lengthOf(s);
  if (declared !== undefined && declared > limit)
    return streamFrom(s, limit, () => undefined, pace).then(() => ({ kind: 'too-large' }));
  const incoming = unread(s);
  // Usually a small body came in with the headers and already sits in the stream's buffer: take it at
  // once instead of waiting for stream events. A handler that reaches this point without having waited
  // for anything runs inside Node's parsing of the headers, before the body that came with them has been
  // pushed into the stream; one microtask later it is there (the parser pushes it in the same call).
  if (incoming && declared !== undefined && declared > 0 && incoming.readableLength < declared) await Promise.resolve();
  if (
    incoming &&
    declared !== undefined &&
    declared > 0 &&
    incoming.readableFlowing === null &&
    incoming.readableLength === declared
  ) {
    const buffered = incoming.read() as Buffer | null;
    if (buffered && buffered.length === declared) {
      // Let the stream reach its end now: @hono/node-server otherwise drains an unfinished request body
      // with timers after the response, which costs more than the whole tool call.
      incoming.resume();
      return { kind: 'ok', bytes: buffered };
    }
    if (buffered) incoming.unshift(buffered);
  }
  // Past a few MiB the body goes to a temporary file, so a large body refused part-way costs little memory.
  const spool = new ByteSpool();
  const end = await streamFrom(s, limit, (chunk) => spool.append(chunk), pace);
  if (end !== 'ok') {
    spool.discard();
    return end === 'too-large' ? { kind: 'too-large' } : unfinished(end === 'timeout' ? 'timeout' : 'aborted');
  }
  return { kind: 'ok', bytes: spool.take() };
};
