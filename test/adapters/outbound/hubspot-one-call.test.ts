import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureResilience } from '../../../adapters/outbound/http/resilience.js';
import { hubspotConnector } from '../../../adapters/outbound/hubspot/hubspot-connector.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import { CreateContact } from '../../../application/crm/create-contact.js';
import { HubSpotServer } from '../../fakes/hubspot-server.js';
import { bookFor } from '../../support/hubspot-contact-book.js';
import { ok, uniqueTag } from '../../support/run.js';

// Issue 31: crm_createContact with id_only makes one HubSpot call (warm caches), and the authorize URL is
// the one HubSpot's OAuth page describes.

configureResilience({ maxAttempts: 1, breakerFailures: 1_000_000 });

describe('crm_createContact with id_only', () => {
  let server: HubSpotServer;
  beforeAll(async () => {
    server = await HubSpotServer.start();
  });
  afterAll(async () => {
    expect(server.specViolations).toEqual([]);
    await server.close();
  });

  it('is one vendor call with warm caches: the create answer carries the id, nothing is read back', async () => {
    const book = bookFor(server);
    const create = new CreateContact(book);
    // warms the account details (read once per client)
    await ok(create.execute({ values: { email: `${uniqueTag()}@example.com` }, id_only: false }));
    server.requests.splice(0);
    const made = await ok(create.execute({ values: { email: `${uniqueTag()}@example.com` }, id_only: true }));
    expect(made.contact.id).toMatch(/^\d+$/);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /crm/v3/objects/contacts']);
  });

  it('still reads the contact back when the full contact is asked for and the create answer lacks properties', async () => {
    const create = new CreateContact(bookFor(server));
    await ok(create.execute({ values: { email: `${uniqueTag()}@example.com` }, id_only: false }));
    server.requests.splice(0);
    await ok(create.execute({ values: { email: `${uniqueTag()}@example.com` }, id_only: false }));
    expect(server.requests.map((r) => r.method)).toEqual(['POST', 'GET']);
  });
});

describe('HubSpot authorize URL', () => {
  const connector = hubspotConnector({
    apiBaseUrl: 'http://127.0.0.1:1',
    appBaseUrl: 'https://app.hubspot.com',
    objectsPath: '/crm/v3/objects',
    timeoutMs: 1000,
    clock: new FixedClock(new Date('2026-03-10T18:00:00Z')),
    app: {
      clientId: 'client-1',
      clientSecret: 'secret',
      scopes: ['crm.objects.contacts.read', 'crm.objects.contacts.write'],
    },
  });

  it('joins scopes with URL-encoded spaces (%20), as HubSpot documents, and keeps PKCE (S256)', () => {
    const url = connector.oauth!.authorizeUrl({
      state: 'st-1',
      redirectUri: 'https://gw.example.com/connections/hubspot/callback',
      codeChallenge: 'abc_DEF-123',
    });
    expect(url).toContain('scope=crm.objects.contacts.read%20crm.objects.contacts.write');
    expect(url).not.toContain('+');
    const parsed = new URL(url);
    expect(`${parsed.origin}${parsed.pathname}`).toBe('https://app.hubspot.com/oauth/authorize');
    expect(Object.fromEntries(parsed.searchParams)).toEqual({
      client_id: 'client-1',
      redirect_uri: 'https://gw.example.com/connections/hubspot/callback',
      scope: 'crm.objects.contacts.read crm.objects.contacts.write',
      state: 'st-1',
      code_challenge: 'abc_DEF-123',
      code_challenge_method: 'S256',
    });
  });
});
