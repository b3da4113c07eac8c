// Input values for createRecord and updateRecord, validated per field type exactly as the createRecord
// table says, with messages a model can act on.
import { isEmailAddress } from '../shared/email.js';
import { invalidInput, type InvalidInput } from '../shared/errors.js';
import { E, type Either } from '../shared/fp.js';
import { describeFields, findField, isSystemField, type App, type FieldDefinition } from './app.js';
import { DATE_ONLY, isValidDate, isValidDateTime } from './values.js';

export interface ChecklistInput {
  readonly id?: number;
  readonly title: string;
  readonly completed: boolean;
  readonly description: string | null;
  readonly due: string | null;
  readonly assignee_user_id: number | null;
}

export type AttachmentInput = { readonly file_id: number } | { readonly url: string };

export type FieldInput =
  | { readonly kind: 'text'; readonly value: string }
  | { readonly kind: 'number'; readonly value: number }
  | { readonly kind: 'category'; readonly option_ids: readonly number[] }
  | { readonly kind: 'date'; readonly start: string; readonly end: string | null }
  | { readonly kind: 'money'; readonly value: string; readonly currency: string }
  | { readonly kind: 'relation'; readonly record_ids: readonly number[] }
  | { readonly kind: 'user'; readonly profile_ids: readonly number[] }
  | { readonly kind: 'attachment'; readonly files: readonly AttachmentInput[] }
  | { readonly kind: 'email'; readonly items: readonly { type: string; value: string }[] }
  | { readonly kind: 'phone'; readonly items: readonly { type: string; value: string }[] }
  | { readonly kind: 'link'; readonly items: readonly { url: string; title: string }[] }
  | { readonly kind: 'checklist'; readonly items: readonly ChecklistInput[] }
  | { readonly kind: 'location'; readonly value: string }
  | { readonly kind: 'clear' };

export interface ValidatedField {
  readonly field: FieldDefinition;
  readonly input: FieldInput;
}

export type ValidatedFields = readonly ValidatedField[];

const EMAIL_TYPES = ['work', 'home', 'other'] as const;
const PHONE_TYPES = ['work', 'mobile', 'home', 'other'] as const;

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);
const positiveInt = (u: unknown): number | undefined => {
  const n = typeof u === 'string' && /^\d+$/.test(u.trim()) ? Number(u) : u;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
};
const asList = (u: unknown): readonly unknown[] => (Array.isArray(u) ? u : [u]);

type Check<A> = Either<InvalidInput, A>;

