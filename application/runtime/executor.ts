import type { Principal } from '../../ports/authenticator.js';
import type { IdempotencyClaim } from '../../ports/idempotency-store.js';
import type { RateDecision } from '../../ports/rate-limiter.js';
import { isAllowed, markdownOf, type CallContext } from './define-tool.js';
import type { Presentation } from './markdown.js';
import type {
  ApprovalNote,
  AuditPolicy,
  CallMeta,
  Controls,
  ExecutorOptions,
  IdempotencyPolicy,
  Settled,
  StoreFault,
  ToolCall,
  ToolResult,
  UseCaseResolver,
} from './executor-types.js';
import { takeControls } from './confirm.js';
import { approveCall, carryApproval, gatedBy, sayWhoApproved } from './approval.js';
import { Deadlines, timeoutError } from './deadlines.js';
import { auditEntryOf, auditUnavailable } from './audit.js';
import { fingerprintOf, IDEMPOTENCY_KEY, replay, storable, storeUnavailable } from './idempotency.js';
import { dropNullOptionals, explainDecodeErrors, findUnknownMember } from './arguments.js';
import type { RegisteredTool, ToolRegistry } from './registry.js';
import { fromGatewayError, toolError, type ToolError } from './tool-error.js';

export type {
  AwaitingApproval,
  CallMeta,
  ExecutorOptions,
  IdempotencyPolicy,
  RateLimitPolicy,
  Settled,
  StoreFault,
  ToolCall,
  ToolResult,
  UseCaseResolver,
} from './executor-types.js';

const fail = (error: ToolError, meta?: CallMeta): Settled => ({ ok: false, error, meta });

const isDryRun = (args: unknown): boolean =>
  typeof args === 'object' && args !== null && (args as { dry_run?: unknown }).dry_run === true;

/**
 * The one path every surface takes: find the tool, authorise, rate-limit, decode the arguments, honour an
 * idempotency key, take the tenant's quotas, run the use case within the time limit, and present the result.
 */
export class ToolExecutor {
  /** The use case of a tool for a tenant under the tenant's quotas, taken as it starts (the job engine's too). */
  readonly resolve: UseCaseResolver;
  constructor(
    readonly registry: ToolRegistry,
    /** Finds the use case of a tool for a tenant (each tenant has its own adapters: demo data, connections). */
    find: UseCaseResolver,
    private readonly options: ExecutorOptions = {},
  ) {
    const quotas = options.quotas;
    this.resolve = quotas ? (tool, principal) => quotas(tool, principal.tenant, find(tool, principal)) : find;
  }

  /** The time limits of the calls in flight. */
  private readonly deadlines = new Deadlines();

  /** Runs one call; only a call with a PersonChannel (`person`) may be answered AwaitingApproval. */
  run(call: ToolCall & { readonly person?: undefined }): Promise<Settled>;
  run(call: ToolCall): Promise<ToolResult>;
  run(call: ToolCall): Promise<ToolResult> {
    const audit = this.options.audit;
    // Who approved a gated call: set by the approval gate (approval.ts), recorded in the audit log.
    const note: ApprovalNote = { by: 'nobody' };
    const answer =
      audit && call.tool.declaration.annotations.kind !== 'Read' && !isDryRun(call.args)
        ? this.runAudited(call, audit, note)
        : this.runWatched(call, note);
    return answer.then((result) => carryApproval(sayWhoApproved(result, note), note));
  }

  private async runAudited(call: ToolCall, audit: AuditPolicy, note: ApprovalNote): Promise<ToolResult> {
    const { tool, args, principal, requestId } = call;
    if (audit.accepting && !audit.accepting()) return fail(auditUnavailable);
    const result = await this.runWatched(call, note);
    // Asking a person changes nothing, like a dry run: only the call that follows is recorded.
    if (result.awaiting === 'approval') return result;
    const at = this.options.clock?.now() ?? new Date();
    try {
      await audit.record(
        auditEntryOf(
          tool,
          args,
          principal,
          requestId,
          result,
          at,
          audit.vendorOf(tool.declaration.group, principal.tenant),
          note.by,
        ),
      );
    } catch (error) {
      // The call has happened: a failing audit store is reported, and the caller still gets its answer.
      this.reportStoreFault({ store: 'audit', operation: 'record', error, tool: tool.name, requestId });
    }
    return result;
  }

