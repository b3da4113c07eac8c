import type { ServiceIdentifier } from 'inversify';

export interface ObservedCall {
  readonly tool: string;
  readonly group: string;
  /** The principal's name, for people reading logs. */
  readonly principal: string;
  /** The principal's stable id (`key:ci`, `jwt:<iss>:<sub>`), for joining log lines. */
  readonly principalId: string;
  readonly tenant: string;
  readonly requestId: string;
}

/**
 * Watches every tool call on every surface: wraps the run, learns its status and duration, and may
 * gather what the call did upstream (logs and metrics live behind this port).
 */
export interface CallObserver {
  observe<R extends { readonly ok: boolean; readonly error?: { readonly status: number; readonly code: string } }>(
    call: ObservedCall,
    run: () => Promise<R>,
  ): Promise<R>;
}

export const CallObserver = Symbol.for('CallObserver') as ServiceIdentifier<CallObserver>;
