import { createHash } from 'node:crypto';
import {
  createMcpHandler,
  isLegacyRequest,
  Server,
  type AuthInfo,
  type McpHandlerRequestOptions,
  type McpRequestContext,
  type Tool,
} from '@modelcontextprotocol/server';
import { LRUCache } from 'lru-cache';
import type { TraceCarrier } from '../../../ports/call-observer.js';
import type { Principal } from '../../../ports/authenticator.js';
import type { TenantSettingsSource } from '../../../ports/tenant-settings.js';
import { isAllowed, type Group } from '../../../application/runtime/define-tool.js';
import { visibleTools } from '../../../application/runtime/toolsets.js';
import type { ToolExecutor } from '../../../application/runtime/executor.js';
import { callTool, mcpToolList } from './mcp-tools.js';
import { mayStepUp } from './step-up.js';
import { DEFAULT_APPROVAL_WAIT_MS } from './mcp-approval.js';
import { legacyLeg } from './legacy-leg.js';
import { DEFAULT_PENDING_LIMITS, PendingAnswers, type PendingLimits } from './legacy-relay.js';
import { AwaitedAnswers } from './awaited-answers.js';
import type { AnswerRelay } from '../../../ports/answer-relay.js';
import { createDiscovery } from './discovery.js';
import { declaredUrlElicitation } from './mcp-connect.js';
import type { ConnectionWatch } from '../../../application/connections/connection-watch.js';
import type { DiscoveryMode } from '../../../application/runtime/discovery.js';
import type { JobEngine } from '../../../application/jobs/job-engine.js';
import { registerTaskHandlers, TASK_CAPABILITIES, TaskServer, withTasks } from './mcp-tasks.js';
import { ResultWaits, type ResultWaitLimits } from './mcp-task-waits.js';
import { OUTPUT_SCHEMA_FORMS, type OutputSchemaForm } from '../dialects/tool-dialects.js';
import { requestDeclaresViews, viewsIn } from './view-capability.js';
import { listViews, readView, withViews } from './mcp-views.js';
import { callAppTool, isAppTool } from './view-tools.js';

// The MCP protocol (both eras) is the official v2 SDK's. `isLegacyRequest` (the SDK's own classification)
// routes each request: 2026-07-28 goes to `createMcpHandler` (envelope, standard headers, server/discover,
// resultType, cache fields), 2025-era requests to the SDK's stateless Streamable HTTP transport with JSON
// answers, the hand-wired legacy leg the SDK documents (its built-in fallback always answers SSE, which
// cost 2025 clients their plain JSON answers). This module only supplies the per-request server the SDK
// asks for, built from parts made once.

const INSTRUCTIONS =
  'Task-oriented tools over file storage, record databases, workspaces, a CRM and property-owner lookup. ' +
  'Tool names are <group>_<tool>. Results are markdown with the ids that follow-up calls need; list results say how to fetch the next page. ' +
  'A failed call returns isError with a message that says what to change.';

/**
 * How long a 2026-07-28 client may cache tools/list and server/discover. The catalogue changes only with
 * the build; tools/list shows only what the token may call (and the connection's toolsets), so its cache
 * scope is `private`.
 */
export const LIST_TTL_MS = 300_000;

/** The first protocol revision whose results carry cache fields (`ttlMs`, `cacheScope`). */
const MODERN_REVISION = '2026-07-28';

/** The `_meta` key under which tools/list names the catalogue version (changes exactly when the list does). */
export const CATALOGUE_META_KEY = 'tool-gateway/catalogue';

