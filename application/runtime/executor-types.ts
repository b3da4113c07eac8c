import type { Principal } from '../../ports/authenticator.js';
import type { HumanApproval, TenantSettingsSource } from '../../ports/tenant-settings.js';
import type { CallObserver, CallSurface, TraceCarrier } from '../../ports/call-observer.js';
import type { IdempotencyStore } from '../../ports/idempotency-store.js';
import type { RateDecision, RateLimiter } from '../../ports/rate-limiter.js';
import type { CallContext, UseCase } from './define-tool.js';
import type { RegisteredTool } from './registry.js';
import type { Presentation } from './markdown.js';
import type { ToolError } from './tool-error.js';
import type { GatedBy, TokenFault } from './approval-outcomes.js';

// The executor's types: what a call returns, and the policies and hooks it runs with.

/** What else the surface learns about a call: the rate-limit state and whether it was a replay. */
export interface CallMeta {
  readonly rateLimit?: RateDecision;
  readonly replayed?: boolean;
  /** A replay's original request id, when the stored outcome has it. */
  readonly replayOf?: string;
  /** The call started a job (issue 40): its work runs, and counts as `ok` or `failed`, when the job runs. */
  readonly deferred?: boolean;
}

/** A call as an answer names it: the tool's qualified name and its arguments. */
export interface NextCall {
  readonly tool: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** A call that ran: its payload and the text a model reads. */
export interface Succeeded {
  readonly ok: true;
  readonly awaiting?: undefined;
  readonly tool: RegisteredTool;
  readonly payload: unknown;
  /** The answer's text as markdown (drawn once, on first use). */
  readonly text: () => string;
  /**
   * What the text is drawn from, when the presenter gave a Page: the output budget cuts its rows (a
   * replayed or dry-run answer has only its text).
   */
  readonly presentation?: () => Presentation;
  /** The call that fetches the rows after the first `shownRows` (for output budgets). */
  readonly next?: (shownRows: number) => NextCall | undefined;
  readonly meta?: CallMeta;
}

/** A call refused or failed: the error every surface reports. */
export interface Failed {
  readonly ok: false;
  readonly awaiting?: undefined;
  readonly error: ToolError;
  readonly meta?: CallMeta;
  /**
   * A person approved this call, which then answered NOT_CONNECTED: a fresh approval token of the same
   * call, so the surface runs it approved once the person has connected instead of asking again (issue
   * 43). Never on the wire.
   */
  readonly carriedApproval?: string;
}

/**
 * What a gated call would do and the token of a person's answer (approval.ts): the surface shows it to the
 * person (an elicitation form, an `input_required` request, the MCP Apps approval card) and calls again with
 * the token and their answer.
 */
export interface ApprovalAsk {
  /** Completes "it would ...": what the call would change. */
  readonly would: string;
  /** The dry run's facts (ids, names, counts). */
  readonly preview: Readonly<Record<string, unknown>>;
  /** Why a person is asked ("it deletes data"). */
  readonly reason: string;
  /** The single-use token of this call's approval (2026-07-28's requestState). */
  readonly token: string;
  readonly expiresInSeconds: number;
}

/**
 * A gated call waiting for a person's approval: nothing ran. Only a call made with a PersonChannel that
 * asks (no answer yet) gets it; a surface tells it from the other answers by `awaiting`, never by an error
 * code.
 */
export interface AwaitingApproval {
  readonly ok: false;
  readonly awaiting: 'approval';
  readonly tool: RegisteredTool;
  readonly ask: ApprovalAsk;
  readonly meta?: CallMeta;
}

/** An answer a call that can ask nobody gets: it ran, or it was refused or failed. */
export type Settled = Succeeded | Failed;

/** The executor's answer: `ok`, and among the others `awaiting: 'approval'` for a person's approval. */
export type ToolResult = Succeeded | Failed | AwaitingApproval;

/** The use case that runs `tool` for `tenant`; called on every call, so it must be a cheap lookup. */
/** The use case that runs `tool` for `principal` (`Tenancy.useCase`: the principal's tenant and connection). */
export type UseCaseResolver = (tool: RegisteredTool, principal: Principal) => UseCase<unknown, unknown>;

/**
 * The tenant's quotas around one run of a use case (`usageQuotas` in usage-cap.ts): taken as it starts, given
 * back as the quota says; a use case no quota applies to is returned as it is.
 */
export type QuotaPolicy = (
  tool: RegisteredTool,
  tenant: string,
  useCase: UseCase<unknown, unknown>,
) => UseCase<unknown, unknown>;

export interface RateLimitPolicy {
  readonly limiter: RateLimiter;
  /** Calls per minute per principal, unless the group has its own figure. */
  readonly perMinute: number;
  readonly perGroup: Readonly<Record<string, number>>;
}

export interface IdempotencyPolicy {
  readonly store: IdempotencyStore;
  /** How long a finished call's outcome is replayed. */
  readonly ttlSeconds: number;
}

/** A shared store (rate limits, idempotency records) that failed or did not answer in time. */
export interface StoreFault {
  readonly store: 'rate-limit' | 'idempotency' | 'audit';
  /**
   * `take` (the call went through: fail open), `claim` (refused: fail closed), `complete` or `abandon`;
   * `record` (an audit row that could not be written: the call's answer stands).
   */
  readonly operation: 'take' | 'claim' | 'complete' | 'abandon' | 'record';
  readonly error: unknown;
  readonly tool: string;
  readonly requestId: string;
}

import type { Clock } from '../../ports/clock.js';
import type { AuditEntry } from '../../ports/audit-log.js';

/** Where the executor appends one row per Write or Destructive call. */
export interface AuditPolicy {
  record(entry: AuditEntry): Promise<void>;
  /** The vendor behind a group for a tenant ('memory' in memory mode). */
  vendorOf(group: string, tenant: string): string | undefined;
  /**
   * Can a row be kept now (false: the database is away and the local spool is full)? When false, a write is
   * refused with 503 UNAVAILABLE before it runs. Absent: always.
   */
  accepting?(): boolean;
}

export interface ExecutorOptions {
  /** Told about every unexpected exception (a bug); the caller only sees a 500 without internals. */
  readonly onInternalError?: (error: unknown, tool: string, requestId: string) => void;
  /**
   * Told when the rate limiter or the idempotency store fails (Redis down or slow). Rate limits then
   * fail open, a new keyed write is refused with 503 UNAVAILABLE, and an outcome that could not be
   * stored is only reported. Never throws into a call.
   */
  readonly onStoreError?: (fault: StoreFault) => void;
  readonly rateLimits?: RateLimitPolicy;
  /** The tenant's quotas (TENANT_SETTINGS), taken just before the use case runs (not on a replay or a refusal). */
  readonly quotas?: QuotaPolicy;
  readonly idempotency?: IdempotencyPolicy;
  /** Longest a tool may run before the caller gets a 504 (the work itself is not cancelled). */
  readonly timeoutMs?: number;
  /** Logs and measures every call. */
  readonly observer?: CallObserver;
  /** Delay added to every tool run (demos and tests of the in-memory mode). */
  readonly simulatedLatencyMs?: number;
  /** Each tenant's human-approval setting (who approves a Destructive call or a skip trace). */
  readonly tenantSettings?: TenantSettingsSource;
  /** Dry runs and confirm tokens of Destructive tools (ConfirmGate in confirm.ts). */
  readonly confirm?: DestructiveGate;
  /** The audit log: one row per Write or Destructive call (dry runs change nothing and are left out). */
  readonly audit?: AuditPolicy;
  readonly clock?: Clock;
}

/** Who let a gated call (a Destructive tool, a skip trace) run: a person, the model (a confirm token), or nobody. */
export type Approver = 'person' | 'model' | 'nobody';

/** Filled in as a call goes through the approval gate (approval.ts): who approved it, for the audit log. */
export interface ApprovalNote {
  by: Approver;
  /** Set by the approval step for a gated call: why it is gated, and the tenant's human_approval setting. */
  gated?: { readonly why: GatedBy; readonly mode: HumanApproval };
  /**
   * A dry run: who approves the same call without dry_run (decideApproval), so that its text says what comes
   * next: a person asked by the client, a refusal (the tenant requires a person this client cannot ask), or
   * the model's confirm token (or nobody).
   */
  next?: 'person' | 'refused' | 'token';
  /** A person approved the call: a new approval token of the same call (for carryApproval). */
  approveAgain?: () => string;
}

/**
 * A surface that can ask a person to approve a call (an MCP client that answers elicitation, or shows the
 * approval card). On the first round a gated call answers AwaitingApproval with a preview and a token; the
 * surface asks the person and calls again with the token and the person's answer.
 */
export interface PersonChannel {
  readonly answer?: { readonly token: string; readonly approved: boolean };
}

/** One call of a tool, as every surface hands it to `ToolExecutor.run`. */
export interface ToolCall {
  readonly tool: RegisteredTool;
  /** The arguments as the caller sent them (undefined for none: every parameter optional). */
  readonly args: unknown;
  readonly principal: Principal;
  readonly requestId: string;
  /** Makes a Write or Destructive call safe to retry: the first outcome is replayed for this key. */
  readonly idempotencyKey?: string;
  /** The text budget of the answer, so that a use case can size what it reads (web_fetch's parts). */
  readonly budget?: number;
  /** Set when the client can ask a person to approve (MCP with elicitation); REST and other clients cannot. */
  readonly person?: PersonChannel;
  /** Where the call came in, and the caller's trace context (for tracing: see ObservedCall). */
  readonly surface?: CallSurface;
  readonly trace?: TraceCarrier;
  /**
   * Run as a long job (issue 40): once every gate has passed (permission, rate limit, arguments, approval
   * and confirm tokens), the decoded parameters go here instead of to the use case.
   */
  readonly defer?: (params: unknown, meta: CallMeta | undefined) => Promise<Settled>;
}

/** The gateway's own parameters of a Destructive call. */
export interface Controls {
  readonly dryRun: boolean;
  readonly confirmToken?: string;
}

/** What a gated call would do, in words and as facts (ids, names, counts): see Preview in confirm.ts. */
export interface CallPreview {
  readonly summary: string;
  readonly facts: Readonly<Record<string, unknown>>;
  /** Why a person is asked, when the tool's kind says it too vaguely ("it removes people from the workspace"). */
  readonly reason?: string;
}

/**
 * Decides, before a Destructive call runs, whether to answer instead (a dry run, a confirmation request),
 * and makes and checks the tokens of a person's approval (ConfirmGate in confirm.ts).
 */
export interface DestructiveGate {
  check(
    tool: RegisteredTool,
    params: unknown,
    controls: Controls,
    useCase: object,
    context: CallContext,
    meta: CallMeta | undefined,
    note?: ApprovalNote,
  ): Promise<Settled | undefined>;
  readonly ttlSeconds: number;
  preview(
    tool: RegisteredTool,
    params: unknown,
    useCase: object,
    context: CallContext,
  ): Promise<CallPreview | ToolError>;
  issueApproval(principal: Principal, tool: RegisteredTool, params: unknown): string;
  /** Checks a person's approval token against this call and uses it up: what is wrong with it, or undefined. */
  redeemApproval(
    token: string,
    principal: Principal,
    tool: RegisteredTool,
    params: unknown,
  ): Promise<TokenFault | undefined>;
}
