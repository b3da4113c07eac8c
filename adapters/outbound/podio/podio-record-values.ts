// Field values between Podio's wire format and the domain's, as tables the compiler checks for completeness:
// one reader per filter type (domain/records/field.ts ValueType) and one writer per validated input kind.
import { valueTypeOf, type FieldType, type ValueType } from '../../../domain/records/app.js';
import type { FieldInput, InputHandlers, ValidatedFields } from '../../../domain/records/field-types/input.js';
import type { FieldValue } from '../../../domain/records/values.js';
import { num, obj, podioTime, str, type Json } from './podio-record-json.js';

type Reader = (values: Json[], first: Json) => FieldValue | undefined;

const text: Reader = (_values, first) => str(first['value']) ?? '';
const number: Reader = (_values, first) => num(first['value']);
const options: Reader = (values) =>
  values.map((v) => ({ id: num(obj(v['value'])['id']) ?? 0, text: str(obj(v['value'])['text']) ?? '' }));
const typed: Reader = (values) =>
  values.map((v) => ({ type: str(v['type']) ?? 'other', value: str(v['value']) ?? '' }));

/** Podio's `values` of a field, by the field's filter type. Podio's checklist values are not read. */
const READERS: Readonly<Record<ValueType, Reader>> = {
  text,
  location: text,
  number,
  calculation: number,
  money: (_values, first) => ({ value: String(first['value'] ?? '0'), currency: str(first['currency']) ?? 'USD' }),
  category: options,
  status: options,
  date: (_values, first) => ({
    start: `${str(first['start_date']) ?? podioTime(first['start']).slice(0, 10)} ${str(first['start_time']) ?? '00:00:00'}`,
    end:
      first['end'] || first['end_date']
        ? `${str(first['end_date']) ?? podioTime(first['end']).slice(0, 10)} ${str(first['end_time']) ?? '00:00:00'}`
        : null,
  }),
  app: (values) =>
    values.map((v) => {
      const item = obj(v['value']);
      return {
        record_id: num(item['item_id']) ?? 0,
        app_id: num(obj(item['app'])['app_id']) ?? 0,
        title: str(item['title']) ?? '',
      };
    }),
  contact: (values) =>
    values.map((v) => {
      const p = obj(v['value']);
      return { profile_id: num(p['profile_id']) ?? 0, user_id: num(p['user_id']) ?? 0, name: str(p['name']) ?? '' };
    }),
  email: typed,
  phone: typed,
  embed: (values) =>
    values.map((v) => ({
      url: str(obj(v['embed'])['original_url']) ?? str(obj(v['embed'])['url']) ?? '',
      title: str(obj(v['embed'])['title']) ?? '',
    })),
  file: (values) =>
    values.map((v) => {
      const f = obj(v['value']);
      return {
        file_id: num(f['file_id']) ?? 0,
        name: str(f['name']) ?? '',
        mimetype: str(f['mimetype']) ?? '',
        size: num(f['size']) ?? 0,
      };
    }),
  checklist: () => undefined,
};

/** Podio's `values` of one field to our value shape. */
export const toValue = (type: FieldType, values: Json[]): FieldValue | undefined =>
  values.length === 0 ? undefined : READERS[valueTypeOf(type)](values, values[0]!);

const same = (input: { readonly value: unknown }): unknown => input.value;

/** `YYYY-MM-DD[ HH:MM[:SS]]` as Podio's documented date members (`start_date`, `start_time`, ...). */
const dateParts = (at: 'start' | 'end', value: string): Record<string, string> => {
  const [date, time] = value.trim().split(/[ T]/);
  return {
    [`${at}_date`]: date ?? value,
    ...(time ? { [`${at}_time`]: time.length === 5 ? `${time}:00` : time.slice(0, 8) } : {}),
  };
};

/** The ids of the embeds made for link URLs (`POST /embed/`), by URL. */
export type EmbedIds = ReadonlyMap<string, number>;

/** The URLs of link values, which need an embed each before the item is written. */
export const linkUrls = (fields: ValidatedFields): string[] => [
  ...new Set(fields.flatMap(({ input }) => (input.kind === 'link' ? input.items.map((i) => i.url) : []))),
];

/** Our validated input to Podio's write format, by input kind. */
const writers = (embeds: EmbedIds): InputHandlers<unknown> => ({
  clear: () => [],
  text: same,
  location: same,
  number: same,
  category: (input) => input.option_ids,
  date: (input) => ({ ...dateParts('start', input.start), ...(input.end ? dateParts('end', input.end) : {}) }),
  money: (input) => ({ value: input.value, currency: input.currency }),
  relation: (input) => input.record_ids,
  user: (input) => input.profile_ids,
  attachment: (input) => input.files.map((f) => ('file_id' in f ? f.file_id : 0)),
  email: (input) => input.items,
  phone: (input) => input.items,
  // A link is an embed made first (podio-php PodioEmbedItemField writes `{embed: embed_id, file}`).
  link: (input) => input.items.map((i) => ({ embed: embeds.get(i.url) })),
  checklist: (input) =>
    input.items.map((i) => ({
      ...(i.id ? { id: i.id } : {}),
      title: i.title,
      completed: i.completed,
      description: i.description,
      due: i.due,
      assignee: i.assignee_user_id,
    })),
});

export const podioFields = (fields: ValidatedFields, embeds: EmbedIds = new Map()): Json => {
  const write = writers(embeds) as Record<FieldInput['kind'], (i: FieldInput) => unknown>;
  return Object.fromEntries(fields.map(({ field, input }) => [String(field.field_id), write[input.kind](input)]));
};
