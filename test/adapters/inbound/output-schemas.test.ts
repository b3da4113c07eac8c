import { Ajv } from 'ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { mcpToolList } from '../../../adapters/inbound/mcp/mcp-tools.js';
import { post, testGateway } from '../../support/gateway.js';

// Tools that declare their result codec publish it as the MCP outputSchema, and every structured payload
// they answer with validates against it (issue 15, "Typed results"). The calls below cover each such tool.

const g = testGateway();
afterAll(() => g.close());

const schemas = new Map(
  mcpToolList(g.executor).flatMap((t) => ('outputSchema' in t && t.outputSchema ? [[t.name, t.outputSchema]] : [])),
);

const checked = new Set<string>();
const check = async (tool: string, args: Record<string, unknown>) => {
  const [group, name] = tool.split('_') as [string, string];
  const r = await post(g, `/v1/tools/${group}/${name}?format=json`, args);
  expect(r.status, `${tool}: ${JSON.stringify(r.body.error)}`).toBe(200);
  const schema = schemas.get(tool);
  expect(schema, `${tool} has an outputSchema`).toBeDefined();
  const validate = new Ajv({ strict: false }).compile(schema as object);
  expect(validate(r.body.data), `${tool}: ${JSON.stringify(validate.errors)}`).toBe(true);
  checked.add(tool);
  return r.body.data;
};

describe('typed results', () => {
  it('every declared outputSchema is an object schema that compiles', () => {
    expect(schemas.size).toBeGreaterThanOrEqual(12);
    for (const [name, schema] of schemas) {
      expect((schema as { type?: string }).type, name).toBe('object');
      expect(() => new Ajv({ strict: true }).compile(schema as object), name).not.toThrow();
    }
  });

  it('the crm, web, workspaces and files payloads validate against their outputSchema', async () => {
    await check('crm_getProperties', { object_type: 'contacts' });
    const made = await check('crm_createContact', {
      values: { email: 'typed.result@example.com', company: 'Typed Co' },
    });
    await check('crm_createContact', { values: { email: 'typed.idonly@example.com' }, id_only: true });
    await check('crm_getContact', { contact_id: made.id });
    await check('crm_updateContact', { contact_id: made.id, values: { lastname: 'Typed' } });
    await check('crm_searchContacts', { query: 'typed', limit: 1 });
    const found = await check('web_search', { query: 'Rosegold Realty' });
    await check('web_fetch', { url: found.results[0].url });
    const orgs = await check('workspaces_getOrganizations', {});
    const space = await check('workspaces_createSpace', {
      org_id: orgs.organizations[0].org_id,
      name: 'Typed results',
    });
    await check('workspaces_getSpace', { space_id: space.space_id });
    await check('workspaces_getSpace', { space_id: space.space_id, verbose: true });
    await check('workspaces_updateSpace', { space_id: space.space_id, name: 'Typed results, renamed' });
    const file = await post(g, '/v1/tools/files/writeFile?format=json', {
      folder_id: 'home',
      file_name: 'typed.txt',
      content: 'typed\n',
    });
    await check('files_getDownloadUrl', { item_id: file.body.data.Id });
    expect([...schemas.keys()].filter((name) => !checked.has(name))).toEqual([]);
  });

  it('the OpenAPI document gives the same schema as the 200 answer of each such operation', async () => {
    const doc = (await (await g.http.request('/openapi.json')).json()) as {
      paths: Record<string, { post: { responses: Record<string, any> } }>;
    };
    for (const [name, schema] of schemas) {
      const [group, tool] = name.split('_') as [string, string];
      const ok = doc.paths[`/v1/tools/${group}/${tool}`]!.post.responses['200'];
      expect(ok.content['application/json'].schema.properties.data.anyOf[1], name).toEqual(schema);
    }
  });
});
