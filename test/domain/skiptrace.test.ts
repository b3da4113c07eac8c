import { describe, expect, it } from 'vitest';
import { describeIdentity, identifyProperty, rankPhones } from '../../domain/skiptrace/skip-trace.js';
import { normaliseStreet } from '../../domain/skiptrace/address.js';
import { E } from '../../domain/shared/fp.js';

describe('identifyProperty', () => {
  it.each([
    [
      { street: '1 Main St', city: 'Austin', state: 'tx', zip: '78701' },
      { kind: 'address', street: '1 Main St', city: 'Austin', state: 'TX', zip: '78701' },
    ],
    [
      { street: '1 Main St', zip: '78701' },
      { kind: 'address', street: '1 Main St', zip: '78701' },
    ],
    [
      { street: '1 Main St', city: 'Austin', state: 'TX' },
      { kind: 'address', street: '1 Main St', city: 'Austin', state: 'TX' },
    ],
    [
      { apn: '12-3', county: 'Travis', state: 'TX' },
      { kind: 'apn', apn: '12-3', county: 'Travis', state: 'TX' },
    ],
    [
      { apn: '12-3', county_fips_code: '48453' },
      { kind: 'apn', apn: '12-3', countyFipsCode: '48453' },
    ],
    [
      { apn: '12-3', county: 'Travis', street: '1 Main St', zip: '78701' },
      { kind: 'apn', apn: '12-3', county: 'Travis' },
    ],
    [
      { apn: '12-3', street: '1 Main St', zip: '78701' },
      { kind: 'address', street: '1 Main St', zip: '78701' },
    ],
  ])('%j is identified', (input, expected) => {
    const r = identifyProperty(input);
    expect(E.isRight(r) && r.right).toMatchObject(expected);
  });

  it.each([
    [{}, 'street'],
    [{ street: '  ' }, 'street'],
    [{ street: '1 Main St', city: 'Austin' }, 'zip'],
    [{ apn: '12-3' }, 'county'],
    [{ apn: '12-3', state: 'TX' }, 'county'],
  ])('%j is refused at %s', (input, parameter) => {
    const r = identifyProperty(input);
    expect(E.isLeft(r) && r.left.parameter).toBe(parameter);
  });

  it('describes identities for headings', () => {
    expect(describeIdentity({ kind: 'address', street: '1 Main St', city: 'Austin', state: 'TX', zip: '78701' })).toBe(
      '1 Main St, Austin, TX 78701',
    );
    expect(describeIdentity({ kind: 'apn', apn: '9', countyFipsCode: '48453' })).toBe('APN 9 (county FIPS 48453)');
  });
});

describe('address helpers', () => {
  it.each([
    ['25866 West Globe Avenue', '25866 w globe ave'],
    ['1011 Rosegold St.', '1011 rosegold st'],
    ['742  Evergreen Terrace', '742 evergreen ter'],
  ])('%s -> %s', (input, expected) => {
    expect(normaliseStreet(input)).toBe(expected);
  });

  it('ranks phones by score, then reachability, then mobile', () => {
    const ranked = rankPhones([
      { number: 'a', score: 50, reachable: true },
      { number: 'b', score: 90, reachable: false },
      { number: 'c', score: 50, reachable: true, type: 'Mobile' },
      { number: 'd', score: 50, reachable: false },
    ]);
    expect(ranked.map((p) => p.number)).toEqual(['b', 'c', 'a', 'd']);
  });
});
