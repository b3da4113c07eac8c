import type { Context, Hono, Next } from 'hono';
import type { Connections, ConnectionScope } from '../../../application/connections/connections.js';
import { fromGatewayError, toolError, type ToolError } from '../../../application/runtime/tool-error.js';
import { STORE_RETRY_SECONDS } from '../../../domain/shared/errors.js';
import { E } from '../../../domain/shared/fp.js';
import type { Authenticator, Principal } from '../../../ports/authenticator.js';
import { failure, fromEither, json, principalOr401, storeUnavailableAnswer } from './api-answers.js';
import { isAllowed } from '../../../application/runtime/define-tool.js';
import type { AuditLog } from '../../../ports/audit-log.js';
import { readCapped } from './body-reader.js';
import { getCookie } from 'hono/cookie';
import { verifyApiKeyWith } from '../../../application/identity/sign-in.js';
import { mountConnectPage } from './connect-page-routes.js';
import { mountConnectFederation } from './connect-page-federation.js';
import type { Federation } from '../oauth/oidc-federation.js';
import type { RateLimiter } from '../../../ports/rate-limiter.js';

// The connection endpoints: a tenant's connections to its vendors (listing, key-based connections,
// the OAuth authorize step and callback, disconnecting). Secrets never leave: listings carry none.

export interface ConnectionRouteDeps {
  readonly connections: Connections;
  readonly authenticator: Authenticator;
  readonly audit: AuditLog;
  /** The external OpenID provider sign-in, when configured: offered on the connect page too. */
  readonly federation?: Federation | undefined;
  /** Counts the connect page's wrong keys per link (shared by the instances with Redis). */
  readonly limiter?: RateLimiter | undefined;
  /** Told when the connection store failed under a request (answered 503). */
  readonly onStoreError?: (error: Error) => void;
}

const AUDIT_PERMISSION = 'audit:read';
const AUDIT_PAGE = 100;

const scopeOf = (c: Context): ConnectionScope | ToolError => {
  const scope = c.req.query('scope') ?? 'tenant';
  return scope === 'tenant' || scope === 'user'
    ? scope
    : toolError(400, 'INVALID_PARAMETER', 'scope is "tenant" (the default) or "user".', {
        parameter: 'scope',
        expected: '"tenant" or "user"',
      });
};

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

const page = (status: number, title: string, text: string): Response =>
  new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>`,
    {
      status,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'content-security-policy': "default-src 'none'",
        'referrer-policy': 'no-referrer',
      },
    },
  );

/** The OAuth flow's cookie: HttpOnly, SameSite=Lax (sent on the vendor's top-level redirect back), Path=/. */
const flowCookie = (name: string, value: string, maxAgeSeconds: number, secure: boolean): string =>
  `${name}=${value}; Max-Age=${maxAgeSeconds}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