/** Validates one field's value. `param` is how the caller named it (`fields.status`). */
export const validateFieldValue = (field: FieldDefinition, raw: unknown, param: string): Check<FieldInput> => {
  const name = `Field "${field.external_id}" (${field.field_type})`;
  const fail = (message: string, expected: string): Check<FieldInput> => E.left(invalidInput(message, param, expected));
  if (isSystemField(field.field_type))
    return fail(`${name} is set by the system and cannot be written. Leave it out.`, 'nothing (read-only field)');
  if (raw === null) return E.right({ kind: 'clear' });
  switch (field.field_type) {
    case 'single_text':
    case 'multi_text':
      return typeof raw === 'string'
        ? E.right({ kind: 'text', value: raw })
        : fail(`${name} takes a string.`, 'string');
    case 'single_location':
      return typeof raw === 'string' && raw.trim()
        ? E.right({ kind: 'location', value: raw.trim() })
        : fail(`${name} takes an address string, such as "1 Harbor Way, Boston, MA".`, 'string');
    case 'number': {
      const n = typeof raw === 'string' && raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
      return typeof n === 'number' && Number.isFinite(n)
        ? E.right({ kind: 'number', value: n })
        : fail(`${name} takes a number, such as 42 or 3.5.`, 'number');
    }
    case 'single_category':
    case 'multi_category':
    case 'status': {
      const options = field.options ?? [];
      const list = asList(raw);
      const listing = options.map((o) => `${o.id} "${o.text}"`).join(', ');
      if (field.field_type !== 'multi_category' && list.length > 1)
        return fail(
          `${name} takes one option; ${list.length} were given. Options: ${listing}.`,
          'array with one option id or text',
        );
      const ids: number[] = [];
      for (const v of list) {
        const byId = positiveInt(v);
        const option =
          byId !== undefined
            ? options.find((o) => o.id === byId)
            : typeof v === 'string'
              ? options.find((o) => o.text.toLowerCase() === v.trim().toLowerCase())
              : undefined;
        if (!option)
          return fail(
            `${name} has no option ${JSON.stringify(v)}. Options: ${listing}. Send option ids or texts.`,
            'array of option ids or option texts',
          );
        if (!ids.includes(option.id)) ids.push(option.id);
      }
      return E.right({ kind: 'category', option_ids: ids });
    }
    case 'single_date': {
      if (isRecord(raw))
        return fail(
          `${name} takes a string 'YYYY-MM-DD HH:MM:SS' (time required; use 00:00:00 for a date only), not an object with start. Only range_date fields take {start, end}.`,
          "string 'YYYY-MM-DD HH:MM:SS'",
        );
      if (typeof raw === 'string' && DATE_ONLY.test(raw.trim()) && isValidDate(raw.trim()))
        return fail(
          `${name} needs a time: send '${raw.trim()} 00:00:00' for a date only.`,
          "string 'YYYY-MM-DD HH:MM:SS'",
        );
      return typeof raw === 'string' && isValidDateTime(raw.trim())
        ? E.right({ kind: 'date', start: raw.trim(), end: null })
        : fail(
            `${name} takes a string 'YYYY-MM-DD HH:MM:SS' (time required; use 00:00:00 for a date only).`,
            "string 'YYYY-MM-DD HH:MM:SS'",
          );
    }
    case 'range_date': {
      const shape = "{start: 'YYYY-MM-DD HH:MM:SS', end: 'YYYY-MM-DD HH:MM:SS'}";
      if (!isRecord(raw)) return fail(`${name} takes an object ${shape}.`, shape);
      const unknown = Object.keys(raw).filter((k) => k !== 'start' && k !== 'end');
      if (unknown.length) return fail(`${name} takes only start and end, not ${unknown.join(', ')}.`, shape);
      const start = raw['start'];
      const end = raw['end'] ?? null;
      if (typeof start !== 'string' || !isValidDateTime(start.trim()))
        return fail(`${name}: start must be 'YYYY-MM-DD HH:MM:SS' (use 00:00:00 for a date only).`, shape);
      if (end !== null && (typeof end !== 'string' || !isValidDateTime(end.trim())))
        return fail(`${name}: end must be 'YYYY-MM-DD HH:MM:SS' (use 00:00:00 for a date only).`, shape);
      if (typeof end === 'string' && end.trim() < start.trim())
        return fail(`${name}: end ${end} is before start ${start}.`, shape);
      return E.right({ kind: 'date', start: start.trim(), end: typeof end === 'string' ? end.trim() : null });
    }
    case 'money': {
      const shape = "{value: '1250.00', currency: 'USD'}";
      if (!isRecord(raw)) return fail(`${name} takes an object ${shape}.`, shape);
      const v = typeof raw['value'] === 'number' ? String(raw['value']) : raw['value'];
      const currency = typeof raw['currency'] === 'string' ? raw['currency'].trim().toUpperCase() : undefined;
      if (typeof v !== 'string' || !/^-?\d+(\.\d+)?$/.test(v.trim()))
        return fail(`${name}: value must be an amount string such as '1250.00'.`, shape);
      const allowed = field.currencies ?? [];
      if (!currency || !/^[A-Z]{3}$/.test(currency) || (allowed.length > 0 && !allowed.includes(currency)))
        return fail(
          `${name}: currency must be ${allowed.length ? `one of ${allowed.join(', ')}` : 'a three-letter code such as USD'}.`,
          shape,
        );
      return E.right({ kind: 'money', value: v.trim(), currency });
    }
    case 'single_relation':
    case 'multi_relation':
    case 'single_user':
    case 'multi_user': {
      const relation = field.field_type.endsWith('relation');
      const what = relation
        ? 'record ids'
        : 'profile ids (a space member has both a user_id and a profile_id; contact fields take the profile_id)';
      const list = asList(raw);
      const ids = list.map(positiveInt);
      if (ids.some((i) => i === undefined))
        return fail(`${name} takes an array of ${what}.`, relation ? 'array of record ids' : 'array of profile ids');
      if (field.field_type.startsWith('single') && ids.length > 1)
        return fail(
          `${name} takes one value; ${ids.length} were given.`,
          relation ? 'array with one record id' : 'array with one profile id',
        );
      const unique = [...new Set(ids as number[])];
      return E.right(relation ? { kind: 'relation', record_ids: unique } : { kind: 'user', profile_ids: unique });
    }
    case 'multi_email':
    case 'multi_phone': {
      const email = field.field_type === 'multi_email';
      const member = email ? 'email' : 'phone';
      const types: readonly string[] = email ? EMAIL_TYPES : PHONE_TYPES;
      const shape = `array of {type, ${member}}; type is ${types.join(', ')}`;
      const items: { type: string; value: string }[] = [];
      for (const item of asList(raw)) {
        if (!isRecord(item)) return fail(`${name} takes an ${shape}.`, shape);
        const extra = Object.keys(item).filter((k) => k !== 'type' && k !== member);
        if (extra.length)
          return fail(`${name}: items have the members type and ${member}, not ${extra.join(', ')}.`, shape);
        const type = item['type'] ?? 'other';
        const value = item[member];
        if (typeof type !== 'string' || !types.includes(type))
          return fail(`${name}: type must be ${types.join(', ')}.`, shape);
        if (typeof value !== 'string' || !value.trim())
          return fail(`${name}: each item needs ${member} (a string).`, shape);
        if (email && !isEmailAddress(value.trim())) return fail(`${name}: "${value}" is not an email address.`, shape);
        if (!email && !/^[+()\d][\d\s().-]{3,}$/.test(value.trim()))
          return fail(`${name}: "${value}" is not a phone number.`, shape);
        items.push({ type, value: value.trim() });
      }
      return E.right({ kind: email ? 'email' : 'phone', items });
    }
    case 'multi_link': {
      const shape = 'array of {url, title}';
      const items: { url: string; title: string }[] = [];
      for (const item of asList(raw)) {
        if (!isRecord(item)) return fail(`${name} takes an ${shape}.`, shape);
        const url = item['url'];
        const title = item['title'] ?? '';
        if (typeof url !== 'string' || !/^https?:\/\/\S+$/i.test(url.trim()))
          return fail(`${name}: url must be an http or https address.`, shape);
        if (typeof title !== 'string') return fail(`${name}: title must be a string.`, shape);
        items.push({ url: url.trim(), title });
      }
      return E.right({ kind: 'link', items });
    }
    case 'checklist': {
      const shape = 'array of {title, completed}; optional description, due, assignee, id';
      const items: ChecklistInput[] = [];
      for (const item of asList(raw)) {
        if (!isRecord(item)) return fail(`${name} takes an ${shape}.`, shape);
        if ('text' in item || 'checked' in item)
          return fail(`${name}: checklist items have the members title and completed, not text and checked.`, shape);
        const extra = Object.keys(item).filter(
          (k) => !['id', 'title', 'completed', 'description', 'due', 'assignee'].includes(k),
        );
        if (extra.length)
          return fail(
            `${name}: unknown item member ${extra.join(', ')}; members are title, completed, description, due, assignee, id.`,
            shape,
          );
        const title = item['title'];
        if (typeof title !== 'string' || !title.trim())
          return fail(`${name}: each item needs a title (string).`, shape);
        const completed = item['completed'] ?? false;
        if (typeof completed !== 'boolean') return fail(`${name}: completed must be true or false.`, shape);
        const description = item['description'] ?? null;
        if (description !== null && typeof description !== 'string')
          return fail(`${name}: description must be a string.`, shape);
        const due = item['due'] ?? null;
        if (
          due !== null &&
          (typeof due !== 'string' ||
            !(isValidDate(due) || (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(due) && isValidDateTime(`${due}:00`))))
        )
          return fail(`${name}: due must be 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM'.`, shape);
        const assignee =
          item['assignee'] === undefined || item['assignee'] === null ? null : positiveInt(item['assignee']);
        if (assignee === undefined) return fail(`${name}: assignee must be a user id.`, shape);
        const id = item['id'] === undefined ? undefined : positiveInt(item['id']);
        if (item['id'] !== undefined && id === undefined)
          return fail(`${name}: id must be the id of an existing item (leave it out for a new item).`, shape);
        items.push({
          ...(id !== undefined ? { id } : {}),
          title: title.trim(),
          completed,
          description,
          due: due as string | null,
          assignee_user_id: assignee,
        });
      }
      return E.right({ kind: 'checklist', items });
    }
    default: {
      const shape = 'array of file ids or http(s) URLs';
      const files: AttachmentInput[] = [];
      for (const item of asList(raw)) {
        const id = positiveInt(item);
        if (id !== undefined) files.push({ file_id: id });
        else if (typeof item === 'string' && /^https?:\/\//i.test(item.trim())) files.push({ url: item.trim() });
        else
          return fail(
            `${name} takes an ${shape} (URLs are uploaded automatically; records_uploadFiles gives file ids).`,
            shape,
          );
      }
      return E.right({ kind: 'attachment', files });
    }
  }
};

/**
 * Validates a `fields` object keyed by field_id or external_id. On create, required fields must be present;
 * on update, only the given fields change and a required field cannot be cleared.
 */
export const validateFields = (
  app: App,
  fields: Readonly<Record<string, unknown>>,
  mode: 'create' | 'update',
  prefix = 'fields',
): Either<InvalidInput, ValidatedFields> => {
  const keys = Object.keys(fields);
  if (mode === 'update' && keys.length === 0)
    return E.left(
      invalidInput(
        `Give at least one field to change. Fields of app ${app.app_id}: ${describeFields(app, (f) => !isSystemField(f.field_type))}.`,
        prefix,
        'object with at least one field',
      ),
    );
  const out: ValidatedField[] = [];
  const seen = new Set<number>();
  for (const key of keys) {
    const field = findField(app, key);
    const param = `${prefix}.${key}`;
    if (!field)
      return E.left(
        invalidInput(
          `App "${app.name}" (${app.app_id}) has no field "${key}". Fields: ${describeFields(app)}. Key fields by field_id or external_id (records_getApp lists them).`,
          param,
          'field_id or external_id of the app',
          {
            fields: app.fields.map((f) => ({
              field_id: f.field_id,
              external_id: f.external_id,
              field_type: f.field_type,
            })),
          },
        ),
      );
    if (seen.has(field.field_id))
      return E.left(
        invalidInput(
          `Field ${field.field_id} is given twice (by field_id and by external_id "${field.external_id}").`,
          param,
          'each field once',
        ),
      );
    seen.add(field.field_id);
    const checked = validateFieldValue(field, fields[key], param);
    if (checked._tag === 'Left') return checked;
    const input = checked.right;
    const empty =
      input.kind === 'clear' ||
      (input.kind === 'text' && input.value === '') ||
      ('items' in input && input.items.length === 0) ||
      ('option_ids' in input && input.option_ids.length === 0) ||
      ('record_ids' in input && input.record_ids.length === 0) ||
      ('profile_ids' in input && input.profile_ids.length === 0) ||
      ('files' in input && input.files.length === 0);
    if (field.required && empty)
      return E.left(invalidInput(`Field "${field.external_id}" is required and cannot be empty.`, param, 'a value'));
    if (!(mode === 'create' && empty)) out.push({ field, input: empty ? { kind: 'clear' } : input });
  }
  if (mode === 'create') {
    const missing = app.fields.filter((f) => f.required && !seen.has(f.field_id));
    if (missing.length)
      return E.left(
        invalidInput(
          `Required field${missing.length > 1 ? 's' : ''} missing: ${missing.map((f) => `${f.external_id} (${f.field_id}, ${f.field_type})`).join(', ')}.`,
          prefix,
          'object with every required field',
        ),
      );
  }
  return E.right(out);
};
