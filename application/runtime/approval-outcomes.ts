import { toolError, type ToolError } from './tool-error.js';

// How a person's approval of one gated call ends (issue 39): a tagged union that the executor and the MCP
// surface build from what happened (the person's answer, the token's check, the client's failure to ask), and
// that is worded once, here, into the answer a caller reads. Nothing classifies an outcome by an error code
// or by the words of a message.

/** Why a tool needs approval: it deletes data (a Destructive tool), or it is billed (a skip trace). */
export type GatedBy = 'destructive' | 'billed';

/** Why a person is asked, by what the call does (a preview may say it more exactly: Preview.reason). */
export const REASON: Readonly<Record<GatedBy, string>> = {
  destructive: 'it deletes data',
  billed: 'it costs money (each BatchData match is billed)',
};

/** What is wrong with a token (a confirm token or an approval token): confirm.ts checks it. */
export type TokenFault = 'not-issued' | 'other-call' | 'expired' | 'used' | 'unverifiable';

/** How the wait for a person's answer ended without one (2025-era elicitation on the call's own stream). */
export type Unanswered =
  /** No answer within the wait; `answersLost`: the shared store that carries answers was away meanwhile. */
  | { readonly kind: 'timeout'; readonly waitMs: number; readonly answersLost: boolean }
  /** Too many approvals wait already, for the caller, its workspace or the gateway. */
  | {
      readonly kind: 'too-many-waiting';
      readonly scope: 'caller' | 'tenant' | 'gateway';
      /** The bound (0: not known). */
      readonly limit: number;
      readonly retryAfterSeconds: number;
    }
  /** The shared store that carries answers between instances could not take this wait: nobody was asked. */
  | { readonly kind: 'relay-unavailable'; readonly retryAfterSeconds: number }
  /** The client failed to ask (its error, shortened). */
  | { readonly kind: 'client-failed'; readonly detail: string };

/** How a person's approval of a gated call ended. */
export type ApprovalOutcome =
  | { readonly kind: 'approved' }
  /** The person declined, cancelled, or accepted the form without ticking approve. */
  | { readonly kind: 'declined' }
  /** The approval token has run out. */
  | { readonly kind: 'expired' }
  /** The token is not one the gateway issued, belongs to another call, or was used. */
  | { readonly kind: 'refused-token'; readonly why: Exclude<TokenFault, 'expired' | 'unverifiable'> }
  /** The token could not be checked (the shared store of used tokens is away). */
  | { readonly kind: 'unverifiable' }
  /** The tenant requires a person and this client cannot ask one. */
  | { readonly kind: 'cannot-ask'; readonly gatedBy: GatedBy }
  /** Nobody answered. */
  | { readonly kind: 'unanswered'; readonly why: Unanswered };

/** The outcome of checking a person's answer's token: approved or declined as they said, unless the token fails. */
export const answerOutcome = (fault: TokenFault | undefined, approved: boolean): ApprovalOutcome => {
  switch (fault) {
    case undefined:
      return approved ? { kind: 'approved' } : { kind: 'declined' };
    case 'expired':
      return { kind: 'expired' };
    case 'unverifiable':
      return { kind: 'unverifiable' };
    default:
      return { kind: 'refused-token', why: fault };
  }
};

/** A token fault in words, completing "The approval (requestState) ..." or "The confirm_token ...". */
export const TOKEN_FAULT: Readonly<Record<Exclude<TokenFault, 'unverifiable'>, string>> = {
  'not-issued': 'is not one this gateway issued',
  'other-call': 'was issued for another call (another tool, other arguments or another caller)',
  expired: 'has expired',
  used: 'was already used',
};

/** The answer when the store of used tokens cannot be asked (a confirm token's or an approval's). */
export const tokenUnverifiable = (): ToolError =>
  toolError(
    503,
    'UNAVAILABLE',
    'The confirmation could not be checked right now (the shared store is unavailable). Nothing was changed. Retry in 5 s.',
    { retry_after_seconds: 5, retryable: true },
  );

