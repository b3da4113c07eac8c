import type { JobEngine } from '../../../application/jobs/job-engine.js';
import { JOB_TOOLS } from '../../../application/jobs/job-tools.js';
import { deferToJob } from '../../../application/jobs/job-view.js';
import type { Authenticator, Principal } from '../../../ports/authenticator.js';
import type { TraceCarrier } from '../../../ports/call-observer.js';
import {
  budgetsFor,
  errorEnvelope,
  present,
  type Envelope,
  type Presented,
} from '../../../application/runtime/envelope.js';
import type { ToolExecutor } from '../../../application/runtime/executor.js';
import type { RegisteredTool, ToolRegistry } from '../../../application/runtime/registry.js';
import { toolError, type ToolError } from '../../../application/runtime/tool-error.js';
import type { BodyBytes } from './body-reader.js';
import { authenticateBearer, type BearerOutcome } from './bearer.js';
import { parseBody, type QueryOptions } from './call-request.js';
import { callHeaders, JSON_TYPE } from './call-response.js';
import { createMetaTools, metaToolPath, presentAnswer, type Answered, type MetaResolve } from './meta-tool-calls.js';

// A tool call over HTTP, independent of the router that carries it (Hono today): authenticate, read
// the options and the body, resolve the tool, run, present. The answer is plain data (status, headers,
// body), which the carrier writes.

/** What a tool call needs from the request that carries it. */
/** The tool-call form's path (every other tool-call path is a tool's own). */
const TOOL_CALL_FORM_PATH = '/v1/tools/call';

/** A `Prefer` header asking for an asynchronous answer (RFC 7240 `respond-async`). */
const prefersAsync = (prefer: string | undefined): boolean =>
  prefer !== undefined && prefer.split(',').some((p) => p.trim().toLowerCase().split(';')[0] === 'respond-async');

/** The W3C Trace Context headers of a request, when it has a `traceparent` (tracing reads them). */
export const traceHeaders = (header: (name: string) => string | undefined): TraceCarrier | undefined => {
  const traceparent = header('traceparent');
  return traceparent ? { traceparent, tracestate: header('tracestate') } : undefined;
};

export interface CallInput {
  /** The request path, for the log line of a refused request. */
  readonly path: string;
  /** A request header, name in lower case. */
  header(name: string): string | undefined;
  /** The query options (`format`, `base64`, `max_chars`). */
  options(): QueryOptions;
  /** The body's bytes, at most `limit` of them. */
  body(limit: number): Promise<BodyBytes>;
  /** A query parameter (the meta tools read `groups`). */
  query(name: string): string | undefined;
}

/** The answer to write: status, headers and the JSON envelope. */
export interface CallAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

export interface Target {
  readonly tool: RegisteredTool;
  readonly args: unknown;
  readonly idempotencyKey?: string;
}

/**
 * From the parsed body to the tool and its arguments, or why the request names none; a tool-search meta
 * tool's find or describe is answered instead (meta-tool-calls.ts), for this principal.
 */
export type ResolveTarget = (
  body: unknown,
  principal: Principal,
  input: CallInput,
) => Target | Answered | ToolError | Promise<Target | Answered | ToolError>;

export interface RejectedCall {
  readonly requestId: string;
  readonly path: string;
  readonly status: number;
  readonly code: string;
  readonly principal?: string;
}

export interface ToolCallDeps {
  readonly executor: ToolExecutor;
  readonly authenticator: Authenticator;
  readonly maxBodyBytes: number;
  readonly outputBudget: number;
  readonly jsonBudget: number;
  readonly onRejected?: (event: RejectedCall) => void;
  /** Long jobs (issue 40): a job tool sent with `Prefer: respond-async` is queued here and answered 202. */
  readonly jobs?: JobEngine;
}

/**
 * The envelope as JSON. The usual answer, a text result, is written around the text's own JSON (the same
 * bytes JSON.stringify gives for the whole envelope, without walking an object for them).
 */
const envelopeJson = (body: Envelope): string =>
  body.success && typeof body.data === 'string' && body.encoding === undefined
    ? `{"success":true,"data":${JSON.stringify(body.data)}}`
    : JSON.stringify(body);

