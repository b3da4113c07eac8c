import type { HttpBindings } from '@hono/node-server';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { LRUCache } from 'lru-cache';
import { BlockList, isIP } from 'node:net';
import type { RateDecision, RateLimiter } from '../../../ports/rate-limiter.js';
import { errorPage, PAGE_HEADERS } from './pages.js';

// Issue 38: limits on the authorization server, per address and per client, answered 429 with Retry-After,
// through the gateway's RateLimiter (in memory, or in Redis so that every instance holds one limit):
//
// - /register: registrations per address and hour;
// - /token: requests per address and minute, and per client (its HTTP Basic or form `client_id`) and minute;
// - the sign-in form: wrong keys per address and minute (slow down), per address and hour (stop), and per
//   sign-in (interaction) and minute. Only wrong keys count; while a limit is reached every attempt is refused,
//   the right key too, until the window lets one more through.
//
// A refusal is reported (`onLimited`, for the audit log) at most once per endpoint and address every 10 s,
// with the number of refusals it stands for: a flood is a handful of rows, not one per request.

export interface AuthorizationLimitSettings {
  readonly limiter: RateLimiter;
  /** Client registrations per address and hour. */
  readonly registrationsPerHour: number;
  /** Token requests per address, and per client, and minute. */
  readonly tokenRequestsPerMinute: number;
  /** Wrong keys in the sign-in form per address (and per sign-in) and minute: past it, one every 60/n s. */
  readonly signInFailuresPerMinute: number;
  /** Wrong keys per address and hour: past it, the form is closed to that address for the rest of the hour. */
  readonly signInFailuresPerHour: number;
  /**
   * Addresses or CIDR ranges of the reverse proxies in front of the gateway (`10.0.0.0/8`, `::1`): a request from
   * one of them is counted against the address its `X-Forwarded-For` names (the last hop that is not itself a
   * trusted proxy). Empty: the socket's peer, whatever the headers say.
   */
  readonly trustedProxies?: readonly string[];
}

export interface LimitedRequest {
  readonly endpoint: 'register' | 'token' | 'sign_in';
  /** Which limit: the address's, the client's, or the sign-in's. */
  readonly scope: 'address' | 'client' | 'interaction';
  readonly address: string;
  readonly clientId?: string;
  readonly retryAfterSeconds: number;
  /** Refusals of this endpoint to this address this report stands for (1, or more when held back). */
  readonly refusals: number;
}

export interface LimitOptions {
  readonly settings: AuthorizationLimitSettings;
  readonly onLimited: (refused: LimitedRequest) => void;
  /** The limiter failed (Redis away): the request is let through. */
  readonly onError: (error: unknown) => void;
}

/** Least time between two reports of one endpoint's refusals to one address. */
const REPORT_EVERY_MS = 10_000;

type Limit = readonly [key: string, limit: number, windowSeconds: number, scope: LimitedRequest['scope']];

const peerOf = (c: Context): string =>
  (c.env as Partial<HttpBindings> | undefined)?.incoming?.socket?.remoteAddress ?? 'unknown';

/** An IPv4 address mapped into IPv6 (`::ffff:10.0.0.1`) as IPv4. */
const plain = (address: string): string =>
  address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;

/** Is `entry` an address or a CIDR range `trustedProxies` accepts? */
export const isAddressOrRange = (entry: string): boolean => {
  const [ip = '', bits, ...rest] = entry.split('/');
  const family = isIP(ip);
  if (!family || rest.length) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
};

/** The caller's address: the socket's peer, or behind a trusted proxy the address it forwarded for. */
export const callerAddress = (trustedProxies: readonly string[] = []): ((c: Context) => string) => {
  if (!trustedProxies.length) return (c) => plain(peerOf(c));
  const list = new BlockList();
  for (const entry of trustedProxies) {
    const [ip = '', bits] = entry.split('/');
    const type = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(ip, type);
    else list.addSubnet(ip, Number(bits), type);
  }
  const trusted = (address: string) => {
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
  };
  return (c) => {
    const peer = plain(peerOf(c));
    if (!trusted(peer)) return peer;
    const hops = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((hop) => plain(hop.trim()))
      .filter(Boolean);
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i]!;
      if (!isIP(hop)) return peer; // a hop that is no address: the proxy's own, rather than anything the caller chose
      if (!trusted(hop)) return hop;
    }
    return peer;
  };
};

const basicClientId = (c: Context): string | undefined => {
  const header = c.req.header('authorization') ?? '';
  if (!/^basic /i.test(header)) return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  try {
    return decodeURIComponent(decoded.slice(0, colon)).slice(0, 200);
  } catch {
    return undefined;
  }
};

/** oidc-provider's own bound on a request body. */
const TOKEN_BODY_LIMIT = 56 * 1024;

/**
 * The `client_id` of a form-encoded token request (a public client names itself in the body). The body is read
 * here and handed on unchanged: the Node request is made to give the same bytes again to oidc-provider, which
 * reads it as a stream (`readable`, `iterator`), as if nothing had read it before.
 */
const formClientId = async (c: Context): Promise<string | undefined | 'too large'> => {
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  if (!incoming || !/^application\/x-www-form-urlencoded/i.test(c.req.header('content-type') ?? '')) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of incoming.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > TOKEN_BODY_LIMIT) return 'too large';
    chunks.push(chunk);
  }
  const body = Buffer.concat(chunks, size);
  Object.defineProperty(incoming, 'readable', { configurable: true, get: () => true });
  Object.defineProperty(incoming, 'iterator', {
    configurable: true,
    value: async function* replay() {
      yield body;
    },
  });
  return new URLSearchParams(body.toString('utf8')).get('client_id')?.slice(0, 200) || undefined;
};

