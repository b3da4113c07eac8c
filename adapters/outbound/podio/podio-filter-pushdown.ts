import type { ResolvedFilter } from '../../../domain/records/filters.js';
import { invalidInput, type GatewayError } from '../../../domain/shared/errors.js';
import type { Json } from './podio-record-mapping.js';

// Filters Podio evaluates itself (categories, relations, users, numbers, money, dates, created_on) are
// sent as Podio filters; the rest (text, email, phone...) are applied by the gateway over the items
// Podio returns (PodioRecordStore reads at most MAX_SCAN of them).

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
      podio[key] = f.match === 'on_or_after' ? { from: f.bound.from } : { to: f.bound.to };
      continue;
    }
    const key = String(f.field.field_id);
    if (podio[key] !== undefined) {
      local.push(f);
      continue;
    }
    const t = f.type;
    if (
      (t === 'category' || t === 'status' || t === 'app' || t === 'contact') &&
      (f.match === 'any' || (f.match === 'equal' && !f.field.field_type.startsWith('multi')))
    )
      podio[key] = f.ids;
    else if (
      (t === 'number' || t === 'money' || t === 'calculation') &&
      ['larger_or_equal', 'smaller_or_equal', 'equal'].includes(f.match)
    )
      podio[key] =
        f.match === 'larger_or_equal'
          ? { from: f.numbers[0] }
          : f.match === 'smaller_or_equal'
            ? { to: f.numbers[0] }
            : { from: f.numbers[0], to: f.numbers[0] };
    else if (t === 'date' && (f.match === 'on_or_after' || f.match === 'on_or_before' || f.match === 'equal'))
      podio[key] =
        f.match === 'on_or_after'
          ? { from: f.bound!.from.slice(0, 10) }
          : f.match === 'on_or_before'
            ? { to: f.bound!.to.slice(0, 10) }
            : { from: f.bound!.from.slice(0, 10), to: f.bound!.to.slice(0, 10) };
    else local.push(f);
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
