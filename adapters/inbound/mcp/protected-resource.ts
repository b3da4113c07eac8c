import type { ToolRegistry } from '../../../application/runtime/registry.js';

export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) for the gateway. The whole gateway (REST and /mcp) is
 * one protected resource; its scopes are the tool permissions that JWT access tokens carry in `scope`.
 */
export const protectedResourceMetadata = (
  registry: ToolRegistry,
  resource: string,
  base: string,
  authorizationServers: readonly string[] | undefined,
): Record<string, unknown> => ({
  resource,
  resource_name: 'Tool Gateway',
  ...(authorizationServers?.length ? { authorization_servers: [...authorizationServers] } : {}),
  bearer_methods_supported: ['header'],
  scopes_supported: [...new Set(registry.tools.map((t) => t.permission))],
  resource_documentation: `${base}/docs`,
});
