import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';

// The installed SDK (1.x) negotiates revisions up to LATEST_PROTOCOL_VERSION through `initialize`. The
// 2026-07-28 revision drops `initialize` and sessions: every request names its revision in `_meta` (and the
// MCP-Protocol-Version header), servers answer `server/discover`, and results carry `resultType` (lists
// also cache hints). This module recognises such requests, answers `server/discover` itself and adapts the
// rest to and from the SDK's server, so that both revisions share one implementation of the tools.

export const MODERN_REVISION = '2026-07-28';
export const META_VERSION = 'io.modelcontextprotocol/protocolVersion';

/** Every revision served: the stateless one and those the SDK negotiates. */
export const SUPPORTED_REVISIONS: readonly string[] = [MODERN_REVISION, ...SUPPORTED_PROTOCOL_VERSIONS];

/** How long a client may cache the tool list and the discovery answer (the registry is fixed per deployment). */
export const LIST_TTL_MS = 300_000;

export interface JsonRpcMessage {
  readonly jsonrpc?: unknown;
  readonly id?: unknown;
  readonly method?: unknown;
  readonly params?: { readonly _meta?: Record<string, unknown>; readonly name?: unknown } & Record<string, unknown>;
}

export type Answer = { readonly status: number; readonly body: unknown };

const rpcError = (status: number, id: unknown, code: number, message: string, data?: unknown): Answer => ({
  status,
  body: { jsonrpc: '2.0', id: id ?? null, error: { code, message, ...(data !== undefined ? { data } : {}) } },
});

/** The revision a stateless-style request names in `_meta`, if any. */
export const metaVersionOf = (message: unknown): string | undefined => {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const v = (message as JsonRpcMessage).params?._meta?.[META_VERSION];
  return typeof v === 'string' ? v : undefined;
};

/**
 * Whether a request belongs to the stateless revision (or names an unknown one the stateless way): then
 * `handleModern` answers it, otherwise the SDK's transport does (initialize handshake, 2025-era headers).
 */
export const isModernRequest = (headerVersion: string | undefined, message: unknown): boolean => {
  if (headerVersion === MODERN_REVISION) return true;
  const metaVersion = metaVersionOf(message);
  if (metaVersion === undefined) return false;
  const method = (message as JsonRpcMessage).method;
  return (
    method !== 'initialize' && (metaVersion === MODERN_REVISION || !SUPPORTED_PROTOCOL_VERSIONS.includes(metaVersion))
  );
};

export interface ModernDeps {
  readonly serverInfo: { name: string; title: string; version: string };
  readonly instructions: string;
  /** Runs one JSON-RPC message through the SDK server as a client of LATEST_PROTOCOL_VERSION would send it. */
  readonly forward: (message: unknown) => Promise<{ status: number; body: unknown }>;
}

export interface ModernHeaders {
  readonly version?: string;
  readonly method?: string;
  readonly name?: string;
}

export const handleModern = async (message: unknown, headers: ModernHeaders, deps: ModernDeps): Promise<Answer> => {
  if (Array.isArray(message) || typeof message !== 'object' || message === null) {
    return rpcError(400, null, -32600, 'Invalid Request: send one JSON-RPC message per POST.');
  }
  const m = message as JsonRpcMessage;
  if (m.jsonrpc !== '2.0' || typeof m.method !== 'string')
    return rpcError(
      400,
      m.id,
      -32600,
      'Invalid Request: a JSON-RPC 2.0 request needs "jsonrpc": "2.0" and a "method".',
    );
  const metaVersion = metaVersionOf(m);
  if (headers.version !== undefined && metaVersion !== undefined && headers.version !== metaVersion) {
    return rpcError(
      400,
      m.id,
      -32001,
      `Header mismatch: MCP-Protocol-Version is ${headers.version} but _meta names ${metaVersion}.`,
    );
  }
  if (headers.method !== undefined && headers.method !== m.method) {
    return rpcError(
      400,
      m.id,
      -32001,
      `Header mismatch: Mcp-Method is ${headers.method} but the body calls ${m.method}.`,
    );
  }
  if (headers.name !== undefined && m.method === 'tools/call' && headers.name !== m.params?.name) {
    return rpcError(
      400,
      m.id,
      -32001,
      `Header mismatch: Mcp-Name is ${headers.name} but the body calls tool ${String(m.params?.name)}.`,
    );
  }
  const version = metaVersion ?? headers.version;
  if (version !== undefined && !SUPPORTED_REVISIONS.includes(version)) {
    return rpcError(
      400,
      m.id,
      -32022,
      `Unsupported protocol version ${version}. Supported: ${SUPPORTED_REVISIONS.join(', ')}.`,
      {
        supported: SUPPORTED_REVISIONS,
        requested: version,
      },
    );
  }
  const isRequest = m.id !== undefined && m.id !== null;
  if (!isRequest) return { status: 202, body: undefined };
  if (m.method === 'server/discover') {
    return {
      status: 200,
      body: {
        jsonrpc: '2.0',
        id: m.id,
        result: {
          resultType: 'complete',
          supportedVersions: SUPPORTED_REVISIONS,
          capabilities: { tools: { listChanged: false } },
          serverInfo: deps.serverInfo,
          instructions: deps.instructions,
          ttlMs: LIST_TTL_MS,
          cacheScope: 'public',
        },
      },
    };
  }
  if (m.method === 'initialize') {
    return rpcError(
      400,
      m.id,
      -32601,
      `initialize is not part of ${MODERN_REVISION}: send requests directly, or server/discover. Clients of ${LATEST_PROTOCOL_VERSION} send initialize without the ${MODERN_REVISION} header.`,
    );
  }
  const answer = await deps.forward(message);
  const body = answer.body as { result?: Record<string, unknown> } | undefined;
  if (answer.status !== 200 || !body || typeof body.result !== 'object' || body.result === null) return answer;
  const result: Record<string, unknown> = { resultType: 'complete', ...body.result };
  if (m.method === 'tools/list') Object.assign(result, { ttlMs: LIST_TTL_MS, cacheScope: 'public' });
  return { status: 200, body: { ...body, result } };
};
