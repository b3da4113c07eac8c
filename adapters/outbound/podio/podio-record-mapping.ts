import {
  isFieldType,
  valueTypeOf,
  type App,
  type AppSummary,
  type AppView,
  type CategoryOption,
  type FieldDefinition,
  type FieldType,
} from '../../../domain/records/app.js';
import type { RecordData, UserRef } from '../../../domain/records/record.js';
import type {
  Comment,
  FieldDelta,
  PersonRef,
  Revision,
  RevisionType,
  WriteFlags,
} from '../../../domain/records/revision.js';
import type { FieldValue } from '../../../domain/records/values.js';
import type { PodioQuery } from './podio-client.js';
import { arr, num, obj, podioTime, str, type Json } from './podio-record-json.js';
import { toValue } from './podio-record-values.js';

// Podio's item, app, view, revision and comment answers are read loosely (any JSON object, then the
// typed accessors of podio-record-json.ts) and turned into the domain's shapes here; nothing of Podio's body
// is passed through. Field values, both ways, are in podio-record-values.ts.

/** Podio's field `type` + config to our field_type. */
export const fieldTypeOf = (f: Json): FieldType => {
  const type = str(f['type']) ?? '';
  const settings = obj(obj(f['config'])['settings']);
  switch (type) {
    case 'text':
      return settings['size'] === 'large' ? 'multi_text' : 'single_text';
    case 'number':
    case 'progress':
    case 'duration':
      return 'number';
    case 'category':
      return settings['multiple'] ? 'multi_category' : 'single_category';
    case 'date':
      return settings['end'] === 'disabled' ? 'single_date' : 'range_date';
    case 'app':
      return settings['multiple'] === false ? 'single_relation' : 'multi_relation';
    case 'contact':
      return settings['type'] === 'space_users' && settings['multiple'] === false ? 'single_user' : 'multi_user';
    case 'email':
      return 'multi_email';
    case 'phone':
      return 'multi_phone';
    case 'embed':
      return 'multi_link';
    case 'location':
      return 'single_location';
    case 'money':
      return 'money';
    case 'image':
      return 'multi_image';
    case 'calculation':
      return 'calculation';
    case 'tag':
    case 'question':
    case 'state':
      return 'multi_category';
    case 'file':
    case 'video':
      return 'attachment';
    case 'tel':
      return 'multi_phone';
    default:
      // A type Podio added after this adapter (or one of ours, from the stand-in) is read as text and
      // described as such (`unsupportedNote`), never guessed to be a file field.
      return isFieldType(type) ? type : 'single_text';
  }
};

/** Podio types the gateway knows; any other is read as text and says so in its description. */
const KNOWN_PODIO_TYPES = new Set([
  'text',
  'number',
  'progress',
  'duration',
  'category',
  'date',
  'app',
  'contact',
  'email',
  'phone',
  'embed',
  'location',
  'money',
  'image',
  'calculation',
  'tag',
  'question',
  'state',
  'file',
  'video',
  'tel',
]);

const unsupportedNote = (f: Json): string | undefined => {
  const type = str(f['type']) ?? '';
  return KNOWN_PODIO_TYPES.has(type) || isFieldType(type)
    ? undefined
    : `Podio field type "${type}" is not supported by the gateway: shown as text, and writes are Podio's to refuse.`;
};

