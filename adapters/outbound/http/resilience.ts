import { createRequire } from 'node:module';
import type { AxiosAdapter, AxiosError, AxiosResponse, InternalAxiosRequestConfig } from 'axios';
import type * as CockatielModule from 'cockatiel';
import type { CircuitBreakerPolicy, IBackoff, IRetryBackoffContext } from 'cockatiel';
import {
  type DayZone,
  onQuotaReading,
  publish,
  QuotaReserved,
  QuotaWindows,
  reportQuota,
  requestShape,
  sharedLow,
  sharedQuotaKey,
  type QuotaListener,
} from './quota.js';
import { retryAfterMs } from './retry-after.js';
import { recordUpstreamCall } from './upstream-calls.js';

export { QuotaReserved, QuotaWindows, shareQuotas } from './quota.js';

type Cockatiel = typeof CockatielModule;
let cockatielModule: Cockatiel | undefined;
/**
 * cockatiel, loaded when the first vendor client is made rather than with the gateway (memory mode makes
 * none). It is CommonJS for Node (no `exports`, `main` is CommonJS), so this is the module a static import
 * would give.
 */
const cockatiel = (): Cockatiel => (cockatielModule ??= createRequire(import.meta.url)('cockatiel') as Cockatiel);

/** Whether an error is an open breaker's refusal (none can be before a vendor client exists). */
export const isBrokenCircuit = (error: unknown): boolean =>
  cockatielModule !== undefined && error instanceof cockatielModule.BrokenCircuitError;

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

export type BreakerListener = (vendor: string, state: 'closed' | 'open' | 'half-open') => void;

/**
 * The retry and breaker settings of a set of vendor clients, and who is told when a breaker changes state:
 * made once by the composition root from the environment and passed to every vendor client it makes
 * (`createVendorHttp({ resilience })`).
 */
export interface Resilience {
  readonly settings: ResilienceSettings;
  readonly onBreaker?: BreakerListener;
}

/** A Resilience from settings (the defaults for what is not given) and a breaker listener. */
export const resilienceOf = (settings: Partial<ResilienceSettings> = {}, onBreaker?: BreakerListener): Resilience => ({
  settings: { ...DEFAULT_RESILIENCE, ...settings },
  ...(onBreaker ? { onBreaker } : {}),
});

/** What a vendor client made without a Resilience of its own follows (a test's, a client made by hand). */
let fallback: Resilience = resilienceOf();

/**
 * Sets what vendor clients made without a Resilience of their own follow (tests set fewer attempts), and
 * optionally who is told of quota readings. The gateway passes its own Resilience instead.
 */
export const configureResilience = (
  next: Partial<ResilienceSettings>,
  listener?: BreakerListener,
  quota?: QuotaListener,
): void => {
  fallback = resilienceOf(next, listener ?? fallback.onBreaker);
  if (quota) onQuotaReading(quota);
};

/** Calls HTTP says are idempotent; a POST that only reads (a search) says so with `idempotent: true`. */
const IDEMPOTENT = new Set(['get', 'head', 'options', 'put', 'delete']);
/** Errors raised before the request could leave: safe to retry even for a write. */
export const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/** Whether a request may be repeated without a second effect: an idempotent method, or a POST marked as a read. */
export const isIdempotentRequest = (config: { method?: string; idempotent?: boolean } | undefined): boolean =>
  config?.idempotent === true || IDEMPOTENT.has((config?.method ?? 'get').toLowerCase());

declare module 'axios' {
  interface AxiosRequestConfig {
    /** A POST that only reads (a search): retried like a GET. */
    idempotent?: boolean;
    /** Sent even when a quota is down to its reserve (one call that the reserve is kept for: the account's time zone). */
    quotaExempt?: boolean;
  }
}

const transient = (status: number) => status === 429 || status >= 500;

