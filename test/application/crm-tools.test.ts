import { describe, expect, it } from 'vitest';
import { everyone, testGateway } from '../support/gateway.js';

const call = (g: ReturnType<typeof testGateway>, name: string, args: unknown, format: 'text' | 'json' = 'text') =>
  g.callTool(name, args, { principal: everyone, format });

describe('crm tools over the in-memory CRM', () => {
  it('creates a contact, links a new company, reads, updates and archives it', async () => {
    const g = testGateway();
    const created = await call(
      g,
      'crm_createContact',
      { values: { email: 'nina@lumen.io', firstname: 'Nina', company: 'Lumen Labs' } },
      'json',
    );
    expect(created.status).toBe(200);
    const data = created.body.success
      ? (created.body.data as { id: string; associated_company: { name: string; created: boolean } })
      : undefined;
    expect(data?.id).toMatch(/^\d+$/);
    expect(data?.associated_company).toMatchObject({ name: 'Lumen Labs', created: true });
    const id = data!.id;

    const text = await call(g, 'crm_createContact', { values: { email: 'omar@lumen.io', company: 'lumen labs' } });
    expect(text.body.success && text.body.data).toContain('Linked to existing company "Lumen Labs"');

    g.clock.advance(60_000);
    const updated = await call(
      g,
      'crm_updateContact',
      { contact_id: id, values: { lastname: 'Park', lifecyclestage: 'lead' } },
      'json',
    );
    expect(updated.body).toEqual({ success: true, data: { id, updated: true } });

    const read = await call(g, 'crm_getContact', { contact_id: id }, 'json');
    const contact = read.body.success
      ? (read.body.data as { properties: Record<string, string | null>; createdAt: string; updatedAt: string })
      : undefined;
    expect(contact?.properties).toMatchObject({
      firstname: 'Nina',
      lastname: 'Park',
      lifecyclestage: 'lead',
      company: 'Lumen Labs',
      phone: null,
    });
    expect(contact?.updatedAt).toBe('2026-11-21T10:01:00.000Z');
    expect(contact?.createdAt).toBe('2026-11-21T10:00:00.000Z');

    const deleted = await call(g, 'crm_deleteContact', { contact_id: id }, 'json');
    expect(deleted.body).toEqual({ success: true, data: { deleted: true, contactId: id } });
    const gone = await call(g, 'crm_getContact', { contact_id: id });
    expect(gone.status).toBe(404);
    expect(!gone.body.success && gone.body.error.message).toContain('archived');
  });

  it('returns the full contact on create when id_only is false', async () => {
    const g = testGateway();
    const r = await call(
      g,
      'crm_createContact',
      { values: { email: 'full@example.com', firstname: 'Full' }, id_only: false },
      'json',
    );
    expect(r.body.success && r.body.data).toMatchObject({
      properties: { email: 'full@example.com', firstname: 'Full' },
      archived: false,
    });
  });

  it('explains property mistakes a model can fix', async () => {
    const g = testGateway();
    const unknown = await call(g, 'crm_createContact', { values: { email: 'a@b.co', favourite: 'x' } });
    expect(unknown.status).toBe(400);
    expect(!unknown.body.success && unknown.body.error).toMatchObject({ details: { parameter: 'values.favourite' } });
    expect(!unknown.body.success && unknown.body.error.message).toContain('crm_getProperties');
    const option = await call(g, 'crm_updateContact', { contact_id: '101', values: { lifecyclestage: 'Customer' } });
    expect(!option.body.success && option.body.error.message).toContain('customer (Customer)');
    const empty = await call(g, 'crm_updateContact', { contact_id: '101', values: {} });
    expect(!empty.body.success && empty.body.error.details).toMatchObject({ parameter: 'values' });
    const dup = await call(g, 'crm_createContact', { values: { email: 'MARIA.ALVAREZ@rosegoldrealty.com' } });
    expect(dup.status).toBe(409);
    expect(!dup.body.success && dup.body.error.details).toEqual({ existing_id: '101' });
  });

  describe('searchContacts', () => {
    const g = testGateway();

    it('defaults to 10 results with firstname, lastname, email, and prints the exact next call', async () => {
      const first = await call(g, 'crm_searchContacts', {}, 'json');
      const page = first.body.success
        ? (first.body.data as {
            total: number;
            count: number;
            results: { id: string; properties: object }[];
            after?: string;
          })
        : undefined;
      expect(page).toMatchObject({ total: 12, count: 10, after: '10' });
      expect(Object.keys(page!.results[0]!.properties).sort()).toEqual([
        'createdate',
        'email',
        'firstname',
        'hs_object_id',
        'lastmodifieddate',
        'lastname',
      ]);

      const text = await call(g, 'crm_searchContacts', {});
      expect(text.body.success && text.body.data).toContain('Showing 1-10 of 12.');
      expect(text.body.success && text.body.data).toContain('Next page: crm_searchContacts {"after":"10"}');
      const second = await call(g, 'crm_searchContacts', { after: '10' });
      expect(second.body.success && second.body.data).toContain('Showing 11-12 of 12.');
      expect(second.body.success && second.body.data).toContain('This is the last page.');
    });

    it('ORs groups, ANDs filters, and sorts', async () => {
      const r = await call(
        g,
        'crm_searchContacts',
        {
          filter_groups: [
            {
              filters: [
                { propertyName: 'state', operator: 'EQ', value: 'FL' },
                { propertyName: 'lifecyclestage', operator: 'EQ', value: 'customer' },
              ],
            },
            { filters: [{ propertyName: 'state', operator: 'EQ', value: 'AZ' }] },
          ],
          sorts: [{ propertyName: 'lastname', direction: 'DESCENDING' }],
          return_properties: ['lastname', 'state'],
        },
        'json',
      );
      const names = r.body.success
        ? (r.body.data as { results: { properties: { lastname: string } }[] }).results.map((c) => c.properties.lastname)
        : [];
      expect(names).toEqual(['Thompson', 'Rossi', 'Okafor']);
    });

    it('uses value and highValue for BETWEEN and values for IN', async () => {
      const between = await call(
        g,
        'crm_searchContacts',
        {
          filter_groups: [
            {
              filters: [
                {
                  propertyName: 'createdate',
                  operator: 'BETWEEN',
                  value: '2026-01-06',
                  highValue: '2026-01-08T23:59:59Z',
                },
              ],
            },
          ],
        },
        'json',
      );
      expect(between.body.success && (between.body.data as { total: number }).total).toBe(3);
      const within = await call(
        g,
        'crm_searchContacts',
        { filter_groups: [{ filters: [{ propertyName: 'state', operator: 'IN', values: ['TX', 'WA'] }] }] },
        'json',
      );
      expect(within.body.success && (within.body.data as { total: number }).total).toBe(2);
    });

    it('rejects a BETWEEN without highValue and an IN without values, naming the member', async () => {
      const between = await call(g, 'crm_searchContacts', {
        filter_groups: [{ filters: [{ propertyName: 'createdate', operator: 'BETWEEN', value: '2026-01-01' }] }],
      });
      expect(between.status).toBe(400);
      expect(!between.body.success && between.body.error.details.parameter).toBe(
        'filter_groups[0].filters[0].highValue',
      );
      const inn = await call(g, 'crm_searchContacts', {
        filter_groups: [{ filters: [{ propertyName: 'state', operator: 'IN', value: 'TX' }] }],
      });
      expect(!inn.body.success && inn.body.error.message).toContain('"values"');
      const tooMany = await call(g, 'crm_searchContacts', {
        filter_groups: Array.from({ length: 6 }, () => ({
          filters: [{ propertyName: 'state', operator: 'HAS_PROPERTY' }],
        })),
      });
      expect(!tooMany.body.success && tooMany.body.error.details.parameter).toBe('filter_groups');
    });

    it('finds contacts by free text and says so when nothing matches', async () => {
      const r = await call(g, 'crm_searchContacts', { query: 'harbor' }, 'json');
      expect(r.body.success && (r.body.data as { total: number }).total).toBe(2);
      const none = await call(g, 'crm_searchContacts', { query: 'zzzz' });
      expect(none.body.success && none.body.data).toContain('No contacts match');
    });

    it('bounds limit to 1..100', async () => {
      expect((await call(g, 'crm_searchContacts', { limit: 0 })).status).toBe(400);
      expect((await call(g, 'crm_searchContacts', { limit: 101 })).status).toBe(400);
      expect((await call(g, 'crm_searchContacts', { limit: '100' })).status).toBe(200);
    });
  });

  it('lists properties with enumeration options', async () => {
    const g = testGateway();
    const r = await call(g, 'crm_getProperties', { object_type: 'contacts' });
    expect(r.body.success && r.body.data).toMatch(
      /\| lifecyclestage \| Lifecycle Stage \| enumeration \| subscriber \(Subscriber\), lead \(Lead\)/,
    );
    const companies = await call(g, 'crm_getProperties', { object_type: 'companies' }, 'json');
    expect(
      companies.body.success &&
        (companies.body.data as { properties: { name: string }[] }).properties.map((p) => p.name),
    ).toContain('industry');
    const bad = await call(g, 'crm_getProperties', { object_type: 'deals' });
    expect(!bad.body.success && bad.body.error.details).toEqual({
      parameter: 'object_type',
      expected: 'one of "contacts", "companies"',
    });
  });
});
