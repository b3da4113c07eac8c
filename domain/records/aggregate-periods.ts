// Periods of aggregateRecords' date group_by: a day, an ISO week, a month, a quarter or a year.

export const INTERVALS = ['day', 'week', 'month', 'quarter', 'year'] as const;
export type Interval = (typeof INTERVALS)[number];

const isoWeek = (day: string): string => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  const dow = date.getUTCDay() || 7;
  date.setUTCDate(date.getUTCDate() + 4 - dow);
  const yearStart = Date.UTC(date.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((date.getTime() - yearStart) / 86400000 + 1) / 7);
  return `${date.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
};

export const periodOf = (start: string, interval: Interval): string => {
  const day = start.slice(0, 10);
  switch (interval) {
    case 'day':
      return day;
    case 'week':
      return isoWeek(day);
    case 'month':
      return day.slice(0, 7);
    case 'quarter':
      return `${day.slice(0, 4)}-Q${Math.floor((Number(day.slice(5, 7)) - 1) / 3) + 1}`;
    case 'year':
      return day.slice(0, 4);
  }
};

const digit = (s: string, i: number): number => {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : Number.NaN;
};

/**
 * A number standing for the period of a `YYYY-MM-DD...` start (the same number means the same period), so
 * grouping allocates no string per record; NaN when the start is not a date (periodOf is used then).
 */
export const periodNumber = (start: string, interval: Interval): number => {
  if (start.charCodeAt(4) !== 45 || start.charCodeAt(7) !== 45) return Number.NaN;
  const y = digit(start, 0) * 1000 + digit(start, 1) * 100 + digit(start, 2) * 10 + digit(start, 3);
  const m = digit(start, 5) * 10 + digit(start, 6);
  switch (interval) {
    case 'year':
      return y;
    case 'month':
      return y * 100 + m;
    case 'quarter':
      return y * 10 + Math.floor((m - 1) / 3) + 1;
    default:
      return y * 10000 + m * 100 + digit(start, 8) * 10 + digit(start, 9);
  }
};

/**
 * The group id of a date start (the same id means the same period): the period number when the start is a
 * date, so grouping allocates no string per record; the ISO week (cached by day in `weeks`), or `s:` and the
 * period otherwise. The group's label is periodOf(start, interval).
 */
export const periodId = (start: string, interval: Interval, weeks: Map<number, string>): string | number => {
  const n = periodNumber(start, interval);
  if (Number.isNaN(n)) return `s:${periodOf(start, interval)}`;
  if (interval !== 'week') return n;
  let w = weeks.get(n);
  if (w === undefined) weeks.set(n, (w = isoWeek(start.slice(0, 10))));
  return w;
};
