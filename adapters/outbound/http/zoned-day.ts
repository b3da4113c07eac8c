// The end of the calendar day in an IANA time zone, with Intl: HubSpot's daily API limit runs "midnight to
// midnight based on the time zone setting of the account, which can be obtained from the account details
// endpoint" (HubSpot developer changelog, 2018-11-06, "Rate limit information headers will be included in
// HTTP responses", on X-HubSpot-RateLimit-Daily-Remaining). Days of 23 or 25 hours (DST) are counted as
// they are: the answer is the instant the zone's date next changes, not 24 h after the last midnight.

const formats = new Map<string, Intl.DateTimeFormat>();

/** The formatter of a zone, or undefined when Intl does not know the zone. */
const formatOf = (timeZone: string): Intl.DateTimeFormat | undefined => {
  let f = formats.get(timeZone);
  if (f) return f;
  try {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  } catch {
    return undefined;
  }
  if (formats.size > 500) formats.clear();
  formats.set(timeZone, f);
  return f;
};

/** Whether Intl knows the zone (an unknown one is counted as UTC by the callers, who say so). */
export const knownTimeZone = (timeZone: string | undefined): timeZone is string =>
  timeZone !== undefined && timeZone !== '' && formatOf(timeZone) !== undefined;

/** The wall clock of `at` in the zone, as milliseconds of a UTC timeline (seconds precision). */
const wallClock = (f: Intl.DateTimeFormat, at: number): number => {
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(at)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return Date.UTC(p['year']!, p['month']! - 1, p['day']!, p['hour']!, p['minute']!, p['second']!);
};

const dayOf = (f: Intl.DateTimeFormat, at: number): number => Math.floor(wallClock(f, at) / 86_400_000);

/**
 * Milliseconds from `now` until the zone's date next changes (its next midnight, or the first instant of the
 * next day where midnight is skipped by a DST jump). An unknown zone is taken as UTC.
 */
export const msUntilNextMidnight = (now: number, timeZone = 'UTC'): number => {
  const f = formatOf(timeZone) ?? formatOf('UTC')!;
  const today = dayOf(f, now);
  const nextWall = (today + 1) * 86_400_000;
  // the wall clock's offset at now, then at the estimate: right unless a transition lies in between
  let at = nextWall - (wallClock(f, now) - Math.floor(now / 1000) * 1000);
  at = nextWall - (wallClock(f, at) - at);
  if (!(at > now && dayOf(f, at) > today && dayOf(f, at - 1000) === today)) {
    // a transition at or around midnight: the first second of a later day, between now and 27 hours on
    let lo = Math.floor(now / 1000) * 1000;
    let hi = lo + 27 * 3_600_000;
    while (hi - lo > 1000) {
      const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
      if (dayOf(f, mid) > today) hi = mid;
      else lo = mid;
    }
    at = hi;
  }
  return Math.max(1, at - now);
};
