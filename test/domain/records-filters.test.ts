import { describe, expect, it } from 'vitest';
import { testApp } from '../application/records-test-app.js';
import { compileFilters, resolveFilter, type FilterInput } from '../../domain/records/filters.js';
import type { RecordData } from '../../domain/records/record.js';
import type { FieldValues } from '../../domain/records/values.js';

// Every match type per field type, over three records: 1 full, 2 with other values, 3 with only a title.

const user = { user_id: 5001, name: 'Maria' };
const record = (id: number, created: string, values: FieldValues): RecordData => ({
  record_id: id,
  app_id: 1,
  app_record_id: id,
  title: `r${id}`,
  record_url: '',
  created_by: user,
  created_on: created,
  created_on_utc: created,
  last_modified_by: user,
  last_modified_on: created,
  last_modified_on_utc: created,
  deleted_on: null,
  deleted_on_utc: null,
  revision: 0,
  values,
});

const records = [
  record(1, '2026-10-01 08:00:00', {
    1: 'Alpha House',
    2: 10,
    3: [{ id: 1, text: 'A' }],
    4: [
      { id: 1, text: 'X' },
      { id: 2, text: 'Y' },
    ],
    5: [{ id: 1, text: 'Open' }],
    6: { start: '2026-11-01 10:00:00', end: null },
    7: [{ record_id: 101, app_id: 2, title: 'P1' }],
    8: [{ profile_id: 9101, user_id: 5001, name: 'Maria' }],
    9: [{ type: 'work', value: 'a@x.com' }],
    10: [{ type: 'mobile', value: '+1 617 555 0101' }],
    11: [{ url: 'https://a.example/home', title: 'Site' }],
    12: '1 Main St, Boston',
    13: { value: '100.50', currency: 'USD' },
    14: [{ file_id: 1, name: 'a.pdf', mimetype: 'application/pdf', size: 1 }],
    15: [{ id: 1, title: 'Call', completed: false, assignee: null, description: null, due: null }],
    16: 5,
  }),
  record(2, '2026-11-20 12:00:00', {
    1: 'beta',
    2: 20,
    3: [{ id: 2, text: 'B' }],
    4: [{ id: 1, text: 'X' }],
    5: [{ id: 2, text: 'Done' }],
    6: { start: '2026-11-21 00:00:00', end: null },
    7: [
      { record_id: 101, app_id: 2, title: 'P1' },
      { record_id: 102, app_id: 2, title: 'P2' },
    ],
    8: [{ profile_id: 9102, user_id: 5002, name: 'James' }],
    9: [
      { type: 'home', value: 'b@y.com' },
      { type: 'work', value: 'c@x.com' },
    ],
    10: [{ type: 'work', value: '617-555-0102' }],
    13: { value: '2000', currency: 'USD' },
    16: 7.5,
  }),
  record(3, '2026-11-21 09:00:00', { 1: 'Gamma' }),
];

const ctx = { today: '2026-11-21', activeProfileId: 9101 };
const v = (...values: unknown[]) => values.map((value) => ({ value }));

const run = (filter: FilterInput): number[] | string => {
  const r = resolveFilter(testApp, filter, 'filters[0]', ctx);
  if (r._tag === 'Left') return r.left.message;
  return records.filter(compileFilters([r.right])).map((x) => x.record_id);
};

