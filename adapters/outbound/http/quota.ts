import type { InternalAxiosRequestConfig } from 'axios';
import { LRUCache } from 'lru-cache';
import { createHash } from 'node:crypto';
import { knownTimeZone, msUntilNextMidnight } from './zoned-day.js';

// The vendors' call quotas as their answers report them: what one connection has left of each window,
// held back at a reserve, and shared between instances through the SharedCache (Redis when configured).
// resilience.ts asks before each call and reports after it.

/** The vendors' remaining-quota headers, by the window they count. */
const QUOTA_HEADERS: readonly (readonly [header: string, window: string])[] = [
  ['x-hubspot-ratelimit-remaining', 'interval'],
  ['x-hubspot-ratelimit-daily-remaining', 'daily'],
  ['x-rate-limit-remaining', 'hourly'],
];

/** Podio's hourly budget for the calls it marks "Rate limited" (PODIO-DOCS /index/limits), and its window. */
const RATE_LIMITED_BUDGET = 250;
const RATE_LIMITED_WINDOW = 'hourly (rate-limited calls)';

/** A call's method and path with its ids left out (`GET /item/app/{id}/filter/`): which operation it is. */
export const requestShape = (config: Pick<InternalAxiosRequestConfig, 'method' | 'url'>): string =>
  `${(config.method ?? 'get').toUpperCase()} ${(config.url ?? '').split('?')[0]!.replace(/\/\d+(?=\/|$)/g, '/{id}')}`;

export type QuotaListener = (vendor: string, window: string, remaining: number) => void;
let onQuota: QuotaListener | undefined;

/** Who hears every quota reading (the metrics), set with the resilience settings. */
export const onQuotaReading = (listener: QuotaListener): void => {
  onQuota = listener;
};

/** Reports what an answer says about the remaining quota (HubSpot's and Podio's headers). */
export const reportQuota = (vendor: string, headers: Record<string, unknown> | undefined): void => {
  if (!onQuota || !headers) return;
  for (const [header, window] of QUOTA_HEADERS) {
    const value = headers[header];
    if (typeof value === 'string' && /^\d{1,12}$/.test(value)) onQuota(vendor, window, Number(value));
  }
};

/** A call refused before it was sent: the connection's quota is down to the reserve. */
export class QuotaReserved extends Error {
  constructor(
    readonly vendor: string,
    readonly window: string,
    readonly remaining: number,
    readonly retryAfterSeconds: number,
  ) {
    super(
      `${vendor}'s ${window} call quota for this connection is nearly used up (${remaining} left, kept in reserve), so the gateway did not send the call. Try again in about ${retryAfterSeconds} s.`,
    );
  }
}

/**
 * What one vendor client (one connection) has left of each quota window, from the answers' headers:
 * HubSpot's ten-second interval (X-HubSpot-RateLimit-Remaining, -Interval-Milliseconds) and day
 * (-Daily-Remaining), Podio's hour (X-Rate-Limit-Remaining; Podio does not say when the hour ends, so the
 * hour is counted from when the quota was seen running low), kept apart for its 250-call budget
 * (X-Rate-Limit-Limit).
 */
export class QuotaWindows {
  /** Each low window: its count and when it ends (the day's end is worked out when asked, see #until). */
  readonly #low = new Map<string, { remaining: number; until: number; since: number }>();

  /**
   * `reserve`: the count at or below which a window is held back (UPSTREAM_QUOTA_RESERVE). `day`: the zone
   * the vendor's day is counted in (HubSpot: the account's), and who hears that it is not known, so that the
   * day is counted in UTC for now (the HubSpot client then reads the account and logs the fallback).
   */
  constructor(
    private readonly reserve: () => number,
    private readonly day: DayZone = {},
  ) {}

  /** Whether any answer carried a quota count (only then is the shared store asked). */
  seen = false;

  /** The calls (`requestShape`) that answered with Podio's 250-call budget: few distinct operations. */
  readonly #rateLimitedCalls = new LRUCache<string, true>({ max: 256, ttl: 86_400_000 });

  /** `request`: the call's `requestShape`, to learn which calls count against Podio's 250-call budget. */
  observe(headers: Record<string, unknown> | undefined, now = Date.now(), request?: string): void {
    if (!headers) return;
    const num = (h: string) => {
      const v = headers[h];
      return typeof v === 'string' && /^\d{1,12}$/.test(v) ? Number(v) : undefined;
    };
    if (QUOTA_HEADERS.some(([h]) => headers[h] !== undefined)) this.seen = true;
    const interval = num('x-hubspot-ratelimit-remaining');
    // An answer that came through without an interval count means the interval was not exhausted.
    if (interval === undefined) this.#low.delete('ten-second');
    const intervalMs = num('x-hubspot-ratelimit-interval-milliseconds') ?? 10_000;
    if (interval !== undefined) this.#note('ten-second', interval, now + Math.min(intervalMs, 60_000), 1);
    const daily = num('x-hubspot-ratelimit-daily-remaining');
    // the day's end is worked out from the first low reading whenever it is asked (#until), so that a time
    // zone learnt later (the account's) applies at once
    if (daily !== undefined) this.#note('daily', daily, now, undefined, now);
    const hourly = num('x-rate-limit-remaining');
    // Podio keeps two hourly budgets: 1,000 calls, and 250 for the calls it marks "Rate limited"; the answer's
    // X-Rate-Limit-Limit says which one it counted against, so each has its own window, and the calls seen
    // counting against the 250 are remembered (by method and path shape) to be held back by that window only
    const limit = num('x-rate-limit-limit');
    const rateLimited = limit !== undefined && limit <= RATE_LIMITED_BUDGET;
    if (rateLimited && request) this.#rateLimitedCalls.set(request, true);
    if (hourly !== undefined) this.#note(rateLimited ? RATE_LIMITED_WINDOW : 'hourly', hourly, now + 3_600_000);
  }

