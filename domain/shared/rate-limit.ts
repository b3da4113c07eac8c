// The generic cell rate algorithm (GCRA): a bucket of `limit` calls per `window`, refilled evenly.
// One number per key (the theoretical arrival time) is the whole state, which makes it easy to keep in
// Redis and to update atomically. The Redis adapter's script is the same arithmetic.

export interface GcraResult {
  readonly allowed: boolean;
  /** The new theoretical arrival time (epoch ms) to store when allowed. */
  readonly tat: number;
  readonly remaining: number;
  readonly resetMs: number;
  readonly retryAfterMs: number;
}

export const gcra = (storedTat: number | undefined, now: number, limit: number, windowMs: number): GcraResult => {
  const interval = windowMs / limit;
  const tat = Math.max(storedTat ?? now, now);
  const next = tat + interval;
  if (next - now > windowMs) {
    return { allowed: false, tat, remaining: 0, resetMs: tat - now, retryAfterMs: next - windowMs - now };
  }
  return {
    allowed: true,
    tat: next,
    remaining: Math.floor((windowMs - (next - now)) / interval),
    resetMs: next - now,
    retryAfterMs: 0,
  };
};