  private runWatched(call: ToolCall, note: ApprovalNote): Promise<ToolResult> {
    const observer = this.options.observer;
    if (!observer) return this.runObserved(call, note);
    const { tool, principal } = call;
    return observer.observe(
      {
        tool: tool.name,
        group: tool.declaration.group,
        principal: principal.name,
        principalId: principal.id,
        tenant: principal.tenant,
        requestId: call.requestId,
        surface: call.surface,
        trace: call.trace,
      },
      () => this.runObserved(call, note),
    );
  }

  private async runObserved(call: ToolCall, note: ApprovalNote): Promise<ToolResult> {
    const { tool, args, principal, requestId } = call;
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
      let decision: RateDecision | undefined;
      try {
        // Per tenant and principal (a tenant id has no ":", so the parts cannot run into each other).
        decision = await limits.limiter.take(
          `${principal.tenant}:${principal.id}:${group}`,
          limits.perGroup[group] ?? limits.perMinute,
          60,
        );
      } catch (error) {
        // Fail open: a limit that cannot be checked for a while must not take every tool down.
        this.reportStoreFault({ store: 'rate-limit', operation: 'take', error, tool: tool.name, requestId });
      }
      meta = decision ? { rateLimit: decision } : undefined;
      if (decision && !decision.allowed) {
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
      return fail(
        toolError(400, 'INVALID_PARAMETER', 'The parameters must be a JSON object.', {
          parameter: 'body',
          expected: 'JSON object',
        }),
        meta,
      );
    }
    // A Destructive tool's dry_run and confirm_token are the gateway's, not the use case's.
    let given = input as Record<string, unknown>;
    let controls: Controls | undefined;
    if (tool.declaration.annotations.kind === 'Destructive') {
      const taken = takeControls(given);
      if ('status' in taken) return fail(taken, meta);
      ({ rest: given, controls } = taken);
    }
    const unknown = findUnknownMember(given, tool.inputSchema);
    if (unknown) return fail(unknown, meta);
    const decoded = tool.declaration.params.decode(given);
    if (decoded._tag === 'Left') return fail(explainDecodeErrors(decoded.left), meta);
    const params = decoded.right;

    if (gatedBy(tool)) {
      const gate = this.options.confirm;
      if (!gate && controls && (controls.dryRun || controls.confirmToken !== undefined)) {
        return fail(
          toolError(400, 'INVALID_PARAMETER', 'Dry runs and confirm tokens are not enabled on this gateway.', {
            parameter: controls.dryRun ? 'dry_run' : 'confirm_token',
            expected: 'not given',
          }),
          meta,
        );
      }
      // A Destructive call or a skip trace: a person, the model or nobody approves it (approval.ts).
      const answer = await approveCall({
        tool,
        params,
        controls,
        useCase: this.resolve(tool, principal),
        context: { principal, requestId },
        meta,
        mode: this.options.tenantSettings?.of(principal.tenant).humanApproval ?? 'off',
        person: call.person,
        gate,
        note,
      });
      if (answer) return answer;
    }

    if (call.defer) return call.defer(params, meta); // a long job: it runs later, on any instance (issue 40)
    const idempotency = this.options.idempotency;
    const key = call.idempotencyKey;
    if (idempotency && key !== undefined && tool.declaration.annotations.kind !== 'Read') {
      if (!IDEMPOTENCY_KEY.test(key)) {
        return fail(
          toolError(400, 'INVALID_PARAMETER', 'An idempotency key is 1 to 255 visible ASCII characters.', {
            parameter: 'Idempotency-Key',
            expected: 'string of 1 to 255 visible ASCII characters',
          }),
          meta,
        );
      }
      return this.runIdempotently(tool, params, principal, requestId, key, idempotency, meta, call.budget);
    }
    return this.execute(tool, params, principal, requestId, meta, call.budget).result;
  }

