import { createHash } from 'node:crypto';
import type { Principal } from '../../ports/authenticator.js';
import type { CallObserver } from '../../ports/call-observer.js';
import type { IdempotencyStore, StoredOutcome } from '../../ports/idempotency-store.js';
import type { RateDecision, RateLimiter } from '../../ports/rate-limiter.js';
import { GROUPS, isAllowed, type CallContext, type Group, type UseCase } from './define-tool.js';
import { dropNullOptionals, explainDecodeErrors, findUnknownMember } from './arguments.js';
import type { RegisteredTool, ToolRegistry } from './registry.js';
import { fromGatewayError, toolError, type ToolError } from './tool-error.js';

/** What else the surface learns about a call: the rate-limit state and whether it was a replay. */
export interface CallMeta {
  readonly rateLimit?: RateDecision;
  readonly replayed?: boolean;
}

export type ToolResult =
  | {
      readonly ok: true;
      readonly tool: RegisteredTool;
      readonly payload: unknown;
      readonly text: () => string;
      /** The call that fetches the rows after the first `shownRows` (for output budgets). */
      readonly next?: (shownRows: number) => string | undefined;
      readonly meta?: CallMeta;
    }
  | { readonly ok: false; readonly error: ToolError; readonly meta?: CallMeta };

export type UseCaseResolver = (tool: RegisteredTool) => UseCase<unknown, unknown>;

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

export interface ExecutorOptions {
  /** Told about every unexpected exception (a bug); the caller only sees a 500 without internals. */
  readonly onInternalError?: (error: unknown, tool: string, requestId: string) => void;
  readonly rateLimits?: RateLimitPolicy;
  readonly idempotency?: IdempotencyPolicy;
  /** Longest a tool may run before the caller gets a 504 (the work itself is not cancelled). */
  readonly timeoutMs?: number;
  /** Logs and measures every call. */
  readonly observer?: CallObserver;
  /** Delay added to every tool run (demos and tests of the in-memory mode). */
  readonly simulatedLatencyMs?: number;
}

export interface RunOptions {
  /** Makes a Write or Destructive call safe to retry: the first outcome is replayed for this key. */
  readonly idempotencyKey?: string;
}

const fail = (error: ToolError, meta?: CallMeta): ToolResult => ({ ok: false, error, meta });

/** JSON with keys in a fixed order, so that equal arguments give equal fingerprints. */
const canonical = (v: unknown): string => {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
};

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

const TIMED_OUT = Symbol('timed out');

/**
 * The one path every surface takes: find the tool, authorise, rate-limit, decode the arguments,
 * honour an idempotency key, run the use case within the time limit, and present the result (text
 * lazily, since `format=json` never needs it).
 */
export class ToolExecutor {
  private readonly useCases = new Map<string, UseCase<unknown, unknown>>();

  constructor(
    readonly registry: ToolRegistry,
    resolve: UseCaseResolver,
    private readonly options: ExecutorOptions = {},
  ) {
    for (const tool of registry.tools) this.useCases.set(tool.name, resolve(tool));
  }

  /** A 404 that names the tools that do exist in the group (or the groups, when the group is unknown). */
  unknownTool(group: string, toolName?: string): ToolError {
    if (!(GROUPS as readonly string[]).includes(group)) {
      return toolError(404, 'NOT_FOUND', `Unknown tool group "${group}". Groups: ${GROUPS.join(', ')}. GET /v1/tools lists every tool.`, {
        resource: 'tool_group',
        id: group,
        groups: [...GROUPS],
      });
    }
    const tools = this.registry.inGroup(group as Group).map((t) => t.declaration.name);
    const name = toolName === undefined ? group : `${group}_${toolName}`;
    const available = tools.length ? `Tools in "${group}": ${tools.join(', ')}.` : `The "${group}" group has no tools yet.`;
    return toolError(404, 'NOT_FOUND', `Unknown tool "${name}". ${available}`, { resource: 'tool', id: name, tools });
  }

