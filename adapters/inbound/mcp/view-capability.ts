import { CLIENT_CAPABILITIES_META_KEY, type ServerContext } from '@modelcontextprotocol/server';

// MCP Apps (the official `io.modelcontextprotocol/ui` extension): whether the client of a request renders
// views. Only such a client is shown a view; every other client gets today's answers, byte for byte.

/** The extension's id, under `capabilities.extensions` (ext-apps' EXTENSION_ID). */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';

/** The MIME type of a view's HTML (ext-apps' RESOURCE_MIME_TYPE). */
export const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';

/** Whether client capabilities declare the extension with the HTML profile among its MIME types. */
export const declaresViews = (capabilities: unknown): boolean => {
  const extensions = (capabilities as { extensions?: unknown } | null | undefined)?.extensions;
  if (typeof extensions !== 'object' || extensions === null) return false;
  const ui = (extensions as Record<string, unknown>)[UI_EXTENSION] as { mimeTypes?: unknown } | undefined;
  return Array.isArray(ui?.mimeTypes) && ui.mimeTypes.includes(VIEW_MIME_TYPE);
};

/**
 * Whether this request's client renders views. A 2026-07-28 request carries its client's capabilities in
 * its envelope; a 2025-era request carries none (the stateless 2025 leg keeps nothing of initialize), so a
 * 2025-era client is not shown views (docs/clients.md).
 */
export const viewsIn = (ctx: ServerContext | undefined): boolean => {
  const envelope = ctx?.mcpReq.envelope;
  return (
    !!envelope && CLIENT_CAPABILITIES_META_KEY in envelope && declaresViews(envelope[CLIENT_CAPABILITIES_META_KEY])
  );
};
