import type { Context, Hono } from 'hono';
import type Provider from 'oidc-provider';
import type { Adapter, AdapterFactory } from 'oidc-provider';
import { errorPage, PAGE_HEADERS } from './pages.js';

// Issue 37/38: while the OAuth store (the gateway's database) is away, every endpoint that needs it answers 503
// with Retry-After, never a bare 500: a JSON `temporarily_unavailable` for clients, a page for browsers. A
// store failure is told apart from a bug by where it was thrown: every call into the store is wrapped, and
// what it throws (other than oidc-provider's own protocol errors, such as the invalid_grant of a code used
// twice) becomes a StoreUnavailable.

/** Seconds a client is told to wait while the store is away. */
export const STORE_RETRY_AFTER_SECONDS = 5;

export class StoreUnavailable extends Error {
  constructor(cause: unknown) {
    super(`the OAuth store is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'StoreUnavailable';
  }
}

/** oidc-provider's errors carry `expose` (an answer for the client) and a status below 500. */
const isProtocolError = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  (error as { expose?: unknown }).expose === true &&
  Number((error as { statusCode?: unknown }).statusCode) < 500;

const ADAPTER_METHODS = [
  'upsert',
  'find',
  'findByUid',
  'findByUserCode',
  'consume',
  'destroy',
  'revokeByGrantId',
] as const;

/** The adapter factory with every store failure thrown as a StoreUnavailable. */
export const outageAwareAdapter =
  (factory: AdapterFactory): AdapterFactory =>
  (model: string) => {
    const inner = factory(model) as Adapter;
    const wrapped: Record<string, unknown> = {};
    for (const method of ADAPTER_METHODS) {
      const call = inner[method] as ((...args: unknown[]) => Promise<unknown>) | undefined;
      if (!call) continue;
      wrapped[method] = async (...args: unknown[]) => {
        try {
          return await call.apply(inner, args);
        } catch (error) {
          throw isProtocolError(error) || error instanceof StoreUnavailable ? error : new StoreUnavailable(error);
        }
      };
    }
    return wrapped as unknown as Adapter;
  };

const DESCRIPTION =
  "The authorization server's store is unavailable for a moment; nothing was changed. Try again in a few seconds.";

const outagePage = () =>
  errorPage(
    'Sign-in is unavailable for a moment',
    `The gateway cannot reach its database just now; nothing was changed. Try again in ${STORE_RETRY_AFTER_SECONDS} seconds (reload this page).`,
  );

/** Inside oidc-provider (a Koa middleware around its routes): a request that met a store outage answers 503. */
export const answerOutagesOf = (provider: Provider): void => {
  provider.on('server_error', (ctx: { state: Record<string, unknown> }, error: unknown) => {
    if (error instanceof StoreUnavailable) ctx.state['storeOutage'] = true;
  });
  provider.on('authorization.error', (ctx: { state: Record<string, unknown> }, error: unknown) => {
    if (error instanceof StoreUnavailable) ctx.state['storeOutage'] = true;
  });
  provider.use(async (ctx, next) => {
    await next();
    if (!ctx.state['storeOutage']) return;
    ctx.status = 503;
    ctx.remove('location');
    ctx.set('retry-after', String(STORE_RETRY_AFTER_SECONDS));
    ctx.set('cache-control', 'no-store');
    if (ctx.accepts('json', 'html') === 'html') {
      ctx.set(PAGE_HEADERS as Record<string, string>);
      ctx.body = outagePage();
    } else ctx.body = { error: 'temporarily_unavailable', error_description: DESCRIPTION };
  });
};

/** Around the Hono routes (the sign-in and consent pages): a handler that met a store outage answers 503. */
export const answerOutagesOn = (routes: Hono, paths: readonly string[]): void => {
  const outage = async (c: Context, next: () => Promise<void>) => {
    await next();
    if (!(c.error instanceof StoreUnavailable)) return;
    c.res = undefined;
    c.res = c.html(outagePage(), 503, { ...PAGE_HEADERS, 'retry-after': String(STORE_RETRY_AFTER_SECONDS) });
  };
  for (const path of paths) routes.use(path, outage);
};
