import { pino, type Logger } from 'pino';
import type { LineSink } from './turn-batched-lines.js';

// The one log line of every tool call, written without pino's general-purpose serializer. The line is
// always the same handful of members, so it is built as one template; pino's generic path (a loop over
// the object's keys, its own escaping of each string) cost about 2 µs of every call. The bytes are the
// ones pino writes for the gateway's own logger (call-line.test.ts compares the two), and the line goes
// to the same destination as every other log line, so the order of lines is kept.

/** The members of a call line, in the order they are written. */
export interface CallLineFields {
  readonly requestId: string;
  readonly tenant: string;
  readonly principal: string;
  readonly principalId: string;
  readonly tool: string;
  readonly status: number;
  /** The error code, on a failed call. */
  readonly code?: string;
  readonly durationMs: number;
  readonly upstreamCalls: number;
  readonly upstream?: readonly string[];
}

export type CallLineLevel = 'info' | 'error';

export const CALL_MESSAGE = 'tool call';

/** Writes call lines through a logger: pino's own serializer, for any logger. */
export const loggedCallLine =
  (logger: Logger) =>
  (level: CallLineLevel, fields: CallLineFields): void =>
    logger[level](fields, CALL_MESSAGE);

/** Nothing JSON would escape: no quote, backslash, control character or non-ASCII (a linear test, no backtracking). */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * A string as JSON, as `JSON.stringify` writes it. The members of a call line (request ids, tenant and tool
 * names, principals) are almost always plain ASCII, and quoting them directly costs half as much.
 */
const quoted = (s: string): string => (PLAIN.test(s) ? `"${s}"` : JSON.stringify(s));

/** Quoted tenants, principals, tools and codes: the same few strings on every line, quoted once. */
const QUOTED_KEPT = 1024;
const quotedNames = new Map<string, string>();
const quotedName = (s: string): string => {
  let q = quotedNames.get(s);
  if (q === undefined) {
    if (quotedNames.size >= QUOTED_KEPT) quotedNames.clear();
    quotedNames.set(s, (q = quoted(s)));
  }
  return q;
};

/**
 * Writes call lines as `logger` would, straight to `sink`: only for a logger the gateway built itself
 * (no formatters, mixins, hooks or redaction of these members), whose destination `sink` is.
 */
export const directCallLine = (logger: Logger, sink: LineSink) => {
  const internals = logger as unknown as Record<symbol, unknown>;
  const time = internals[pino.symbols.timeSym] as () => string;
  const head = { info: `{"level":${logger.levels.values['info']}`, error: `{"level":${logger.levels.values['error']}` };
  const tail = `,"msg":${JSON.stringify(CALL_MESSAGE)}}\n`;
  return (level: CallLineLevel, f: CallLineFields): void => {
    // The bindings are read on each line, so that a later `logger.setBindings` shows as it would in pino.
    const bindings = (internals[pino.symbols.chindingsSym] as string | undefined) ?? '';
    let line =
      `${head[level]}${time()}${bindings},"requestId":${quoted(f.requestId)},"tenant":${quotedName(f.tenant)}` +
      `,"principal":${quotedName(f.principal)},"principalId":${quotedName(f.principalId)}` +
      `,"tool":${quotedName(f.tool)},"status":${f.status}`;
    if (f.code !== undefined) line += `,"code":${quotedName(f.code)}`;
    line += `,"durationMs":${f.durationMs},"upstreamCalls":${f.upstreamCalls}`;
    if (f.upstream !== undefined) line += `,"upstream":${JSON.stringify(f.upstream)}`;
    sink.write(line + tail);
  };
};
