import { JOB_TOOLS } from '../../../application/jobs/job-tools.js';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020Module from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN, READER_TOKEN, post, request, testGateway } from '../../support/gateway.js';

const Ajv2020 = Ajv2020Module as unknown as typeof Ajv2020Module.default;
const gateway = testGateway();
const META = ['gateway_findTools', 'gateway_describeTool', 'gateway_callTool'];
const ERROR_STATUSES = ['400', '401', '403', '404', '408', '409', '413', '422', '429', '500', '502', '503', '504'];
let doc: any;

beforeAll(async () => {
  const res = await request(gateway, 'GET', '/openapi.json', { token: null });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('application/json');
  doc = res.body;
});

/** Follows a local `$ref` in the document. */
const deref = (node: any): any => {
  if (!node?.$ref) return node;
  const path = (node.$ref as string).replace(/^#\//, '').split('/');
  return deref(path.reduce((n: any, key) => n?.[key], doc));
};

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document whose references all resolve', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(() => validator.resolveRefs()).not.toThrow();
    // The validator does catch a broken document.
    const broken = structuredClone(doc);
    delete broken.paths['/v1/tools/call'].post.responses;
    broken.paths['/v1/tools'].get.parameters[0].in = 'body';
    expect((await new Validator().validate(broken)).valid).toBe(false);
    expect(doc.servers[0].url).toBe(
      gateway.config.publicBaseUrl ?? `http://${gateway.config.host}:${gateway.config.port}`,
    );
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('has one POST operation per registered tool, with its request schema, every error status and the bearer scheme', () => {
    const toolPaths = Object.keys(doc.paths).filter((p) => /^\/v1\/tools\/[^/]+\/[^/]+$/.test(p));
    const tools = gateway.listTools();
    expect(toolPaths.sort()).toEqual(
      [
        ...tools.map((t) => `/v1/tools/${t.group}/${t.name.slice(t.group.length + 1)}`),
        ...META.map((n) => `/v1/tools/gateway/${n.slice('gateway_'.length)}`),
      ].sort(),
    );
    for (const tool of tools) {
      const item = doc.paths[`/v1/tools/${tool.group}/${tool.name.slice(tool.group.length + 1)}`];
      expect(Object.keys(item), tool.name).toEqual(['post']);
      const op = item.post;
      expect(op.operationId).toBe(tool.name);
      expect(op.security).toEqual([{ bearer: [] }]);
      expect(op.requestBody.content['application/json'].schema).toEqual(tool.inputSchema);
      expect(op.requestBody.required).toBe((tool.inputSchema.required ?? []).length > 0);
      // a tool that can run as a long job (issue 40) also answers 202 to `Prefer: respond-async`
      const job = JOB_TOOLS.has(tool.name);
      expect(Object.keys(op.responses).sort()).toEqual(['200', ...(job ? ['202'] : []), ...ERROR_STATUSES].sort());
      const params = op.parameters.map(deref).map((p: any) => `${p.in}:${p.name}`);
      expect(params.includes('header:Prefer'), tool.name).toBe(job);
      expect(params).toEqual(expect.arrayContaining(['query:format', 'query:base64']));
      expect(params.includes('header:Idempotency-Key'), tool.name).toBe(!tool.readOnlyHint);
      expect(deref(op.responses['401']).headers['WWW-Authenticate']).toBeDefined();
      expect(deref(op.responses['429']).headers['Retry-After']).toBeDefined();
    }
  });

  it('documents the tool-call form and the tool listing', () => {
    const call = doc.paths['/v1/tools/call'].post;
    expect(Object.keys(call.responses)).toEqual(expect.arrayContaining(['200', ...ERROR_STATUSES]));
    expect(deref(call.requestBody.content['application/json'].schema).properties.name.enum).toEqual([
      ...gateway.listTools().map((t) => t.name),
      ...META,
    ]);
    const list = doc.paths['/v1/tools'].get;
    expect(list.parameters.map((p: any) => p.name)).toEqual([
      'callable',
      'dialect',
      'groups',
      'output_schemas',
      'discovery',
    ]);
  });

  it('documents the tool-search meta tools at their own paths, and what they answer validates', async () => {
    const ajv = new Ajv2020({ strict: false });
    for (const name of META) {
      const op = doc.paths[`/v1/tools/gateway/${name.slice('gateway_'.length)}`].post;
      expect(op.operationId).toBe(name);
      expect(Object.keys(op.responses).sort()).toEqual(['200', ...ERROR_STATUSES].sort());
      const params = op.parameters.map(deref).map((p: any) => `${p.in}:${p.name}`);
      expect(params).toEqual(expect.arrayContaining(['query:format', 'query:base64', 'query:groups']));
      expect(() => ajv.compile(op.requestBody.content['application/json'].schema), name).not.toThrow();
    }
    const findOp = doc.paths['/v1/tools/gateway/findTools'].post;
    const accepts = ajv.compile(findOp.requestBody.content['application/json'].schema);
    expect(accepts({ query: 'delete a contact', limit: 3 })).toBe(true);
    expect(accepts({ query: 'x'.repeat(501) })).toBe(false);
    const success = ajv.compile(deref(deref(findOp.responses['200']).content['application/json'].schema));
    const found = await post(gateway, '/v1/tools/gateway/findTools?format=json', { query: 'contact' });
    expect(found.status).toBe(200);
    expect(success(found.body)).toBe(true);
  });

  it('describes what the gateway really answers: success and error bodies validate against the documented schemas', async () => {
    const ajv = new Ajv2020({ strict: false });
    const schemaOf = (path: string, status: string) => {
      const response = deref(doc.paths[path].post.responses[status]);
      return deref(response.content['application/json'].schema);
    };
    const check = async (path: string, body: unknown, token: string, expected: number) => {
      const res = await request(gateway, 'POST', path, { body, token });
      expect(res.status).toBe(expected);
      const validate = ajv.compile(schemaOf(path.replace(/\?.*$/, ''), String(expected)));
      expect(validate(res.body), JSON.stringify(validate.errors)).toBe(true);
    };
    await check('/v1/tools/crm/getContact?format=json', { contact_id: '101' }, DEMO_TOKEN, 200);
    await check('/v1/tools/crm/getContact', { contact_id: '101' }, DEMO_TOKEN, 200);
    await check('/v1/tools/crm/getContact', {}, DEMO_TOKEN, 400);
    await check('/v1/tools/crm/getContact', { contact_id: '101' }, 'wrong-token', 401);
    await check('/v1/tools/crm/deleteContact', { contact_id: '101' }, READER_TOKEN, 403);
    await check('/v1/tools/crm/getContact', { contact_id: '999999' }, DEMO_TOKEN, 404);
    const unknown = await post(gateway, '/v1/tools/call', { name: 'crm_nope', arguments: {} });
    expect(Object.keys(doc.paths['/v1/tools/call'].post.responses)).toContain(String(unknown.status));
  });

  it('request schemas are valid JSON Schema 2020-12 and accept what the gateway accepts', async () => {
    const ajv = new Ajv2020({ strict: false });
    for (const tool of gateway.listTools()) {
      const schema =
        doc.paths[`/v1/tools/${tool.group}/${tool.name.slice(tool.group.length + 1)}`].post.requestBody.content[
          'application/json'
        ].schema;
      expect(() => ajv.compile(schema), tool.name).not.toThrow();
    }
    const search = ajv.compile(
      doc.paths['/v1/tools/crm/searchContacts'].post.requestBody.content['application/json'].schema,
    );
    expect(search({ query: 'maria', limit: 5 })).toBe(true);
    expect(search({ query: 'maria', bogus: 1 })).toBe(false);
  });
});