  /** Runs a tool by its qualified name (`crm_getContact`). */
  call(name: string, args: unknown, principal: Principal, requestId: string, options: RunOptions = {}): Promise<ToolResult> {
    const tool = this.registry.get(name);
    if (!tool) {
      const cut = name.indexOf('_');
      return Promise.resolve(fail(this.unknownTool(cut > 0 ? name.slice(0, cut) : name, cut > 0 ? name.slice(cut + 1) : undefined)));
    }
    return this.run(tool, args, principal, requestId, options);
  }

  run(tool: RegisteredTool, args: unknown, principal: Principal, requestId: string, options: RunOptions = {}): Promise<ToolResult> {
    const observer = this.options.observer;
    if (!observer) return this.runObserved(tool, args, principal, requestId, options);
    return observer.observe({ tool: tool.name, group: tool.declaration.group, principal: principal.name, requestId }, () =>
      this.runObserved(tool, args, principal, requestId, options),
    );
  }

  private async runObserved(tool: RegisteredTool, args: unknown, principal: Principal, requestId: string, options: RunOptions): Promise<ToolResult> {
    if (!isAllowed(principal, tool.permission)) {
      return fail(
        toolError(403, 'FORBIDDEN', `This token lacks the "${tool.permission}" permission that ${tool.name} needs.`, {
          permission: tool.permission,
          tool: tool.name,
        }),
      );
    }

    let meta: CallMeta | undefined;
    const limits = this.options.rateLimits;
    if (limits) {
      const group = tool.declaration.group;
      const decision = await limits.limiter.take(`${principal.name}:${group}`, limits.perGroup[group] ?? limits.perMinute, 60);
      meta = { rateLimit: decision };
      if (!decision.allowed) {
        return fail(
          toolError(
            429,
            'RATE_LIMITED',
            `Rate limit reached: ${decision.limit} calls per minute to the ${group} tools for this token. Retry in ${decision.retryAfterSeconds} s.`,
            { retry_after_seconds: decision.retryAfterSeconds, limit: decision.limit },
          ),
          meta,
        );
      }
    }

    // A null for an optional parameter means "not given" (OpenAI's strict mode sends one for every
    // parameter it leaves out); nulls inside free-form values (a record field set to null) are kept.
    const input = args === undefined ? {} : dropNullOptionals(tool.inputSchema, args);
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      return fail(toolError(400, 'INVALID_PARAMETER', 'The parameters must be a JSON object.', { parameter: 'body', expected: 'JSON object' }), meta);
    }
    const unknown = findUnknownMember(input, tool.inputSchema);
    if (unknown) return fail(unknown, meta);
    const decoded = tool.declaration.params.decode(input);
    if (decoded._tag === 'Left') return fail(explainDecodeErrors(decoded.left), meta);
    const params = decoded.right;

