import type { ValueType } from '../../../domain/records/field.js';
import type { FieldFilter, ResolvedFilter } from '../../../domain/records/filter-model.js';
import { invalidInput, type GatewayError } from '../../../domain/shared/errors.js';
import type { Json } from './podio-record-json.js';

// Filters Podio evaluates itself (categories, relations, users, numbers, money, dates, created_on by the
// day) are sent as Podio filters; the rest (text, email, phone...) are applied by the gateway over the items
// Podio returns (PodioRecordStore reads at most MAX_SCAN of them).

/** Podio's filter for a field filter; undefined when the gateway applies it itself. */
type Pushdown = (f: FieldFilter) => unknown;

const ids: Pushdown = (f) =>
  f.match === 'any' || (f.match === 'equal' && !f.field.field_type.startsWith('multi')) ? f.ids : undefined;
const range: Pushdown = (f) =>
  f.match === 'larger_or_equal'
    ? { from: f.numbers[0] }
    : f.match === 'smaller_or_equal'
      ? { to: f.numbers[0] }
      : f.match === 'equal'
        ? { from: f.numbers[0], to: f.numbers[0] }
        : undefined;
const gatewayOnly: Pushdown = () => undefined;

/** The pushdown of each filter type. */
const PUSHDOWN: Readonly<Record<ValueType, Pushdown>> = {
  category: ids,
  status: ids,
  app: ids,
  contact: ids,
  number: range,
  money: range,
  calculation: range,
  date: (f) =>
    f.match === 'on_or_after'
      ? { from: f.bound!.from.slice(0, 10) }
      : f.match === 'on_or_before'
        ? { to: f.bound!.to.slice(0, 10) }
        : f.match === 'equal'
          ? { from: f.bound!.from.slice(0, 10), to: f.bound!.to.slice(0, 10) }
          : undefined,
  text: gatewayOnly,
  location: gatewayOnly,
  email: gatewayOnly,
  phone: gatewayOnly,
  embed: gatewayOnly,
  file: gatewayOnly,
  checklist: gatewayOnly,
};

/** The part of the filters Podio can evaluate, as Podio's `filters` object; the rest stays with the gateway. */
export const splitFilters = (filters: readonly ResolvedFilter[]): { podio: Json; local: ResolvedFilter[] } => {
  const podio: Json = {};
  const local: ResolvedFilter[] = [];
  for (const f of filters) {
    if (f.kind === 'system_date') {
      const key = f.which === 'created_on' ? 'created_on' : 'last_edit_on';
      if (podio[key] !== undefined || (f.match !== 'on_or_after' && f.match !== 'on_or_before')) {
        local.push(f);
        continue;
      }
      // Sent as a day, YYYY-MM-DD, the form date filters take (developers.podio.com/doc/filters gives no other
      // for created_on): the day's bound is the same filter when the time is the day's first second (from)
      // or last (to); otherwise Podio's day is wider, and the gateway filters the hours over its answer.
      const after = f.match === 'on_or_after';
      podio[key] = after ? { from: f.bound.from.slice(0, 10) } : { to: f.bound.to.slice(0, 10) };
      if (!(after ? f.bound.from.endsWith(' 00:00:00') : f.bound.to.endsWith(' 23:59:59'))) local.push(f);
      continue;
    }
    const key = String(f.field.field_id);
    if (podio[key] !== undefined) {
      local.push(f);
      continue;
    }
    const pushed = PUSHDOWN[f.type](f);
    if (pushed === undefined) local.push(f);
    else podio[key] = pushed;
  }
  return { podio, local };
};

/** Podio has no status with a "done" meaning (its category options carry none), so completed/incomplete cannot be answered. */
export const statusRefusal = (filters: readonly ResolvedFilter[]): GatewayError | undefined => {
  const i = filters.findIndex((f) => f.kind === 'field' && (f.match === 'completed' || f.match === 'incomplete'));
  if (i < 0) return undefined;
  const f = filters[i] as Extract<ResolvedFilter, { kind: 'field' }>;
  return invalidInput(
    `match_type ${f.match} is not available with the Podio backend: Podio's category options do not say which ones mean done. Filter field ${f.field.field_id} ("${f.field.label}") by option ids instead, e.g. {"field_id":${f.field.field_id},"match_type":"any","values":[{"value":<option_id>}]} (records_getApp lists the options).`,
    `filters[${i}].match_type`,
    'any or none with option ids',
  );
};
