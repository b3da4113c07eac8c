import type { HttpBindings } from '@hono/node-server';
import type { Hono } from 'hono';
import { TENANT_ID } from '../../../ports/authenticator.js';

const NO_SUCH_ADDRESS = {
  success: false,
  error: { code: 'NOT_FOUND', message: 'Nothing is served at this address (the link may have expired).', details: {} },
};

/**
 * Serves each tenant's own routes under `/t/{tenant}/...` (its memory-mode file links and share pages).
 * `routesOf` answers only for tenants that exist now: an unauthenticated request never makes a tenant.
 */
export const mountTenantRoutes = (app: Hono, routesOf: (tenant: string) => Hono | undefined): void => {
  app.all('/t/:tenant/*', async (c) => {
    const tenant = c.req.param('tenant');
    const routes = TENANT_ID.test(tenant) ? routesOf(tenant) : undefined;
    if (!routes) return c.json(NO_SUCH_ADDRESS, 404);
    const url = new URL(c.req.url);
    url.pathname = url.pathname.slice(`/t/${tenant}`.length) || '/';
    const raw = c.req.raw;
    // The body reaches the tenant's routes one way only. Under Node they read it from Node's request in
    // `c.env` (body-reader.ts), as the default tenant's do, so `raw.body` must stay untouched: reading it
    // starts a second reader of the same request (a WHATWG stream nobody drains), which pauses the request
    // once its 16 KiB queue is full and leaves the upload waiting for bytes that never come (408).
    // Without a Node request (app.request, other runtimes) the WHATWG body is the only one, and is handed on.
    const node = (c.env as Partial<HttpBindings> | undefined)?.incoming !== undefined;
    const hasBody = !node && raw.method !== 'GET' && raw.method !== 'HEAD';
    return routes.fetch(
      new Request(url, {
        method: raw.method,
        headers: raw.headers,
        signal: raw.signal,
        ...(hasBody ? { body: raw.body, duplex: 'half' } : {}),
      } as RequestInit),
      c.env,
    );
  });
};
