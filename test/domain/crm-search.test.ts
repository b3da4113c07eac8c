import { describe, expect, it } from 'vitest';
import { compareContacts, matchesFilter, matchesQuery, validateSearch, type Filter } from '../../domain/crm/search.js';
import { newContact } from '../../domain/crm/contact.js';
import { E } from '../../domain/shared/fp.js';

const props = {
  email: 'ann.lee@example.com',
  firstname: 'Ann',
  num_notes: '12',
  createdate: '2026-01-07T09:00:00.000Z',
  lifecyclestage: 'lead',
  phone: '',
};

describe('matchesFilter', () => {
  const cases: [Filter, boolean][] = [
    [{ propertyName: 'firstname', operator: 'EQ', value: 'ann' }, true],
    [{ propertyName: 'firstname', operator: 'EQ', value: 'Anne' }, false],
    [{ propertyName: 'firstname', operator: 'NEQ', value: 'Bob' }, true],
    [{ propertyName: 'jobtitle', operator: 'NEQ', value: 'Bob' }, true],
    [{ propertyName: 'num_notes', operator: 'GT', value: '9' }, true],
    [{ propertyName: 'num_notes', operator: 'LT', value: '9' }, false],
    [{ propertyName: 'num_notes', operator: 'LTE', value: '12' }, true],
    [{ propertyName: 'num_notes', operator: 'GTE', value: '13' }, false],
    [{ propertyName: 'num_notes', operator: 'BETWEEN', value: '10', highValue: '12' }, true],
    [{ propertyName: 'createdate', operator: 'BETWEEN', value: '2026-01-07', highValue: '2026-01-08' }, true],
    [{ propertyName: 'createdate', operator: 'GT', value: String(Date.parse('2026-01-08')) }, false],
    [{ propertyName: 'lifecyclestage', operator: 'IN', values: ['customer', 'lead'] }, true],
    [{ propertyName: 'lifecyclestage', operator: 'NOT_IN', values: ['lead'] }, false],
    [{ propertyName: 'phone', operator: 'HAS_PROPERTY' }, false],
    [{ propertyName: 'phone', operator: 'NOT_HAS_PROPERTY' }, true],
    [{ propertyName: 'email', operator: 'HAS_PROPERTY' }, true],
    [{ propertyName: 'email', operator: 'CONTAINS_TOKEN', value: '*@example.com' }, true],
    [{ propertyName: 'email', operator: 'CONTAINS_TOKEN', value: 'ann.lee@example.com' }, true],
    [{ propertyName: 'email', operator: 'CONTAINS_TOKEN', value: '*@other.com' }, false],
    [{ propertyName: 'email', operator: 'NOT_CONTAINS_TOKEN', value: '*@other.com' }, true],
    [{ propertyName: 'missing', operator: 'EQ', value: 'x' }, false],
  ];
  it.each(cases)('%j -> %s', (filter, expected) => {
    expect(matchesFilter(props, filter)).toBe(expected);
  });
});

describe('matchesQuery', () => {
  it.each([
    ['ann', true],
    ['ANN LEE', true],
    ['example.com', true],
    ['lee@', false],
    ['bob', false],
    ['', true],
  ])('%s -> %s', (q, expected) => {
    expect(matchesQuery(props, q)).toBe(expected);
  });
});

describe('validateSearch', () => {
  const base = { filterGroups: [], sorts: [], properties: [], limit: 10 };
  it.each([
    [
      { filterGroups: [{ filters: [{ propertyName: 'a', operator: 'BETWEEN' as const, value: '1' }] }] },
      'filter_groups[0].filters[0].highValue',
    ],
    [
      { filterGroups: [{ filters: [{ propertyName: 'a', operator: 'IN' as const }] }] },
      'filter_groups[0].filters[0].values',
    ],
    [
      { filterGroups: [{ filters: [{ propertyName: 'a', operator: 'EQ' as const }] }] },
      'filter_groups[0].filters[0].value',
    ],
    [{ filterGroups: [{ filters: [] }] }, 'filter_groups[0].filters'],
    [{ limit: 0 }, 'limit'],
    [{ query: 'x'.repeat(3001) }, 'query'],
  ])('rejects %j at %s', (change, parameter) => {
    const r = validateSearch({ ...base, ...change });
    expect(E.isLeft(r) && r.left.parameter).toBe(parameter);
  });
  it('accepts HAS_PROPERTY without a value', () => {
    expect(
      E.isRight(
        validateSearch({ ...base, filterGroups: [{ filters: [{ propertyName: 'a', operator: 'HAS_PROPERTY' }] }] }),
      ),
    ).toBe(true);
  });
});

describe('compareContacts', () => {
  it('sorts by the given property, unset last, then by id', () => {
    const at = new Date('2026-01-01T00:00:00Z');
    const contacts = [
      newContact('3', { firstname: 'Bo' }, at),
      newContact('1', {}, at),
      newContact('2', { firstname: 'Al' }, at),
      newContact('4', { firstname: 'Bo' }, at),
    ];
    expect(
      [...contacts].sort(compareContacts([{ propertyName: 'firstname', direction: 'ASCENDING' }])).map((c) => c.id),
    ).toEqual(['2', '3', '4', '1']);
    expect(
      [...contacts].sort(compareContacts([{ propertyName: 'firstname', direction: 'DESCENDING' }])).map((c) => c.id),
    ).toEqual(['3', '4', '2', '1']);
  });
});
