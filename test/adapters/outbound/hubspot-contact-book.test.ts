import { configureResilience } from '../../../adapters/outbound/http/resilience.js';
import axios from 'axios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HubSpotContactBook } from '../../../adapters/outbound/hubspot/hubspot-contact-book.js';
import { StaticAccessToken } from '../../../adapters/outbound/hubspot/hubspot-tokens.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import type { GatewayError } from '../../../domain/shared/errors.js';
import { HUBSPOT_TEST_TOKEN, HubSpotServer, rateLimitBody } from '../../fakes/hubspot-server.js';
import { err, ok, uniqueTag } from '../../support/run.js';

// These tests read how one vendor answer is mapped: no retries, and no breaker opening on purpose-made
// failures (retries and the breaker have their own tests in test/adapters/inbound/upstream-faults.test.ts).
configureResilience({ maxAttempts: 1, breakerFailures: 1_000_000 });

const NOW = new Date('2026-03-10T18:00:00.000Z');
const search = { filterGroups: [], sorts: [], properties: ['email'], limit: 10 };

const bookFor = (server: HubSpotServer, token = HUBSPOT_TEST_TOKEN, baseUrl = server.baseUrl) =>
  new HubSpotContactBook({
    baseUrl,
    objectsPath: '/crm/v3/objects',
    tokens: new StaticAccessToken(token),
    timeoutMs: 3_000,
    portalId: '4242',
    clock: new FixedClock(NOW),
  });

