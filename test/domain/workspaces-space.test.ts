import { describe, expect, it } from 'vitest';
import { E } from '../../domain/shared/fp.js';
import { checkKeepsAnAdmin, checkUserLimit, urlLabelFor, validateSpaceChanges } from '../../domain/workspaces/space.js';

describe('space rules', () => {
  it.each([
    ['Deal Flow 2026', 'deal-flow-2026'],
    ['  Café  Crème ', 'cafe-creme'],
    ['***', 'space'],
  ])('url label of %j is %j', (name, label) => expect(urlLabelFor(name)).toBe(label));

  it('keeps at least one admin', () => {
    expect(E.isRight(checkKeepsAnAdmin(1, [10, 11], [10]))).toBe(true);
    expect(E.isLeft(checkKeepsAnAdmin(1, [10, 11], [10, 11]))).toBe(true);
    expect(E.isLeft(checkKeepsAnAdmin(1, [10], [10], 'light'))).toBe(true);
    expect(E.isRight(checkKeepsAnAdmin(1, [10], [10], 'admin'))).toBe(true);
    expect(E.isRight(checkKeepsAnAdmin(1, [10], [12], 'light'))).toBe(true);
  });

  it('allows the user limit exactly, not one more', () => {
    expect(E.isRight(checkUserLimit({ space_id: 1, name: 'A' }, 8, 6, 2))).toBe(true);
    const over = checkUserLimit({ space_id: 1, name: 'A' }, 8, 6, 3);
    expect(E.isLeft(over) && over.left).toMatchObject({
      _tag: 'Forbidden',
      details: { user_limit: 8, member_count: 6, requested: 3 },
    });
  });

  it('keeps only given changes and trims the name', () => {
    expect(validateSpaceChanges({ name: '  New  ', privacy: undefined })).toEqual(E.right({ name: 'New' }));
    expect(E.isLeft(validateSpaceChanges({ url_label: 'Bad Label' }))).toBe(true);
  });
});