/** The envelope as a JSON answer, with the request id and any extra headers. */
export const answerOf = (requestId: string, p: Presented, extra?: Record<string, string>): CallAnswer => ({
  status: p.status,
  headers: extra
    ? { 'content-type': JSON_TYPE, 'x-request-id': requestId, ...extra }
    : { 'content-type': JSON_TYPE, 'x-request-id': requestId },
  body: envelopeJson(p.body),
});

export const errorAnswer = (requestId: string, e: ToolError, extra?: Record<string, string>): CallAnswer =>
  answerOf(requestId, errorEnvelope(e), extra);

export const createToolCalls = (deps: ToolCallDeps) => {
  const { executor, authenticator, maxBodyBytes, outputBudget, jsonBudget } = deps;

  const principalOf = (outcome: BearerOutcome): Principal | ToolError => {
    switch (outcome.kind) {
      case 'principal':
        return outcome.principal;
      case 'refused':
        return toolError(
          401,
          'UNAUTHORIZED',
          `The bearer token was refused: ${outcome.reason}. Check the token, or ask the operator for a new one.`,
          {},
        );
      default:
        return toolError(
          401,
          'UNAUTHORIZED',
          'Missing bearer token. Send the header "Authorization: Bearer <token>".',
          {},
        );
    }
  };

  /** The caller of a request with this Authorization header, or the 401 error. */
  const authenticate = (authorization: string | undefined): Principal | ToolError | Promise<Principal | ToolError> => {
    const outcome = authenticateBearer(authenticator, authorization);
    return outcome instanceof Promise ? outcome.then(principalOf) : principalOf(outcome);
  };

  const unauthorized = (requestId: string, e: ToolError, hadToken: boolean): CallAnswer =>
    errorAnswer(requestId, e, {
      'www-authenticate': hadToken
        ? `Bearer realm="tool-gateway", error="invalid_token"`
        : 'Bearer realm="tool-gateway"',
    });

  const reject = (input: CallInput, requestId: string, e: ToolError, who?: string) =>
    deps.onRejected?.({ requestId, path: input.path, status: e.status, code: e.code, principal: who });

  /** Authenticate, read options and body, run, present: the same steps for both call forms. */
  const handle = async (input: CallInput, requestId: string, resolve: ResolveTarget): Promise<CallAnswer> => {
    const authorization = input.header('authorization');
    const authenticated = authenticate(authorization);
    // API keys and the demo token answer at once: no extra turn for them.
    const principal = authenticated instanceof Promise ? await authenticated : authenticated;
    if ('status' in principal) {
      reject(input, requestId, principal);
      return unauthorized(requestId, principal, Boolean(authorization));
    }
    const options = input.options();
    if ('status' in options) {
      reject(input, requestId, options, principal.name);
      return errorAnswer(requestId, options);
    }
    const body = parseBody(await input.body(maxBodyBytes), maxBodyBytes);
    if (!body.ok) {
      reject(input, requestId, body.error, principal.name);
      return errorAnswer(requestId, body.error);
    }
    // a meta tool's answer may wait for the lexicon (read on first use); a tool's own path answers at once
    const resolved = resolve(body.value, principal, input);
    const target = resolved instanceof Promise ? await resolved : resolved;
    if ('status' in target) {
      reject(input, requestId, target, principal.name);
      return errorAnswer(requestId, target);
    }
    const budgets = budgetsFor({ text: outputBudget, json: jsonBudget }, options.maxChars);
    if ('answer' in target)
      return answerOf(requestId, presentAnswer(target.answer, options.format, options.base64, budgets));
    const idempotencyKey = target.idempotencyKey ?? input.header('idempotency-key');
    const trace = traceHeaders((name) => input.header(name));
    let queued: string | undefined;
    const result = await executor.run({
      tool: target.tool,
      args: target.args,
      principal,
      requestId,
      idempotencyKey,
      budget: budgets.text,
      surface: input.path === TOOL_CALL_FORM_PATH ? 'tool-call' : 'rest',
      trace,
      ...(deps.jobs && JOB_TOOLS.has(target.tool.name) && prefersAsync(input.header('prefer'))
        ? { defer: deferToJob(deps.jobs, { tool: target.tool, principal, requestId, trace }, (r) => (queued = r.id)) }
        : {}),
    });
    if (queued !== undefined && result.ok)
      return {
        status: 202,
        headers: {
          'content-type': JSON_TYPE,
          'x-request-id': requestId,
          location: `/v1/jobs/${queued}`,
          'preference-applied': 'respond-async',
        },
        body: JSON.stringify({ success: true, data: result.payload }),
      };
    const presented = present(result, options.format, options.base64, budgets);
    const headers: Record<string, string> = { 'content-type': JSON_TYPE, 'x-request-id': requestId };
    callHeaders(result.meta, presented, headers);
    return { status: presented.status, headers, body: envelopeJson(presented.body) };
  };

  return { authenticate, unauthorized, handle };
};

