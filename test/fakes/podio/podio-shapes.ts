import { valueTypeOf, type App, type AppView, type FieldDefinition } from '../../../domain/records/app.js';
import type { FilterInput } from '../../../domain/records/filters.js';
import type { RecordData } from '../../../domain/records/record.js';
import type { Comment } from '../../../domain/records/revision.js';
import type {
  CategoryValue,
  ContactValue,
  DateValue,
  FieldValue,
  FileValue,
  LinkValue,
  MoneyValue,
  RelationValue,
  TypedValue,
} from '../../../domain/records/values.js';

// Apps, fields, field values, items, views and comments in Podio's shapes, as the Podio stand-in answers them.

type Json = Record<string, unknown>;

/** Our field_type as Podio's field `type` and `config.settings`. */
export const podioFieldType = (f: FieldDefinition): { type: string; settings: Json } => {
  switch (f.field_type) {
    case 'single_text':
      return { type: 'text', settings: { size: 'small' } };
    case 'multi_text':
      return { type: 'text', settings: { size: 'large' } };
    case 'single_category':
    case 'multi_category':
      return {
        type: 'category',
        settings: {
          multiple: f.field_type === 'multi_category',
          options: (f.options ?? []).map((o) => ({
            id: o.id,
            text: o.text,
            color: o.color ?? 'DCEBD8',
            status: 'active',
          })),
        },
      };
    case 'single_date':
    case 'range_date':
      return {
        type: 'date',
        settings: { calendar: true, end: f.field_type === 'range_date' ? 'enabled' : 'disabled', time: 'enabled' },
      };
    case 'single_relation':
    case 'multi_relation':
      return {
        type: 'app',
        settings: {
          multiple: f.field_type === 'multi_relation',
          referenced_apps: (f.referenced_app_ids ?? []).map((app_id) => ({ app_id })),
        },
      };
    case 'single_user':
    case 'multi_user':
      return { type: 'contact', settings: { type: 'space_users', multiple: f.field_type === 'multi_user' } };
    case 'multi_email':
      return { type: 'email', settings: {} };
    case 'multi_phone':
      return { type: 'phone', settings: {} };
    case 'multi_link':
      return { type: 'embed', settings: {} };
    case 'single_location':
      return { type: 'location', settings: {} };
    case 'money':
      return { type: 'money', settings: { allowed_currencies: f.currencies ?? ['USD'] } };
    case 'multi_image':
      return { type: 'image', settings: {} };
    default:
      return { type: f.field_type, settings: {} };
  }
};

export const podioField = (f: FieldDefinition): Json => {
  const { type, settings } = podioFieldType(f);
  return {
    field_id: f.field_id,
    external_id: f.external_id,
    type,
    status: 'active',
    label: f.label,
    config: { label: f.label, description: f.description ?? null, required: f.required, delta: 0, settings },
  };
};

export const podioApp = (app: App): Json => ({
  app_id: app.app_id,
  space_id: app.space_id,
  status: 'active',
  config: { name: app.name, item_name: app.item_name, description: app.description, icon: app.icon },
  fields: app.fields.map(podioField),
});

const time = (s: string) => s.slice(11, 19);

