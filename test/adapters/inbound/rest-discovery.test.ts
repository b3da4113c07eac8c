import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN, post, READER_TOKEN, request, testGateway } from '../../support/gateway.js';

// Issue 30 over REST: the meta tools GET /v1/tools?discovery=search lists are served at their own paths
// (/v1/tools/gateway/...) and through the tool-call form, as a program that hands the listing to a model
// (OpenAI or Gemini function calling) sends the model's tool calls back.

const SECRET = 'a-confirm-secret-of-at-least-32-characters';
const gateway = testGateway({}, { GATEWAY_CONFIRM_DESTRUCTIVE: 'true', GATEWAY_CONFIRM_SECRET: SECRET });
afterAll(() => gateway.close());

const find = (query: string, token = DEMO_TOKEN, extra: Record<string, unknown> = {}, path = '?format=json') =>
  post(gateway, `/v1/tools/gateway/findTools${path}`, { query, ...extra }, token);

describe('REST tool search', () => {
  it('finds, describes and calls a read tool, answering as a direct call does', async () => {
    const found = await find('show the contact with id 101');
    expect(found.status).toBe(200);
    expect(found.body.data.query).toBe('show the contact with id 101');
    const names = found.body.data.tools.map((t: any) => t.name);
    expect(names).toContain('crm_getContact');
    const entry = found.body.data.tools.find((t: any) => t.name === 'crm_getContact');
    expect(entry.required).toEqual([{ name: 'contact_id', type: expect.any(String), from: 'crm_searchContacts' }]);

    const text = await find('show the contact with id 101', DEMO_TOKEN, {}, '');
    expect(typeof text.body.data).toBe('string');
    expect(text.body.data).toContain('**crm_getContact**');

    const described = await post(gateway, '/v1/tools/gateway/describeTool?format=json', { name: 'crm_getContact' });
    expect(described.status).toBe(200);
    expect(described.body.data.tool).toMatchObject({ name: 'crm_getContact', annotations: { readOnlyHint: true } });
    expect(described.body.data.tool.inputSchema.required).toEqual(['contact_id']);
    const describedText = await post(gateway, '/v1/tools/gateway/describeTool', { name: 'crm_getContact' });
    expect(describedText.body.data).toMatch(/^## crm_getContact\n\n\{/);

    for (const format of ['', '?format=json']) {
      const viaMeta = await post(gateway, `/v1/tools/gateway/callTool${format}`, {
        name: 'crm_getContact',
        arguments: { contact_id: '101' },
      });
      const direct = await post(gateway, `/v1/tools/crm/getContact${format}`, { contact_id: '101' });
      expect(viaMeta.status).toBe(200);
      expect(viaMeta.body).toEqual(direct.body);
    }
    const missing = await post(gateway, '/v1/tools/gateway/callTool', {
      name: 'crm_getContact',
      arguments: { contact_id: '999999' },
    });
    const missingDirect = await post(gateway, '/v1/tools/crm/getContact', { contact_id: '999999' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(missingDirect.body);
  });

  it('finds and calls a write tool through the direct path: idempotency keys and confirmation', async () => {
    const found = await find('create a new contact');
    expect(found.body.data.tools.map((t: any) => t.name)).toContain('crm_createContact');

    const key = `rest-discovery-${Date.now()}`;
    const create = (path: string, body: unknown) =>
      request(gateway, 'POST', path, { body, headers: { 'idempotency-key': key } });
    const args = { values: { email: `${key}@example.com` } };
    const first = await create('/v1/tools/gateway/callTool?format=json', {
      name: 'crm_createContact',
      arguments: args,
    });
    expect(first.status).toBe(200);
    const again = await create('/v1/tools/gateway/callTool?format=json', {
      name: 'crm_createContact',
      arguments: args,
    });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    // the same key on the tool's own path replays the same call: one path, one idempotency record
    const direct = await create('/v1/tools/crm/createContact?format=json', args);
    expect(direct.headers.get('idempotent-replayed')).toBe('true');
    expect(direct.body).toEqual(first.body);

    // a Destructive call through the meta tool is gated like a direct one, and its token runs it
    const gated = await post(gateway, '/v1/tools/gateway/callTool', {
      name: 'crm_deleteContact',
      arguments: { contact_id: '103' },
    });
    expect(gated.status).toBe(428);
    expect(gated.body.error.code).toBe('CONFIRMATION_REQUIRED');
    const token = gated.body.error.details.confirm_token as string;
    const done = await post(gateway, '/v1/tools/gateway/callTool', {
      name: 'crm_deleteContact',
      arguments: { contact_id: '103', confirm_token: token },
    });
    expect(done.status).toBe(200);
    expect((await post(gateway, '/v1/tools/crm/getContact', { contact_id: '103' })).status).toBe(404);
  });

  it('never shows a read-only key a tool it cannot call; calling one keeps the direct call’s 403', async () => {
    for (const query of ['delete a contact', 'create or update a contact', 'archive remove contact']) {
      const found = await find(query, READER_TOKEN, { limit: 20 });
      expect(found.status).toBe(200);
      for (const t of found.body.data.tools) expect(t.kind, `${query}: ${t.name}`).toBe('Read');
    }
    const describe = await post(gateway, '/v1/tools/gateway/describeTool', { name: 'crm_deleteContact' }, READER_TOKEN);
    expect(describe.status).toBe(404);
    expect(describe.body.error.message).toContain('No tool "crm_deleteContact" is available');
    const call = await post(
      gateway,
      '/v1/tools/gateway/callTool',
      { name: 'crm_deleteContact', arguments: { contact_id: '101' } },
      READER_TOKEN,
    );
    expect(call.status).toBe(403);
    const direct = await post(gateway, '/v1/tools/crm/deleteContact', { contact_id: '101' }, READER_TOKEN);
    expect(call.body).toEqual(direct.body);
    // the same query finds the write tools for a token that may call them
    const all = await find('delete a contact', DEMO_TOKEN, { limit: 20 });
    expect(all.body.data.tools.map((t: any) => t.name)).toContain('crm_deleteContact');
    expect((await post(gateway, '/v1/tools/gateway/findTools', { query: 'x' }, null)).status).toBe(401);
  });

  it('keeps to the toolsets of ?groups=', async () => {
    const found = await find('get a contact', DEMO_TOKEN, { limit: 20 }, '?format=json&groups=records');
    expect(found.body.data.tools.length).toBeGreaterThan(0);
    for (const t of found.body.data.tools) expect(t.name).toMatch(/^records_/);
    const described = await post(gateway, '/v1/tools/gateway/describeTool?groups=records', { name: 'crm_getContact' });
    expect(described.status).toBe(404);
    const called = await post(gateway, '/v1/tools/gateway/callTool?groups=records', {
      name: 'crm_getContact',
      arguments: { contact_id: '101' },
    });
    expect(called.status).toBe(404);
    // issue 41: a name that is no tool names the visible tools it most likely meant, by meaning too
    const unknown = await post(gateway, '/v1/tools/gateway/callTool', {
      name: 'crm_findPerson',
      arguments: { email: 'jane@acme.com' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.details.did_you_mean).toContain('crm_searchContacts');
    const bad = await post(gateway, '/v1/tools/gateway/findTools?groups=nope', { query: 'contact' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.parameter).toBe('groups');
  });

  it('bounds bad queries with a 400 naming the parameter', async () => {
    const cases: [string, unknown, string][] = [
      ['findTools', { query: 'x'.repeat(501) }, 'query'],
      ['findTools', { query: '' }, 'query'],
      ['findTools', {}, 'query'],
      ['findTools', { query: 'contact', limit: 21 }, 'limit'],
      ['findTools', { query: 'contact', groups: ['nope'] }, 'groups'],
      ['findTools', { query: 'contact', bogus: 1 }, 'bogus'],
      ['findTools', [1, 2], 'body'],
      ['describeTool', { name: 'a b' }, 'name'],
      ['callTool', { name: 'gateway_findTools', arguments: { query: 'x' } }, 'name'],
      ['callTool', { name: 'crm_getContact', arguments: [1] }, 'arguments'],
    ];
    for (const [tool, body, parameter] of cases) {
      const r = await post(gateway, `/v1/tools/gateway/${tool}`, body);
      expect(r.status, `${tool} ${JSON.stringify(body).slice(0, 60)}`).toBe(400);
      expect(r.body.error.code).toBe('INVALID_PARAMETER');
      expect(r.body.error.details.parameter).toBe(parameter);
    }
    // the tool's own parameters are checked by the tool, as on a direct call
    const inner = await post(gateway, '/v1/tools/gateway/callTool', { name: 'crm_getContact', arguments: {} });
    expect(inner.status).toBe(400);
    expect(inner.body.error.details.parameter).toBe('contact_id');
  });

  it('serves a model’s tool calls from the OpenAI and Gemini listings through the tool-call form', async () => {
    for (const dialect of ['openai', 'gemini']) {
      const listed = await request(gateway, 'GET', `/v1/tools?discovery=search&dialect=${dialect}&callable=true`);
      expect(listed.status).toBe(200);
      expect(JSON.stringify(listed.body.data.tools)).toContain('gateway_findTools');
    }
    // what a model answers: a function name and its arguments (OpenAI sends them as a JSON string)
    const modelCalls = [
      { name: 'gateway_findTools', arguments: JSON.stringify({ query: 'show contact 101' }) },
      { name: 'gateway_describeTool', arguments: JSON.stringify({ name: 'crm_getContact' }) },
      {
        name: 'gateway_callTool',
        arguments: JSON.stringify({ name: 'crm_getContact', arguments: { contact_id: '101' } }),
      },
    ];
    const answers = [];
    for (const call of modelCalls) {
      const r = await post(gateway, '/v1/tools/call', { name: call.name, arguments: JSON.parse(call.arguments) });
      expect(r.status, call.name).toBe(200);
      answers.push(r.body.data as string);
    }
    expect(answers[0]).toContain('crm_getContact');
    expect(answers[1]).toContain('"inputSchema"');
    expect(answers[2]).toContain('Maria Alvarez');

    const json = await post(gateway, '/v1/tools/call?format=json', {
      name: 'gateway_findTools',
      arguments: { query: 'show contact 101', limit: 2 },
    });
    expect(json.body.data).toMatchObject({ query: 'show contact 101', count: 2 });
    const keyed = {
      name: 'gateway_callTool',
      arguments: { name: 'crm_createContact', arguments: { values: { email: 'form-key@example.com' } } },
      idempotency_key: `form-${Date.now()}`,
    };
    const first = await post(gateway, '/v1/tools/call?format=json', keyed);
    const again = await post(gateway, '/v1/tools/call?format=json', keyed);
    expect(first.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const bad = await post(gateway, '/v1/tools/call', { name: 'gateway_findTools', arguments: { limit: 3 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.parameter).toBe('query');
    // a trailing slash reaches the meta tool as it reaches any tool
    expect((await post(gateway, '/v1/tools/gateway/findTools/', { query: 'contact' })).status).toBe(200);
  });
});