const lastRequest = (server: HubSpotServer) => server.requests[server.requests.length - 1]!;

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

  describe('HubSpot errors', () => {
    it('400 for an unknown property → InvalidInput naming the property', async () => {
      const e = await err(book.create({ email: `${uniqueTag()}@example.com`, favourite_colour: 'blue' }, []));
      expect(e).toMatchObject({ _tag: 'InvalidInput', parameter: 'values.favourite_colour' });
      expect(e.message).toContain('"favourite_colour" does not exist');
      expect(e.message).toContain('crm_getProperties');
    });

    it('400 for an option label → InvalidInput that asks for the internal value', async () => {
      const { contact } = await ok(book.create({ email: `${uniqueTag()}@example.com` }, []));
      const e = await err(book.update(contact.id, { lifecyclestage: 'Customer' }));
      expect(e).toMatchObject({
        _tag: 'InvalidInput',
        parameter: 'values.lifecyclestage',
        expected: 'internal value of one of the options',
      });
    });

    it('400 with the property in errors[].context.propertyName → InvalidInput naming it', async () => {
      server.failNext(400, {
        status: 'error',
        message: 'Property values were not valid',
        correlationId: '7a1f6d2e-4f1b-4a86-9a8e-2d1c6f0e9b11',
        category: 'VALIDATION_ERROR',
        errors: [
          {
            message: 'NOPE was not one of the allowed options',
            code: 'INVALID_OPTION',
            context: { propertyName: ['hs_lead_status'] },
          },
        ],
      });
      const e = await err(book.update('51', { hs_lead_status: 'NOPE' }));
      expect(e).toMatchObject({
        _tag: 'InvalidInput',
        parameter: 'values.hs_lead_status',
        details: { hubspot_code: 'INVALID_OPTION', correlation_id: '7a1f6d2e-4f1b-4a86-9a8e-2d1c6f0e9b11' },
      });
      expect(e.message).toContain('hs_lead_status');
    });

    it('404 → NotFound, worded for an unknown id and for an archived contact', async () => {
      const unknown = await err(book.get('987654321', ['email']));
      expect(unknown).toMatchObject({ _tag: 'NotFound', resource: 'contact', id: '987654321' });
      expect(unknown.message).toContain('No contact with id 987654321');

      const { contact } = await ok(book.create({ email: `${uniqueTag()}@example.com` }, []));
      await ok(book.archive(contact.id));
      const archived = await err(book.get(contact.id, ['email']));
      expect(archived._tag).toBe('NotFound');
      expect(archived.message).toContain('recycling bin');
      expect((await err(book.update(contact.id, { firstname: 'X' }))).message).toContain('archived');
      await ok(book.archive(contact.id));
      expect((await err(book.archive('987654321')))._tag).toBe('NotFound');
    });

    it('409 → Conflict carrying the existing contact id', async () => {
      const email = `${uniqueTag()}@example.com`;
      const { contact } = await ok(book.create({ email }, []));
      const e = await err(book.create({ email: email.toUpperCase() }, []));
      expect(e).toMatchObject({ _tag: 'Conflict', details: { existing_id: contact.id } });
      expect(e.message).toContain(`(id ${contact.id})`);
    });

    it('401 → UpstreamFailure asking for re-authorisation, not retryable', async () => {
      const e = await err(bookFor(server, 'pat-na1-revoked').get('51', ['email']));
      expect(e).toMatchObject({
        _tag: 'UpstreamFailure',
        vendor: 'HubSpot',
        reauthorize: true,
        retryable: false,
        status: 401,
      });
      expect(e.message).toContain('must be re-authorised');
    });

    it('403 for a missing scope → UpstreamFailure naming the scope', async () => {
      const readOnly = await HubSpotServer.start({ grantedScopes: ['crm.objects.contacts.read'] });
      try {
        const e = await err(bookFor(readOnly).create({ email: `${uniqueTag()}@example.com` }, []));
        expect(e).toMatchObject({ _tag: 'UpstreamFailure', reauthorize: true, retryable: false, status: 403 });
        expect(e.message).toContain('crm.objects.contacts.write');
        expect(e.message).toContain('re-authorised');
        expect(readOnly.specViolations).toEqual([]);
      } finally {
        await readOnly.close();
      }
    });

    it("429 DAILY → RateLimited until midnight in the account's time zone (UTC until the account is known)", async () => {
      const fresh = bookFor(server);
      server.failNext(429, rateLimitBody('DAILY'));
      const before = await err(fresh.search(search));
      expect(before).toMatchObject({ _tag: 'RateLimited', retryAfterSeconds: 6 * 3600 });
      expect(before.message).toContain('2026-03-11T00:00:00.000Z');
      // A contact read without HubSpot's own url makes the book read the account once: US/Eastern (EDT, UTC-4).
      const { contact } = await ok(fresh.create({ email: `${uniqueTag()}@example.com` }, []));
      await ok(fresh.get(contact.id, []));
      expect(server.requests.filter((r) => r.path === '/account-info/v3/details').length).toBeGreaterThan(0);
      server.failNext(429, rateLimitBody('DAILY'));
      const e = await err(fresh.search(search));
      expect(e).toMatchObject({ _tag: 'RateLimited', retryAfterSeconds: 10 * 3600 });
      expect(e.message).toContain('daily');
      expect(e.message).toContain('US/Eastern');
      expect(e.message).toContain('2026-03-11T04:00:00.000Z');
    });

    it("builds record links on the account's own web host (uiDomain), read once", async () => {
      const eu = await HubSpotServer.start();
      try {
        eu.account = { ...eu.account, uiDomain: 'app-eu1.hubspot.com', timeZone: 'Europe/Berlin' };
        const euBook = bookFor(eu);
        const { contact } = await ok(euBook.create({ email: `${uniqueTag()}@example.com` }, []));
        expect(contact.url).toBe(`https://app-eu1.hubspot.com/contacts/4242/record/0-1/${contact.id}`);
        await ok(euBook.get(contact.id, []));
        expect(eu.requests.filter((r) => r.path === '/account-info/v3/details')).toHaveLength(1);
        expect(eu.specViolations).toEqual([]);
      } finally {
        await eu.close();
      }
    });

    it('429 with Retry-After → RateLimited for that long; a ten-secondly policy without it → 10 seconds', async () => {
      server.failNext(429, rateLimitBody('TEN_SECONDLY_ROLLING'), { 'Retry-After': '7' });
      expect(await err(book.search(search))).toMatchObject({ _tag: 'RateLimited', retryAfterSeconds: 7 });
      server.failNext(429, rateLimitBody('TEN_SECONDLY_ROLLING'));
      const e = await err(book.search(search));
      expect(e).toMatchObject({ _tag: 'RateLimited', retryAfterSeconds: 10 });
      expect(e.message).toContain('Retry in 10 seconds');
    });

    it('keeps property definitions, and reads them again after HubSpot names a property that does not exist', async () => {
      const cached = bookFor(server);
      const reads = () => server.requests.filter((r) => r.path === '/crm/v3/properties/contacts').length;
      const before = reads();
      await ok(cached.properties('contacts'));
      await ok(cached.properties('contacts'));
      expect(reads()).toBe(before + 1);
      const refused = await err(cached.create({ email: `${uniqueTag()}@example.com`, no_such_property: 'x' }, []));
      expect(refused).toMatchObject({ _tag: 'InvalidInput', details: { hubspot_code: 'PROPERTY_DOESNT_EXIST' } });
      await ok(cached.properties('contacts'));
      expect(reads()).toBe(before + 2);
    });

    it('429 with a Retry-After date years away is believed for at most a day', async () => {
      server.failNext(429, rateLimitBody('TEN_SECONDLY_ROLLING'), { 'Retry-After': 'Thu, 01 Jan 2099 00:00:00 GMT' });
      expect(await err(book.search(search))).toMatchObject({ _tag: 'RateLimited', retryAfterSeconds: 86_400 });
      server.failNext(429, rateLimitBody('TEN_SECONDLY_ROLLING'), { 'Retry-After': '99999999999' });
      expect(await err(book.search(search))).toMatchObject({ _tag: 'RateLimited', retryAfterSeconds: 86_400 });
    });

    it('5xx → retryable UpstreamFailure, whatever the body', async () => {
      server.failNext(500, {
        status: 'error',
        message: 'internal error',
        correlationId: 'c0ffee00-0000-4000-8000-000000000000',
        category: 'INTERNAL_ERROR',
      });
      expect(await err(book.search(search))).toMatchObject({ _tag: 'UpstreamFailure', retryable: true, status: 500 });
      server.failNext(502, '<html><body>Bad gateway</body></html>');
      expect(await err(book.get('51', ['email']))).toMatchObject({
        _tag: 'UpstreamFailure',
        retryable: true,
        status: 502,
      });
    });

    it('an answer of an unexpected shape → UpstreamFailure, not an exception', async () => {
      server.failNext(200, { id: 51, props: { email: 'x@example.com' } });
      const e = await err(book.get('51', ['email']));
      expect(e).toMatchObject({ _tag: 'UpstreamFailure', retryable: false, status: 200 });
      expect(e.message).toMatch(/^HubSpot answered with an unexpected shape/);
      expect(e.message).toContain('"properties"');

      server.failNext(200, {
        total: 1,
        results: [
          { id: '1', properties: { email: ['not', 'a', 'string'] }, createdAt: 'x', updatedAt: 'x', archived: false },
        ],
      });
      expect((await err(book.search(search))).message).toContain('results.0.properties.email');

      server.failNext(200, { results: [{ name: 'email' }] });
      expect((await err(book.properties('contacts')))._tag).toBe('UpstreamFailure');
    });

    it('a refused connection → retryable UpstreamFailure', async () => {
      const gone = await HubSpotServer.start();
      const url = gone.baseUrl;
      await gone.close();
      const e = await err(bookFor(server, HUBSPOT_TEST_TOKEN, url).get('51', ['email']));
      expect(e).toMatchObject({ _tag: 'UpstreamFailure', retryable: true });
      expect(e.message).toContain('ECONNREFUSED');
    });
  });

  it('never puts the token in an error message', async () => {
    const secret = 'pat-na1-SECRET-0f9e8d7c-6b5a-4321-9876-abcdefabcdef';
    const echoing = await HubSpotServer.start({ accessTokens: [secret] });
    const leaky = bookFor(echoing, secret);
    const errors: GatewayError[] = [];
    try {
      const echo = {
        status: 'error',
        message: `token ${secret} is not allowed here`,
        correlationId: 'c0ffee00-0000-4000-8000-000000000001',
        category: 'VALIDATION_ERROR',
      };
      for (const status of [400, 401, 403, 409, 418, 429, 500]) {
        echoing.failNext(status, echo);
        errors.push(await err(leaky.create({ email: `${uniqueTag()}@example.com`, company: 'Echo Inc' }, [])));
      }
      errors.push(await err(bookFor(echoing, 'pat-na1-wrong').get('51', ['email'])));
      const url = echoing.baseUrl;
      await echoing.close();
      errors.push(await err(bookFor(echoing, secret, url).get('51', ['email'])));
    } finally {
      await echoing.close().catch(() => {});
    }
    expect(errors).toHaveLength(9);
    for (const e of errors) expect(JSON.stringify(e)).not.toContain(secret);
    expect(errors[0]!.message).toContain('[redacted]');
  });
});

