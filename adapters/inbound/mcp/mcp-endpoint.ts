import type { JobEngine } from '../../../application/jobs/job-engine.js';
import type { HttpBindings } from '@hono/node-server';
import type { Context, Hono } from 'hono';
import type { Principal } from '../../../ports/authenticator.js';
import type { TenantSettingsSource } from '../../../ports/tenant-settings.js';
import type { AnswerRelay } from '../../../ports/answer-relay.js';
import { isAllowed } from '../../../application/runtime/define-tool.js';
import type { ToolRegistry } from '../../../application/runtime/registry.js';
import { parseToolsets } from '../../../application/runtime/toolsets.js';
import { CALL_TOOL, parseDiscoveryMode, parsePins } from '../../../application/runtime/discovery.js';
import { authenticateBearer } from '../http/bearer.js';
import { readCapped } from '../http/body-reader.js';
import { header, requestIdOf } from '../http/call-request.js';
import type { SurfaceDeps } from '../http/surface-deps.js';
import type { authInfoFor as AuthInfoFor, McpFetch } from './mcp-server.js';
import { mcpTraceOf } from './mcp-trace.js';
import { mayStepUp } from './step-up.js';
import { PROTECTED_RESOURCE_PATH, protectedResourceMetadata } from './protected-resource.js';
import { parseOutputSchemaForm } from '../dialects/tool-dialects.js';

export interface McpDeps extends SurfaceDeps {
  /** Issuers of the JWT access tokens the gateway accepts, named in the protected resource metadata. */
  readonly authorizationServers?: readonly string[];
  /** Largest JSON-RPC body accepted (default 4 MiB). */
  readonly maxBodyBytes?: number;
  /** Each tenant's human-approval and tool-search settings (defaults: approval when possible, no automatic search). */
  readonly tenantSettings?: TenantSettingsSource;
  /** Approvals 2025-era exchanges of one tenant may wait for at once (APPROVALS_WAITING_PER_TENANT). */
  readonly approvalsWaitingPerTenant?: number;
  /** Carries a 2025-era client's answer posted to another instance to the one whose call awaits it (Redis). */
  readonly answerRelay?: AnswerRelay | undefined;
  /** Long jobs (issue 40): job tools run as MCP tasks. */
  readonly jobs?: JobEngine;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
  });

const rpcError = (status: number, code: number, message: string, headers: Record<string, string> = {}): Response =>
  json(status, { jsonrpc: '2.0', id: null, error: { code, message } }, headers);

/**
 * Browsers send Origin; a page on another site must not reach the gateway through a user's browser (DNS
 * rebinding). Allowed: no Origin (not a browser), the gateway's public origin, and a loopback origin that is
 * the very host the request was sent to.
 */
const originAllowed = (origin: string | undefined, host: string | undefined, ownOrigin: string): boolean => {
  if (origin === undefined) return true;
  if (origin === ownOrigin) return true;
  try {
    const url = new URL(origin);
    return LOOPBACK.has(url.hostname) && host !== undefined && url.host === host.toLowerCase();
  } catch {
    return false;
  }
};

/** Whether the request has a query string (always true where the raw request target is not at hand). */
const hasQuery = (c: Context): boolean => {
  const target = (c.env as Partial<HttpBindings> | undefined)?.incoming?.url;
  return target === undefined || target.includes('?');
};