/** What the gateway knows about a request once it is authenticated, handed to the SDK as `authInfo.extra`. */
export interface CallerContext {
  readonly principal: Principal;
  readonly requestId: string;
  /** The `Idempotency-Key` header, used when a call names no `_meta.idempotency_key`. */
  readonly idempotencyKey?: string;
  /** The connection's toolsets (`/mcp?groups=crm,records`); undefined for every group. */
  readonly groups?: readonly Group[];
  /** How tools/list gives output schemas (`/mcp?output_schemas=outline|full|none`); outline by default. */
  readonly outputSchemas?: OutputSchemaForm;
  /** `/mcp?discovery=search|list` (discovery.ts); undefined: by the tenant's TOOL_SEARCH_ABOVE. */
  readonly discovery?: DiscoveryMode;
  /** `/mcp?pin=crm_getContact,...`: tools listed beside the meta tools in discovery mode. */
  readonly pins?: readonly string[];
  /** The HTTP request's trace context, for a call whose `_meta` carries none. */
  readonly trace?: TraceCarrier;
}

const CALLER = 'toolGatewayCaller';
/** Set on a request whose client renders views (requestDeclaresViews), before the SDK makes its server. */
const VIEWS = 'toolGatewayViews';

/** A principal's permissions as the SDK's scope list, made once per principal (API keys keep theirs). */
const scopeLists = new WeakMap<Principal, string[]>();
const scopesOf = (principal: Principal): string[] => {
  let scopes = scopeLists.get(principal);
  if (!scopes) scopeLists.set(principal, (scopes = [...principal.permissions]));
  return scopes;
};

/** The SDK's pass-through `AuthInfo` for an authenticated caller (the gateway verified the token itself). */
export const authInfoFor = (token: string, caller: CallerContext): AuthInfo => ({
  token,
  clientId: caller.principal.id,
  scopes: scopesOf(caller.principal),
  extra: { [CALLER]: caller },
});

const callerOf = (authInfo: AuthInfo | undefined): CallerContext => {
  const caller = authInfo?.extra?.[CALLER] as CallerContext | undefined;
  // The endpoint authenticates before the SDK runs; a request without a caller never reaches a handler.
  if (!caller) throw new Error('MCP request without an authenticated caller');
  return caller;
};

/** Serves one authenticated /mcp request whose body the gateway has already read and parsed. */
export type McpFetch = (
  request: Request,
  opts: McpHandlerRequestOptions & { authInfo: AuthInfo; parsedBody: unknown },
) => Promise<Response>;

export interface McpServerParts {
  readonly executor: ToolExecutor;
  readonly version: string;
  readonly outputBudget?: number;
  /** Most characters in the JSON of a list's structuredContent. */
  readonly jsonBudget?: number;
  readonly maxBodyBytes: number;
  /** Each tenant's human-approval and tool-search settings. */
  readonly tenantSettings?: TenantSettingsSource;
  /** How long a 2025-era exchange waits for a person's approval (default 2 minutes). */
  readonly approvalWaitMs?: number;
  /** Bounds of the approvals 2025-era exchanges of this process wait for at once. */
  readonly pendingLimits?: PendingLimits;
  /** Sets the per-tenant bound of those (APPROVALS_WAITING_PER_TENANT) over `pendingLimits`. */
  readonly approvalsWaitingPerTenant?: number;
  /** The shared store that carries a 2025-era answer posted to another instance (Redis); none: this process only. */
  readonly answerRelay?: AnswerRelay;
  /** Where a call that asked its person to connect a vendor (URL elicitation) waits for the connection. */
  readonly connectionWatch?: ConnectionWatch;
  /** Long jobs: job tools run as MCP tasks when the client asks (mcp-tasks.ts). */
  readonly jobs?: JobEngine;
  /** Bounds of the 2025-11-25 tasks/result requests waiting at once (mcp-task-waits.ts). */
  readonly resultWaits?: ResultWaitLimits;
}

/** The catalogue's version: a hash of the listed tools and the build, stable across instances of one build. */
export const catalogueVersion = (tools: readonly Tool[], version: string): string =>
  createHash('sha256').update(JSON.stringify({ version, tools })).digest('base64url').slice(0, 22);

/**
 * The SDK handler for /mcp. Everything that does not depend on the request (server info, options, the
 * tool list and its schemas, the list result) is built here once; the SDK requires a fresh `Server`
 * instance per request, so the factory only constructs one around those parts and registers two handlers.
 */
