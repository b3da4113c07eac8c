import { timingSafeEqual } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { isAuthFailure, type Authenticator, type Principal } from '../../../ports/authenticator.js';
import { isAllowed } from '../../../application/runtime/define-tool.js';
import { DIALECTS, toDialect, type Dialect } from '../dialects/tool-dialects.js';
import { DEFAULT_OUTPUT_BUDGET, present } from '../../../application/runtime/envelope.js';
import type { ToolExecutor } from '../../../application/runtime/executor.js';
import type { RegisteredTool } from '../../../application/runtime/registry.js';
import { toolError, type ToolError } from '../../../application/runtime/tool-error.js';
import { BEARER, clip, decodeSegment, header, readBody, readQuery, requestIdOf } from './call-request.js';
import { callHeaders, JSON_TYPE, send, sendError } from './call-response.js';

export interface HttpAppDeps {
  readonly executor: ToolExecutor;
  readonly authenticator: Authenticator;
  readonly maxBodyBytes: number;
  /** Most characters in a text result (a `max_chars` query parameter may lower it). */
  readonly outputBudget?: number;
  readonly onInternalError?: (error: unknown, requestId: string) => void;
  /** Mounts extra routes (the groups' data planes) before the catch-all. */
  readonly mount?: (app: Hono) => void;
  /** Prometheus exposition for GET /metrics. */
  readonly metrics?: () => Promise<{ readonly contentType: string; readonly body: string }>;
  /** When set, GET /metrics needs `Authorization: Bearer <this token>`. */
  readonly metricsToken?: string;
  /** Told about tool requests refused before a tool could run (no token, bad JSON, unknown tool). */
  readonly onRejected?: (event: {
    readonly requestId: string;
    readonly path: string;
    readonly status: number;
    readonly code: string;
    readonly principal?: string;
  }) => void;
  /** Readiness checks for GET /readyz (configuration is loaded once this app exists). */
  readonly readiness?: () => Promise<Readonly<Record<string, boolean | string>>>;
}

interface Target {
  readonly tool: RegisteredTool;
  readonly args: unknown;
  readonly idempotencyKey?: string;
}

/**
 * The HTTP surface: `POST /v1/tools/{group}/{tool}`, the tool-call form `POST /v1/tools/call`, and the
 * tool listing. Every tool call goes through the same executor.
 */