/** Mounts the MCP endpoint (Streamable HTTP, stateless) at /mcp and the protected resource metadata. */
export const mountMcp = (app: Hono, deps: McpDeps): void => {
  const { executor, authenticator } = deps;
  const base = deps.publicBaseUrl.replace(/\/+$/, '');
  const ownOrigin = new URL(base).origin;
  const maxBodyBytes = deps.maxBodyBytes ?? 4 * 1024 * 1024;
  // The metadata of this resource, `{base}/mcp` (RFC 9728's path-suffixed form): the resource a client then
  // asks its token for, and the gateway's authorization server binds into the token's audience.
  const metadataUrl = `${base}${PROTECTED_RESOURCE_PATH}/mcp`;
  // Built once, on the first /mcp request: the SDK (and zod under it, about 22 MB and 90 ms of start-up:
  // bench/startup.ts) loads then, not with the gateway; inside it, the server options, tool list and schemas.
  let sdk: Promise<{ handler: McpFetch; authInfoFor: typeof AuthInfoFor }> | undefined;
  const loadSdk = () =>
    (sdk ??= import('./mcp-server.js').then(
      (m) => ({
        handler: m.createGatewayMcpHandler({
          executor,
          version: deps.version,
          outputBudget: deps.outputBudget,
          jsonBudget: deps.jsonBudget,
          maxBodyBytes,
          tenantSettings: deps.tenantSettings,
          ...(deps.approvalsWaitingPerTenant ? { approvalsWaitingPerTenant: deps.approvalsWaitingPerTenant } : {}),
          ...(deps.answerRelay ? { answerRelay: deps.answerRelay } : {}),
          ...(deps.connectionWatch ? { connectionWatch: deps.connectionWatch } : {}),
          ...(deps.jobs ? { jobs: deps.jobs } : {}),
        }),
        authInfoFor: m.authInfoFor,
      }),
      (error: unknown) => {
        sdk = undefined; // tried again on the next request
        throw error;
      },
    ));

  const rootMetadata = JSON.stringify(
    protectedResourceMetadata(executor.registry, base, base, deps.authorizationServers),
  );
  const mcpMetadata = JSON.stringify(
    protectedResourceMetadata(executor.registry, `${base}/mcp`, base, deps.authorizationServers),
  );
  const metadataResponse = (body: string) => () =>
    new Response(body, {
      status: 200,
      headers: {
        'content-type': 'application/json',
        'cache-control': 'public, max-age=3600',
        'access-control-allow-origin': '*',
      },
    });
  app.get(PROTECTED_RESOURCE_PATH, metadataResponse(rootMetadata));
  app.get(`${PROTECTED_RESOURCE_PATH}/mcp`, metadataResponse(mcpMetadata));

  // The scopes a client should ask for first (RFC 6750 section 3, MCP authorization "scope selection"): the
  // read permissions, enough to list and read; writes are asked for when a call needs them (step-up below).
  const basicScopes = [...new Set(executor.registry.tools.map((t) => t.permission))]
    .filter((p) => p.endsWith(':read'))
    .join(' ');
  const challenge = (error?: string) =>
    `Bearer resource_metadata="${metadataUrl}", scope="${basicScopes}"${error ? `, error="${error}"` : ''}`;

  const authenticate = async (
    authorization: string | undefined,
  ): Promise<{ token: string; principal: Principal } | Response> => {
    const outcome = await authenticateBearer(authenticator, authorization);
    if (outcome.kind === 'missing' || outcome.kind === 'malformed') {
      return rpcError(401, -32001, 'Missing bearer token. Send the header "Authorization: Bearer <token>".', {
        'www-authenticate': challenge(),
      });
    }
    if (outcome.kind === 'refused') {
      return rpcError(
        401,
        -32001,
        `The bearer token was refused: ${outcome.reason}. Check the token, or ask the operator for a new one.`,
        {
          'www-authenticate': challenge('invalid_token'),
        },
      );
    }
    return { token: outcome.token, principal: outcome.principal };
  };

  /** Through the same capped reader as the REST surface: past the limit nothing more is read or kept. */
  const readBody = async (c: Context): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> => {
    const read = await readCapped(c, maxBodyBytes);
    if (read.kind === 'too-large') {
      return {
        ok: false,
        response: rpcError(413, -32600, `The request body is larger than the ${maxBodyBytes}-byte limit.`),
      };
    }
    if (read.kind === 'aborted')
      return { ok: false, response: rpcError(400, -32700, 'Parse error: the body ended before its declared length.') };
    try {
      return { ok: true, value: JSON.parse(read.bytes.toString('utf8')) };
    } catch {
      return { ok: false, response: rpcError(400, -32700, 'Parse error: the body is not valid JSON.') };
    }
  };

  app.all('/mcp', async (c) => {
    // The id the gateway's request-id middleware chose for this request (the caller's, when sensible), so
    // that it is made once; an app without that middleware (a test mounting /mcp alone) makes its own.
    const requestId = ((c as Context).get('requestId') as string | undefined) ?? requestIdOf(c);
    const withId = (res: Response): Response => {
      res.headers.set('x-request-id', requestId);
      return res;
    };
    const origin = header(c, 'origin');
    if (!originAllowed(origin, header(c, 'host'), ownOrigin)) {
      return withId(rpcError(403, -32000, `Forbidden: Origin ${origin} may not use this MCP endpoint.`));
    }
    if (c.req.method !== 'POST') {
      // Stateless: no server-initiated stream to GET and no session to DELETE.
      return withId(
        rpcError(405, -32000, `Method not allowed: this stateless MCP endpoint takes POST only.`, { allow: 'POST' }),
      );
    }
    const auth = await authenticate(header(c, 'authorization'));
    if (auth instanceof Response) return withId(auth);
    const body = await readBody(c);
    if (!body.ok) return withId(body.response);
    // Step-up (MCP authorization, scope challenge): an OAuth access token whose scope lacks the tool's
    // permission gets 403 insufficient_scope naming the scope to ask for, so that the client can obtain a
    // token with it (an external issuer's JWT, or the gateway's own server's token: its principal carries the
    // client). API keys and the demo token cannot be re-authorized: they get the tool's own error
    // (isError, naming the permission) from the SDK path below.
    const needed = missingScope(executor.registry, body.value, auth.principal);
    if (needed !== undefined && mayStepUp(auth.principal)) {
      return withId(
        json(
          403,
          {
            jsonrpc: '2.0',
            id: (body.value as { id?: unknown }).id ?? null,
            error: {
              code: -32001,
              message: `Forbidden: this token's scope lacks "${needed.scope}", which ${needed.tool} needs. Obtain a token with that scope and retry.`,
            },
          },
          {
            'www-authenticate': `Bearer error="insufficient_scope", scope="${needed.scope}", resource_metadata="${metadataUrl}", error_description="The tool needs the ${needed.scope} scope."`,
          },
        ),
      );
    }
    // From here the SDK speaks MCP: era classification, envelope and header checks, dispatch, results.
    // Under @hono/node-server the raw request target tells at once whether there is a query at all.
    const query = hasQuery(c) ? (name: string) => c.req.query(name) : () => undefined;
    const groups = parseToolsets(query('groups'));
    if (groups !== undefined && 'status' in groups) return withId(rpcError(400, -32602, groups.message));
    const outputSchemas = parseOutputSchemaForm(query('output_schemas'));
    if (outputSchemas !== undefined && typeof outputSchemas !== 'string') {
      return withId(rpcError(400, -32602, outputSchemas.message));
    }
    // Discovery mode (`discovery=search|list`) and the tools pinned beside its meta tools, checked here.
    const discovery = parseDiscoveryMode(query('discovery'));
    if (discovery !== undefined && typeof discovery !== 'string')
      return withId(rpcError(400, -32602, discovery.message));
    const pins = parsePins(query('pin'), executor.registry, auth.principal, groups);
    if (pins !== undefined && 'status' in pins) return withId(rpcError(400, -32602, pins.message));
    const { handler, authInfoFor } = await loadSdk();
    const authInfo = authInfoFor(auth.token, {
      principal: auth.principal,
      requestId,
      idempotencyKey: header(c, 'idempotency-key'),
      trace: mcpTraceOf((name) => header(c, name), body.value),
      ...(groups ? { groups } : {}),
      ...(outputSchemas ? { outputSchemas } : {}),
      ...(discovery ? { discovery } : {}),
      ...(pins ? { pins } : {}),
    });
    return withId(await handler(c.req.raw, { authInfo, parsedBody: body.value }));
  });
};

/** The permission a `tools/call` for a known tool (named directly or through gateway_callTool) needs and the principal lacks, if any. */
const missingScope = (
  registry: ToolRegistry,
  message: unknown,
  principal: Principal,
): { scope: string; tool: string } | undefined => {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const { method, params } = message as {
    method?: unknown;
    params?: { name?: unknown; arguments?: { name?: unknown } };
  };
  if (method !== 'tools/call' || typeof params?.name !== 'string') return undefined;
  const name = params.name === CALL_TOOL ? params.arguments?.name : params.name;
  if (typeof name !== 'string') return undefined;
  const tool = registry.get(name);
  return tool && !isAllowed(principal, tool.permission) ? { scope: tool.permission, tool: tool.name } : undefined;
};