export const toApp = (a: Json): App => {
  const config = obj(a['config']);
  return {
    app_id: num(a['app_id']) ?? 0,
    space_id: num(a['space_id']) ?? 0,
    name: str(config['name']) ?? str(a['name']) ?? '',
    item_name: str(config['item_name']) ?? 'Item',
    description: str(config['description']) ?? '',
    icon: str(config['icon']) ?? '',
    fields: arr(a['fields'])
      .filter((f) => str(f['status']) !== 'deleted')
      .map((f): FieldDefinition => {
        const fc = obj(f['config']);
        const settings = obj(fc['settings']);
        const field_type = fieldTypeOf(f);
        const description = [str(fc['description']), unsupportedNote(f)].filter(Boolean).join(' ');
        const options = arr(settings['options'])
          .filter((o) => str(o['status']) !== 'deleted')
          .map((o): CategoryOption => ({
            id: num(o['id']) ?? 0,
            text: str(o['text']) ?? '',
            ...(str(o['color']) ? { color: str(o['color'])! } : {}),
          }));
        return {
          field_id: num(f['field_id']) ?? 0,
          external_id: str(f['external_id']) ?? String(f['field_id']),
          label: str(fc['label']) ?? str(f['label']) ?? '',
          field_type,
          required: fc['required'] === true,
          ...(description ? { description } : {}),
          ...(field_type.endsWith('category') ? { options } : {}),
          ...(field_type.endsWith('relation')
            ? {
                referenced_app_ids: (Array.isArray(settings['referenced_apps']) ? settings['referenced_apps'] : []).map(
                  (r) => num(obj(r)['app_id']) ?? 0,
                ),
              }
            : {}),
          ...(field_type === 'money' && Array.isArray(settings['allowed_currencies'])
            ? { currencies: settings['allowed_currencies'].filter((c): c is string => typeof c === 'string') }
            : {}),
        };
      }),
  };
};

const userRef = (u: unknown): UserRef => {
  const x = obj(u);
  return {
    user_id: num(x['user_id']) ?? num(x['id']) ?? 0,
    name: str(x['name']) ?? '',
    ...(num(x['profile_id']) !== undefined ? { profile_id: num(x['profile_id'])! } : {}),
  };
};

export const person = (u: unknown): PersonRef => {
  const x = obj(u);
  const mail = Array.isArray(x['mail']) ? x['mail'].filter((m): m is string => typeof m === 'string') : [];
  return {
    id: num(x['id']) ?? num(x['user_id']) ?? 0,
    mail,
    user_id: num(x['user_id']) ?? num(x['id']) ?? 0,
    name: str(x['name']) ?? '',
    org_id: num(x['org_id']) ?? null,
    type: 'user',
  };
};

export const toRecord = (item: Json, app: App | undefined): RecordData => {
  const values: Record<number, FieldValue> = {};
  for (const f of arr(item['fields'])) {
    const id = num(f['field_id']) ?? 0;
    const def = app?.fields.find((x) => x.field_id === id);
    const v = toValue(def?.field_type ?? fieldTypeOf(f), arr(f['values']));
    if (v !== undefined) values[id] = v;
  }
  const current = obj(item['current_revision']);
  return {
    record_id: num(item['item_id']) ?? 0,
    app_id: num(obj(item['app'])['app_id']) ?? app?.app_id ?? 0,
    app_record_id: num(item['app_item_id']) ?? 0,
    title: str(item['title']) ?? '',
    record_url: str(item['link']) ?? '',
    created_by: userRef(item['created_by']),
    created_on: podioTime(item['created_on']),
    created_on_utc: podioTime(item['created_on']),
    last_modified_by: userRef(current['created_by'] ?? item['created_by']),
    last_modified_on: podioTime(item['last_event_on'] ?? item['created_on']),
    last_modified_on_utc: podioTime(item['last_event_on'] ?? item['created_on']),
    deleted_on: null,
    deleted_on_utc: null,
    revision: num(current['revision']) ?? 0,
    values,
  };
};

export const flagQuery = (flags: WriteFlags): PodioQuery => ({ silent: flags.silent, hook: flags.hook });