  #note(window: string, remaining: number, until: number, reserve = this.reserve(), now = until): void {
    const known = this.#low.get(window);
    if (remaining > reserve) this.#low.delete(window);
    // the first low reading fixes when the window is taken to end; later ones only update the count
    else {
      if (!known && window === 'daily' && !knownTimeZone(this.day.timeZone?.())) this.day.unknown?.();
      this.#low.set(window, known ? { ...known, remaining } : { remaining, until, since: now });
    }
  }

  /** When a low window ends: the day at the next midnight in the day's zone after its first low reading. */
  #until(window: string, low: { until: number; since: number }): number {
    if (window !== 'daily') return low.until;
    const zone = this.day.timeZone?.();
    return low.since + msUntilNextMidnight(low.since, knownTimeZone(zone) ? zone : 'UTC');
  }

  /** The hour or day window that is down to its reserve, to share with other instances. */
  longLow(now = Date.now()): { window: string; remaining: number; until: number } | undefined {
    for (const [window, low] of this.#low) {
      // the 250-call window holds back only the calls known to count against it, which other instances
      // do not know: it stays in this process
      if (window === RATE_LIMITED_WINDOW) continue;
      const until = this.#until(window, low);
      if (window !== 'ten-second' && until > now) return { window, remaining: low.remaining, until };
    }
    return undefined;
  }

  /** The wait before a call may be sent, with the window that asks for it; undefined when none does. */
  blocked(now = Date.now(), request?: string): { window: string; remaining: number; waitMs: number } | undefined {
    if (this.reserve() <= 0) return undefined;
    for (const [window, low] of this.#low) {
      const until = this.#until(window, low);
      if (until <= now) {
        this.#low.delete(window);
        continue;
      }
      if (window === RATE_LIMITED_WINDOW && !(request && this.#rateLimitedCalls.has(request))) continue;
      return { window, remaining: low.remaining, waitMs: until - now };
    }
    return undefined;
  }
}

/** The zone a vendor's day is counted in, when it has one (HubSpot: the account's time zone). */
export interface DayZone {
  /** The IANA zone, once known; UTC meanwhile (or when Intl does not know it). */
  readonly timeZone?: () => string | undefined;
  /** Called when a day window goes low while the zone is not known (it is counted in UTC meanwhile). */
  readonly unknown?: () => void;
}

/** Where instances share what is left of each connection's quota (the SharedCache: Redis when configured). */
export interface SharedQuotaStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
}
let sharedQuota: SharedQuotaStore | undefined;

/** Set by the composition root when instances share a Redis; every vendor client then publishes its low quotas. */
export const shareQuotas = (store: SharedQuotaStore | undefined): void => {
  sharedQuota = store;
};

/**
 * A connection's key in the shared store, when instances share one: its access token, hashed (the quota is
 * the token's user's or account's).
 */
export const sharedQuotaKey = (vendor: string, config: InternalAxiosRequestConfig): string | undefined => {
  if (!sharedQuota) return undefined;
  const auth = config.headers?.['Authorization'] ?? config.headers?.['authorization'];
  return typeof auth === 'string' && auth
    ? `quota:${vendor}:${createHash('sha256').update(auth).digest('base64url').slice(0, 22)}`
    : undefined;
};

export const sharedLow = async (
  key: string,
  now = Date.now(),
): Promise<{ window: string; remaining: number; waitMs: number } | undefined> => {
  try {
    const raw = await sharedQuota?.get(key);
    const low = raw ? (JSON.parse(raw) as { window?: unknown; remaining?: unknown; until?: unknown }) : undefined;
    if (!low || typeof low.window !== 'string' || typeof low.remaining !== 'number' || typeof low.until !== 'number')
      return undefined;
    return low.until > now ? { window: low.window, remaining: low.remaining, waitMs: low.until - now } : undefined;
  } catch {
    return undefined;
  }
};

/** Shares a connection's low hour or day window with the other instances (best effort, never awaited). */
export const publish = (
  key: string | undefined,
  low: { window: string; remaining: number; until: number } | undefined,
) => {
  if (!key || !sharedQuota) return;
  const ttl = low ? Math.ceil((low.until - Date.now()) / 1000) : 1;
  sharedQuota.set(key, low ? JSON.stringify(low) : '{}', Math.max(1, ttl)).catch(() => undefined);
};
