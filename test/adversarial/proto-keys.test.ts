import { describe, expect, it } from 'vitest';
import { everyone, request, testGateway, type Answer } from '../support/gateway.js';

// JSON.parse turns a "__proto__" member into an own key. Copied onto a fresh object by assignment, it
// replaced that object's prototype: the smuggled members were then invisible to the unknown-parameter
// check and to the idempotency fingerprint, yet io-ts read them as parameters. Every such key is now
// refused like an unknown parameter, at any depth, on every surface. The bodies are raw strings, since
// JSON.stringify of an object literal would not carry the key.

const gateway = testGateway();

const raw = (path: string, body: string, headers: Record<string, string> = {}) =>
  request(gateway, 'POST', path, { rawBody: body, headers: { 'content-type': 'application/json', ...headers } });

const expectRefused = (r: Answer, parameter: string) => {
  expect(r.status, r.raw).toBe(400);
  expect(r.body.error.code).toBe('INVALID_PARAMETER');
  expect(r.body.error.details.parameter).toBe(parameter);
  expect(r.body.error.details.expected).toBe('no such parameter');
};

describe('__proto__, constructor and prototype keys in tool arguments', () => {
  it('refuses a top-level __proto__ that smuggles a parameter (REST)', async () => {
    const r = await raw(
      '/v1/tools/crm/getContact?format=json',
      '{"contact_id":"101","__proto__":{"return_properties":["phone"]}}',
    );
    expectRefused(r, '__proto__');
    expect(r.body.error.message).toContain('reserved');
  });

  it('refuses __proto__ nested in a declared object and inside an array', async () => {
    const nested =
      '{"filter_groups":[{"filters":[{"propertyName":"email","operator":"EQ","value":"x","__proto__":{"operator":"HAS_PROPERTY"}}]}]}';
    expectRefused(
      await raw('/v1/tools/crm/searchContacts?format=json', nested),
      'filter_groups[0].filters[0].__proto__',
    );
    const group =
      '{"filter_groups":[{"__proto__":{"filters":[]},"filters":[{"propertyName":"email","operator":"HAS_PROPERTY"}]}]}';
    expectRefused(await raw('/v1/tools/crm/searchContacts?format=json', group), 'filter_groups[0].__proto__');
  });

  it('refuses __proto__ even inside a free-form map (contact properties, record fields)', async () => {
    const contact = '{"values":{"email":"proto@example.com","__proto__":{"firstname":"Mallory"}}}';
    expectRefused(await raw('/v1/tools/crm/createContact?format=json', contact), 'values.__proto__');
    const record = '{"app_id":3001,"fields":{"name":"X","__proto__":{"name":"Y"}}}';
    expectRefused(await raw('/v1/tools/records/createRecord?format=json', record), 'fields.__proto__');
    const deep = '{"app_id":3001,"fields":{"name":"X","budget":{"value":"1","currency":"USD","__proto__":{}}}}';
    expectRefused(await raw('/v1/tools/records/createRecord?format=json', deep), 'fields.budget.__proto__');
  });

  it('refuses constructor and prototype where the schema names the members', async () => {
    expectRefused(
      await raw('/v1/tools/crm/getContact?format=json', '{"contact_id":"101","constructor":{"name":"x"}}'),
      'constructor',
    );
    expectRefused(await raw('/v1/tools/crm/getContact?format=json', '{"contact_id":"101","prototype":1}'), 'prototype');
    const sort = '{"sorts":[{"propertyName":"email","constructor":"x"}]}';
    expectRefused(await raw('/v1/tools/crm/searchContacts?format=json', sort), 'sorts[0].constructor');
  });

  it('leaves constructor to the tool inside a free-form map, where it is just a name', async () => {
    const r = await raw(
      '/v1/tools/crm/createContact?format=json',
      '{"values":{"email":"c@example.com","constructor":"x"}}',
    );
    expect(r.status).toBeLessThan(500);
    if (r.status !== 200) expect(r.body.error.message).not.toContain('reserved');
  });

  it('refuses __proto__ in the tool-call form, in the arguments and beside them', async () => {
    const inArgs =
      '{"name":"crm_getContact","arguments":{"contact_id":"101","__proto__":{"return_properties":["phone"]}}}';
    expectRefused(await raw('/v1/tools/call?format=json', inArgs), '__proto__');
    const beside = await raw(
      '/v1/tools/call?format=json',
      '{"name":"crm_getContact","arguments":{"contact_id":"101"},"__proto__":{"x":1}}',
    );
    expect(beside.status).toBe(400);
    expect(beside.body.error.code).toBe('INVALID_PARAMETER');
  });

  it('refuses __proto__ with an Idempotency-Key before any fingerprint or replay', async () => {
    const headers = { 'idempotency-key': 'proto-smuggle-1' };
    const first = await raw(
      '/v1/tools/files/createFolder?format=json',
      '{"parent_id":"home","name":"Proto A","__proto__":{"overwrite":true}}',
      headers,
    );
    expectRefused(first, '__proto__');
    // The key was never claimed: an honest call with it runs.
    const honest = await raw(
      '/v1/tools/files/createFolder?format=json',
      '{"parent_id":"home","name":"Proto A"}',
      headers,
    );
    expect(honest.status, honest.raw).toBe(200);
  });

  it('never lets __proto__ supply a parameter over MCP (the SDK drops the key before the executor)', async () => {
    const body =
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"crm_getContact","arguments":{"__proto__":{"contact_id":"102"}}}}';
    const r = await raw('/mcp', body, { accept: 'application/json, text/event-stream' });
    expect(r.status).toBe(200);
    expect(r.body.result.isError).toBe(true);
    expect(r.body.result.content[0].text).toContain('contact_id');
    expect(r.raw).not.toContain('"id":"102"');
  });

  it('refuses a __proto__ that a parser has already turned into a prototype', async () => {
    const args = Object.create({ contact_id: '102' }) as Record<string, unknown>;
    const r = await gateway.callTool('crm_getContact', args, { principal: everyone, format: 'json' });
    expect(r.status).toBe(400);
    expect((r.body as { error: { details: unknown } }).error.details).toMatchObject({
      parameter: '__proto__',
      expected: 'no such parameter',
    });
    const nested = {
      filter_groups: [
        Object.assign(Object.create({ filters: [] }) as object, {
          filters: [{ propertyName: 'email', operator: 'HAS_PROPERTY' }],
        }),
      ],
    };
    const n = await gateway.callTool('crm_searchContacts', nested, { principal: everyone, format: 'json' });
    expect((n.body as { error: { details: unknown } }).error.details).toMatchObject({
      parameter: 'filter_groups[0].__proto__',
    });
  });
});