const cases: [string, FilterInput, number[]][] = [
  ['text contains', { field_id: 't', match_type: 'contains', values: v('HA') }, [1]],
  ['text equal (case-insensitive)', { field_id: 't', match_type: 'equal', values: v('BETA') }, [2]],
  ['text not_equal', { field_id: 't', match_type: 'not_equal', values: v('beta') }, [1, 3]],
  ['text not_contains', { field_id: 't', match_type: 'not_contains', values: v('house') }, [2, 3]],
  ['text empty', { field_id: 't', match_type: 'empty' }, []],
  ['text not_empty', { field_id: 't', match_type: 'not_empty' }, [1, 2, 3]],
  ['number equal', { field_id: 'n', match_type: 'equal', values: v(10) }, [1]],
  ['number smaller', { field_id: 'n', match_type: 'smaller', values: v('20') }, [1]],
  ['number larger', { field_id: 'n', match_type: 'larger', values: v(10) }, [2]],
  ['number smaller_or_equal', { field_id: 'n', match_type: 'smaller_or_equal', values: v(20) }, [1, 2]],
  ['number larger_or_equal', { field_id: 'n', match_type: 'larger_or_equal', values: v(10) }, [1, 2]],
  ['number empty', { field_id: 'n', match_type: 'empty' }, [3]],
  ['number not_empty', { field_id: 'n', match_type: 'not_empty' }, [1, 2]],
  ['category equal', { field_id: 'c', match_type: 'equal', values: v(1) }, [1]],
  ['category equal by text', { field_id: 'c', match_type: 'equal', values: v('b') }, [2]],
  ['category not_equal', { field_id: 'c', match_type: 'not_equal', values: v(1) }, [2, 3]],
  ['category any', { field_id: 'c', match_type: 'any', values: v(1, 2) }, [1, 2]],
  ['category none', { field_id: 'c', match_type: 'none', values: v(2) }, [1, 3]],
  ['category empty', { field_id: 'c', match_type: 'empty' }, [3]],
  ['category not_empty', { field_id: 'c', match_type: 'not_empty' }, [1, 2]],
  ['multi_category any (at least one)', { field_id: 'mc', match_type: 'any', values: v(2) }, [1]],
  ['multi_category equal (exactly these)', { field_id: 'mc', match_type: 'equal', values: v(1) }, [2]],
  ['multi_category equal, two values', { field_id: 'mc', match_type: 'equal', values: v(1, 2) }, [1]],
  ['multi_category none', { field_id: 'mc', match_type: 'none', values: v(2) }, [2, 3]],
  ['multi_category empty', { field_id: 'mc', match_type: 'empty' }, [3]],
  ['status completed', { field_id: 's', match_type: 'completed' }, [2]],
  ['status incomplete', { field_id: 's', match_type: 'incomplete' }, [1, 3]],
  ['status equal', { field_id: 's', match_type: 'equal', values: v('open') }, [1]],
  ['date equal (a day)', { field_id: 'd', match_type: 'equal', values: v('2026-11-01') }, [1]],
  ['date equal today (+0d)', { field_id: 'd', match_type: 'equal', values: v('+0d') }, [2]],
  ['date before', { field_id: 'd', match_type: 'before', values: v('2026-11-21 00:00:00') }, [1]],
  ['date after', { field_id: 'd', match_type: 'after', values: v('2026-11-01') }, [2]],
  ['date on_or_before', { field_id: 'd', match_type: 'on_or_before', values: v('+0d') }, [1, 2]],
  ['date on_or_after -1w', { field_id: 'd', match_type: 'on_or_after', values: v('-1w') }, [2]],
  ['date on_or_after -1m', { field_id: 'd', match_type: 'on_or_after', values: v('-1m') }, [1, 2]],
  ['date before +1y', { field_id: 'd', match_type: 'before', values: v('+1y') }, [1, 2]],
  ['date on_or_after -30d', { field_id: 'd', match_type: 'on_or_after', values: v('-30d') }, [1, 2]],
  ['date empty', { field_id: 'd', match_type: 'empty' }, [3]],
  ['relation any', { field_id: 'rel', match_type: 'any', values: v(102) }, [2]],
  ['relation equal', { field_id: 'rel', match_type: 'equal', values: v(101) }, [1]],
  ['relation none', { field_id: 'rel', match_type: 'none', values: v(102) }, [1, 3]],
  ['user equal', { field_id: 'u', match_type: 'equal', values: v(9101) }, [1]],
  ['user not_equal', { field_id: 'u', match_type: 'not_equal', values: v(9101) }, [2, 3]],
  ['user include_active_user', { field_id: 'u', match_type: 'equal', values: [], include_active_user: true }, [1]],
  [
    'user any + include_active_user',
    { field_id: 'u', match_type: 'any', values: v(9102), include_active_user: true },
    [1, 2],
  ],
  ['email contains', { field_id: 'e', match_type: 'contains', values: v('x.com') }, [1, 2]],
  ['email equal', { field_id: 'e', match_type: 'equal', values: v('A@X.com') }, [1]],
  ['email fully_includes', { field_id: 'e', match_type: 'fully_includes', values: v('b@y.com', 'c@x.com') }, [2]],
  [
    'email fully_includes, one missing',
    { field_id: 'e', match_type: 'fully_includes', values: v('a@x.com', 'b@y.com') },
    [],
  ],
  ['phone contains digits', { field_id: 'p', match_type: 'contains', values: v('5550102') }, [2]],
  ['phone equal by digits', { field_id: 'p', match_type: 'equal', values: v('+16175550101') }, [1]],
  ['phone fully_includes', { field_id: 'p', match_type: 'fully_includes', values: v('617 555 0102') }, [2]],
  ['link contains (url)', { field_id: 'l', match_type: 'contains', values: v('a.example') }, [1]],
  ['link equal (title)', { field_id: 'l', match_type: 'equal', values: v('site') }, [1]],
  ['location contains', { field_id: 'loc', match_type: 'contains', values: v('boston') }, [1]],
  ['money larger', { field_id: 'm', match_type: 'larger', values: v(1000) }, [2]],
  ['money equal', { field_id: 'm', match_type: 'equal', values: v(100.5) }, [1]],
  ['calculation smaller', { field_id: 'calc', match_type: 'smaller', values: v(6) }, [1]],
  ['attachment not_empty', { field_id: 'file', match_type: 'not_empty' }, [1]],
  ['attachment empty', { field_id: 'file', match_type: 'empty' }, [2, 3]],
  ['checklist not_empty', { field_id: 'ck', match_type: 'not_empty' }, [1]],
  ['created_on on_or_after -1d', { field_type: 'created_on', match_type: 'on_or_after', values: v('-1d') }, [2, 3]],
  ['created_on before', { field_type: 'created_on', match_type: 'before', values: v('2026-11-01') }, [1]],
  [
    'last_modified_on after',
    { field_type: 'last_modified_on', match_type: 'after', values: v('2026-11-20 12:00:00') },
    [3],
  ],
  ['field_label, case-insensitive', { field_label: 'n', match_type: 'larger', values: v(15) }, [2]],
];

