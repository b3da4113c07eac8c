import { randomBytes } from 'node:crypto';
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
 * The 2025-era leg is stateless: what a client declared at initialize survives only in the session id the
 * gateway gives it (legacy-leg.ts; nothing is stored). A client that declared views gets a session id with
 * a `v.` segment before its random part: `tg-elicit.v.<random>` (or `tg-elicit.u.v.<random>`) when it also
 * declared elicitation, else `tg-views.v.<random>`.
 */
const VIEWS_SESSION = /^tg-[a-z]+\.(?:[a-z]\.)*v\.[\w-]+$/;

/** The session id for an initialize answer: `elicitingId` (the elicitation one, if any) marked for views. */
export const viewsSessionId = (elicitingId: string | undefined): string => {
  if (!elicitingId) return `tg-views.v.${randomBytes(16).toString('base64url')}`;
  const last = elicitingId.lastIndexOf('.');
  return `${elicitingId.slice(0, last + 1)}v.${elicitingId.slice(last + 1)}`;
};

/** An initialize request whose capabilities declare views. */
export const initializeDeclaresViews = (body: unknown): boolean =>
  (body as { method?: unknown } | null)?.method === 'initialize' &&
  declaresViews((body as { params?: { capabilities?: unknown } }).params?.capabilities);

/**
 * Whether this request's client renders views: a 2026-07-28 request's own capabilities (its envelope), or a
 * 2025-era request's session id, which says what its client declared at initialize.
 */
export const viewsIn = (ctx: ServerContext | undefined): boolean => {
  const envelope = ctx?.mcpReq.envelope;
  if (envelope && CLIENT_CAPABILITIES_META_KEY in envelope)
    return declaresViews(envelope[CLIENT_CAPABILITIES_META_KEY]);
  return VIEWS_SESSION.test(ctx?.http?.req?.headers.get('mcp-session-id') ?? '');
};

/**
 * Whether the client sending `body` renders views, read before any server is made for the request (its
 * capabilities then offer resources only to such a client): an initialize that declares them, a 2026-07-28
 * request whose envelope does, or a 2025-era request whose session id says its client did at initialize.
 */
export const requestDeclaresViews = (body: unknown, sessionId: string | null): boolean => {
  const message = (Array.isArray(body) ? body[0] : body) as {
    method?: unknown;
    params?: { capabilities?: unknown; _meta?: Record<string, unknown> };
  } | null;
  if (typeof message !== 'object' || message === null) return false;
  if (message.method === 'initialize') return declaresViews(message.params?.capabilities);
  const meta = message.params?._meta;
  if (typeof meta === 'object' && meta !== null && CLIENT_CAPABILITIES_META_KEY in meta)
    return declaresViews(meta[CLIENT_CAPABILITIES_META_KEY]);
  return VIEWS_SESSION.test(sessionId ?? '');
};
