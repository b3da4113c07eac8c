import type { JobEngine } from '../../../application/jobs/job-engine.js';
import { timingSafeEqual } from 'node:crypto';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { Authenticator } from '../../../ports/authenticator.js';
import { isAllowed } from '../../../application/runtime/define-tool.js';
import { DIALECTS, parseOutputSchemaForm, toDialect, type Dialect } from '../dialects/tool-dialects.js';
import { DEFAULT_JSON_BUDGET, DEFAULT_OUTPUT_BUDGET } from '../../../application/runtime/envelope.js';
import { parseToolsets } from '../../../application/runtime/toolsets.js';
import { metaToolListings, parseDiscoveryMode } from '../../../application/runtime/discovery.js';
import type { ToolExecutor } from '../../../application/runtime/executor.js';
import { toolError } from '../../../application/runtime/tool-error.js';
import { readCapped, setBodyTimeout, type BodyBytes } from './body-reader.js';
import { bearerToken } from './bearer.js';
import { clip, decodeSegment, header, readQuery, requestIdOf, type QueryOptions } from './call-request.js';
import { JSON_TYPE, send, sendError } from './call-response.js';
import {
  createToolCalls,
  internalErrorAnswer,
  toolCallRoutes,
  type CallAnswer,
  type CallInput,
  type RejectedCall,
  type ResolveTarget,
} from './tool-calls.js';
import { transferGuard, type TransferGuardOptions } from './transfer-guard.js';
import { createMetaTools } from './meta-tool-calls.js';

export interface HttpAppDeps {
  readonly executor: ToolExecutor;
  /** Long jobs (issue 40): `Prefer: respond-async` on a job tool. */
  readonly jobs?: JobEngine;
  readonly authenticator: Authenticator;
  readonly maxBodyBytes: number;
  /** Most characters in a text result (a `max_chars` query parameter may lower it). */
  readonly outputBudget?: number;
  /** Most characters in the JSON of a list answer with format=json (`max_chars` may lower it too). */
  readonly jsonBudget?: number;
  readonly onInternalError?: (error: unknown, requestId: string) => void;
  /** Mounts extra routes (the groups' data planes) before the catch-all. */
  readonly mount?: (app: Hono) => void;
  /** Prometheus exposition for GET /metrics. */
  readonly metrics?: () => Promise<{ readonly contentType: string; readonly body: string }>;
  /** When set, GET /metrics needs `Authorization: Bearer <this token>`. */
  readonly metricsToken?: string;
  /** Told about tool requests refused before a tool could run (no token, bad JSON, unknown tool). */
  readonly onRejected?: (event: RejectedCall) => void;
  /**
   * Readiness checks for GET /readyz (configuration is loaded once this app exists). A `local` check that
   * fails (this instance is draining) makes the answer 503 `not ready`; a `shared` dependency that is
   * `"down"` (Redis, PostgreSQL: the same for every instance) makes it 200 `degraded`, so that a load
   * balancer does not take every instance out at once.
   */
  readonly readiness?: () => Promise<Readiness>;
  /**
   * How long a request body may take to arrive (GATEWAY_BODY_TIMEOUT_MS): a setting of the process, as
   * every surface reads bodies through body-reader.ts.
   */
  readonly bodyTimeoutMs?: number;
  /** The files data plane's rate limits and log lines (see transfer-guard.ts). */
  readonly transfers?: TransferGuardOptions;
}

/** What GET /readyz reports: this instance's own checks, and the shared dependencies it reached. */
export interface Readiness {
  /** This instance can serve (`accepting`: not draining); `false` makes /readyz 503. */
  readonly local: Readonly<Record<string, boolean>>;
  /** Shared dependencies (`redis`, `database`): `"down"` makes /readyz 200 `degraded`. */
  readonly shared: Readonly<Record<string, 'ok' | 'down'>>;
}

/** The id a mounted route's answer carries: the one withRequestId chose, or the caller's (or a new one). */
const answerIdOf = (c: Context): string => (c.get('requestId') as string | undefined) ?? requestIdOf(c);

/** Adds X-Request-Id to an answer without one (the caller's id when it sent a sensible one). */
const withRequestId: MiddlewareHandler = async (c, next) => {
  const id = requestIdOf(c);
  c.set('requestId', id);
  await next();
  if (c.res.headers.has('x-request-id')) return;
  try {
    c.res.headers.set('x-request-id', id);
  } catch {
    // A response whose headers cannot change (one fetched from elsewhere): a copy that can.
    const copy = new Response(c.res.body, c.res);
    copy.headers.set('x-request-id', id);
    c.res = copy;
  }
};

/** A tool call's request as Hono carries it: one object per call, the path read only for a refusal's log line. */
class HonoCallInput implements CallInput {
  constructor(private readonly c: Context) {}
  get path(): string {
    return this.c.req.path;
  }
  header(name: string): string | undefined {
    return header(this.c, name);
  }
  options(): QueryOptions {
    return readQuery(this.c);
  }
  body(limit: number): Promise<BodyBytes> {
    return readCapped(this.c, limit);
  }
  query(name: string): string | undefined {
    return this.c.req.query(name);
  }
}

/**
 * The HTTP surface: `POST /v1/tools/{group}/{tool}`, the tool-call form `POST /v1/tools/call`, and the
 * tool listing. Every tool call goes through the same executor.
 */
