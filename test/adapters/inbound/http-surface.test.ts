import { describe, expect, it } from 'vitest';
import { TE } from '../../../domain/shared/fp.js';
import { rateLimited } from '../../../domain/shared/errors.js';
import { InMemoryContactBook } from '../../../adapters/outbound/memory/in-memory-contact-book.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import { CRM_ALL_TOKEN, DEMO_TOKEN, post, READER_TOKEN, request, testGateway } from '../../support/gateway.js';

const gateway = testGateway();

describe('tool routes', () => {
  it('runs a tool and answers text for a model by default', async () => {
    const r = await post(gateway, '/v1/tools/crm/getContact', { contact_id: '101' });
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(typeof r.body.data).toBe('string');
    expect(r.body.data).toContain('## Contact Maria Alvarez (id 101)');
    expect(r.body.data).toContain('maria.alvarez@rosegoldrealty.com');
    expect(r.headers.get('content-type')).toContain('application/json');
  });

  it('accepts a numeric id as a number or a numeric string', async () => {
    const asString = await post(gateway, '/v1/tools/crm/getContact?format=json', { contact_id: '102' });
    const asNumber = await post(gateway, '/v1/tools/crm/getContact?format=json', { contact_id: 102 });
    expect(asNumber.status).toBe(200);
    expect(asNumber.body).toEqual(asString.body);
    expect(asNumber.body.data.id).toBe('102');
  });

  it('puts the structured payload in data with format=json', async () => {
    const r = await post(gateway, '/v1/tools/crm/getContact?format=json', {
      contact_id: '101',
      return_properties: ['email'],
    });
    expect(r.body.data).toMatchObject({
      id: '101',
      archived: false,
      properties: { email: 'maria.alvarez@rosegoldrealty.com' },
    });
    expect(r.body.data.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('base64-encodes text and JSON data on request and says so', async () => {
    const text = await post(gateway, '/v1/tools/crm/getContact', { contact_id: '101' });
    const text64 = await post(gateway, '/v1/tools/crm/getContact?base64=true', { contact_id: '101' });
    expect(text64.body.encoding).toBe('base64');
    expect(Buffer.from(text64.body.data, 'base64').toString('utf8')).toBe(text.body.data);

    const json = await post(gateway, '/v1/tools/crm/getContact?format=json', { contact_id: '101' });
    const json64 = await post(gateway, '/v1/tools/crm/getContact?format=json&base64=true', { contact_id: '101' });
    expect(json64.body.encoding).toBe('base64');
    expect(JSON.parse(Buffer.from(json64.body.data, 'base64').toString('utf8'))).toEqual(json.body.data);
  });

  it('never encodes an error', async () => {
    const r = await post(gateway, '/v1/tools/crm/getContact?base64=true', { contact_id: '999' });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({
      success: false,
      error: {
        code: 'NOT_FOUND',
        message: expect.stringContaining('999'),
        details: { resource: 'contact', id: '999' },
      },
    });
    expect(r.body.encoding).toBeUndefined();
  });

  it('rejects an unknown format or base64 value', async () => {
    const r = await post(gateway, '/v1/tools/crm/getContact?format=xml', { contact_id: '101' });
    expect(r.status).toBe(400);
    expect(r.body.error.details.parameter).toBe('format');
  });
});

describe('parameters', () => {
  it('names an unknown parameter, suggests the right one and lists the accepted ones', async () => {
    const r = await post(gateway, '/v1/tools/crm/getContact', { contactId: '101' });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('INVALID_PARAMETER');
    expect(r.body.error.message).toContain('"contactId"');
    expect(r.body.error.message).toContain('Did you mean "contact_id"?');
    expect(r.body.error.details).toMatchObject({
      parameter: 'contactId',
      accepted: ['contact_id', 'return_properties'],
    });
  });

  it('names an unknown member inside a nested object', async () => {
    const r = await post(gateway, '/v1/tools/crm/searchContacts', {
      filter_groups: [{ filters: [{ property: 'email', operator: 'EQ', value: 'x' }] }],
    });
    expect(r.status).toBe(400);
    expect(r.body.error.details.parameter).toBe('filter_groups[0].filters[0].property');
    expect(r.body.error.message).toContain('propertyName');
  });

  it('reads null in an optional parameter as "not given" (OpenAI strict mode), but not in a required one', async () => {
    const r = await post(gateway, '/v1/tools/crm/searchContacts?format=json', {
      query: 'harbor',
      limit: null,
      sorts: null,
      after: null,
    });
    expect(r.status).toBe(200);
    expect(r.body.data.total).toBe(2);
    const required = await post(gateway, '/v1/tools/crm/getContact', { contact_id: null });
    expect(required.status).toBe(400);
    expect(required.body.error.details.parameter).toBe('contact_id');
  });

  it('names a missing required parameter and its type', async () => {
    const r = await post(gateway, '/v1/tools/crm/getContact', {});
    expect(r.status).toBe(400);
    expect(r.body.error.details).toEqual({ parameter: 'contact_id', expected: 'numeric string' });
    expect(r.body.error.message).toBe('Missing required parameter "contact_id" (numeric string).');
  });

  it('names a mistyped parameter, the expected type and what was sent', async () => {
    const r = await post(gateway, '/v1/tools/crm/searchContacts', { limit: 'lots' });
    expect(r.status).toBe(400);
    expect(r.body.error.details).toEqual({ parameter: 'limit', expected: 'integer from 1 to 100' });
    expect(r.body.error.message).toContain('"lots"');
    const nested = await post(gateway, '/v1/tools/crm/searchContacts', {
      filter_groups: [{ filters: [{ propertyName: 'email', operator: 'LIKE', value: 'x' }] }],
    });
    expect(nested.body.error.details.parameter).toBe('filter_groups[0].filters[0].operator');
    expect(nested.body.error.details.expected).toContain('"CONTAINS_TOKEN"');
  });

  it('answers 400, not 500, to malformed JSON and to a body that is not an object', async () => {
    const bad = await request(gateway, 'POST', '/v1/tools/crm/getContact', {
      rawBody: '{"contact_id": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({
      code: 'INVALID_PARAMETER',
      details: { parameter: 'body', expected: 'JSON object' },
    });
    const array = await post(gateway, '/v1/tools/crm/getContact', ['101']);
    expect(array.status).toBe(400);
    expect(array.body.error.details.parameter).toBe('body');
  });

  it('accepts no body at all when every parameter is optional, and asks for the required one otherwise', async () => {
    const search = await request(gateway, 'POST', '/v1/tools/crm/searchContacts');
    expect(search.status).toBe(200);
    expect(search.body.data).toContain('Showing 1-10 of 12.');
    const get = await request(gateway, 'POST', '/v1/tools/crm/getContact');
    expect(get.status).toBe(400);
    expect(get.body.error.details.parameter).toBe('contact_id');
  });

  it('refuses a body over the size limit with 413', async () => {
    const r = await post(gateway, '/v1/tools/crm/searchContacts', { query: 'x'.repeat(1_100_000) });
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('unknown tools and routes', () => {
  it('answers 404 for an unknown group and lists the groups', async () => {
    const r = await post(gateway, '/v1/tools/mail/send', {});
    expect(r.status).toBe(404);
    expect(r.body.error.message).toContain('files, records, workspaces, crm, skiptrace, web');
  });

  it("answers 404 for an unknown tool and names the group's tools", async () => {
    const r = await post(gateway, '/v1/tools/crm/getContacts', {});
    expect(r.status).toBe(404);
    expect(r.body.error.message).toContain('Unknown tool "crm_getContacts". Did you mean "crm_getContact"?');
    expect(r.body.error.details.did_you_mean).toEqual(['crm_getContact']);
    expect(r.body.error.details.tools).toEqual([
      'crm_createContact',
      'crm_getContact',
      'crm_updateContact',
      'crm_deleteContact',
      'crm_searchContacts',
      'crm_getProperties',
    ]);
    // A name far from every tool gets no guess, and an unknown group is named with how to list the tools.
    const far = await post(gateway, '/v1/tools/crm/zzzzzzzzzzzz', {});
    expect(far.body.error.details.did_you_mean).toBeUndefined();
    const group = await post(gateway, '/v1/tools/call', { name: 'record_listApps', arguments: {} });
    expect(group.body.error.message).toContain('Did you mean "records_listApps"?');
    expect(group.body.error.message).toContain('tools/list over MCP or GET /v1/tools over REST');
  });

  it("names the web group's tools for an unknown web tool", async () => {
    const r = await post(gateway, '/v1/tools/web/serch', {});
    expect(r.status).toBe(404);
    expect(r.body.error.message).toContain('Did you mean "web_search"');
    expect(r.body.error.details.tools).toEqual(['web_fetch', 'web_search']);
  });

  it('answers unknown routes and wrong methods in the envelope', async () => {
    const route = await request(gateway, 'GET', '/v2/nothing');
    expect(route.status).toBe(404);
    expect(route.body.success).toBe(false);
    const method = await request(gateway, 'GET', '/v1/tools/crm/getContact');
    expect(method.status).toBe(405);
    expect(method.headers.get('allow')).toBe('POST');
  });
});

describe('the tool-call form', () => {
  it('runs the same tool the same way as the REST route, with the same query parameters', async () => {
    for (const query of ['', '?format=json', '?base64=true']) {
      const rest = await post(gateway, `/v1/tools/crm/searchContacts${query}`, { query: 'rosegold', limit: 5 });
      const form = await post(gateway, `/v1/tools/call${query}`, {
        name: 'crm_searchContacts',
        arguments: { query: 'rosegold', limit: 5 },
      });
      expect(form.status).toBe(200);
      expect(form.body).toEqual(rest.body);
    }
  });

  it('validates arguments the same way', async () => {
    const r = await post(gateway, '/v1/tools/call', { name: 'crm_getContact', arguments: { contact: 1 } });
    expect(r.status).toBe(400);
    expect(r.body.error.details.parameter).toBe('contact');
  });

  it('explains a missing name, an unknown tool and an unknown member', async () => {
    expect((await post(gateway, '/v1/tools/call', { arguments: {} })).body.error.details.parameter).toBe('name');
    const unknown = await post(gateway, '/v1/tools/call', { name: 'crm_nope', arguments: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('searchContacts');
    const extra = await post(gateway, '/v1/tools/call', { name: 'crm_getContact', args: {} });
    expect(extra.status).toBe(400);
    expect(extra.body.error.details.parameter).toBe('args');
  });
});

describe('authentication and permissions', () => {
  it('answers 401 with WWW-Authenticate when the token is missing', async () => {
    const r = await post(gateway, '/v1/tools/crm/getContact', { contact_id: '101' }, null);
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('UNAUTHORIZED');
    expect(r.headers.get('www-authenticate')).toMatch(/^Bearer /);
  });

  it('answers 401 with error="invalid_token" for an unknown token', async () => {
    const r = await post(gateway, '/v1/tools/crm/getContact', { contact_id: '101' }, 'not-a-token');
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(r.raw).not.toContain('not-a-token');
  });

  it('answers 403 naming the permission a token lacks', async () => {
    const read = await post(gateway, '/v1/tools/crm/getContact', { contact_id: '101' }, READER_TOKEN);
    expect(read.status).toBe(200);
    const del = await post(gateway, '/v1/tools/crm/deleteContact', { contact_id: '101' }, READER_TOKEN);
    expect(del.status).toBe(403);
    expect(del.body.error).toMatchObject({
      code: 'FORBIDDEN',
      details: { permission: 'crm:destructive', tool: 'crm_deleteContact' },
    });
    expect(del.body.error.message).toContain('crm:destructive');
  });

  it('grants a whole group with <group>:* and nothing beyond it', async () => {
    const crm = await post(
      gateway,
      '/v1/tools/crm/updateContact',
      { contact_id: '104', values: { jobtitle: 'Analyst' } },
      CRM_ALL_TOKEN,
    );
    expect(crm.status).toBe(200);
    const skip = await post(
      gateway,
      '/v1/tools/skiptrace/skipTraceProperty',
      { street: '1011 Rosegold St', zip: '11010' },
      CRM_ALL_TOKEN,
    );
    expect(skip.status).toBe(403);
    expect(skip.body.error.details.permission).toBe('skiptrace:write');
  });

  it('keeps the demo token working with every permission', async () => {
    const r = await post(
      gateway,
      '/v1/tools/skiptrace/skipTraceProperty',
      { street: '1011 Rosegold St', zip: '11010' },
      DEMO_TOKEN,
    );
    expect(r.status).toBe(200);
  });
});

describe('request ids and failures', () => {
  it('puts a request id on every response and echoes a sane incoming one', async () => {
    const ok = await post(gateway, '/v1/tools/crm/getContact', { contact_id: '101' });
    expect(ok.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const err = await post(gateway, '/v1/tools/crm/getContact', {}, null);
    expect(err.headers.get('x-request-id')).toBeTruthy();
    const echoed = await request(gateway, 'POST', '/v1/tools/crm/getContact', {
      body: { contact_id: '101' },
      headers: { 'x-request-id': 'trace-42' },
    });
    expect(echoed.headers.get('x-request-id')).toBe('trace-42');
  });

  it('answers 500 without a stack trace or internals when a use case throws', async () => {
    const clock = new FixedClock(new Date());
    const broken = InMemoryContactBook.withDemoData({ clock });
    broken.get = () => () => Promise.reject(new Error('secret internal detail at /srv/app.js:12'));
    const g = testGateway({ contactBook: broken });
    const r = await post(g, '/v1/tools/crm/getContact', { contact_id: '101' });
    expect(r.status).toBe(500);
    expect(r.body.error.code).toBe('INTERNAL_ERROR');
    expect(r.raw).not.toContain('secret internal detail');
    expect(r.raw).not.toMatch(/\bat \S+:\d+/);
    expect(r.body.error.message).toContain(r.headers.get('x-request-id'));
  });

  it('maps an upstream rate limit to 429 with Retry-After and retry_after_seconds', async () => {
    const clock = new FixedClock(new Date());
    const limited = InMemoryContactBook.withDemoData({ clock });
    limited.search = () => TE.left(rateLimited('HubSpot allows 100 requests per 10 seconds; retry in 7 seconds.', 7));
    const g = testGateway({ contactBook: limited });
    const r = await post(g, '/v1/tools/crm/searchContacts', {});
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('7');
    expect(r.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { retry_after_seconds: 7 } });
  });
});

describe('GET /v1/tools', () => {
  it('lists every tool with hints and a JSON Schema, the same bytes every time', async () => {
    const a = await request(gateway, 'GET', '/v1/tools', { token: null });
    const b = await request(gateway, 'GET', '/v1/tools', { token: null });
    expect(a.status).toBe(200);
    expect(a.raw).toBe(b.raw);
    const names = a.body.data.tools.map((t: { name: string }) => t.name);
    expect(names).toContain('crm_getContact');
    expect(names).toContain('skiptrace_skipTraceProperty');
    const get = a.body.data.tools.find((t: { name: string }) => t.name === 'crm_getContact');
    expect(get).toMatchObject({
      group: 'crm',
      annotations: ['Read', 'Idempotent'],
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(get.inputSchema).toMatchObject({ type: 'object', required: ['contact_id'], additionalProperties: false });
  });

  it('gives the same answer as a second, independently built gateway', async () => {
    const other = testGateway();
    const a = await request(gateway, 'GET', '/v1/tools', { token: null });
    const b = await request(other, 'GET', '/v1/tools', { token: null });
    expect(b.raw).toBe(a.raw);
  });
});
