// Text-like field types: text, location, email, phone and links. Filters match lower-cased strings.
import { withArticle } from '../../shared/articles.js';
import { isEmailAddress } from '../../shared/email.js';
import { E } from '../../shared/fp.js';
import { TEXT_MATCHES, type FieldFilter } from '../filter-model.js';
import { isEmptyValue, phoneDigits, type FieldValue, type LinkValue, type TypedValue } from '../values.js';
import { asList, isObject } from './input.js';
import { problem, type Checked, type FilterOperands, type Validate, type ValueTypeSpec } from './spec.js';

// --- validation ---

export const validateText: Validate = (_field, raw, name) =>
  typeof raw === 'string' ? E.right({ kind: 'text', value: raw }) : problem(`${name} takes a string.`, 'string');

export const validateLocation: Validate = (_field, raw, name) =>
  typeof raw === 'string' && raw.trim()
    ? E.right({ kind: 'location', value: raw.trim() })
    : problem(`${name} takes an address string, such as "1 Harbor Way, Boston, MA".`, 'string');

const EMAIL_TYPES = ['work', 'home', 'other'] as const;
const PHONE_TYPES = ['work', 'mobile', 'home', 'other'] as const;

/** multi_email and multi_phone: `[{type, email}]` or `[{type, phone}]`. */
export const validateEmailOrPhone: Validate = (field, raw, name) => {
  const email = field.field_type === 'multi_email';
  const member = email ? 'email' : 'phone';
  const types: readonly string[] = email ? EMAIL_TYPES : PHONE_TYPES;
  const shape = `array of {type, ${member}}; type is ${types.join(', ')}`;
  const items: { type: string; value: string }[] = [];
  for (const item of asList(raw)) {
    if (!isObject(item)) return problem(`${name} takes ${withArticle(shape)}.`, shape);
    const extra = Object.keys(item).filter((k) => k !== 'type' && k !== member);
    if (extra.length)
      return problem(`${name}: items have the members type and ${member}, not ${extra.join(', ')}.`, shape);
    const type = item['type'] ?? 'other';
    const value = item[member];
    if (typeof type !== 'string' || !types.includes(type))
      return problem(`${name}: type must be ${types.join(', ')}.`, shape);
    if (typeof value !== 'string' || !value.trim())
      return problem(`${name}: each item needs ${member} (a string).`, shape);
    if (email && !isEmailAddress(value.trim())) return problem(`${name}: "${value}" is not an email address.`, shape);
    if (!email && !/^[+()\d][\d\s().-]{3,}$/.test(value.trim()))
      return problem(`${name}: "${value}" is not a phone number.`, shape);
    items.push({ type, value: value.trim() });
  }
  return E.right({ kind: email ? 'email' : 'phone', items });
};

export const validateLink: Validate = (_field, raw, name) => {
  const shape = 'array of {url, title}';
  const items: { url: string; title: string }[] = [];
  for (const item of asList(raw)) {
    if (!isObject(item)) return problem(`${name} takes ${withArticle(shape)}.`, shape);
    const url = item['url'];
    const title = item['title'] ?? '';
    if (typeof url !== 'string' || !/^https?:\/\/\S+$/i.test(url.trim()))
      return problem(`${name}: url must be an http or https address.`, shape);
    if (typeof title !== 'string') return problem(`${name}: title must be a string.`, shape);
    items.push({ url: url.trim(), title });
  }
  return E.right({ kind: 'link', items });
};

// --- filters ---

const textValues = (raw: readonly unknown[]): Checked<FilterOperands> => {
  const strings = raw.map((v) => (typeof v === 'number' ? String(v) : v));
  if (strings.some((s) => typeof s !== 'string' || !s.trim()))
    return problem('Text filters take string values: [{"value": "..."}].', 'array of {value: string}');
  return E.right({ strings: (strings as string[]).map((s) => s.trim().toLowerCase()) });
};

/** contains, not_contains, equal, not_equal and fully_includes over the strings a value is matched on. */
const textFilter =
  (stringsOf: (v: FieldValue) => string[], phone: boolean) =>
  <R>(f: FieldFilter, get: (r: R) => FieldValue | undefined): ((r: R) => boolean) => {
    const wanted = f.strings;
    const eq = (a: string, b: string) => (phone ? phoneDigits(a) === phoneDigits(b) : a.trim() === b);
    const has = (r: R, test: (s: string, w: string) => boolean) => {
      const v = get(r);
      if (v === undefined || isEmptyValue(v)) return false;
      const values = stringsOf(v);
      return values.some((s) => wanted.some((w) => test(s, w)));
    };
    const contains = (s: string, w: string) =>
      s.includes(w) || (phone && phoneDigits(w).length > 0 && phoneDigits(s).includes(phoneDigits(w)));
    switch (f.match) {
      case 'contains':
        return (r) => has(r, contains);
      case 'not_contains':
        return (r) => !has(r, contains);
      case 'equal':
        return (r) => has(r, eq);
      case 'not_equal':
        return (r) => !has(r, eq);
      default:
        return (r) => {
          const v = get(r);
          if (v === undefined || isEmptyValue(v)) return false;
          const values = stringsOf(v);
          return wanted.every((w) => values.some((s) => eq(s, w)));
        };
    }
  };

// --- the value types ---

const plainStrings = (v: FieldValue): string[] => [String(v).toLowerCase()];
const typedStrings = (v: FieldValue): string[] => (v as readonly TypedValue[]).map((t) => t.value.toLowerCase());
const linkStrings = (v: FieldValue): string[] =>
  (v as readonly LinkValue[]).flatMap((l) => [l.url.toLowerCase(), l.title.toLowerCase()]);
const typedFormat = (v: FieldValue): string =>
  (v as readonly TypedValue[]).map((t) => `${t.value} (${t.type})`).join(', ');

const textLike = (
  strings: (v: FieldValue) => string[],
  format: (v: FieldValue) => string,
  sortKey: (v: FieldValue) => string,
  matches: readonly string[],
  phone = false,
): ValueTypeSpec => ({
  matchTypes: () => matches,
  filterValues: textValues,
  compile: textFilter(strings, phone),
  sortKey,
  format,
  operations: ['count'],
  sample: () => undefined,
  column: 'text',
  strings,
  ...(phone ? { digits: true as const } : {}),
});

const lowerCased = (v: FieldValue): string => (v as string).toLowerCase();
const asJson = (v: FieldValue): string => JSON.stringify(v);
const WITH_FULLY_INCLUDES = [...TEXT_MATCHES, 'fully_includes'] as const;

export const TEXT = textLike(plainStrings, String, lowerCased, TEXT_MATCHES);
export const LOCATION = textLike(plainStrings, String, lowerCased, TEXT_MATCHES);
export const EMAIL = textLike(typedStrings, typedFormat, asJson, WITH_FULLY_INCLUDES);
export const PHONE = textLike(typedStrings, typedFormat, asJson, WITH_FULLY_INCLUDES, true);
export const EMBED = textLike(
  linkStrings,
  (v) => (v as readonly LinkValue[]).map((l) => (l.title ? `${l.title} <${l.url}>` : l.url)).join(', '),
  asJson,
  TEXT_MATCHES,
);
