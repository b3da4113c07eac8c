import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContactBook } from '../../ports/contact-book.js';
import type { ContactSearch } from '../../domain/crm/search.js';
import { err, ok, uniqueTag } from '../support/run.js';

export interface ContactBookHarness {
  readonly book: ContactBook;
  close(): Promise<void>;
}

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const search = (s: Partial<ContactSearch>): ContactSearch => ({
  filterGroups: [],
  sorts: [],
  properties: ['firstname', 'lastname', 'email'],
  limit: 10,
  ...s,
});

/** The behaviour every ContactBook must show, whatever stands behind it. */
export const contactBookContract = (name: string, start: () => Promise<ContactBookHarness>): void => {
  describe(`ContactBook contract: ${name}`, () => {
    let h: ContactBookHarness;
    beforeAll(async () => {
      h = await start();
    });
    afterAll(async () => {
      await h?.close();
    });

    it('creates a contact with its values, system timestamps and an id', async () => {
      const tag = uniqueTag();
      const { contact } = await ok(
        h.book.create({ email: `${tag}@example.com`, firstname: 'Ada', lastname: tag }, ['email', 'firstname']),
      );
      expect(contact.id).toMatch(/^\d+$/);
      expect(contact.properties['email']).toBe(`${tag}@example.com`);
      expect(contact.createdAt).toMatch(ISO_MS);
      expect(contact.updatedAt).toMatch(ISO_MS);
      expect(contact.archived).toBe(false);
    });

    it('reads the requested properties, null when unset', async () => {
      const tag = uniqueTag();
      const { contact } = await ok(h.book.create({ email: `${tag}@example.com`, firstname: 'Grace' }, []));
      const read = await ok(h.book.get(contact.id, ['firstname', 'phone']));
      expect(read.id).toBe(contact.id);
      expect(read.properties['firstname']).toBe('Grace');
      expect(read.properties['phone']).toBeNull();
      expect(read.properties['hs_object_id']).toBe(contact.id);
      expect(read.properties).not.toHaveProperty('email');
    });

    it('answers NotFound for an unknown id', async () => {
      const e = await err(h.book.get('999999999', ['email']));
      expect(e._tag).toBe('NotFound');
    });

    it('updates only the given properties', async () => {
      const tag = uniqueTag();
      const { contact } = await ok(
        h.book.create({ email: `${tag}@example.com`, firstname: 'Alan', lastname: 'Before' }, []),
      );
      await ok(h.book.update(contact.id, { lastname: 'After', lifecyclestage: 'lead' }));
      const read = await ok(h.book.get(contact.id, ['firstname', 'lastname', 'lifecyclestage', 'email']));
      expect(read.properties).toMatchObject({
        firstname: 'Alan',
        lastname: 'After',
        lifecyclestage: 'lead',
        email: `${tag}@example.com`,
      });
      expect(Date.parse(read.updatedAt)).toBeGreaterThanOrEqual(Date.parse(read.createdAt));
    });

    it('archives on delete: reads and searches no longer see the contact', async () => {
      const tag = uniqueTag();
      const { contact } = await ok(h.book.create({ email: `${tag}@example.com`, lastname: tag }, []));
      await ok(h.book.archive(contact.id));
      expect((await err(h.book.get(contact.id, ['email'])))._tag).toBe('NotFound');
      const page = await ok(
        h.book.search(
          search({ filterGroups: [{ filters: [{ propertyName: 'lastname', operator: 'EQ', value: tag }] }] }),
        ),
      );
      expect(page.total).toBe(0);
    });

    it('answers NotFound when archiving an unknown id', async () => {
      expect((await err(h.book.archive('999999998')))._tag).toBe('NotFound');
    });

    it('creates or matches the company named in the values and links it as primary', async () => {
      const tag = uniqueTag();
      const companyName = `Acme ${tag}`;
      const first = await ok(
        h.book.create({ email: `a.${tag}@example.com`, company: companyName }, ['associatedcompanyid']),
      );
      expect(first.company).toMatchObject({ name: companyName, created: true });
      const second = await ok(h.book.create({ email: `b.${tag}@example.com`, company: companyName.toUpperCase() }, []));
      expect(second.company).toMatchObject({ id: first.company!.id, created: false });
      const read = await ok(h.book.get(second.contact.id, ['associatedcompanyid', 'company']));
      expect(read.properties['associatedcompanyid']).toBe(first.company!.id);
    });

    it('rejects a second contact with the same email as a conflict', async () => {
      const tag = uniqueTag();
      await ok(h.book.create({ email: `${tag}@example.com` }, []));
      const e = await err(h.book.create({ email: `${tag}@example.com` }, []));
      expect(e._tag).toBe('Conflict');
    });

    it('rejects unknown properties and invalid enumeration values', async () => {
      const tag = uniqueTag();
      const unknown = await err(h.book.create({ email: `${tag}@example.com`, favourite_colour: 'blue' }, []));
      expect(unknown._tag).toBe('InvalidInput');
      expect(unknown.message).toContain('favourite_colour');
      const badOption = await err(h.book.create({ email: `x${tag}@example.com`, lifecyclestage: 'Customer!' }, []));
      expect(badOption._tag).toBe('InvalidInput');
      expect(badOption.message).toContain('lifecyclestage');
    });

    describe('search', () => {
      const tag = uniqueTag();
      const ids: Record<string, string> = {};
      beforeAll(async () => {
        const people: Record<string, string>[] = [
          { firstname: 'Ann', lastname: `Alpha${tag}`, phone: '+1 555 0001', lifecyclestage: 'lead' },
          { firstname: 'Bob', lastname: `Bravo${tag}`, lifecyclestage: 'customer' },
          { firstname: 'Cid', lastname: `Charlie${tag}`, phone: '+1 555 0003', lifecyclestage: 'opportunity' },
        ];
        for (const p of people) {
          const { contact } = await ok(
            h.book.create({ ...p, city: tag, email: `${p['firstname']!.toLowerCase()}.${tag}@example.com` }, []),
          );
          ids[p['firstname']!] = contact.id;
        }
      });
      const inCity = { propertyName: 'city', operator: 'EQ' as const, value: tag };

      it('ANDs the filters of a group and sorts', async () => {
        const page = await ok(
          h.book.search(
            search({
              filterGroups: [{ filters: [inCity, { propertyName: 'phone', operator: 'HAS_PROPERTY' }] }],
              sorts: [{ propertyName: 'firstname', direction: 'DESCENDING' }],
            }),
          ),
        );
        expect(page.total).toBe(2);
        expect(page.results.map((c) => c.properties['firstname'])).toEqual(['Cid', 'Ann']);
      });

      it('ORs the groups', async () => {
        const page = await ok(
          h.book.search(
            search({
              filterGroups: [
                { filters: [inCity, { propertyName: 'lifecyclestage', operator: 'EQ', value: 'lead' }] },
                { filters: [inCity, { propertyName: 'lifecyclestage', operator: 'EQ', value: 'customer' }] },
              ],
              sorts: [{ propertyName: 'firstname', direction: 'ASCENDING' }],
            }),
          ),
        );
        expect(page.results.map((c) => c.id)).toEqual([ids['Ann'], ids['Bob']]);
      });

      it('supports IN, NOT_IN, NEQ, NOT_HAS_PROPERTY and CONTAINS_TOKEN', async () => {
        const names = async (filters: ContactSearch['filterGroups'][number]['filters']) =>
          (
            await ok(
              h.book.search(
                search({
                  filterGroups: [{ filters: [inCity, ...filters] }],
                  sorts: [{ propertyName: 'firstname', direction: 'ASCENDING' }],
                }),
              ),
            )
          ).results.map((c) => c.properties['firstname']);
        expect(
          await names([{ propertyName: 'lifecyclestage', operator: 'IN', values: ['lead', 'opportunity'] }]),
        ).toEqual(['Ann', 'Cid']);
        expect(
          await names([{ propertyName: 'lifecyclestage', operator: 'NOT_IN', values: ['lead', 'opportunity'] }]),
        ).toEqual(['Bob']);
        expect(await names([{ propertyName: 'lifecyclestage', operator: 'NEQ', value: 'customer' }])).toEqual([
          'Ann',
          'Cid',
        ]);
        expect(await names([{ propertyName: 'phone', operator: 'NOT_HAS_PROPERTY' }])).toEqual(['Bob']);
        expect(
          await names([{ propertyName: 'email', operator: 'CONTAINS_TOKEN', value: `bob.${tag}@example.com` }]),
        ).toEqual(['Bob']);
      });

      it('compares with LT, GTE and BETWEEN', async () => {
        const names = async (filters: ContactSearch['filterGroups'][number]['filters']) =>
          (
            await ok(
              h.book.search(
                search({
                  filterGroups: [{ filters: [inCity, ...filters] }],
                  sorts: [{ propertyName: 'firstname', direction: 'ASCENDING' }],
                }),
              ),
            )
          ).results.map((c) => c.properties['firstname']);
        expect(await names([{ propertyName: 'firstname', operator: 'LT', value: 'Bob' }])).toEqual(['Ann']);
        expect(await names([{ propertyName: 'firstname', operator: 'GTE', value: 'Bob' }])).toEqual(['Bob', 'Cid']);
        expect(
          await names([{ propertyName: 'firstname', operator: 'BETWEEN', value: 'Ann', highValue: 'Bob' }]),
        ).toEqual(['Ann', 'Bob']);
      });

      it('pages with a cursor until the last page', async () => {
        const base = search({
          filterGroups: [{ filters: [inCity] }],
          sorts: [{ propertyName: 'firstname', direction: 'ASCENDING' }],
          limit: 2,
        });
        const first = await ok(h.book.search(base));
        expect(first.total).toBe(3);
        expect(first.results).toHaveLength(2);
        expect(first.after).toBeDefined();
        const second = await ok(h.book.search({ ...base, after: first.after }));
        expect(second.results.map((c) => c.properties['firstname'])).toEqual(['Cid']);
        expect(second.after).toBeUndefined();
      });

      it('finds contacts by free text', async () => {
        const page = await ok(h.book.search(search({ query: `Charlie${tag}` })));
        expect(page.results.map((c) => c.id)).toEqual([ids['Cid']]);
      });

      it('returns only the requested properties', async () => {
        const page = await ok(
          h.book.search(search({ filterGroups: [{ filters: [inCity] }], properties: ['lifecyclestage'], limit: 1 })),
        );
        expect(page.results[0]!.properties).toHaveProperty('lifecyclestage');
        expect(page.results[0]!.properties).not.toHaveProperty('email');
      });
    });

    it('lists property definitions with enumeration options', async () => {
      const props = await ok(h.book.properties('contacts'));
      const email = props.find((p) => p.name === 'email');
      expect(email).toMatchObject({ type: 'string' });
      const stage = props.find((p) => p.name === 'lifecyclestage');
      expect(stage?.type).toBe('enumeration');
      expect(stage?.options?.map((o) => o.value)).toContain('customer');
      const companyProps = await ok(h.book.properties('companies'));
      expect(companyProps.map((p) => p.name)).toContain('name');
    });
  });
};
