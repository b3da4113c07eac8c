import { valueTypeOf, type FieldDefinition } from '../../../domain/records/app.js';
import { podioFieldType } from './podio-shapes.js';

// Podio's write format of a field value (POST /item/app/:app_id/, PUT /item/:item_id) read into our
// createRecord input format, with the problem when it is not one Podio documents for the field's type.

type Json = Record<string, unknown>;

export const isObject = (u: unknown): u is Json => typeof u === 'object' && u !== null && !Array.isArray(u);
export const isId = (u: unknown) => Number.isSafeInteger(u) && (u as number) > 0;
const list = (u: unknown): unknown[] => (Array.isArray(u) ? u : [u]);

/** A Podio write value of one field in our createRecord input format, or a problem. */
export const fromPodioValue = (
  f: FieldDefinition,
  raw: unknown,
  embeds: ReadonlyMap<number, { url: string; title: string }>,
): { value: unknown } | { problem: string } => {
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
      // The documented form (developers.podio.com/doc/items, date field): start_date [start_time] [end_date [end_time]].
      const keys = ['start_date', 'start_time', 'end_date', 'end_time'];
      const date = /^\d{4}-\d{2}-\d{2}$/;
      const time = /^\d{2}:\d{2}:\d{2}$/;
      if (
        !isObject(raw) ||
        typeof raw['start_date'] !== 'string' ||
        !date.test(raw['start_date']) ||
        Object.keys(raw).some((k) => !keys.includes(k)) ||
        (raw['start_time'] !== undefined && !(typeof raw['start_time'] === 'string' && time.test(raw['start_time']))) ||
        (raw['end_date'] !== undefined && !(typeof raw['end_date'] === 'string' && date.test(raw['end_date']))) ||
        (raw['end_time'] !== undefined && !(typeof raw['end_time'] === 'string' && time.test(raw['end_time'])))
      )
        return { problem: `${at} takes {start_date, start_time?, end_date?, end_time?}` };
      const at2 = (d: unknown, t: unknown) => (t === undefined ? String(d) : `${String(d)} ${String(t)}`);
      const start = at2(raw['start_date'], raw['start_time']);
      const end = raw['end_date'] === undefined ? null : at2(raw['end_date'], raw['end_time']);
      return { value: f.field_type === 'single_date' ? start : { start, end } };
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
      // Links are embeds made first by POST /embed/ and referenced by id (podio-php PodioEmbedItemField).
      const items = list(raw);
      if (!items.every((i) => isObject(i) && isId(i['embed']) && embeds.has(i['embed'] as number)))
        return { problem: `${at} takes [{embed: embed_id}] with ids from POST /embed/` };
      return { value: items.map((i) => embeds.get((i as Json)['embed'] as number)) };
    }
    default:
      return { value: raw };
  }
};