const rejected: [string, FilterInput, string][] = [
  ['starts_with', { field_id: 't', match_type: 'starts_with', values: v('a') }, 'use contains or equal'],
  ['not_equal on a multi field', { field_id: 'mc', match_type: 'not_equal', values: v(1) }, 'use none'],
  [
    'fully_includes on text',
    { field_id: 't', match_type: 'fully_includes', values: v('a') },
    'multi_email and multi_phone',
  ],
  [
    'not_empty with include_active_user',
    { field_id: 'u', match_type: 'not_empty', include_active_user: true },
    'cannot be combined with not_empty',
  ],
  ['completed on a category', { field_id: 'c', match_type: 'completed' }, 'Supported: equal, not_equal, any, none'],
  ['unknown label', { field_label: 'Nope', match_type: 'empty' }, '"T" (1)'],
  ['ambiguous label', { field_label: 'dup', match_type: 'empty' }, 'ambiguous: fields "Dup" (17), "Dup" (18)'],
  [
    'system date equal',
    { field_type: 'created_on', match_type: 'equal', values: v('+0d') },
    'supports only before, after, on_or_before, on_or_after',
  ],
  ['date object', { field_id: 'd', match_type: 'equal', values: v({ start: '2026-01-01' }) }, "'-30d'"],
  ['relative token without sign', { field_id: 'd', match_type: 'after', values: v('30d') }, 'sign required'],
  ['unknown option', { field_id: 'c', match_type: 'equal', values: v('Q') }, 'Options: 1 "A", 2 "B"'],
  ['two numbers', { field_id: 'n', match_type: 'equal', values: v(1, 2) }, 'exactly one number'],
  [
    'type that does not fit',
    { field_id: 'n', type: 'text', match_type: 'equal', values: v(1) },
    'is "number", not "text"',
  ],
  ['no values', { field_id: 't', match_type: 'contains' }, 'needs values'],
];

describe('filter match types per field type', () => {
  it.each(cases)('%s', (_, filter, expected) => {
    expect(run(filter)).toEqual(expected);
  });

  it.each(rejected)('rejects %s with a message that says what works', (_, filter, text) => {
    const r = run(filter);
    expect(typeof r).toBe('string');
    expect(r).toContain(text);
  });
});