export const createHttpApp = (deps: HttpAppDeps): Hono => {
  const { executor, authenticator, maxBodyBytes } = deps;
  if (deps.bodyTimeoutMs !== undefined) setBodyTimeout(deps.bodyTimeoutMs);
  const outputBudget = deps.outputBudget ?? DEFAULT_OUTPUT_BUDGET;
  const registry = executor.registry;
  const listingBody = JSON.stringify({
    success: true,
    data: { count: registry.tools.length, tools: registry.listing() },
  });

  const calls = createToolCalls({
    executor,
    authenticator,
    maxBodyBytes,
    outputBudget,
    jsonBudget: deps.jsonBudget ?? DEFAULT_JSON_BUDGET,
    onRejected: deps.onRejected,
    jobs: deps.jobs,
  });

  const toResponse = (a: CallAnswer): Response => new Response(a.body, { status: a.status, headers: a.headers });

  /** A tool call carried by Hono: the steps themselves are in tool-calls.ts. */
  const handle = (c: Context, requestId: string, resolve: ResolveTarget): Promise<Response> =>
    calls.handle(new HonoCallInput(c), requestId, resolve).then(toResponse);

  const app = new Hono();

  for (const path of ['/health', '/healthz', '/readyz', '/metrics']) app.use(path, withRequestId);
  const alive = (c: Context) => c.json({ status: 'ok' });
  app.get('/health', alive);
  app.get('/healthz', alive);
  app.get('/readyz', async (c) => {
    const found = deps.readiness ? await deps.readiness() : { local: {}, shared: {} };
    const local = { configuration: true, ...found.local };
    const serving = Object.values(local).every((v) => v);
    const degraded = Object.values(found.shared).some((v) => v !== 'ok');
    const status = !serving ? 'not ready' : degraded ? 'degraded' : 'ready';
    return c.json({ status, checks: { ...local, ...found.shared } }, serving ? 200 : 503);
  });
  app.get('/metrics', async (c) => {
    if (!deps.metrics)
      return sendError(
        c,
        requestIdOf(c),
        toolError(404, 'NOT_FOUND', 'Metrics are not enabled.', { resource: 'route', id: '/metrics' }),
      );
    if (deps.metricsToken) {
      const given = bearerToken(header(c, 'authorization'));
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
    const groups = parseToolsets(c.req.query('groups'));
    if (groups !== undefined && 'status' in groups) return sendError(c, requestId, groups);
    // The MCP form's output schemas, as /mcp?output_schemas= gives them (outline by default).
    const outputs = parseOutputSchemaForm(c.req.query('output_schemas'));
    if (outputs !== undefined && typeof outputs !== 'string') return sendError(c, requestId, outputs);
    // discovery=search: the tool-search meta tools (gateway_findTools...) made for the tools listed otherwise
    const discovery = parseDiscoveryMode(c.req.query('discovery'));
    if (discovery !== undefined && typeof discovery !== 'string') return sendError(c, requestId, discovery);
    const plain = callable !== 'true' && callable !== '1' && dialect === undefined && groups === undefined;
    if (plain && discovery !== 'search') {
      return new Response(listingBody, {
        status: 200,
        headers: { 'content-type': JSON_TYPE, 'x-request-id': requestId },
      });
    }
    let tools = registry.listing();
    if (groups !== undefined) tools = tools.filter((t) => groups.includes(t.group));
    if (callable === 'true' || callable === '1') {
      // Only what this caller may call: the listing a model should be given.
      const authorization = header(c, 'authorization');
      const principal = await calls.authenticate(authorization);
      if ('status' in principal) return toResponse(calls.unauthorized(requestId, principal, Boolean(authorization)));
      tools = tools.filter((t) => isAllowed(principal, t.permission));
    }
    const listed = discovery === 'search' ? metaToolListings(tools.map((t) => registry.get(t.name)!)) : tools;
    const data = dialect === undefined ? listed : toDialect(listed, dialect as Dialect, outputs);
    return send(c, requestId, {
      status: 200,
      body: { success: true, data: { count: data.length, ...(dialect ? { dialect } : {}), tools: data } },
    });
  });

  // One static route per tool-call path, derived from the registry (no per-tool code). Every other path
  // falls through to notFound, which explains unknown tools and wrong methods: Hono answers a path with
  // exactly one static match far faster than one that several parameterised routes match.
  // The tool-search meta tools (gateway_findTools...) too, as GET /v1/tools?discovery=search lists them.
  const metaTools = createMetaTools(registry);
  for (const [path, resolve] of toolCallRoutes(registry, metaTools)) {
    app.post(path, (c) => handle(c, requestIdOf(c), resolve));
  }

  // The mounted routes (MCP, OpenAPI, docs, connections, the files data plane) answer with an X-Request-Id
  // too: a middleware ahead of each of their paths adds it where the route did not. The tool-call routes
  // above set it themselves and get no middleware, so their answers stay as fast as they were.
  const mounted = new Hono();
  deps.mount?.(mounted);
  for (const path of new Set(mounted.routes.map((r) => r.path))) {
    if (path !== '*' && path !== '/*') app.use(path, withRequestId);
  }
  if (deps.transfers) {
    const guard = transferGuard(deps.transfers, answerIdOf);
    app.use('/files/*', guard);
    app.use('/t/:tenant/files/*', guard);
  }
  app.route('/', mounted);

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
      const metaTool = metaTools.get(`${platform}_${name}`);
      return handle(c, requestId, (body, principal, input) => {
        if (tool) return { tool, args: body };
        if (metaTool) return metaTool(body, principal, (n) => input.query(n));
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
    return toResponse(internalErrorAnswer(requestId));
  });

  return app;
};