  private async runIdempotently(
    tool: RegisteredTool,
    params: unknown,
    principal: Principal,
    requestId: string,
    key: string,
    policy: IdempotencyPolicy,
    meta: CallMeta | undefined,
    budget: number | undefined,
  ): Promise<Settled> {
    const scoped = `${principal.tenant}:${principal.id}:${key}`;
    const fingerprint = fingerprintOf(tool.name, params);
    const runningTtl = Math.ceil((this.options.timeoutMs ?? 60_000) / 1000) + 60;
    let claim: IdempotencyClaim;
    try {
      claim = await policy.store.claim(scoped, fingerprint, runningTtl);
    } catch (error) {
      // Fail closed: without the record a retry could run the write twice, so it does not run now.
      this.reportStoreFault({ store: 'idempotency', operation: 'claim', error, tool: tool.name, requestId });
      return fail(storeUnavailable(key), meta);
    }
    switch (claim.state) {
      case 'mismatch':
        return fail(
          toolError(
            422,
            'IDEMPOTENCY_KEY_REUSED',
            `This Idempotency-Key was already used for a different call (another tool or other arguments). Use a new key for a new call.`,
            {
              idempotency_key: key,
            },
          ),
          meta,
        );
      case 'in-progress':
        return fail(
          toolError(
            409,
            'CONFLICT',
            'A call with this Idempotency-Key is still running. Retry the same request shortly to get its outcome.',
            { idempotency_key: key },
          ),
          meta,
        );
      case 'replay':
        return replay(tool, claim.outcome, meta);
      case 'started':
        break;
    }
    const { result, settled } = this.execute(tool, params, principal, requestId, meta, budget);
    // The outcome is stored when the work settles, even if the caller was answered with a timeout first.
    // Storing is best-effort: a store that fails (Redis gone) is reported, never left as an unhandled
    // rejection (which would end the process).
    void settled
      .then(async (final) => {
        let operation: StoreFault['operation'] = 'abandon';
        try {
          const outcome = storable(final, requestId);
          if (outcome) operation = 'complete';
          if (outcome) await policy.store.complete(scoped, fingerprint, outcome, policy.ttlSeconds);
          else await policy.store.abandon(scoped);
        } catch (error) {
          this.reportStoreFault({ store: 'idempotency', operation, error, tool: tool.name, requestId });
        }
      })
      .catch((error: unknown) => this.internalError(error, tool.name, requestId));
    return result;
  }

  /** Tells the owner about a bug; a failing reporter is swallowed, so no promise here ever rejects. */
  private internalError(error: unknown, tool: string, requestId: string): void {
    try {
      this.options.onInternalError?.(error, tool, requestId);
    } catch {
      // Reporting is best-effort.
    }
  }

  /** Tells the owner about a store failure; a failing reporter is swallowed (it must never fail a call). */
  private reportStoreFault(fault: StoreFault): void {
    try {
      this.options.onStoreError?.(fault);
    } catch {
      // Reporting is best-effort.
    }
  }

  /** Runs the use case; `result` answers within the time limit, `settled` is the work's own end. */
  private execute(
    tool: RegisteredTool,
    params: unknown,
    principal: Principal,
    requestId: string,
    meta: CallMeta | undefined,
    budget?: number,
  ) {
    const limit = this.options.timeoutMs;
    const deadline = limit ? Date.now() + limit : undefined;
    const context: CallContext =
      budget === undefined ? { principal, requestId, deadline } : { principal, requestId, budget, deadline };
    const { declaration } = tool;
    const settled: Promise<Settled> = (async (): Promise<Settled> => {
      try {
        if (this.options.simulatedLatencyMs) await new Promise((r) => setTimeout(r, this.options.simulatedLatencyMs));
        const outcome = await this.resolve(tool, principal).execute(params, context)();
        if (outcome._tag === 'Left') return fail(fromGatewayError(outcome.left), meta);
        const result = outcome.right;
        let drawn: Presentation | undefined;
        const presentation = (): Presentation => {
          if (drawn === undefined) {
            try {
              drawn = declaration.present(result, params);
            } catch (error) {
              // A presenter bug must not cost the caller the result: fall back to the JSON payload.
              this.internalError(error, tool.name, requestId);
              drawn = JSON.stringify(result, null, 1);
            }
          }
          return drawn;
        };
        return {
          ok: true,
          tool,
          payload: declaration.json ? declaration.json(result, params) : result,
          presentation,
          text: () => markdownOf(presentation()),
          next: declaration.continuation
            ? (shown: number) => {
                const args = declaration.continuation!(params, result, shown);
                return args ? { tool: declaration.continuesWith ?? tool.name, arguments: args } : undefined;
              }
            : undefined,
          meta,
        };
      } catch (error) {
        this.internalError(error, tool.name, requestId);
        return fail(
          toolError(
            500,
            'INTERNAL_ERROR',
            `${tool.name} failed unexpectedly. The error was logged with request id ${requestId}.`,
            { request_id: requestId },
          ),
          meta,
        );
      }
    })();
    if (!limit) return { result: settled, settled };
    // One promise settled by whichever comes first, the work or the time limit (no Promise.race per call).
    const result = new Promise<Settled>((resolve) => {
      const entry = this.deadlines.add(deadline!, () => resolve(fail(timeoutError(tool, limit), meta)));
      void settled.then((r) => {
        this.deadlines.done(entry);
        resolve(r);
      });
    });
    return { result, settled };
  }
}