/** The tool-call form's body, `{"name": "<group>_<tool>", "arguments": {...}, "idempotency_key"?}`. */
export const resolveCallForm =
  (registry: ToolRegistry, meta: ReadonlyMap<string, MetaResolve> = new Map()): ResolveTarget =>
  (body, principal, input) => {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return toolError(400, 'INVALID_PARAMETER', 'The body must be {"name": "<group>_<tool>", "arguments": {...}}.', {
        parameter: 'name',
        expected: 'string',
      });
    }
    const { name, arguments: args, idempotency_key: idempotencyKey, ...rest } = body as Record<string, unknown>;
    const extra = Object.keys(rest);
    if (extra.length) {
      return toolError(
        400,
        'INVALID_PARAMETER',
        `Unknown member "${extra[0]}" in the tool call. Accepted: name, arguments, idempotency_key.`,
        {
          parameter: extra[0],
          expected: 'no such member',
          accepted: ['name', 'arguments', 'idempotency_key'],
        },
      );
    }
    if (idempotencyKey !== undefined && typeof idempotencyKey !== 'string') {
      return toolError(400, 'INVALID_PARAMETER', '"idempotency_key" must be a string.', {
        parameter: 'idempotency_key',
        expected: 'string',
      });
    }
    if (typeof name !== 'string' || !name) {
      return toolError(400, 'INVALID_PARAMETER', 'Missing "name": the tool to call, such as "crm_getContact".', {
        parameter: 'name',
        expected: 'string',
      });
    }
    const tool = registry.get(name);
    if (tool) return { tool, args, idempotencyKey };
    const metaTool = meta.get(name);
    return metaTool ? metaTool(args, principal, (n) => input.query(n), idempotencyKey) : registry.unknownName(name);
  };

/** A meta tool's own path: the body as its arguments. */
export const resolveMeta =
  (meta: MetaResolve): ResolveTarget =>
  (body, principal, input) =>
    meta(body, principal, (n) => input.query(n));

/** A registered tool's own path: the tool and the body as its arguments. */
export const resolveTool =
  (tool: RegisteredTool): ResolveTarget =>
  (body) => ({ tool, args: body });

/** The answer when the gateway itself failed (the error is logged under the request id). */
export const internalErrorAnswer = (requestId: string): CallAnswer =>
  errorAnswer(
    requestId,
    toolError(
      500,
      'INTERNAL_ERROR',
      `The gateway failed unexpectedly. The error was logged with request id ${requestId}.`,
      {
        request_id: requestId,
      },
    ),
  );

/**
 * Every tool-call path: `/v1/tools/call`, each registered tool's `/v1/tools/{group}/{tool}`, and the
 * tool-search meta tools' `/v1/tools/gateway/{findTools,describeTool,callTool}`.
 */
export const toolCallRoutes = (
  registry: ToolRegistry,
  meta: ReadonlyMap<string, MetaResolve> = createMetaTools(registry),
): ReadonlyMap<string, ResolveTarget> => {
  const routes = new Map<string, ResolveTarget>([[TOOL_CALL_FORM_PATH, resolveCallForm(registry, meta)]]);
  for (const tool of registry.tools) {
    const { group, name } = tool.declaration;
    routes.set(`/v1/tools/${group}/${name}`, resolveTool(tool));
  }
  for (const [name, resolve] of meta) routes.set(metaToolPath(name), resolveMeta(resolve));
  return routes;
};
