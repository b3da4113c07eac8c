import { describe, expect, it } from 'vitest';
import { validateFields, validateFieldValue } from '../../domain/records/field-input.js';
import { testApp } from '../application/records-test-app.js';

const field = (key: string) => testApp.fields.find((f) => f.external_id === key)!;

// Each field type's validation error, and the value it accepts.
const errors: [string, unknown, string][] = [
  ['t', 42, 'takes a string'],
  ['n', 'many', 'takes a number'],
  ['c', ['Q'], 'Options: 1 "A", 2 "B"'],
  ['c', [1, 2], 'takes one option; 2 were given'],
  ['mc', [9], 'has no option 9'],
  ['s', ['Closed'], 'Options: 1 "Open", 2 "Done"'],
  ['d', { start: '2026-01-01 00:00:00' }, "takes a string 'YYYY-MM-DD HH:MM:SS'"],
  ['d', '2026-01-01', "send '2026-01-01 00:00:00'"],
  ['d', '2026-02-30 10:00:00', "'YYYY-MM-DD HH:MM:SS'"],
  ['rel', ['abc'], 'array of record ids'],
  ['u', [9101, 9102], 'takes one value; 2 were given'],
  ['e', [{ type: 'work', value: 'a@x.com' }], 'members type and email, not value'],
  ['e', [{ type: 'office', email: 'a@x.com' }], 'type must be work, home, other'],
  ['e', [{ type: 'work', email: 'not-an-address' }], 'is not an email address'],
  ['p', [{ type: 'cell', phone: '+1 555 1234' }], 'type must be work, mobile, home, other'],
  ['p', [{ type: 'work', phone: 'call me' }], 'is not a phone number'],
  ['l', [{ url: 'ftp://x' }], 'url must be an http or https address'],
  ['loc', '', 'takes an address string'],
  ['m', '100', "takes an object {value: '1250.00', currency: 'USD'}"],
  ['m', { value: '10', currency: 'GBP' }, 'currency must be one of USD'],
  ['m', { value: 'ten', currency: 'USD' }, "value must be an amount string such as '1250.00'"],
  ['file', [{ name: 'x' }], 'array of file ids or http(s) URLs'],
  ['ck', [{ text: 'a', checked: true }], 'members title and completed, not text and checked'],
  ['ck', [{ title: 'a', completed: 'yes' }], 'completed must be true or false'],
  ['ck', [{ title: 'a', due: 'tomorrow' }], "due must be 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM'"],
  ['calc', 5, 'set by the system and cannot be written'],
];

const accepted: [string, unknown, unknown][] = [
  ['t', 'x', { kind: 'text', value: 'x' }],
  ['n', '3.5', { kind: 'number', value: 3.5 }],
  ['c', ['b'], { kind: 'category', option_ids: [2] }],
  ['d', '2026-01-01 00:00:00', { kind: 'date', start: '2026-01-01 00:00:00', end: null }],
  ['e', [{ type: 'work', email: 'a@x.com' }], { kind: 'email', items: [{ type: 'work', value: 'a@x.com' }] }],
  ['m', { value: 12, currency: 'usd' }, { kind: 'money', value: '12', currency: 'USD' }],
  [
    'file',
    [7, 'https://files.example.com/a.pdf'],
    { kind: 'attachment', files: [{ file_id: 7 }, { url: 'https://files.example.com/a.pdf' }] },
  ],
  [
    'ck',
    [{ id: 3, title: ' Call ', completed: true }],
    {
      kind: 'checklist',
      items: [{ id: 3, title: 'Call', completed: true, description: null, due: null, assignee_user_id: null }],
    },
  ],
];

describe('field values are validated per field type', () => {
  it.each(errors)('%s: %j is refused with "%s"', (key, value, text) => {
    const r = validateFieldValue(field(key), value, `fields.${key}`);
    expect(r._tag).toBe('Left');
    if (r._tag === 'Left') {
      expect(r.left.message).toContain(text);
      expect(r.left).toMatchObject({ _tag: 'InvalidInput', parameter: `fields.${key}` });
    }
  });

  it.each(accepted)('%s: %j is accepted', (key, value, expected) => {
    expect(validateFieldValue(field(key), value, `fields.${key}`)).toEqual({ _tag: 'Right', right: expected });
  });

  it("lists the app's fields for an unknown key and names missing required fields", () => {
    const unknown = validateFields(testApp, { favourite: 1 }, 'create');
    expect(unknown._tag === 'Left' && unknown.left.message).toContain(
      'has no field "favourite". Fields: t (1, single_text), n (2, number)',
    );
    const app = {
      ...testApp,
      fields: testApp.fields.map((f) => (f.external_id === 't' ? { ...f, required: true } : f)),
    };
    const missing = validateFields(app, { n: 1 }, 'create');
    expect(missing._tag === 'Left' && missing.left.message).toContain('Required field missing: t (1, single_text)');
    const cleared = validateFields(app, { t: null }, 'update');
    expect(cleared._tag === 'Left' && cleared.left.message).toContain('is required and cannot be empty');
  });
});
