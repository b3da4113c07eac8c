import { valueTypeOf, type FieldDefinition } from '../../../domain/records/app.js';
import { podioFieldType } from './podio-shapes.js';

// Podio's write format of a field value (POST /item/app/:app_id/, PUT /item/:item_id) read into our
// createRecord input format, with the problem when it is not one Podio documents for the field's type.

type Json = Record<string, unknown>;

export const isObject = (u: unknown): u is Json => typeof u === 'object' && u !== null && !Array.isArray(u);
export const isId = (u: unknown) => Number.isSafeInteger(u) && (u as number) > 0;
const list = (u: unknown): unknown[] => (Array.isArray(u) ? u : [u]);

/** A Podio write value of one field in our createRecord input format, or a problem. */
export const fromPodioValue = (f: FieldDefinition, raw: unknown): { value: unknown } | { problem: string } => {
  const at = `field ${f.field_id} (${podioFieldType(f).type})`;
  if (Array.isArray(raw) && raw.length === 0) return { value: null };
  switch (valueTypeOf(f.field_type)) {
    case 'text':
    case 'location':
      return typeof raw === 'string' ? { value: raw } : { problem: `${at} takes a string` };
    case 'number':
      return typeof raw === 'number' || (typeof raw === 'string' && raw.trim() !== '')
        ? { value: raw }
        : { problem: `${at} takes a number` };
    case 'category':
    case 'status':
    case 'app':
    case 'contact':
    case 'file':
      return list(raw).every(isId) ? { value: list(raw) } : { problem: `${at} takes ids` };
    case 'money':
      return isObject(raw) && Object.keys(raw).every((k) => k === 'value' || k === 'currency')
        ? { value: raw }
        : { problem: `${at} takes {value, currency}` };
    case 'date': {
      if (
        !isObject(raw) ||
        typeof raw['start'] !== 'string' ||
        Object.keys(raw).some((k) => k !== 'start' && k !== 'end')
      )
        return { problem: `${at} takes {start, end}` };
      return {
        value: f.field_type === 'single_date' ? raw['start'] : { start: raw['start'], end: raw['end'] ?? null },
      };
    }
    case 'email':
    case 'phone': {
      const member = valueTypeOf(f.field_type);
      const items = list(raw);
      if (
        !items.every(
          (i) =>
            isObject(i) && typeof i['value'] === 'string' && Object.keys(i).every((k) => k === 'type' || k === 'value'),
        )
      )
        return { problem: `${at} takes [{type, value}]` };
      return { value: items.map((i) => ({ type: (i as Json)['type'], [member]: (i as Json)['value'] })) };
    }
    case 'embed': {
      const items = list(raw);
      if (!items.every((i) => isObject(i) && isObject(i['embed']) && typeof i['embed']['url'] === 'string'))
        return { problem: `${at} takes [{embed: {url}}]` };
      return {
        value: items.map((i) => ({ url: ((i as Json)['embed'] as Json)['url'], title: (i as Json)['title'] ?? '' })),
      };
    }
    default:
      return { value: raw };
  }
};