/** A field value as Podio's `values` list. */
export const podioValues = (f: FieldDefinition, v: FieldValue): Json[] => {
  switch (valueTypeOf(f.field_type)) {
    case 'text':
    case 'location':
      return [{ value: v as string }];
    case 'number':
    case 'calculation':
      return [{ value: (v as number).toFixed(4) }];
    case 'money':
      return [{ value: Number((v as MoneyValue).value).toFixed(4), currency: (v as MoneyValue).currency }];
    case 'category':
    case 'status':
      return (v as readonly CategoryValue[]).map((c) => ({
        value: {
          id: c.id,
          text: c.text,
          status: 'active',
          color: f.options?.find((o) => o.id === c.id)?.color ?? 'DCEBD8',
        },
      }));
    case 'date': {
      const d = v as DateValue;
      return [
        {
          start: d.start,
          start_date: d.start.slice(0, 10),
          start_time: time(d.start),
          ...(d.end
            ? { end: d.end, end_date: d.end.slice(0, 10), end_time: time(d.end) }
            : { end: null, end_date: null, end_time: null }),
        },
      ];
    }
    case 'app':
      return (v as readonly RelationValue[]).map((r) => ({
        value: { item_id: r.record_id, title: r.title, app: { app_id: r.app_id } },
      }));
    case 'contact':
      return (v as readonly ContactValue[]).map((c) => ({
        value: { profile_id: c.profile_id, user_id: c.user_id, name: c.name, type: 'user' },
      }));
    case 'email':
    case 'phone':
      return (v as readonly TypedValue[]).map((t) => ({ type: t.type, value: t.value }));
    case 'embed':
      return (v as readonly LinkValue[]).map((l) => ({ embed: { url: l.url, original_url: l.url, title: l.title } }));
    case 'file':
      return (v as readonly FileValue[]).map((file) => ({
        value: { file_id: file.file_id, name: file.name, mimetype: file.mimetype, size: file.size },
      }));
    default:
      return [];
  }
};

const byline = (u: { user_id: number; name: string; profile_id?: number }) => ({
  type: 'user',
  id: u.user_id,
  user_id: u.user_id,
  name: u.name,
  avatar: null,
});

export const podioItem = (app: App, r: RecordData): Json => ({
  item_id: r.record_id,
  app_item_id: r.app_record_id,
  external_id: null,
  title: r.title,
  link: `https://podio.com/acme/acquisitions/apps/${app.app_id}/items/${r.app_record_id}`,
  app: { app_id: app.app_id, name: app.name, item_name: app.item_name, icon: app.icon },
  created_by: byline(r.created_by),
  created_via: { id: 1, name: 'Podio' },
  created_on: r.created_on_utc,
  last_event_on: r.last_modified_on_utc,
  initial_revision: { revision: 0, created_by: byline(r.created_by), created_on: r.created_on_utc },
  current_revision: {
    revision: r.revision,
    created_by: byline(r.last_modified_by),
    created_on: r.last_modified_on_utc,
  },
  fields: app.fields.flatMap((f) => {
    const v = r.values[f.field_id];
    return v === undefined ? [] : [{ ...podioField(f), values: podioValues(f, v) }];
  }),
  comment_count: 0,
  file_count: 0,
  tags: [],
});

/** A view of ours in Podio's shape: `filters: [{key, values}]` (id lists or {from, to}). */
export const podioView = (app: App, v: AppView): Json => ({
  view_id: v.view_id,
  name: v.name,
  type: 'standard',
  sort_by: v.sort_by
    ? String(app.fields.find((f) => f.external_id === v.sort_by)?.field_id ?? v.sort_by)
    : 'created_on',
  sort_desc: v.sort_desc ?? false,
  filters: (v.filters as FilterInput[]).map((f) => {
    const field = app.fields.find((x) => String(x.field_id) === String(f.field_id) || x.external_id === f.field_id)!;
    const ids = (f.values ?? []).map((x) => Number(x.value));
    const values =
      f.match_type === 'incomplete' ? (field.options ?? []).filter((o) => !o.means_completed).map((o) => o.id) : ids;
    return { key: field.field_id, values };
  }),
});

export const podioComment = (c: Comment): Json => ({
  comment_id: c.comment_id,
  value: c.value,
  rich_value: c.value,
  external_id: null,
  ref: { type: 'item', id: c.ref.id },
  created_by: {
    type: 'user',
    id: c.created_by.user_id,
    user_id: c.created_by.user_id,
    name: c.created_by.name,
    mail: c.created_by.mail,
    org_id: c.created_by.org_id,
  },
  created_via: { id: 1, name: 'Podio' },
  created_on: c.created_on,
  files: c.files.map((f) => ({ file_id: f.file_id, name: f.name, mimetype: f.mimetype, size: f.size })),
  embed: null,
  like_count: 0,
  is_liked: false,
  last_edit_on: null,
});