/** A Podio view; its filters (`[{key, values}]`) become filter objects: id lists as any, {from, to} as ranges. */
export const toView = (v: Json, viewId: number): AppView => {
  const filters: unknown[] = [];
  for (const f of arr(v['filters'])) {
    const key = f['key'];
    const values = f['values'];
    const system = key === 'created_on' || key === 'last_edit_on';
    const target = system
      ? { field_type: key === 'created_on' ? 'created_on' : 'last_modified_on' }
      : { field_id: String(key) };
    if (Array.isArray(values))
      filters.push({
        ...target,
        match_type: 'any',
        values: values.map((value) => ({
          value:
            typeof value === 'object' && value !== null
              ? (obj(value)['id'] ?? obj(value)['item_id'] ?? obj(value)['profile_id'])
              : value,
        })),
      });
    else {
      const range = obj(values);
      const isDate = (u: unknown) => typeof u === 'string' && !/^-?\d+(\.\d+)?$/.test(u);
      if (range['from'] !== undefined)
        filters.push({
          ...target,
          match_type: isDate(range['from']) ? 'on_or_after' : 'larger_or_equal',
          values: [{ value: range['from'] }],
        });
      if (range['to'] !== undefined)
        filters.push({
          ...target,
          match_type: isDate(range['to']) ? 'on_or_before' : 'smaller_or_equal',
          values: [{ value: range['to'] }],
        });
    }
  }
  const sortBy = v['sort_by'];
  return {
    view_id: viewId,
    name: str(v['name']) ?? '',
    filters,
    ...(typeof sortBy === 'string' || typeof sortBy === 'number' ? { sort_by: String(sortBy) } : {}),
    sort_desc: v['sort_desc'] === true,
  };
};

export const toAppSummary = (a: Json): AppSummary => {
  const c = obj(a['config']);
  return {
    id: num(a['app_id']) ?? 0,
    name: str(c['name']) ?? '',
    description: str(c['description']) ?? '',
    workspace_id: num(a['space_id']) ?? 0,
    item_name: str(c['item_name']) ?? '',
  };
};

const REVISION_TYPES: readonly RevisionType[] = ['creation', 'update', 'delete', 'restore'];
/** The revision's `type` as Podio gives it; by its number when Podio gives none we know (0 is the creation). */
const revisionType = (r: Json): RevisionType => {
  const given = str(r['type']);
  return REVISION_TYPES.find((x) => x === given) ?? (num(r['revision']) === 0 ? 'creation' : 'update');
};

export const toRevision = (r: Json, recordId: number): Revision => ({
  revision: num(r['revision']) ?? 0,
  type: revisionType(r),
  created_by: person(r['created_by']),
  created_on: podioTime(r['created_on']),
  record_id: recordId,
  changes: [],
});

/** One field's change between two revisions (`GET /item/{id}/revision/{from}/{to}`). */
export const toFieldDelta = (d: Json): FieldDelta => {
  const type = fieldTypeOf(d);
  return {
    field_id: num(d['field_id']) ?? 0,
    external_id: str(d['external_id']) ?? '',
    label: str(d['label']) ?? '',
    type: valueTypeOf(type),
    from: toValue(type, arr(d['from'])) ?? null,
    to: toValue(type, arr(d['to'])) ?? null,
  };
};

/** An item of `GET /item/field/{id}/find`: its creation is read from `initial_revision`. */
export const toRelatable = (i: Json): RecordData =>
  toRecord(
    { ...i, created_on: obj(i['initial_revision'])['created_on'], created_by: obj(obj(i['initial_revision'])['user']) },
    undefined,
  );

export const toComment = (c: Json): Comment => {
  const { id: _id, ...by } = person(c['created_by']);
  return {
    comment_id: num(c['comment_id']) ?? 0,
    created_on: podioTime(c['created_on']),
    files: arr(c['files']).map((f) => ({
      file_id: num(f['file_id']) ?? 0,
      name: str(f['name']) ?? '',
      mimetype: str(f['mimetype']) ?? '',
      size: num(f['size']) ?? 0,
    })),
    ref: { type: 'record', id: num(obj(c['ref'])['id']) ?? 0 },
    value: str(c['value']) ?? '',
    user: by,
    created_by: by,
  };
};
