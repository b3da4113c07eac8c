import type { ServiceIdentifier } from 'inversify';

/** The surface a tool call came in on: REST's per-tool path, the tool-call form, or MCP. */
export type CallSurface = 'rest' | 'tool-call' | 'mcp';

/**
 * The W3C Trace Context a caller sent with a call (issue 32): the HTTP `traceparent`/`tracestate` headers,
 * or on MCP the same keys in the request's `_meta` (SEP-414). Read only when tracing is on.
 */
export interface TraceCarrier {
  readonly traceparent?: string;
  readonly tracestate?: string;
  /** On MCP: what names the request in a trace (the MCP semantic conventions' attributes). */
  readonly mcp?: McpRequestFacts;
}

/** The MCP session, protocol version and JSON-RPC id of a tools/call, when the client sent them. */
export interface McpRequestFacts {
  readonly sessionId?: string;
  readonly protocolVersion?: string;
  readonly requestId?: string | number;
}

export interface ObservedCall {
  readonly tool: string;
  readonly group: string;
  /** The principal's name, for people reading logs. */
  readonly principal: string;
  /** The principal's stable id (`key:ci`, `jwt:<iss>:<sub>`), for joining log lines. */
  readonly principalId: string;
  readonly tenant: string;
  readonly requestId: string;
  readonly surface?: CallSurface;
  /** The caller's trace context, when it sent one: the call's span continues that trace. */
  readonly trace?: TraceCarrier;
}

/**
 * What an observer learns of a call's answer: it ran (`ok`), it was refused or failed (its error), or it waits
 * for a person's approval (`awaiting`: the executor's AwaitingApproval, which carries no error).
 */
export interface ObservedOutcome {
  readonly ok: boolean;
  readonly awaiting?: 'approval';
  readonly error?: { readonly status: number; readonly code: string };
}

/** The status and code an answer is logged, measured and traced under (a person's approval asked: 428). */
export const observedStatus = (result: ObservedOutcome): { readonly status: number; readonly code?: string } =>
  result.ok
    ? { status: 200 }
    : result.awaiting === 'approval'
      ? { status: 428, code: 'APPROVAL_REQUIRED' }
      : { status: result.error?.status ?? 500, code: result.error?.code };

/**
 * Watches every tool call on every surface: wraps the run, learns its status and duration, and may
 * gather what the call did upstream (logs and metrics live behind this port).
 */
export interface CallObserver {
  observe<R extends ObservedOutcome>(call: ObservedCall, run: () => Promise<R>): Promise<R>;
}

export const CallObserver = Symbol.for('CallObserver') as ServiceIdentifier<CallObserver>;
