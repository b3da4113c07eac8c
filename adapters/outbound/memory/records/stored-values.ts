// Validated field input to the value the in-memory store keeps, one handler per input kind: relations and
// people are looked up (and refused when they do not exist), files must be uploaded, checklist items get ids.
import { isSystemField } from '../../../../domain/records/app.js';
import type { FieldDefinition } from '../../../../domain/records/field.js';
import type { FieldInput, InputHandlers } from '../../../../domain/records/field-types/input.js';
import type { ChecklistItem, FieldValue, FileValue, RelationValue } from '../../../../domain/records/values.js';
import { invalidInput, type GatewayError } from '../../../../domain/shared/errors.js';
import { E, type Either } from '../../../../domain/shared/fp.js';
import type { RecordsState } from './records-state.js';

type Stored = Either<GatewayError, FieldValue | undefined>;

/** What a conversion may look at: the store, the field, its value before, and how errors name it. */
interface Target {
  readonly state: RecordsState;
  readonly field: FieldDefinition;
  readonly existing: FieldValue | undefined;
  readonly param: string;
}

type Handlers = {
  readonly [K in keyof InputHandlers<Stored>]: (input: Parameters<InputHandlers<Stored>[K]>[0], to: Target) => Stored;
};

const HANDLERS: Handlers = {
  clear: () => E.right(undefined),
  text: (input) => E.right(input.value),
  location: (input) => E.right(input.value),
  number: (input) => E.right(input.value),
  category: (input, { field }) =>
    E.right(input.option_ids.map((id) => ({ id, text: field.options!.find((o) => o.id === id)!.text }))),
  date: (input) => E.right({ start: input.start, end: input.end }),
  money: (input) => E.right({ value: input.value, currency: input.currency }),
  email: (input) => E.right(input.items.map((i) => ({ type: i.type, value: i.value }))),
  phone: (input) => E.right(input.items.map((i) => ({ type: i.type, value: i.value }))),
  link: (input) => E.right(input.items.map((i) => ({ url: i.url, title: i.title }))),
  relation: (input, { state, field, param }) => {
    const out: RelationValue[] = [];
    for (const id of input.record_ids) {
      const s = state.records.get(id);
      const allowed = field.referenced_app_ids ?? [];
      if (!s || s.data.deleted_on !== null)
        return E.left(
          invalidInput(
            `Record ${id} does not exist or is in the trash, so "${field.external_id}" cannot reference it. records_findRelatableRecords {"field_id":${field.field_id},"text":"..."} finds records it can reference.`,
            param,
            'ids of existing records',
          ),
        );
      if (allowed.length && !allowed.includes(s.data.app_id))
        return E.left(
          invalidInput(
            `Record ${id} is in app ${s.data.app_id}; "${field.external_id}" references records of app ${allowed.join(' or ')}.`,
            param,
            `ids of records of app ${allowed.join(' or ')}`,
          ),
        );
      out.push({ record_id: id, app_id: s.data.app_id, title: s.data.title });
    }
    return E.right(out);
  },
  user: (input, { state, param }) => {
    const account = state.account;
    const out = [];
    for (const pid of input.profile_ids) {
      const u = account.userByProfileId(pid);
      if (!u) {
        const byUserId = account.user(pid);
        const hint = byUserId
          ? ` ${pid} is the user_id of ${byUserId.name}; their profile_id is ${byUserId.profile_id}.`
          : '';
        return E.left(
          invalidInput(
            `No person has profile_id ${pid}.${hint} Contact fields take profile ids: ${[...account.users.values()].map((x) => `${x.profile_id} ${x.name}`).join(', ')}.`,
            param,
            'array of profile ids',
          ),
        );
      }
      out.push({ profile_id: u.profile_id, user_id: u.user_id, name: u.name });
    }
    return E.right(out);
  },
  attachment: (input, { state, param }) => {
    const out: FileValue[] = [];
    for (const f of input.files) {
      if (!('file_id' in f))
        return E.left(invalidInput('URLs must be uploaded before they reach the store.', param, 'file ids'));
      const file = state.files.get(f.file_id);
      if (!file)
        return E.left(
          invalidInput(
            `File ${f.file_id} does not exist. Upload it with records_uploadFiles, or give its URL.`,
            param,
            'ids of uploaded files or URLs',
          ),
        );
      out.push(file);
    }
    return E.right(out);
  },
  checklist: (input, { state, existing, param }) => {
    const before = (existing as readonly ChecklistItem[] | undefined) ?? [];
    const out: ChecklistItem[] = [];
    for (const item of input.items) {
      if (item.id !== undefined && !before.some((b) => b.id === item.id))
        return E.left(
          invalidInput(
            `Checklist item ${item.id} is not on this record (its items: ${before.map((b) => b.id).join(', ') || 'none'}). Leave id out for a new item.`,
            param,
            'ids of existing items',
          ),
        );
      let assignee: ChecklistItem['assignee'] = null;
      if (item.assignee_user_id !== null) {
        const u = state.account.user(item.assignee_user_id);
        if (!u)
          return E.left(
            invalidInput(
              `No user has user_id ${item.assignee_user_id}. Users: ${[...state.account.users.values()].map((x) => `${x.user_id} ${x.name}`).join(', ')}.`,
              param,
              'a user id',
            ),
          );
        assignee = { user_id: u.user_id, name: u.name };
      }
      out.push({
        id: item.id ?? state.nextChecklistId++,
        title: item.title,
        completed: item.completed,
        assignee,
        description: item.description,
        due: item.due,
      });
    }
    return E.right(out.length ? out : undefined);
  },
};

/** The value to store for a field's input (undefined: the field is empty); `existing` is the value before. */
export const storedValue = (
  state: RecordsState,
  field: FieldDefinition,
  input: FieldInput,
  existing: FieldValue | undefined,
): Stored => {
  const param = `fields.${field.external_id}`;
  if (isSystemField(field.field_type))
    return E.left(invalidInput(`Field "${field.external_id}" is set by the system.`, param, 'nothing'));
  const convert = HANDLERS[input.kind] as (input: FieldInput, to: Target) => Stored;
  return convert(input, { state, field, existing, param });
};