export const authorizationLimits = (app: Hono, o: LimitOptions): void => {
  const s = o.settings;
  const addressOf = callerAddress(s.trustedProxies);
  const reported = new LRUCache<string, { at: number; held: number }>({ max: 10_000, ttl: 60_000 });
  const reportWithHeld = (refused: Omit<LimitedRequest, 'refusals'>): void => {
    const key = `${refused.endpoint}|${refused.address}`;
    const now = Date.now();
    const seen = reported.get(key);
    if (seen && now - seen.at < REPORT_EVERY_MS) {
      seen.held++;
      return;
    }
    reported.set(key, { at: now, held: 0 });
    o.onLimited({ ...refused, refusals: 1 + (seen?.held ?? 0) });
  };

  /** The first limit refused, by `take` (counting this request) or `peek` (counting nothing). */
  const firstRefused = async (
    limits: readonly Limit[],
    count: boolean,
  ): Promise<{ decision: RateDecision; scope: LimitedRequest['scope'] } | undefined> => {
    let refused: { decision: RateDecision; scope: LimitedRequest['scope'] } | undefined;
    for (const [key, limit, window, scope] of limits) {
      try {
        const decide = !count && s.limiter.peek ? s.limiter.peek.bind(s.limiter) : s.limiter.take.bind(s.limiter);
        const decision = await decide(`oauth:${key}`, limit, window);
        if (!decision.allowed && (!refused || decision.retryAfterSeconds > refused.decision.retryAfterSeconds))
          refused = { decision, scope };
      } catch (error) {
        o.onError(error); // fail open, as the tool calls' limits do
      }
    }
    return refused;
  };

  const tooMany = (c: Context, retryAfter: number, description: string) =>
    c.json({ error: 'too_many_requests', error_description: description }, 429, {
      'retry-after': String(retryAfter),
      'cache-control': 'no-store',
    });

  const register: MiddlewareHandler = async (c, next) => {
    if (c.req.method !== 'POST') return next();
    const address = addressOf(c);
    const refused = await firstRefused([[`register:${address}`, s.registrationsPerHour, 3600, 'address']], true);
    if (!refused) return next();
    const retryAfter = Math.max(1, refused.decision.retryAfterSeconds);
    reportWithHeld({ endpoint: 'register', scope: refused.scope, address, retryAfterSeconds: retryAfter });
    return tooMany(
      c,
      retryAfter,
      `Too many client registrations from this address (at most ${s.registrationsPerHour} an hour). A client registers once and keeps its client_id; try again in ${retryAfter} s.`,
    );
  };

  const token: MiddlewareHandler = async (c, next) => {
    if (c.req.method !== 'POST') return next();
    const address = addressOf(c);
    const form = await formClientId(c);
    if (form === 'too large')
      return c.json({ error: 'invalid_request', error_description: 'The request body is too large.' }, 413);
    const clientId = basicClientId(c) ?? form;
    const limits: Limit[] = [[`token:${address}`, s.tokenRequestsPerMinute, 60, 'address']];
    if (clientId) limits.push([`token-client:${clientId}`, s.tokenRequestsPerMinute, 60, 'client']);
    const refused = await firstRefused(limits, true);
    if (!refused) return next();
    const retryAfter = Math.max(1, refused.decision.retryAfterSeconds);
    reportWithHeld({
      endpoint: 'token',
      scope: refused.scope,
      address,
      ...(clientId ? { clientId } : {}),
      retryAfterSeconds: retryAfter,
    });
    return tooMany(
      c,
      retryAfter,
      `Too many token requests from this ${refused.scope === 'client' ? 'client' : 'address'} (at most ${s.tokenRequestsPerMinute} a minute); try again in ${retryAfter} s.`,
    );
  };

  const signIn: MiddlewareHandler = async (c, next) => {
    const address = addressOf(c);
    const uid = c.req.param('uid') ?? '';
    const limits: Limit[] = [
      [`sign-in:${address}`, s.signInFailuresPerMinute, 60, 'address'],
      [`sign-in-hour:${address}`, s.signInFailuresPerHour, 3600, 'address'],
      [`sign-in-uid:${uid.slice(0, 100)}`, s.signInFailuresPerMinute, 60, 'interaction'],
    ];
    // Without `peek` every attempt counts; with it only the wrong keys, after the answer.
    const refused = await firstRefused(limits, false);
    if (refused) {
      const retryAfter = Math.max(1, refused.decision.retryAfterSeconds);
      reportWithHeld({ endpoint: 'sign_in', scope: refused.scope, address, retryAfterSeconds: retryAfter });
      return c.html(
        errorPage(
          'Too many wrong keys',
          `Too many wrong keys were typed here. Wait ${retryAfter} seconds, then try again (every attempt before then is refused, a right key too).`,
        ),
        429,
        { ...PAGE_HEADERS, 'retry-after': String(retryAfter) },
      );
    }
    await next();
    if (c.res.status === 401 && s.limiter.peek) await firstRefused(limits, true);
  };

  app.use('/register', register);
  app.use('/token', token);
  app.post('/oauth/interaction/:uid/login', signIn);
};
