// The one reader of a vendor's Retry-After header (RFC 9110 section 10.2.3: delay seconds or an HTTP date),
// used by the retry policy (resilience.ts, in milliseconds) and by every vendor's error mapping (seconds).

/** The longest wait a vendor's Retry-After is believed for (a day): a date years away is a vendor's mistake. */
export const MAX_RETRY_AFTER_SECONDS = 86_400;

/** Milliseconds from a Retry-After header (at most a day), or undefined when it is absent or unreadable. */
export const retryAfterMs = (header: unknown, now: number = Date.now()): number | undefined => {
  if (typeof header !== 'string' || header.length > 64) return undefined;
  const value = header.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Math.min(MAX_RETRY_AFTER_SECONDS, Number(value)) * 1000;
  // An HTTP date names its day and month; V8's Date.parse would also take "-5" or "1.5" as dates.
  if (!/^[A-Za-z]{3}/.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.min(MAX_RETRY_AFTER_SECONDS * 1000, Math.max(0, at - now));
};

/** Whole seconds from a Retry-After header (rounded up, at most a day), or undefined. */
export const retryAfterSeconds = (header: unknown, now: Date = new Date()): number | undefined => {
  const ms = retryAfterMs(header, now.getTime());
  return ms === undefined ? undefined : Math.ceil(ms / 1000);
};

/** A wait as a person reads it, as every vendor's rate-limit answer says it: seconds under two minutes, else minutes. */
export const waitInWords = (seconds: number): string =>
  seconds < 120 ? `${seconds} second${seconds === 1 ? '' : 's'}` : `about ${Math.ceil(seconds / 60)} minutes`;
