import type { HttpBindings } from '@hono/node-server';
import type { Context, MiddlewareHandler } from 'hono';
import { DEFAULT_TENANT, TENANT_ID } from '../../../ports/authenticator.js';
import type { RateDecision, RateLimiter } from '../../../ports/rate-limiter.js';

// The files data plane (`/files/...` and `/t/{tenant}/files/...`: signed upload and download addresses,
// share pages) takes no bearer token, so it is limited by what it serves: requests a minute to one link
// (an upload, a download address, a share) and to one tenant's data plane as a whole. Every request to
// it gets one log line, as a tool call does.

/** One line per data-plane request. Never the address itself: it holds ids and signatures. */
export interface TransferLine {
  readonly requestId: string;
  readonly tenant: string;
  readonly method: string;
  /** What kind of address: upload-chunk, upload-finish, download, share, share-item, share-upload or other. */
  readonly route: string;
  readonly status: number;
  readonly durationMs: number;
  /** The request body's declared length, when it declared one. */
  readonly bytesIn?: number;
  /** The answer body's length, when it is known. */
  readonly bytesOut?: number;
  /** The answer was not sent whole (the client went away). */
  readonly aborted?: true;
  /** Refused by the limit of the link or of the tenant. */
  readonly limited?: 'link' | 'tenant';
}

export interface TransferGuardOptions {
  readonly limiter: RateLimiter;
  /** Requests a minute to one link. */
  readonly perLinkPerMinute: number;
  /** Requests a minute to one tenant's data plane, all links together. */
  readonly perTenantPerMinute: number;
  readonly log?: (line: TransferLine) => void;
  /** A limit that cannot be checked lets the request through (as tool calls do) and is reported here. */
  readonly onLimiterError?: (error: unknown, requestId: string) => void;
}

/** The kinds of address, each with the link it belongs to (its first capture). */
const ROUTES: ReadonlyArray<readonly [RegExp, string, string]> = [
  [/^\/files\/transfer\/upload\/([^/]+)\/chunk\/?$/, 'upload-chunk', 'upload'],
  [/^\/files\/transfer\/upload\/([^/]+)\/finish\/?$/, 'upload-finish', 'upload'],
  [/^\/files\/transfer\/download\/([^/]+)\/[^/]+\/?$/, 'download', 'download'],
  [/^\/files\/shares\/([^/]+)\/?$/, 'share', 'share'],
  [/^\/files\/shares\/([^/]+)\/items\/[^/]+\/?$/, 'share-item', 'share'],
  [/^\/files\/shares\/([^/]+)\/upload\/?$/, 'share-upload', 'share'],
];

/** The kind of address and the link it belongs to (undefined for other paths). */
export const classifyTransfer = (path: string): { readonly route: string; readonly link?: string } => {
  for (const [pattern, route, family] of ROUTES) {
    const m = pattern.exec(path);
    if (m) return { route, link: `${family}:${m[1]!.slice(0, 128)}` };
  }
  return { route: 'other' };
};

const JSON_TYPE = 'application/json; charset=utf-8';

const tooMany = (requestId: string, d: RateDecision, scope: 'link' | 'tenant'): Response => {
  const message =
    scope === 'link'
      ? `Too many requests to this address: at most ${d.limit} a minute. Retry in ${d.retryAfterSeconds} s.`
      : `Too many file transfers for this workspace: at most ${d.limit} a minute. Retry in ${d.retryAfterSeconds} s.`;
  const body = JSON.stringify({
    success: false,
    error: {
      code: 'RATE_LIMITED',
      message,
      details: { retry_after_seconds: d.retryAfterSeconds, limit: d.limit, scope },
    },
  });
  return new Response(body, {
    status: 429,
    headers: {
      'content-type': JSON_TYPE,
      'content-length': String(Buffer.byteLength(body)),
      'cache-control': 'no-store',
      'x-request-id': requestId,
      'retry-after': String(Math.max(1, d.retryAfterSeconds)),
      'ratelimit-limit': String(d.limit),
      'ratelimit-remaining': '0',
      'ratelimit-reset': String(d.resetSeconds),
    },
  });
};

const lengthOf = (value: string | null | undefined): number | undefined =>
  value && /^\d{1,16}$/.test(value) ? Number(value) : undefined;

/**
 * The middleware for `/files/*` (the default tenant's data plane) and `/t/:tenant/files/*`. `requestId`
 * gives the request's id (the one its answer carries).
 */
export const transferGuard = (options: TransferGuardOptions, requestId: (c: Context) => string): MiddlewareHandler => {
  const { limiter, perLinkPerMinute, perTenantPerMinute } = options;

  /** The refusal, or undefined when both limits allow the request (or cannot be checked). */
  const check = async (
    tenant: string,
    link: string | undefined,
    requestId: string,
  ): Promise<[RateDecision, 'link' | 'tenant'] | undefined> => {
    try {
      // A tenant id has no "/", so these keys never meet the tool calls' "<tenant>:<principal>:<group>".
      if (link !== undefined) {
        const d = await limiter.take(`transfer/${tenant}/${link}`, perLinkPerMinute, 60);
        if (!d.allowed) return [d, 'link'];
      }
      const d = await limiter.take(`transfer/${tenant}`, perTenantPerMinute, 60);
      return d.allowed ? undefined : [d, 'tenant'];
    } catch (error) {
      options.onLimiterError?.(error, requestId);
      return undefined;
    }
  };

  return async (c, next) => {
    const started = performance.now();
    const id = requestId(c);
    const param = c.req.param('tenant') as string | undefined;
    // An address under a malformed tenant id serves nothing (404): it is logged, not counted.
    const tenant = param === undefined ? DEFAULT_TENANT : TENANT_ID.test(param) ? param : undefined;
    const path = param === undefined ? c.req.path : c.req.path.slice(`/t/${param}`.length);
    const { route, link } = classifyTransfer(path);
    const refused = tenant === undefined ? undefined : await check(tenant, link, id);
    let res: Response;
    if (refused) res = tooMany(id, ...refused);
    else {
      await next();
      res = c.res;
    }
    if (options.log) {
      const log = options.log;
      const bytesIn = lengthOf(c.req.header('content-length'));
      const bytesOut = lengthOf(res.headers.get('content-length'));
      const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
      const write = () =>
        log({
          requestId: id,
          tenant: tenant ?? '-',
          method: c.req.method,
          route,
          status: res.status,
          durationMs: Math.round((performance.now() - started) * 10) / 10,
          ...(bytesIn !== undefined ? { bytesIn } : {}),
          ...(bytesOut !== undefined ? { bytesOut } : {}),
          ...(outgoing && !outgoing.writableFinished ? { aborted: true as const } : {}),
          ...(refused ? { limited: refused[1] } : {}),
        });
      // Under Node the line is written once the answer has gone (or the connection closed), so that the
      // duration is the transfer's.
      if (outgoing && !outgoing.writableFinished) outgoing.once('close', write);
      else write();
    }
    return refused ? res : undefined;
  };
};