    const idempotency = this.options.idempotency;
    const key = options.idempotencyKey;
    if (idempotency && key !== undefined && tool.declaration.annotations.kind !== 'Read') {
      if (!IDEMPOTENCY_KEY.test(key)) {
        return fail(toolError(400, 'INVALID_PARAMETER', 'An idempotency key is 1 to 255 visible ASCII characters.', { parameter: 'Idempotency-Key', expected: 'string of 1 to 255 visible ASCII characters' }), meta);
      }
      return this.runIdempotently(tool, params, principal, requestId, key, idempotency, meta);
    }
    return this.execute(tool, params, principal, requestId, meta).result;
  }

  private async runIdempotently(
    tool: RegisteredTool,
    params: unknown,
    principal: Principal,
    requestId: string,
    key: string,
    policy: IdempotencyPolicy,
    meta: CallMeta | undefined,
  ): Promise<ToolResult> {
    const scoped = `${principal.name}:${key}`;
    const fingerprint = createHash('sha256').update(`${tool.name}\n${canonical(params)}`).digest('hex');
    const runningTtl = Math.ceil((this.options.timeoutMs ?? 60_000) / 1000) + 60;
    const claim = await policy.store.claim(scoped, fingerprint, runningTtl);
    switch (claim.state) {
      case 'mismatch':
        return fail(
          toolError(422, 'IDEMPOTENCY_KEY_REUSED', `This Idempotency-Key was already used for a different call (another tool or other arguments). Use a new key for a new call.`, {
            idempotency_key: key,
          }),
          meta,
        );
      case 'in-progress':
        return fail(toolError(409, 'CONFLICT', 'A call with this Idempotency-Key is still running. Retry the same request shortly to get its outcome.', { idempotency_key: key }), meta);
      case 'replay':
        return this.replay(tool, claim.outcome, meta);
      case 'started':
        break;
    }
    const { result, settled } = this.execute(tool, params, principal, requestId, meta);
    // The outcome is stored when the work settles, even if the caller was answered with a timeout first.
    void settled.then(async (final) => {
      const outcome = this.storable(final);
      if (outcome) await policy.store.complete(scoped, fingerprint, outcome, policy.ttlSeconds);
      else await policy.store.abandon(scoped);
    });
    return result;
  }

  /** Only outcomes a retry could not change are kept: results and the caller's own mistakes, not 5xx. */
  private storable(result: ToolResult): StoredOutcome | undefined {
    if (result.ok) return { ok: true, payload: result.payload, text: result.text() };
    if (result.error.status >= 500 || result.error.status === 429) return undefined;
    const { status, code, message, details } = result.error;
    return { ok: false, error: { status, code, message, details } };
  }

  private replay(tool: RegisteredTool, outcome: StoredOutcome, meta: CallMeta | undefined): ToolResult {
    const replayMeta = { ...meta, replayed: true };
    if (outcome.ok) return { ok: true, tool, payload: outcome.payload, text: () => outcome.text, meta: replayMeta };
    const e = outcome.error;
    return fail(toolError(e.status, e.code as ToolError['code'], e.message, { ...e.details }), replayMeta);
  }

  /** Runs the use case; `result` answers within the time limit, `settled` is the work's own end. */
  private execute(tool: RegisteredTool, params: unknown, principal: Principal, requestId: string, meta: CallMeta | undefined) {
    const context: CallContext = { principal, requestId };
    const { declaration } = tool;
    const settled: Promise<ToolResult> = (async (): Promise<ToolResult> => {
      try {
        if (this.options.simulatedLatencyMs) await new Promise((r) => setTimeout(r, this.options.simulatedLatencyMs));
        const outcome = await this.useCases.get(tool.name)!.execute(params, context)();
        if (outcome._tag === 'Left') return fail(fromGatewayError(outcome.left), meta);
        const result = outcome.right;
        return {
          ok: true,
          tool,
          payload: declaration.json ? declaration.json(result, params) : result,
          text: () => {
            try {
              return declaration.text(result, params);
            } catch (error) {
              // A presenter bug must not cost the caller the result: fall back to the JSON payload.
              this.options.onInternalError?.(error, tool.name, requestId);
              return JSON.stringify(result, null, 1);
            }
          },
          next: declaration.continuation
            ? (shown: number) => {
                const args = declaration.continuation!(params, result, shown);
                return args ? `${tool.name} ${JSON.stringify(args)}` : undefined;
              }
            : undefined,
          meta,
        };
      } catch (error) {
        this.options.onInternalError?.(error, tool.name, requestId);
        return fail(toolError(500, 'INTERNAL_ERROR', `${tool.name} failed unexpectedly. The error was logged with request id ${requestId}.`, { request_id: requestId }), meta);
      }
    })();
    const limit = this.options.timeoutMs;
    if (!limit) return { result: settled, settled };
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMED_OUT), limit);
    });
    const result = Promise.race([settled, timeout]).then((r) => {
      clearTimeout(timer);
      if (r !== TIMED_OUT) return r;
      const write = declaration.annotations.kind !== 'Read';
      return fail(
        toolError(
          504,
          'TIMEOUT',
          `${tool.name} did not finish within ${Math.round(limit / 1000)} s.${write ? ' The change may still happen: check before retrying, or retry with the same Idempotency-Key.' : ' Retrying is safe.'}`,
          { timeout_ms: limit, retryable: !write },
        ),
        meta,
      );
    });
    return { result, settled };
  }
}