export const mountConnectionRoutes = (app: Hono, deps: ConnectionRouteDeps): void => {
  const { connections, authenticator } = deps;

  // The connection store (the database) failing is the gateway's outage, not the caller's mistake: a 503
  // with a retry time (an HTML page where a person is looking), never a 500.
  const storeDown = (html: boolean) => async (c: Context, next: Next) => {
    await next();
    if (!c.error) return;
    deps.onStoreError?.(c.error);
    c.res = html
      ? page(
          503,
          'Try again shortly',
          `The gateway cannot reach its connection store right now. Nothing was changed; try again in ${STORE_RETRY_SECONDS} seconds.`,
        )
      : storeUnavailableAnswer('connection');
    c.res.headers.set('retry-after', String(STORE_RETRY_SECONDS));
  };
  for (const path of ['/v1/connections', '/v1/connections/*', '/v1/audit']) app.use(path, storeDown(false));
  for (const path of ['/oauth/callback', '/connect/*']) app.use(path, storeDown(true));

  const who = (c: Context): Promise<Principal | Response> =>
    principalOr401(authenticator, c.req.header('authorization'));

  app.get('/v1/connections', async (c) => {
    const principal = await who(c);
    if (principal instanceof Response) return principal;
    return json(200, {
      success: true,
      data: { tenant: principal.tenant, connections: await connections.list(principal) },
    });
  });

  app.post('/v1/connections/:vendor', async (c) => {
    const principal = await who(c);
    if (principal instanceof Response) return principal;
    const scope = scopeOf(c);
    if (typeof scope !== 'string') return failure(scope);
    const body = await readCapped(c, 16 * 1024);
    if (body.kind !== 'ok')
      return failure(
        toolError(400, 'INVALID_PARAMETER', 'Send a JSON body {"key": "<the credential>"} of at most 16 KiB.', {
          parameter: 'body',
          expected: 'JSON object',
        }),
      );
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(body.bytes).toString('utf8'));
    } catch {
      parsed = undefined;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      return failure(
        toolError(400, 'INVALID_PARAMETER', 'Send a JSON body {"key": "<the credential>"}.', {
          parameter: 'body',
          expected: 'JSON object',
        }),
      );
    const outcome = await connections.connectKey(
      principal,
      c.req.param('vendor'),
      (parsed as { key?: unknown }).key,
      scope,
    );
    return fromEither(outcome, (listing) => json(201, { success: true, data: listing }));
  });

  app.get('/v1/connections/:vendor/authorize', async (c) => {
    const principal = await who(c);
    if (principal instanceof Response) return principal;
    const scope = scopeOf(c);
    if (typeof scope !== 'string') return failure(scope);
    const outcome = connections.authorize(principal, c.req.param('vendor'), scope);
    return fromEither(outcome, (url) =>
      c.req.query('redirect') === 'true'
        ? new Response(null, { status: 302, headers: { location: url, 'cache-control': 'no-store' } })
        : json(200, { success: true, data: { authorize_url: url } }),
    );
  });

  app.delete('/v1/connections/:vendor', async (c) => {
    const principal = await who(c);
    if (principal instanceof Response) return principal;
    const scope = scopeOf(c);
    if (typeof scope !== 'string') return failure(scope);
    const outcome = await connections.disconnect(principal, c.req.param('vendor'), scope);
    return fromEither(outcome, (r) => json(200, { success: true, data: r }));
  });

  // The tenant's audit log, newest first, 100 a page (`before` = the last id seen).
  app.get('/v1/audit', async (c) => {
    const principal = await who(c);
    if (principal instanceof Response) return principal;
    if (!isAllowed(principal, AUDIT_PERMISSION))
      return failure(
        toolError(403, 'FORBIDDEN', `Reading the audit log needs the "${AUDIT_PERMISSION}" permission.`, {
          permission: AUDIT_PERMISSION,
        }),
      );
    const bad = (parameter: string, expected: string) =>
      failure(toolError(400, 'INVALID_PARAMETER', `${parameter} must be ${expected}.`, { parameter, expected }));
    const since = c.req.query('since');
    const sinceDate = since === undefined ? undefined : new Date(since);
    if (sinceDate && (Number.isNaN(sinceDate.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(since!)))
      return bad('since', 'an ISO 8601 date or time (2026-11-25 or 2026-11-25T10:00:00Z)');
    const tool = c.req.query('tool');
    if (tool !== undefined && !/^[A-Za-z0-9_.]{1,100}$/.test(tool)) return bad('tool', 'a tool name');
    const principalFilter = c.req.query('principal');
    if (principalFilter !== undefined && principalFilter.length > 1000) return bad('principal', 'a principal id');
    const before = c.req.query('before');
    if (before !== undefined && !/^[1-9]\d{0,15}$/.test(before)) return bad('before', 'an entry id');
    const entries = await deps.audit.query({
      tenant: principal.tenant,
      limit: AUDIT_PAGE,
      ...(sinceDate ? { since: sinceDate } : {}),
      ...(tool ? { tool } : {}),
      ...(principalFilter ? { principal: principalFilter } : {}),
      ...(before ? { before: Number(before) } : {}),
    });
    const last = entries.at(-1);
    return json(200, {
      success: true,
      data: {
        entries: entries.map((e) => ({
          id: e.id,
          at: e.at.toISOString(),
          principal: e.principal,
          tool: e.tool,
          ...(e.vendor ? { vendor: e.vendor } : {}),
          targets: e.targets,
          status: e.status,
          ...(e.code ? { code: e.code } : {}),
          request_id: e.requestId,
          ...(e.purpose ? { purpose: e.purpose } : {}),
          ...(e.approver ? { approver: e.approver } : {}),
          ...(e.replay ? { replay: true, ...(e.replayOf ? { replay_of: e.replayOf } : {}) } : {}),
        })),
        ...(entries.length === AUDIT_PAGE && last ? { next_before: last.id } : {}),
      },
    });
  });

  // A connect link an agent relayed: the page asks whoever opens it to sign in, and only the person the link
  // was made for goes on to the vendor (connect-page-routes.ts).
  mountConnectPage(app, {
    connections,
    verifyApiKey: verifyApiKeyWith(authenticator),
    federation: deps.federation,
    limiter: deps.limiter,
  });
  // ... or through the organisation's OpenID provider, for people who have no API key.
  if (deps.federation) mountConnectFederation(app, { connections, federation: deps.federation });

  // The vendor sends the person back here: no bearer token, the sealed state says who connects what, and
  // the flow cookie that it is the browser that started it. The cookie is cleared either way.
  app.get('/oauth/callback', async (c) => {
    const query = Object.fromEntries(
      Object.entries(c.req.queries()).map(([k, v]) => [k, String(v[0] ?? '').slice(0, 4096)]),
    );
    const cookieName = query['state'] ? connections.flowCookieName(query['state']) : undefined;
    const cookie = cookieName ? getCookie(c, cookieName) : undefined;
    const outcome = await connections.callback(query, cookie);
    let answer: Response;
    if (E.isLeft(outcome)) {
      const e = fromGatewayError(outcome.left);
      answer = page(e.status, 'Not connected', e.message);
    } else {
      const { vendor, label, tenant } = outcome.right;
      answer = page(
        200,
        'Connected',
        `${label} is now connected to the workspace "${tenant}" (${vendor}). You can close this page.`,
      );
    }
    if (cookieName && cookie !== undefined)
      answer.headers.append('set-cookie', flowCookie(cookieName, '', 0, connections.secureCookies));
    return answer;
  });
};