export const createGatewayMcpHandler = (parts: McpServerParts): McpFetch => {
  const { executor, outputBudget, jsonBudget } = parts;
  // Each tool's MCP form, made once; a caller's list is a selection of these.
  const forms = new Map(
    OUTPUT_SCHEMA_FORMS.map((form) => [form, new Map(mcpToolList(executor, form).map((t) => [t.name, t]))]),
  );
  // Discovery mode's meta tools (find, describe, call) and their search indexes, one per visible set.
  const discovery = createDiscovery(executor, forms, parts.tenantSettings);
  // The list a caller sees depends only on its permissions, toolsets, output form and discovery mode (with
  // its pins): made once per distinct combination.
  const lists = new LRUCache<string, { readonly tools: Tool[]; readonly version: string }>({
    max: 512,
    ttl: 3_600_000,
  });
  // `views`: the client renders MCP Apps views (mcp-views.ts); its list names them and adds app-only tools.
  const listFor = (caller: CallerContext, views: boolean) => {
    const form = caller.outputSchemas ?? 'outline';
    const key = `${[...caller.principal.permissions].sort().join(' ')}|${caller.groups?.join(',') ?? '*'}|${form}|${discovery.listKey(caller)}${views ? '|views' : ''}`;
    let list = lists.get(key);
    if (!list) {
      const mcpForm = forms.get(form)!;
      const visible = visibleTools(executor.registry, caller.principal, caller.groups);
      // In discovery mode the version also names what can be found, which the meta tools' list does not show.
      const search = discovery.list(caller, visible);
      const listed = search?.tools ?? visible.map((t) => mcpForm.get(t.name)!);
      const tools = views ? withViews(executor, listed) : listed;
      const version = search ? `${parts.version} search:${search.searchable.join(',')}` : parts.version;
      lists.set(key, (list = { tools, version: catalogueVersion(tools, version) }));
    }
    return list;
  };
  // A fresh result object per request (the SDK stamps era-specific fields onto it); the tools are shared.
  /** The list, and for a 2026-07-28 client (`modern`) whether it may keep it. */
  const listTools = (caller: CallerContext, modern: boolean, views = false) => {
    const { tools, version } = listFor(caller, views);
    // An OAuth token that lacks some tool's permission may step up to it (a 403 insufficient_scope, then a
    // new token): its list would change with no notification this stateless server could send, so a
    // 2026-07-28 client is told not to keep it (ttlMs 0) rather than show the old list for five minutes.
    const fresh =
      modern &&
      mayStepUp(caller.principal) &&
      executor.registry.tools.some((t) => !isAllowed(caller.principal, t.permission));
    return { tools, ...(fresh ? { ttlMs: 0 } : {}), _meta: { [CATALOGUE_META_KEY]: version } };
  };

  const serverInfo = { name: 'tool-gateway', title: 'Tool Gateway', version: parts.version };
  const capabilities = { tools: { listChanged: false }, ...(parts.jobs ? TASK_CAPABILITIES : {}) };
  const options = {
    capabilities,
    instructions: INSTRUCTIONS,
    cacheHints: {
      'tools/list': { ttlMs: LIST_TTL_MS, cacheScope: 'private' as const },
      'server/discover': { ttlMs: LIST_TTL_MS, cacheScope: 'public' as const },
    },
  };

  const approvalWaitMs = parts.approvalWaitMs ?? DEFAULT_APPROVAL_WAIT_MS;
  // The answers 2025-era exchanges await, in this process and, with Redis, from every instance.
  const answers = new AwaitedAnswers(
    new PendingAnswers({
      ...(parts.pendingLimits ?? DEFAULT_PENDING_LIMITS),
      ...(parts.approvalsWaitingPerTenant ? { perTenant: parts.approvalsWaitingPerTenant } : {}),
    }),
    parts.answerRelay,
  );
  // The tasks/result requests waiting for their tasks on this instance, bounded per caller and in all.
  const waits = new ResultWaits(parts.resultWaits);
  // `legacyElicits`: a 2025-era client that declared elicitation (legacy-leg.ts), asked by elicitation/create.
  // A client that renders views (view-capability.ts) is offered resources too: the views' HTML. Any other
  // client is served as before views existed, byte for byte (no resources capability, no resources methods).
  const viewOptions = { ...options, capabilities: { ...capabilities, resources: {} } };
  const factory = ({ authInfo, requestInfo }: McpRequestContext, legacyElicits = false): Server => {
    const caller = callerOf(authInfo);
    const views = authInfo?.extra?.[VIEWS] === true;
    const chosen = views ? viewOptions : options;
    const server = parts.jobs ? new TaskServer(serverInfo, chosen) : new Server(serverInfo, chosen);
    const modern = () => (server.getNegotiatedProtocolVersion() ?? '') >= MODERN_REVISION;
    const { jobs } = parts;
    const registry = executor.registry;
    if (jobs)
      registerTaskHandlers(server, {
        jobs,
        registry,
        principal: caller.principal,
        outputBudget,
        jsonBudget,
        modern,
        waits,
      });
    // A 2025-era client whose session says it declared URL elicitation (mcp-connect.ts).
    const legacyUrl = legacyElicits && declaredUrlElicitation(server, requestInfo);
    server.setRequestHandler('tools/list', (_request, ctx) =>
      listTools(caller, (server.getNegotiatedProtocolVersion() ?? '') >= MODERN_REVISION, viewsIn(ctx)),
    );
    if (views) {
      server.setRequestHandler('resources/list', (_request, ctx) => listViews(viewsIn(ctx)));
      server.setRequestHandler('resources/read', (request) => readView(request.params.uri));
    }
    server.setRequestHandler('tools/call', (request, ctx) =>
      // A view's app-only tool (view-tools.ts), for a client with views; any other client: an unknown tool.
      viewsIn(ctx) && isAppTool(request.params.name)
        ? callAppTool(executor, request.params.name, request.params.arguments ?? {}, caller, {
            outputBudget,
            jsonBudget,
          })
        : // discovery.call answers the meta tools and hands every call (gateway_callTool's too) to the one below
          withTasks(
            jobs,
            request.params,
            ctx,
            modern(),
            (job) =>
              discovery.call(caller, request.params, (params) =>
                callTool(executor, params, caller, {
                  outputBudget,
                  jsonBudget,
                  ctx,
                  legacyElicits,
                  legacyUrl,
                  approvalWaitMs,
                  answersWatch: answers,
                  ...(parts.connectionWatch ? { connectionWatch: parts.connectionWatch } : {}),
                  ...(caller.outputSchemas ? { outputSchemas: caller.outputSchemas } : {}),
                  ...(job ? { job } : {}),
                }),
              ),
            (name) => {
              const tool = executor.registry.get(name);
              return tool !== undefined && isAllowed(caller.principal, tool.permission);
            },
          ),
    );
    return server;
  };
  const modern = createMcpHandler(factory, { legacy: 'reject', maxRequestBodySize: parts.maxBodyBytes });
  const legacy = legacyLeg(factory, {
    answers,
    waitMs: approvalWaitMs,
    ownerOf: (authInfo) => {
      const { principal } = callerOf(authInfo);
      return `${principal.tenant}:${principal.id}`;
    },
  });

  return async (request, opts) => {
    const views = requestDeclaresViews(opts.parsedBody, request.headers.get('mcp-session-id'));
    const marked = views
      ? { ...opts, authInfo: { ...opts.authInfo, extra: { ...opts.authInfo.extra, [VIEWS]: true } } }
      : opts;
    return (await isLegacyRequest(request, opts.parsedBody, { maxRequestBodySize: parts.maxBodyBytes }))
      ? legacy(request, marked)
      : modern.fetch(request, marked);
  };
};