describe("the stand-in holds requests to HubSpot's OpenAPI documents", () => {
  let server: HubSpotServer;
  const auth = { Authorization: `Bearer ${HUBSPOT_TEST_TOKEN}` };
  beforeAll(async () => {
    server = await HubSpotServer.start();
  });
  afterAll(async () => {
    await server.close();
  });

  it('rejects and records a body member the document does not declare', async () => {
    const res = await axios.post(
      `${server.baseUrl}/crm/v3/objects/contacts`,
      { properties: { email: 'stray@example.com' }, associations: [], idProperty: 'email' },
      { headers: auth, validateStatus: () => true },
    );
    expect(res.status).toBe(400);
    expect(res.data).toMatchObject({ status: 'error', category: 'VALIDATION_ERROR' });
    expect(server.specViolations).toHaveLength(1);
    expect(server.specViolations[0]!.problems.join()).toContain('"idProperty"');
  });

  it('rejects object sorts, a numeric cursor, and `properties[]` query names', async () => {
    const before = server.specViolations.length;
    const body = {
      filterGroups: [],
      sorts: [{ propertyName: 'email', direction: 'ASCENDING' }],
      properties: [],
      limit: 10,
      after: 0,
    };
    const search = await axios.post(`${server.baseUrl}/crm/objects/2026-03/contacts/search`, body, {
      headers: auth,
      validateStatus: () => true,
    });
    expect(search.status).toBe(400);
    const read = await axios.get(`${server.baseUrl}/crm/v3/objects/contacts/51?properties[]=email`, {
      headers: auth,
      validateStatus: () => true,
    });
    expect(read.status).toBe(400);
    const problems = server.specViolations.slice(before).flatMap((v) => v.problems);
    expect(problems).toEqual(expect.arrayContaining(['body/sorts/0 must be string', 'body/after must be string']));
    expect(problems.some((p) => p.includes('"properties[]" is not declared'))).toBe(true);
  });

  it('rejects the documentation example that sends the association id as a number', async () => {
    const before = server.specViolations.length;
    const company = await axios.post(
      `${server.baseUrl}/crm/v3/objects/companies`,
      { properties: { name: 'Numeric Id Co' }, associations: [] },
      { headers: auth },
    );
    const body = {
      properties: { email: 'numeric@example.com' },
      associations: [
        {
          to: { id: Number(company.data.id) },
          types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 1 }],
        },
      ],
    };
    const res = await axios.post(`${server.baseUrl}/crm/v3/objects/contacts`, body, {
      headers: auth,
      validateStatus: () => true,
    });
    expect(res.status).toBe(400);
    expect(server.specViolations.slice(before).flatMap((v) => v.problems)).toEqual([
      'body/associations/0/to/id must be string',
    ]);
  });

  it('rejects a request without a bearer token', async () => {
    const res = await axios.get(`${server.baseUrl}/crm/v3/objects/contacts/51`, { validateStatus: () => true });
    expect(res.status).toBe(401);
    expect(server.specViolations[server.specViolations.length - 1]!.problems[0]).toContain('Authorization');
  });
});
