// Field values as records hold them (the compact record's value shapes), and the timestamps of the group.

export interface CategoryValue {
  readonly id: number;
  readonly text: string;
}
export interface DateValue {
  readonly start: string;
  readonly end: string | null;
}
export interface RelationValue {
  readonly record_id: number;
  readonly app_id: number;
  readonly title: string;
}
export interface ContactValue {
  readonly profile_id: number;
  readonly user_id: number;
  readonly name: string;
}
export interface TypedValue {
  readonly type: string;
  readonly value: string;
}
export interface LinkValue {
  readonly url: string;
  readonly title: string;
}
export interface MoneyValue {
  readonly value: string;
  readonly currency: string;
}
export interface FileValue {
  readonly file_id: number;
  readonly name: string;
  readonly mimetype: string;
  readonly size: number;
}
export interface ChecklistItem {
  readonly id: number;
  readonly title: string;
  readonly completed: boolean;
  readonly assignee: { readonly user_id: number; readonly name: string } | null;
  readonly description: string | null;
  readonly due: string | null;
}

export type FieldValue =
  | string
  | number
  | DateValue
  | MoneyValue
  | readonly CategoryValue[]
  | readonly RelationValue[]
  | readonly ContactValue[]
  | readonly TypedValue[]
  | readonly LinkValue[]
  | readonly FileValue[]
  | readonly ChecklistItem[];

/** Values by field_id. A missing key is an empty field. */
export type FieldValues = Readonly<Record<number, FieldValue>>;

export const isEmptyValue = (v: FieldValue | undefined): boolean =>
  v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

// Timestamps: `YYYY-MM-DD HH:MM:SS`. Record times are shown in the account's time zone (created_on) and in
// UTC (created_on_utc).

export const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
export const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

export const isValidDateTime = (s: string): boolean => {
  const m = DATE_TIME.exec(s);
  if (!m) return false;
  const [y, mo, d, h, mi, se] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, se));
  return (
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d &&
    h < 24 &&
    mi < 60 &&
    se < 60
  );
};

export const isValidDate = (s: string): boolean => DATE_ONLY.test(s) && isValidDateTime(`${s} 00:00:00`);

const formatters = new Map<string, Intl.DateTimeFormat>();
const formatterFor = (timeZone: string): Intl.DateTimeFormat => {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
};

/** An instant as `YYYY-MM-DD HH:MM:SS` in a time zone (IANA name; `UTC` by default). */
export const formatInZone = (instant: Date, timeZone = 'UTC'): string => {
  if (timeZone === 'UTC') return instant.toISOString().slice(0, 19).replace('T', ' ');
  const parts: Record<string, string> = {};
  for (const p of formatterFor(timeZone).formatToParts(instant)) parts[p.type] = p.value;
  return `${parts['year']}-${parts['month']}-${parts['day']} ${parts['hour']}:${parts['minute']}:${parts['second']}`;
};

export const isTimeZone = (tz: string): boolean => {
  try {
    formatterFor(tz);
    return true;
  } catch {
    return false;
  }
};

/** Adds days, weeks, months or years to a `YYYY-MM-DD` day (month ends clamp: 01-31 + 1m = 02-28). */
export const shiftDay = (day: string, amount: number, unit: 'd' | 'w' | 'm' | 'y'): string => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  if (unit === 'd' || unit === 'w') {
    const t = new Date(Date.UTC(y, m - 1, d + amount * (unit === 'w' ? 7 : 1)));
    return t.toISOString().slice(0, 10);
  }
  const months = unit === 'm' ? amount : amount * 12;
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const lastDay = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(d, lastDay)))
    .toISOString()
    .slice(0, 10);
};

/** Seconds between two `YYYY-MM-DD HH:MM:SS` values read as the same zone (b minus a). */
export const secondsBetween = (a: string, b: string): number => toEpochSeconds(b) - toEpochSeconds(a);

/** Epoch seconds of `YYYY-MM-DD HH:MM:SS` read as UTC; NaN for anything else. Parsed by character (hot in filters and aggregations). */
export const toEpochSeconds = (s: string): number => {
  if (s.length !== 19) return Number.NaN;
  const n = (i: number): number => {
    const c = s.charCodeAt(i) - 48;
    return c >= 0 && c <= 9 ? c : Number.NaN;
  };
  if (
    s.charCodeAt(4) !== 45 ||
    s.charCodeAt(7) !== 45 ||
    s.charCodeAt(10) !== 32 ||
    s.charCodeAt(13) !== 58 ||
    s.charCodeAt(16) !== 58
  )
    return Number.NaN;
  const y = n(0) * 1000 + n(1) * 100 + n(2) * 10 + n(3);
  const mo = n(5) * 10 + n(6);
  const d = n(8) * 10 + n(9);
  const h = n(11) * 10 + n(12);
  const mi = n(14) * 10 + n(15);
  const se = n(17) * 10 + n(18);
  const t = Date.UTC(y, mo - 1, d, h, mi, se) / 1000;
  return Number.isNaN(y + mo + d + h + mi + se) ? Number.NaN : t;
};

/** A phone number's digits (and a leading +), for comparing numbers written differently. */
export const phoneDigits = (s: string): string => s.replace(/[^\d+]/g, '');
