import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureResilience } from '../../../adapters/outbound/http/resilience.js';
import type { HubSpotContactBook } from '../../../adapters/outbound/hubspot/hubspot-contact-book.js';
import { HUBSPOT_TEST_TOKEN, HubSpotServer } from '../../fakes/hubspot-server.js';
import { bookFor, lastRequest, search } from '../../support/hubspot-contact-book.js';
import { err, ok, uniqueTag } from '../../support/run.js';

// These tests read how one vendor answer is mapped: no retries, and no breaker opening on purpose-made
// failures (retries and the breaker have their own tests in test/adapters/inbound/upstream-faults.test.ts).
configureResilience({ maxAttempts: 1, breakerFailures: 1_000_000 });

// Here the requests the book sends; hubspot-contact-book-errors.test.ts has how HubSpot's errors are
// mapped, hubspot-stand-in.test.ts the stand-in's own checks against HubSpot's documents.

describe('HubSpotContactBook against the local HubSpot stand-in', () => {
  let server: HubSpotServer;
  let book: HubSpotContactBook;
  beforeAll(async () => {
    server = await HubSpotServer.start();
    book = bookFor(server);
  });
  afterAll(async () => {
    expect(server.specViolations).toEqual([]);
    expect(server.responseViolations).toEqual([]);
    await server.close();
  });

  describe('requests', () => {
    it('sends the bearer token, repeated `properties` (form, explode) and only declared parameters', async () => {
      const { contact } = await ok(book.create({ email: `${uniqueTag()}@example.com` }, []));
      await ok(book.get(contact.id, ['email', 'phone']));
      const r = lastRequest(server);
      expect(r.headers['authorization']).toBe(`Bearer ${HUBSPOT_TEST_TOKEN}`);
      expect(r.query).toEqual({ properties: ['email', 'phone'] });
    });

    it('creates the contact with a primary company association (type 1, string id)', async () => {
      const tag = uniqueTag();
      const created = await ok(book.create({ email: `${tag}@example.com`, company: `Initech ${tag}` }, []));
      const post = server.requests.find(
        (r) => r.method === 'POST' && r.path === '/crm/v3/objects/contacts' && JSON.stringify(r.body).includes(tag),
      )!;
      expect(post.body).toEqual({
        properties: { email: `${tag}@example.com`, company: `Initech ${tag}` },
        associations: [
          {
            to: { id: created.company!.id },
            types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 1 }],
          },
        ],
      });
      expect(created.company).toMatchObject({ name: `Initech ${tag}`, created: true });
    });

    it('searches with one string sort ("-name" descending) and a string cursor; a second sort is refused, not dropped', async () => {
      await ok(book.search({ ...search, sorts: [{ propertyName: 'lastname', direction: 'DESCENDING' }] }));
      expect(lastRequest(server).body).toMatchObject({
        sorts: ['-lastname'],
        after: '0',
        limit: 10,
        properties: ['email'],
      });
      const sent = server.requests.length;
      const refused = await err(
        book.search({
          ...search,
          sorts: [
            { propertyName: 'lastname', direction: 'DESCENDING' },
            { propertyName: 'firstname', direction: 'ASCENDING' },
          ],
        }),
      );
      expect(refused).toMatchObject({ _tag: 'InvalidInput', parameter: 'sorts' });
      expect(server.requests.length).toBe(sent);
    });

    it('clears a property given as null by sending "" (the documents allow only strings)', async () => {
      const { contact } = await ok(
        book.create({ email: `${uniqueTag()}@example.com`, phone: '+1 555 0100', firstname: null }, []),
      );
      expect(
        server.requests.find(
          (r) => r.method === 'POST' && JSON.stringify(r.body).includes(contact.properties['email']!),
        )?.body,
      ).toMatchObject({
        properties: { phone: '+1 555 0100' },
      });
      const updated = await ok(book.update(contact.id, { phone: null, lastname: 'Cleared' }));
      expect(lastRequest(server).body).toEqual({ properties: { phone: '', lastname: 'Cleared' } });
      expect(updated.properties).toMatchObject({ phone: null, lastname: 'Cleared' });
      expect((await ok(book.get(contact.id, ['phone']))).properties['phone']).toBeNull();
    });

    it('links a contact to its HubSpot record through the portal id', async () => {
      const { contact } = await ok(book.create({ email: `${uniqueTag()}@example.com` }, []));
      expect(contact.url).toBe(`https://app.hubspot.com/contacts/4242/record/0-1/${contact.id}`);
    });

    it('reads property definitions with options and read-only flags', async () => {
      const props = await ok(book.properties('contacts'));
      expect(props.find((p) => p.name === 'hs_object_id')?.readOnly).toBe(true);
      expect(props.find((p) => p.name === 'email')?.readOnly).toBeUndefined();
      expect(props.find((p) => p.name === 'hs_buying_role')).toMatchObject({
        type: 'enumeration',
        fieldType: 'checkbox',
      });
    });
  });
});
