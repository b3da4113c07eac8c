import type { AxiosAdapter, AxiosError, AxiosResponse, InternalAxiosRequestConfig } from 'axios';
import {
  BrokenCircuitError,
  circuitBreaker,
  CircuitState,
  ConsecutiveBreaker,
  handleWhen,
  retry,
  type CircuitBreakerPolicy,
  type IBackoff,
  type IRetryBackoffContext,
} from 'cockatiel';
import { createHash } from 'node:crypto';
import { recordUpstreamCall } from './upstream-calls.js';

// Retries and a circuit breaker around every vendor call, with cockatiel. A read (or any idempotent call)
// is retried on 429, 5xx and connection errors with jittered exponential back-off, honouring Retry-After,
// within a time budget that ends before the gateway's own time limit. A write that may have reached the
// vendor is never retried: only one whose connection was refused (it never left) is. Each vendor client
// has its own breaker: after repeated 5xx or connection failures it answers at once until it half-opens.

export interface ResilienceSettings {
  /** Attempts per call, the first included (1 turns retries off). */
  readonly maxAttempts: number;
  /** First back-off; doubles per attempt, with full jitter. */
  readonly baseDelayMs: number;
  /** No retry starts later than this after the call began (ends before the gateway's request time limit). */
  readonly budgetMs: number;
  /** Longest Retry-After honoured; a longer one is answered at once with its value. */
  readonly maxRetryAfterMs: number;
  /** Consecutive failures (5xx, connection errors) that open a vendor client's breaker. */
  readonly breakerFailures: number;
  /** How long an open breaker answers at once before one probe call is let through. */
  readonly halfOpenAfterMs: number;
  /**
   * Calls of a vendor's hourly or daily quota the gateway leaves unused: once a connection's remaining
   * quota is down to this, calls are refused early (429 RATE_LIMITED with the wait) instead of being
   * sent and getting the account blocked. 0 turns early refusal off.
   */
  readonly quotaReserve: number;
}

export const DEFAULT_RESILIENCE: ResilienceSettings = {
  maxAttempts: 3,
  baseDelayMs: 200,
  budgetMs: 20_000,
  maxRetryAfterMs: 10_000,
  breakerFailures: 5,
  halfOpenAfterMs: 30_000,
  quotaReserve: 10,
};

let settings: ResilienceSettings = DEFAULT_RESILIENCE;
type BreakerListener = (vendor: string, state: 'closed' | 'open' | 'half-open') => void;
let onBreaker: BreakerListener | undefined;
type QuotaListener = (vendor: string, window: string, remaining: number) => void;
let onQuota: QuotaListener | undefined;

/** Set by the composition root from the environment (and by tests). */
export const configureResilience = (
  next: Partial<ResilienceSettings>,
  listener?: BreakerListener,
  quota?: QuotaListener,
): void => {
  settings = { ...DEFAULT_RESILIENCE, ...next };
  if (listener) onBreaker = listener;
  if (quota) onQuota = quota;
};

/** The vendors' remaining-quota headers, by the window they count. */
const QUOTA_HEADERS: readonly (readonly [header: string, window: string])[] = [
  ['x-hubspot-ratelimit-remaining', 'interval'],
  ['x-hubspot-ratelimit-daily-remaining', 'daily'],
  ['x-rate-limit-remaining', 'hourly'],
];

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
 * hour is counted from when the quota was seen running low).
 */
export class QuotaWindows {
  readonly #low = new Map<string, { remaining: number; until: number }>();
  /** Whether any answer carried a quota count (only then is the shared store asked). */
  seen = false;

  observe(headers: Record<string, unknown> | undefined, now = Date.now()): void {
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
    if (daily !== undefined) this.#note('daily', daily, now + untilMidnightUtcMs(now));
    const hourly = num('x-rate-limit-remaining');
    if (hourly !== undefined) this.#note('hourly', hourly, now + 3_600_000);
  }

  #note(window: string, remaining: number, until: number, reserve = settings.quotaReserve): void {
    const known = this.#low.get(window);
    if (remaining > reserve) this.#low.delete(window);
    // the first low reading fixes when the window is taken to end; later ones only update the count
    else this.#low.set(window, { remaining, until: known ? known.until : until });
  }

  /** The hour or day window that is down to its reserve, to share with other instances. */
  longLow(now = Date.now()): { window: string; remaining: number; until: number } | undefined {
    for (const [window, low] of this.#low)
      if (window !== 'ten-second' && low.until > now) return { window, remaining: low.remaining, until: low.until };
    return undefined;
  }

  /** The wait before a call may be sent, with the window that asks for it; undefined when none does. */
  blocked(now = Date.now()): { window: string; remaining: number; waitMs: number } | undefined {
    if (settings.quotaReserve <= 0) return undefined;
    for (const [window, low] of this.#low) {
      if (low.until <= now) {
        this.#low.delete(window);
        continue;
      }
      return { window, remaining: low.remaining, waitMs: low.until - now };
    }
    return undefined;
  }
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

/** A connection's key in the shared store: its access token, hashed (the quota is the token's user's or account's). */
const quotaKeyOf = (vendor: string, config: InternalAxiosRequestConfig): string | undefined => {
  const auth = config.headers?.['Authorization'] ?? config.headers?.['authorization'];
  return typeof auth === 'string' && auth
    ? `quota:${vendor}:${createHash('sha256').update(auth).digest('base64url').slice(0, 22)}`
    : undefined;
};

const sharedLow = async (
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

const untilMidnightUtcMs = (now: number): number => {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1) - now;
};

/** Calls HTTP says are idempotent; a POST that only reads (a search) says so with `idempotent: true`. */
const IDEMPOTENT = new Set(['get', 'head', 'options', 'put', 'delete']);
/** Errors raised before the request could leave: safe to retry even for a write. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

declare module 'axios' {
  interface AxiosRequestConfig {
    /** A POST that only reads (a search): retried like a GET. */
    idempotent?: boolean;
  }
}