export const createHttpApp = (deps: HttpAppDeps): Hono => {
  const { executor, authenticator, maxBodyBytes } = deps;
  const outputBudget = deps.outputBudget ?? DEFAULT_OUTPUT_BUDGET;
  const registry = executor.registry;
  const listingBody = JSON.stringify({
    success: true,
    data: { count: registry.tools.length, tools: registry.listing() },
  });

  const authenticate = async (c: Context): Promise<Principal | ToolError> => {
    const authorization = header(c, 'authorization');
    const match = authorization ? BEARER.exec(authorization) : null;
    if (!match) {
      return toolError(
        401,
        'UNAUTHORIZED',
        'Missing bearer token. Send the header "Authorization: Bearer <token>".',
        {},
      );
    }
    const outcome = await authenticator.authenticate(match[1]!);
    return isAuthFailure(outcome)
      ? toolError(
          401,
          'UNAUTHORIZED',
          `The bearer token was refused: ${outcome.reason}. Check the token, or ask the operator for a new one.`,
          {},
        )
      : outcome;
  };

  const unauthorized = (c: Context, requestId: string, e: ToolError, hadToken: boolean): Response =>
    sendError(c, requestId, e, {
      'www-authenticate': hadToken
        ? `Bearer realm="tool-gateway", error="invalid_token"`
        : 'Bearer realm="tool-gateway"',
    });

  /** Authenticate, read options and body, run, present: the same steps for both call forms. */
  const handle = async (c: Context, requestId: string, resolve: (body: unknown) => Target | ToolError) => {
    const rejected = (e: ToolError, who?: string) =>
      deps.onRejected?.({ requestId, path: c.req.path, status: e.status, code: e.code, principal: who });
    const principal = await authenticate(c);
    if ('status' in principal) {
      rejected(principal);
      return unauthorized(c, requestId, principal, Boolean(header(c, 'authorization')));
    }
    const options = readQuery(c);
    if ('status' in options) {
      rejected(options, principal.name);
      return sendError(c, requestId, options);
    }
    const body = await readBody(c, maxBodyBytes);
    if (!body.ok) {
      rejected(body.error, principal.name);
      return sendError(c, requestId, body.error);
    }
    const target = resolve(body.value);
    if ('status' in target) {
      rejected(target, principal.name);
      return sendError(c, requestId, target);
    }
    const idempotencyKey = target.idempotencyKey ?? header(c, 'idempotency-key');
    const result = await executor.run(target.tool, target.args, principal, requestId, { idempotencyKey });
    const budget = Math.min(outputBudget, options.maxChars ?? Infinity);
    const presented = present(result, options.format, options.base64, budget);
    return send(c, requestId, presented, callHeaders(result.meta, presented));
  };

  const app = new Hono();

  const alive = (c: Context) => c.json({ status: 'ok' });
  app.get('/health', alive);
  app.get('/healthz', alive);
  app.get('/readyz', async (c) => {
    const checks = { configuration: true, ...(deps.readiness ? await deps.readiness() : {}) };
    const ready = Object.values(checks).every((v) => v === true);
    return c.json({ status: ready ? 'ready' : 'not ready', checks }, ready ? 200 : 503);
  });
  app.get('/metrics', async (c) => {
    if (!deps.metrics)
      return sendError(
        c,
        requestIdOf(c),
        toolError(404, 'NOT_FOUND', 'Metrics are not enabled.', { resource: 'route', id: '/metrics' }),
      );
    if (deps.metricsToken) {
      const given = BEARER.exec(header(c, 'authorization') ?? '')?.[1];
      const a = Buffer.from(given ?? '');
      const b = Buffer.from(deps.metricsToken);
      if (a.length !== b.length || !timingSafeEqual(a, b)) {
        return sendError(
          c,
          requestIdOf(c),
          toolError(401, 'UNAUTHORIZED', 'GET /metrics needs the metrics token as a bearer token.', {}),
          {
            'www-authenticate': 'Bearer realm="tool-gateway-metrics"',
          },
        );
      }
    }
    const { contentType, body } = await deps.metrics();
    return c.body(body, 200, { 'content-type': contentType });
  });

  app.get('/v1/tools', async (c) => {
    const requestId = requestIdOf(c);
    const callable = c.req.query('callable');
    const dialect = c.req.query('dialect');
    if (dialect !== undefined && !(DIALECTS as readonly string[]).includes(dialect)) {
      return sendError(
        c,
        requestId,
        toolError(
          400,
          'INVALID_PARAMETER',
          `Query parameter "dialect" must be one of ${DIALECTS.join(', ')}; got "${dialect}".`,
          { parameter: 'dialect', expected: DIALECTS.join(' | ') },
        ),
      );
    }
    if (callable !== 'true' && callable !== '1' && dialect === undefined) {
      return new Response(listingBody, {
        status: 200,
        headers: { 'content-type': JSON_TYPE, 'x-request-id': requestId },
      });
    }
    let tools = registry.listing();
    if (callable === 'true' || callable === '1') {
      // Only what this caller may call: the listing a model should be given.
      const principal = await authenticate(c);
      if ('status' in principal) return unauthorized(c, requestId, principal, Boolean(header(c, 'authorization')));
      tools = tools.filter((t) => isAllowed(principal, t.permission));
    }
    const data = dialect === undefined ? tools : toDialect(tools, dialect as Dialect);
    return send(c, requestId, {
      status: 200,
      body: { success: true, data: { count: data.length, ...(dialect ? { dialect } : {}), tools: data } },
    });
  });

  app.post('/v1/tools/call', (c) => {
    const requestId = requestIdOf(c);
    return handle(c, requestId, (body) => {
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
      return tool ? { tool, args, idempotencyKey } : registry.unknownName(name);
    });
  });

  // One static route per registered tool, derived from the registry (no per-tool code). Every other
  // path falls through to notFound, which explains unknown tools and wrong methods: Hono answers a
  // path with exactly one static match far faster than one that several parameterised routes match.
  for (const tool of registry.tools) {
    const { group, name } = tool.declaration;
    app.post(`/v1/tools/${group}/${name}`, (c) => handle(c, requestIdOf(c), (body) => ({ tool, args: body })));
  }

  deps.mount?.(app);

  const TOOL_PATH = /^\/v1\/tools\/([^/]+)\/([^/]+)\/?$/;

  app.notFound((c) => {
    const requestId = requestIdOf(c);
    const m = TOOL_PATH.exec(c.req.path);
    if (m && c.req.method !== 'POST') {
      return sendError(
        c,
        requestId,
        toolError(405, 'METHOD_NOT_ALLOWED', `Tools are called with POST, not ${c.req.method}.`, { allowed: ['POST'] }),
        { allow: 'POST' },
      );
    }
    if (m) {
      const [, platform, name] = m as unknown as [string, string, string];
      const tool = registry.get(`${platform}_${name}`);
      // A registered tool reached through an odd spelling of its path (a trailing slash, an escaped character).
      return handle(c, requestId, (body) => {
        if (tool) return { tool, args: body };
        const group = decodeSegment(platform);
        const toolName = decodeSegment(name);
        if (group === undefined || toolName === undefined) {
          return toolError(
            400,
            'INVALID_PARAMETER',
            `The tool path ${clip(c.req.path)} has a malformed percent-escape. Call POST /v1/tools/{group}/{tool}; GET /v1/tools lists the tools.`,
            {
              parameter: 'path',
              expected: '/v1/tools/{group}/{tool} with valid UTF-8 percent-escapes',
            },
          );
        }
        return registry.unknownTool(clip(group), clip(toolName));
      });
    }
    return sendError(
      c,
      requestId,
      toolError(
        404,
        'NOT_FOUND',
        `No route ${c.req.method} ${c.req.path}. Tools are called with POST /v1/tools/{group}/{tool}; GET /v1/tools lists them.`,
        {
          resource: 'route',
          id: c.req.path,
        },
      ),
    );
  });

  app.onError((error, c) => {
    const requestId = c.res.headers.get('x-request-id') ?? requestIdOf(c);
    deps.onInternalError?.(error, requestId);
    return sendError(
      c,
      requestId,
      toolError(
        500,
        'INTERNAL_ERROR',
        `The gateway failed unexpectedly. The error was logged with request id ${requestId}.`,
        { request_id: requestId },
      ),
    );
  });

  return app;
};
