import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureResilience } from '../../../adapters/outbound/http/resilience.js';
import type { HubSpotContactBook } from '../../../adapters/outbound/hubspot/hubspot-contact-book.js';
import type { GatewayError } from '../../../domain/shared/errors.js';
import { HUBSPOT_TEST_TOKEN, HubSpotServer, rateLimitBody } from '../../fakes/hubspot-server.js';
import { bookFor, search } from '../../support/hubspot-contact-book.js';
import { err, ok, uniqueTag } from '../../support/run.js';

// How HubSpotContactBook maps HubSpot's errors and odd answers (its requests are in
// hubspot-contact-book.test.ts), and that no error message carries the token.
//
// These tests read how one vendor answer is mapped: no retries, and no breaker opening on purpose-made
// failures (retries and the breaker have their own tests in test/adapters/inbound/upstream-faults.test.ts).
configureResilience({ maxAttempts: 1, breakerFailures: 1_000_000 });

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