const header = (res: AxiosResponse, name: string): string | undefined => {
  const v = (res.headers as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string' ? v.trim() : undefined;
};

/**
 * What a 429 without Retry-After says about when to try again, from HubSpot's rate-limit headers of the same
 * answer: `X-HubSpot-RateLimit-Remaining: 0` means the rolling window (`-Interval-Milliseconds`, 10 s) is used
 * up, so the retry waits the whole interval; `-Secondly-Remaining: 0` (HubSpot changelog 2018-11-06: "the
 * number of API requests still allowed for the current second") waits a second; a used-up day
 * (`-Daily-Remaining: 0`, or a body with policyName DAILY) is not retried at all. The official Node client
 * likewise waits 10 s on a TEN_SECONDLY_ROLLING 429 and 1 s on the secondly one, and never retries a daily
 * one (HubSpot/hubspot-api-nodejs src/services/decorators/RetryDecorator.ts). undefined: no such header.
 */
export const vendorWaitMs = (res: AxiosResponse): number | 'never' | undefined => {
  const policy = (res.data as { policyName?: unknown } | null | undefined)?.policyName;
  if (header(res, 'x-hubspot-ratelimit-daily-remaining') === '0' || policy === 'DAILY') return 'never';
  let wait: number | undefined;
  if (header(res, 'x-hubspot-ratelimit-remaining') === '0') {
    const interval = Number(header(res, 'x-hubspot-ratelimit-interval-milliseconds') ?? '10000');
    wait = Number.isFinite(interval) && interval > 0 ? Math.min(interval, 60_000) : 10_000;
  }
  if (header(res, 'x-hubspot-ratelimit-secondly-remaining') === '0') wait = Math.max(wait ?? 0, 1000);
  return wait;
};

/** A breaker that opens on server failures and connection errors (not on 429: the vendor is up). */
const newBreaker = (vendor: string, policy: () => Resilience): CircuitBreakerPolicy => {
  const { settings } = policy();
  const { BrokenCircuitError, circuitBreaker, CircuitState, ConsecutiveBreaker, handleWhen } = cockatiel();
  const breaker = circuitBreaker(
    handleWhen((e) => !(e instanceof BrokenCircuitError)).orWhenResult((r) => (r as AxiosResponse).status >= 500),
    { halfOpenAfter: settings.halfOpenAfterMs, breaker: new ConsecutiveBreaker(settings.breakerFailures) },
  );
  breaker.onStateChange((state) =>
    policy().onBreaker?.(
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

/** The wait each open breaker's refusal came with, for the answer to the call it refused. */
const breakerWaits = new WeakMap<object, number>();

/** Seconds until the open breaker that refused with `error` lets a probe through. */
export const breakerRetryAfterSeconds = (error: unknown): number =>
  (typeof error === 'object' && error !== null ? breakerWaits.get(error) : undefined) ??
  Math.ceil(DEFAULT_RESILIENCE.halfOpenAfterMs / 1000);

/**
 * Wraps an axios adapter: every attempt goes through the vendor client's breaker, and the retry policy
 * decides per answer whether another attempt fits (idempotent, transient, within the budget).
 */
export const resilientAdapter = (
  vendor: string,
  base: AxiosAdapter,
  day?: DayZone,
  /** The client's settings; without them, those `configureResilience` set (read at each call). */
  given?: Resilience,
): AxiosAdapter => {
  const policyOf = (): Resilience => given ?? fallback;
  const breaker = newBreaker(vendor, policyOf);
  const quota = new QuotaWindows(() => policyOf().settings.quotaReserve, day);
  return async (config: InternalAxiosRequestConfig) => {
    const { settings } = policyOf();
    // A quota down to its reserve: a short window (HubSpot's ten seconds) is waited out, a long one refused.
    // Other instances' readings of the same connection count too, once this client has seen quota headers.
    const key = quota.seen ? sharedQuotaKey(vendor, config) : undefined;
    const low = config.quotaExempt
      ? undefined
      : (quota.blocked(Date.now(), requestShape(config)) ??
        (key && settings.quotaReserve > 0 ? await sharedLow(key) : undefined));
    if (low && (low.window !== 'ten-second' || low.waitMs > 10_000))
      throw new QuotaReserved(vendor, low.window, low.remaining, Math.ceil(low.waitMs / 1000));
    if (low) await new Promise((resolve) => setTimeout(resolve, low.waitMs));
    const started = Date.now();
    const idempotent = isIdempotentRequest(config);
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
    const { handleWhen, retry } = cockatiel();
    const policy = retry(
      handleWhen((error) => {
        if (isBrokenCircuit(error) || error instanceof QuotaReserved) return false;
        const code = (error as AxiosError).code ?? '';
        const again = (idempotent || NEVER_SENT.has(code)) && another(jittered());
        if (again) record(0);
        return again;
      }).orWhenResult((value) => {
        const res = value as AxiosResponse;
        if (!idempotent || !transient(res.status)) return false;
        const after = retryAfterMs(res.headers?.['retry-after']);
        if (after !== undefined && after > settings.maxRetryAfterMs) return false;
        // without Retry-After, a 429's rate-limit headers say how long (HubSpot); a wait that would end past
        // the call's budget is not waited: the 429 is answered (RATE_LIMITED with the wait, hubspot-errors.ts)
        const vendorWait = res.status === 429 && after === undefined ? vendorWaitMs(res) : undefined;
        if (vendorWait === 'never' || (vendorWait !== undefined && vendorWait > settings.maxRetryAfterMs)) return false;
        const again = another(after ?? vendorWait ?? jittered());
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
    return policy
      .execute(async () => {
        attempt++;
        const res = await breaker.execute(() => base(config));
        reportQuota(vendor, res.headers as Record<string, unknown>);
        quota.observe(res.headers as Record<string, unknown>, Date.now(), requestShape(config));
        if (quota.seen) publish(sharedQuotaKey(vendor, config), quota.longLow());
        return res;
      })
      .catch((error: unknown) => {
        // An open breaker's refusal carries this client's wait to the answer (vendor-http.ts).
        if (isBrokenCircuit(error) && typeof error === 'object' && error !== null)
          breakerWaits.set(error, Math.ceil(settings.halfOpenAfterMs / 1000));
        throw error;
      });
  };
};
