import { describe, expect, it } from 'vitest';
import { archiveContact, newContact, projectContact, updateContact } from '../../domain/crm/contact.js';
import { validatePropertyValues } from '../../domain/crm/property.js';
import { contactPropertyDefinitions } from '../../adapters/outbound/memory/demo/crm.js';
import { E } from '../../domain/shared/fp.js';

const t0 = new Date('2026-02-01T08:00:00.000Z');
const t1 = new Date('2026-02-01T09:30:00.000Z');

describe('contact transitions', () => {
  it('creates with system properties and equal timestamps', () => {
    const c = newContact('7', { email: 'a@b.co' }, t0);
    expect(c).toMatchObject({
      id: '7',
      createdAt: '2026-02-01T08:00:00.000Z',
      updatedAt: '2026-02-01T08:00:00.000Z',
      archived: false,
    });
    expect(c.properties).toMatchObject({
      email: 'a@b.co',
      hs_object_id: '7',
      createdate: c.createdAt,
      lastmodifieddate: c.createdAt,
    });
  });

  it('updates only the given properties and moves updatedAt', () => {
    const c = newContact('7', { email: 'a@b.co', firstname: 'A' }, t0);
    const u = updateContact(c, { firstname: 'B' }, t1);
    expect(E.isRight(u) && u.right.properties).toMatchObject({
      email: 'a@b.co',
      firstname: 'B',
      lastmodifieddate: t1.toISOString(),
    });
    expect(E.isRight(u) && u.right.createdAt).toBe(t0.toISOString());
  });

  it('archives once and refuses updates afterwards', () => {
    const a = archiveContact(newContact('7', {}, t0), t1);
    expect(a).toMatchObject({ archived: true, archivedAt: t1.toISOString() });
    expect(archiveContact(a, new Date('2030-01-01'))).toBe(a);
    expect(E.isLeft(updateContact(a, { firstname: 'x' }, t1))).toBe(true);
  });

  it('projects the requested properties, null for known unset ones, and drops unknown names', () => {
    const c = newContact('7', { email: 'a@b.co' }, t0);
    const p = projectContact(c, ['email', 'phone', 'nonsense'], (n) => n !== 'nonsense');
    expect(p.properties).toEqual({
      email: 'a@b.co',
      phone: null,
      createdate: t0.toISOString(),
      lastmodifieddate: t0.toISOString(),
      hs_object_id: '7',
    });
  });
});

describe('validatePropertyValues', () => {
  const defs = new Map(contactPropertyDefinitions.map((d) => [d.name, d]));
  it.each([
    [{ email: 'x@y.z' }, undefined],
    [{ lifecyclestage: 'lead' }, undefined],
    [{ lifecyclestage: '' }, undefined],
    [{ hs_buying_role: 'CHAMPION;END_USER' }, undefined],
    [{ hs_buying_role: 'CHAMPION;BOSS' }, 'values.hs_buying_role'],
    [{ lifecyclestage: 'Lead' }, 'values.lifecyclestage'],
    [{ num_notes: 'twelve' }, 'values.num_notes'],
    [{ hs_email_optout: 'yes' }, 'values.hs_email_optout'],
    [{ date_of_birth: '01/02/1990' }, 'values.date_of_birth'],
    [{ createdate: '2026-01-01' }, 'values.createdate'],
    [{ shoe_size: '42' }, 'values.shoe_size'],
  ])('%j -> %s', (values, parameter) => {
    const r = validatePropertyValues(defs, values);
    expect(E.isLeft(r) ? r.left.parameter : undefined).toBe(parameter);
  });
});
