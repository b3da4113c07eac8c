// Id-valued field types: categories and status (option ids), relations (record ids) and people (profile ids).
import { E } from '../../shared/fp.js';
import { CATEGORY_MATCHES, type FieldFilter } from '../filter-model.js';
import type { CategoryValue, ContactValue, FieldValue, RelationValue } from '../values.js';
import { asList, positiveInt } from './input.js';
import { problem, type Checked, type FilterOperands, type FilterValueContext, type Members } from './spec.js';
import type { Validate, ValueTypeSpec } from './spec.js';

// --- validation ---

/** single_category, multi_category and status: option ids or option texts. */
export const validateCategory: Validate = (field, raw, name) => {
  const options = field.options ?? [];
  const list = asList(raw);
  const listing = options.map((o) => `${o.id} "${o.text}"`).join(', ');
  if (field.field_type !== 'multi_category' && list.length > 1)
    return problem(
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
      return problem(
        `${name} has no option ${JSON.stringify(v)}. Options: ${listing}. Send option ids or texts.`,
        'array of option ids or option texts',
      );
    if (!ids.includes(option.id)) ids.push(option.id);
  }
  return E.right({ kind: 'category', option_ids: ids });
};

/** Relations (record ids) and people (profile ids), single or multi. */
export const validateReference: Validate = (field, raw, name) => {
  const relation = field.field_type.endsWith('relation');
  const what = relation
    ? 'record ids'
    : 'profile ids (a space member has both a user_id and a profile_id; contact fields take the profile_id)';
  const list = asList(raw);
  const ids = list.map(positiveInt);
  if (ids.some((i) => i === undefined))
    return problem(`${name} takes an array of ${what}.`, relation ? 'array of record ids' : 'array of profile ids');
  if (field.field_type.startsWith('single') && ids.length > 1)
    return problem(
      `${name} takes one value; ${ids.length} were given.`,
      relation ? 'array with one record id' : 'array with one profile id',
    );
  const unique = [...new Set(ids as number[])];
  return E.right(relation ? { kind: 'relation', record_ids: unique } : { kind: 'user', profile_ids: unique });
};

// --- filters ---

const optionValues = (raw: readonly unknown[], { field }: FilterValueContext): Checked<FilterOperands> => {
  const options = field.options ?? [];
  const ids: number[] = [];
  for (const v of raw) {
    const option =
      options.find((o) => o.id === (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v)) ??
      (typeof v === 'string' ? options.find((o) => o.text.toLowerCase() === v.trim().toLowerCase()) : undefined);
    if (!option)
      return problem(
        `Field ${field.field_id} ("${field.label}") has no option ${JSON.stringify(v)}. Options: ${options.map((o) => `${o.id} "${o.text}"`).join(', ')}. Send {value: <option_id>}.`,
        'array of {value: option_id}',
      );
    ids.push(option.id);
  }
  return E.right({ ids });
};

const idValues =
  (message: string) =>
  (raw: readonly unknown[], { ctx, includeActiveUser }: FilterValueContext): Checked<FilterOperands> => {
    const ids = raw.map((v) => (typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v));
    if (ids.some((i) => typeof i !== 'number' || !Number.isSafeInteger(i) || i <= 0))
      return problem(message, 'array of {value: id}');
    const all = ids as number[];
    if (includeActiveUser && !all.includes(ctx.activeProfileId)) all.push(ctx.activeProfileId);
    return E.right({ ids: all });
  };

/** equal, any, none, not_equal (and status's completed, incomplete) over the value's member ids. */
const idFilter =
  (members: Members) =>
  <R>(f: FieldFilter, get: (r: R) => FieldValue | undefined, multi: boolean): ((r: R) => boolean) => {
    const { field, match } = f;
    if (match === 'completed' || match === 'incomplete') {
      const done = new Set((field.options ?? []).filter((o) => o.means_completed).map((o) => o.id));
      const want = match === 'completed';
      return (r) => {
        const v = get(r) as readonly CategoryValue[] | undefined;
        const isDone = v !== undefined && v.some((c) => done.has(c.id));
        return isDone === want;
      };
    }
    const wanted = new Set(f.ids);
    const idOf = members.idOf;
    const count = (r: R): number => {
      const v = get(r) as readonly unknown[] | undefined;
      if (!v) return 0;
      let hit = 0;
      for (let i = 0; i < v.length; i++) if (wanted.has(idOf(v[i]))) hit++;
      return hit;
    };
    switch (match) {
      case 'any':
        return (r) => count(r) > 0;
      case 'none':
      case 'not_equal':
        return (r) => count(r) === 0;
      default:
        return multi
          ? (r) => {
              const v = get(r) as readonly unknown[] | undefined;
              return v !== undefined && v.length === wanted.size && count(r) === wanted.size;
            }
          : (r) => count(r) > 0;
    }
  };

// --- the value types ---

const idValued = (
  members: Members,
  matchTypes: (multi: boolean) => readonly string[],
  filterValues: ValueTypeSpec['filterValues'],
  format: (member: unknown) => string,
): ValueTypeSpec => ({
  matchTypes,
  filterValues,
  compile: idFilter(members),
  sortKey: (v) => {
    const first = (v as readonly unknown[])[0];
    return (first === undefined ? '' : members.labelOf(first)).toLowerCase();
  },
  format: (v) => (v as readonly unknown[]).map(format).join(', '),
  operations: ['count'],
  sample: () => undefined,
  column: 'ids',
  members,
});

const singleOrMulti = (multi: boolean): readonly string[] =>
  multi ? CATEGORY_MATCHES.filter((m) => m !== 'not_equal') : CATEGORY_MATCHES;
const STATUS_MATCHES = [...CATEGORY_MATCHES, 'completed', 'incomplete'] as const;

const option: Members = { idOf: (x) => (x as CategoryValue).id, labelOf: (x) => (x as CategoryValue).text };
const relation: Members = {
  idOf: (x) => (x as RelationValue).record_id,
  labelOf: (x) => (x as RelationValue).title,
};
const person: Members = { idOf: (x) => (x as ContactValue).profile_id, labelOf: (x) => (x as ContactValue).name };

export const CATEGORY: ValueTypeSpec = {
  ...idValued(option, singleOrMulti, optionValues, option.labelOf),
  options: true,
};
export const STATUS: ValueTypeSpec = {
  ...idValued(option, () => STATUS_MATCHES, optionValues, option.labelOf),
  options: true,
};
export const APP = idValued(
  relation,
  singleOrMulti,
  idValues('Relation filters take record ids: [{"value": 123}].'),
  (x) => `${(x as RelationValue).title} (${(x as RelationValue).record_id})`,
);
export const CONTACT = idValued(
  person,
  singleOrMulti,
  idValues('User filters take profile ids: [{"value": 9101}].'),
  person.labelOf,
);