const badApproval = (tool: string, why: string): ToolError =>
  toolError(
    400,
    'INVALID_APPROVAL',
    `The approval (requestState) ${why}. Nothing was changed. Call ${tool} again without requestState: a person will be asked again.`,
    { parameter: 'requestState', expected: `the state of a person's approval of exactly this ${tool} call` },
  );

const WHO_WAITS: Readonly<Record<'caller' | 'tenant' | 'gateway', readonly [string, string]>> = {
  caller: ['you have', 'one caller may have'],
  tenant: ['your workspace has', 'one workspace may have'],
  gateway: ['this gateway has', 'the gateway holds'],
};

const unanswered = (tool: string, why: Unanswered): ToolError => {
  switch (why.kind) {
    case 'relay-unavailable':
      return toolError(
        503,
        'UNAVAILABLE',
        `Nothing was changed and nobody was asked: the shared store (Redis) that carries a person's answer between the gateway's instances is unavailable, so the approval could not wait for it. Retry ${tool} in ${why.retryAfterSeconds} s.`,
        { retry_after_seconds: why.retryAfterSeconds, retryable: true },
      );
    case 'too-many-waiting': {
      const { scope, limit, retryAfterSeconds } = why;
      const count = limit > 0 ? `${limit} of ${limit} approvals` : 'as many approvals as it may have';
      const [who, most] = WHO_WAITS[scope];
      return toolError(
        503,
        'UNAVAILABLE',
        `Nothing was changed: ${who} ${count} waiting for a person's answer (the most ${most} at once). Retry ${tool} in ${retryAfterSeconds} s, or once one of them is answered.`,
        { retry_after_seconds: retryAfterSeconds, retryable: true, limit, scope },
      );
    }
    case 'timeout': {
      const seconds = Math.round(why.waitMs / 1000);
      return why.answersLost
        ? toolError(
            504,
            'TIMEOUT',
            `Nothing was changed: no answer to the approval of ${tool} reached this call within ${seconds} s, and the shared store (Redis) that carries answers between the gateway's instances was unreachable during the wait, so an answer given through another instance may have been lost. Call it again to ask again.`,
            { timeout_ms: why.waitMs, retryable: true, answers_interrupted: true },
          )
        : toolError(
            504,
            'TIMEOUT',
            `Nothing was changed: no person answered the approval of ${tool} within ${seconds} s. Call it again to ask again.`,
            { timeout_ms: why.waitMs, retryable: true },
          );
    }
    case 'client-failed':
      return toolError(
        502,
        'UPSTREAM_ERROR',
        `Nothing was changed: the client could not ask a person to approve ${tool} (${why.detail.slice(0, 200)}).`,
        { retryable: true },
      );
  }
};

/** The answer a caller gets for an approval that did not let the call run: every outcome but `approved`. */
export const approvalError = (tool: string, outcome: Exclude<ApprovalOutcome, { kind: 'approved' }>): ToolError => {
  switch (outcome.kind) {
    case 'declined':
      return toolError(
        403,
        'APPROVAL_DECLINED',
        `A person declined this ${tool} call: nothing was changed. Do not repeat it unless the person asks for it.`,
        { tool, approver: 'person' },
      );
    case 'expired':
      return badApproval(tool, TOKEN_FAULT.expired);
    case 'refused-token':
      return badApproval(tool, TOKEN_FAULT[outcome.why]);
    case 'unverifiable':
      return tokenUnverifiable();
    case 'cannot-ask':
      return toolError(
        403,
        'HUMAN_APPROVAL_REQUIRED',
        `Nothing was changed: this workspace requires a person to approve ${tool} (${REASON[outcome.gatedBy]}), and this client cannot ask one. Call it from an MCP client that supports elicitation (MCP 2026-07-28, or 2025-11-25 declaring the elicitation capability), where a person approves it.${outcome.gatedBy === 'destructive' ? ' dry_run=true still previews it.' : ''}`,
        { tool, human_approval: 'required' },
      );
    case 'unanswered':
      return unanswered(tool, outcome.why);
  }
};