const retryAfterMs = (res: AxiosResponse): number | undefined => {
  const header = res.headers?.['retry-after'];
  if (typeof header !== 'string' || !header.trim()) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
};

const transient = (status: number) => status === 429 || status >= 500;

/** A breaker that opens on server failures and connection errors (not on 429: the vendor is up). */
const newBreaker = (vendor: string): CircuitBreakerPolicy => {
  const breaker = circuitBreaker(
    handleWhen((e) => !(e instanceof BrokenCircuitError)).orWhenResult((r) => (r as AxiosResponse).status >= 500),
    { halfOpenAfter: settings.halfOpenAfterMs, breaker: new ConsecutiveBreaker(settings.breakerFailures) },
  );
  breaker.onStateChange((state) =>
    onBreaker?.(
      vendor,
      state === CircuitState.Open || state === CircuitState.Isolated
        ? 'open'
        : state === CircuitState.HalfOpen
          ? 'half-open'
          : 'closed',
    ),
  );
  return breaker;
};

/** Seconds until an open breaker lets a probe through. */
export const breakerRetryAfterSeconds = (): number => Math.ceil(settings.halfOpenAfterMs / 1000);

/** Shares a connection's low hour or day window with the other instances (best effort, never awaited). */
const publish = (key: string | undefined, low: { window: string; remaining: number; until: number } | undefined) => {
  if (!key || !sharedQuota) return;
  const ttl = low ? Math.ceil((low.until - Date.now()) / 1000) : 1;
  sharedQuota.set(key, low ? JSON.stringify(low) : '{}', Math.max(1, ttl)).catch(() => undefined);
};

/**
 * Wraps an axios adapter: every attempt goes through the vendor client's breaker, and the retry policy
 * decides per answer whether another attempt fits (idempotent, transient, within the budget).
 */
export const resilientAdapter = (vendor: string, base: AxiosAdapter): AxiosAdapter => {
  const breaker = newBreaker(vendor);
  const quota = new QuotaWindows();
  return async (config: InternalAxiosRequestConfig) => {
    // A quota down to its reserve: a short window (HubSpot's ten seconds) is waited out, a long one refused.
    // Other instances' readings of the same connection count too, once this client has seen quota headers.
    const key = sharedQuota && quota.seen ? quotaKeyOf(vendor, config) : undefined;
    const low = quota.blocked() ?? (key && settings.quotaReserve > 0 ? await sharedLow(key) : undefined);
    if (low && (low.window !== 'ten-second' || low.waitMs > 10_000))
      throw new QuotaReserved(vendor, low.window, low.remaining, Math.ceil(low.waitMs / 1000));
    if (low) await new Promise((resolve) => setTimeout(resolve, low.waitMs));
    const started = Date.now();
    const idempotent = config.idempotent === true || IDEMPOTENT.has((config.method ?? 'get').toLowerCase());
    let attempt = 0;
    let nextDelay = 0;
    /** Whether one more attempt fits, and after how long (set for the back-off to read). */
    const another = (delay: number): boolean => {
      if (attempt >= settings.maxAttempts) return false;
      if (Date.now() - started + delay > settings.budgetMs) return false;
      nextDelay = delay;
      return true;
    };
    // An attempt that is retried is counted here (the client's interceptor sees only the last one).
    const record = (status: number) =>
      recordUpstreamCall({ vendor, method: (config.method ?? 'get').toUpperCase(), status, ms: 0 });
    const jittered = () => Math.round(Math.random() * settings.baseDelayMs * 2 ** (attempt - 1));
    const policy = retry(
      handleWhen((error) => {
        if (error instanceof BrokenCircuitError || error instanceof QuotaReserved) return false;
        const code = (error as AxiosError).code ?? '';
        const again = (idempotent || NEVER_SENT.has(code)) && another(jittered());
        if (again) record(0);
        return again;
      }).orWhenResult((value) => {
        const res = value as AxiosResponse;
        if (!idempotent || !transient(res.status)) return false;
        const after = retryAfterMs(res);
        if (after !== undefined && after > settings.maxRetryAfterMs) return false;
        const again = another(after ?? jittered());
        if (again) record(res.status);
        return again;
      }),
      {
        maxAttempts: settings.maxAttempts - 1,
        backoff: {
          next: (): IBackoff<IRetryBackoffContext<unknown>> => {
            const backoff: IBackoff<IRetryBackoffContext<unknown>> = {
              get duration() {
                return nextDelay;
              },
              next: () => backoff,
            };
            return backoff;
          },
        },
      },
    );
    return policy.execute(async () => {
      attempt++;
      const res = await breaker.execute(() => base(config));
      reportQuota(vendor, res.headers as Record<string, unknown>);
      quota.observe(res.headers as Record<string, unknown>);
      if (sharedQuota && quota.seen) publish(quotaKeyOf(vendor, config), quota.longLow());
      return res;
    });
  };
};
