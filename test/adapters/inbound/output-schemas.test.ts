import { Ajv, type ValidateFunction } from 'ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { mcpToolList, toCallToolResult } from '../../../adapters/inbound/mcp/mcp-tools.js';
import { budgetedPair, present } from '../../../application/runtime/envelope.js';
import { everyone, testGateway } from '../../support/gateway.js';

// Every tool declares its result codec; tools/list publishes it as the MCP outputSchema, and every payload
// validates against it: the format=json data and the MCP structuredContent of the same call (issue 15,
// "Typed results"). The tour below calls every tool, in each of its result forms (summary_only, verbose,
// id_only, dry_run, count_only), on the demo data.

const g = testGateway();
afterAll(() => g.close());

// tools/list gives outlines by default (output_schemas=outline); the registry, OpenAPI and
// output_schemas=full give the full schemas. A payload must validate against both.
const ajv = new Ajv({ strict: true });
const schemas = new Map(mcpToolList(g.executor).map((t) => [t.name, t.outputSchema]));
const full = new Map(g.executor.registry.listing().map((t) => [t.name, t.outputSchema]));
const validators = new Map<string, ValidateFunction>();
const compiled = (key: string, schema: unknown) => {
  if (!validators.has(key)) validators.set(key, ajv.compile(schema as object));
  return validators.get(key)!;
};
const validatorOf = (tool: string) => compiled(`full:${tool}`, full.get(tool));
const outlineOf = (tool: string) => compiled(`outline:${tool}`, schemas.get(tool));

const checked = new Set<string>();
let n = 0;
const check = async (tool: string, args: Record<string, unknown>): Promise<any> => {
  const registered = g.executor.registry.get(tool);
  expect(registered, tool).toBeDefined();
  const result = await g.executor.run({ tool: registered!, args, principal: everyone, requestId: `typed-${++n}` });
  expect(result.ok, `${tool}: ${JSON.stringify(result.ok ? '' : result.error)}`).toBe(true);
  const json = present(result, 'json', false).body;
  expect(json.success).toBe(true);
  const data = json.success ? json.data : undefined;
  const structured = toCallToolResult(result).structuredContent;
  expect(structured, `${tool} gives structuredContent`).toBeDefined();
  for (const validate of [validatorOf(tool), outlineOf(tool)]) {
    expect(validate(data), `${tool} format=json: ${JSON.stringify(validate.errors)}`).toBe(true);
    expect(validate(structured), `${tool} structuredContent: ${JSON.stringify(validate.errors)}`).toBe(true);
  }
  checked.add(tool);
  return data;
};

describe('typed results', () => {
  it('every tool publishes an outputSchema: an object schema that compiles in strict mode', () => {
    expect(schemas.size).toBe(g.executor.registry.listing().length);
    for (const [name, schema] of [...schemas, ...full]) {
      expect(schema, name).toBeDefined();
      expect((schema as { type?: string }).type, name).toBe('object');
      expect(() => new Ajv({ strict: true }).compile(schema as object), name).not.toThrow();
    }
  });

  it('the payload of every tool validates against its outputSchema, as format=json and as structuredContent', async () => {
    // records
    const { apps } = await check('records_listApps', {});
    const leads = apps.find((a: { name: string }) => a.name === 'Leads').id;
    const app = await check('records_getApp', { app_id: leads });
    await check('records_getAppViews', { app_id: leads });
    const page = await check('records_listRecords', { app_id: leads, limit: 3 });
    await check('records_listRecords', { app_id: leads, limit: 2, verbose: true });
    await check('records_listRecords', { app_id: leads, count_only: true });
    await check('records_filterRecords', { app_id: leads, filters: [], limit: 2 });
    const rid = page.records[0].record_id;
    await check('records_getRecord', { record_id: rid });
    await check('records_getRecord', { record_id: rid, verbose: true });
    const made = await check('records_createRecord', { app_id: leads, fields: { name: 'Typed result' } });
    await check('records_createRecord', { app_id: leads, fields: { name: 'Typed, whole' }, id_only: false });
    await check('records_updateRecord', { record_id: made.record_id, fields: { name: 'Typed result 2' } });
    await check('records_updateRecord', { record_id: made.record_id, fields: { score: 5 }, id_only: false });
    await check('records_getRecordRevisions', { record_id: made.record_id });
    await check('records_getRecordRevisionDelta', { record_id: made.record_id, revision_from: 0, revision_to: 1 });
    const comment = await check('records_createRecordComment', { record_id: rid, value: 'Typed comment' });
    await check('records_getRecordComment', { comment_id: comment.comment_id });
    await check('records_listRecordComments', { record_id: rid });
    await check('records_deleteRecordComment', { comment_id: comment.comment_id, dry_run: true });
    await check('records_deleteRecordComment', { comment_id: comment.comment_id });
    const relation = app.fields.find((f: { field_type: string }) => f.field_type === 'single_relation');
    await check('records_getRelatedRecords', {
      app_id: leads,
      related_app_id: relation.referenced_app_ids[0],
      record_ids: [rid],
    });
    await check('records_findRelatableRecords', { field_id: relation.field_id, text: 'a' });
    await check('records_aggregateRecords', { app_id: leads });
    await check('records_aggregateRecords', {
      app_id: leads,
      aggregations: [{ field_id: 'budget', operation: 'sum' }],
      group_by: { field_id: 'status' },
    });
    const batch = await check('records_batchCreateRecords', {
      app_id: leads,
      inputs: [{ fields: { name: 'Typed batch' } }],
    });
    await check('records_getBatchResults', { batch_id: batch.batch_id });
    await check('records_batchUpdateRecords', {
      app_id: leads,
      updates: [{ record_id: made.record_id, fields: { name: 'Typed batch 2' } }],
    });
    await check('records_deleteRecord', { record_id: made.record_id, dry_run: true });
    await check('records_deleteRecord', { record_id: made.record_id });
    await check('records_restoreRecord', { record_id: made.record_id });
    await check('records_uploadFiles', { files: [{ name: 'typed.txt', content_base64: 'dHlwZWQ=' }] });

    // files
    await check('files_getTopLevelFolders', {});
    await check('files_getTopLevelFolders', { summary_only: true });
    await check('files_listChildren', { folder_id: 'home', top: 3 });
    await check('files_listChildren', { folder_id: 'home', summary_only: true });
    await check('files_searchItems', { query: 'lease', top: 2 });
    await check('files_searchItems', { query: 'lease', summary_only: true });
    const folder = await check('files_createFolder', { parent_id: 'home', name: 'Typed folder' });
    const file = await check('files_writeFile', { folder_id: 'home', file_name: 'typed.txt', content: 'typed\n' });
    await check('files_readFile', { item_id: file.Id });
    await check('files_getItem', { item_id: file.Id });
    await check('files_getItem', { item_id: 'home', include_children: true, summary_only: true });
    await check('files_getItem', { item_id: 'home', include_children: true });
    await check('files_getDownloadUrl', { item_id: file.Id });
    await check('files_getUploadUrl', { folder_id: 'home', file_name: 'typed-upload.txt' });
    await check('files_updateItem', { item_id: file.Id, name: 'typed-renamed.txt' });
    const copy = await check('files_copyItem', { item_id: file.Id, target_folder_id: folder.Id });
    await check('files_moveItem', { item_id: copy.Id, target_folder_id: 'home', overwrite: true });
    // the move replaced the original (same name, overwrite), so the copy is the file from here on
    const share = await check('files_createShare', { share_type: 'Send', items: [copy.Id] });
    await check('files_getShare', { share_id: share.Id });
    await check('files_getShare', { share_id: share.Id, summary_only: true });
    await check('files_listShares', {});
    await check('files_listShares', { summary_only: true });
    await check('files_updateShare', { share_id: share.Id, title: 'Typed share' });
    await check('files_sendShareNotification', { share_id: share.Id, recipients: ['typed@example.com'] });
    await check('files_deleteShare', { share_id: share.Id, dry_run: true });
    await check('files_deleteShare', { share_id: share.Id });
    await check('files_deleteItem', { item_id: folder.Id, dry_run: true });
    await check('files_deleteItem', { item_id: folder.Id });

    // workspaces
    const orgs = await check('workspaces_getOrganizations', {});
    const space = await check('workspaces_createSpace', {
      org_id: orgs.organizations[0].org_id,
      name: 'Typed results',
    });
    await check('workspaces_getSpace', { space_id: space.space_id });
    await check('workspaces_getSpace', { space_id: space.space_id, verbose: true });
    await check('workspaces_updateSpace', { space_id: space.space_id, name: 'Typed results, renamed' });
    const members = await check('workspaces_getSpaceMembers', { space_id: orgs.organizations[0].spaces[0].space_id });
    const regular = members.members.find((m: { role: string }) => m.role === 'regular').profile;
    await check('workspaces_addMemberToSpace', {
      space_id: space.space_id,
      mails: ['typed@example.com'],
      role: 'regular',
    });
    await check('workspaces_addMemberToSpace', { space_id: space.space_id, users: [regular.user_id], role: 'regular' });
    await check('workspaces_updateSpaceMemberships', {
      space_id: space.space_id,
      user_ids: [regular.user_id],
      role: 'light',
    });
    await check('workspaces_endSpaceMemberships', {
      space_id: space.space_id,
      user_ids: [regular.user_id],
      dry_run: true,
    });
    await check('workspaces_endSpaceMemberships', { space_id: space.space_id, user_ids: [regular.user_id] });
    await check('workspaces_deleteSpace', { space_id: space.space_id, dry_run: true });
    await check('workspaces_deleteSpace', { space_id: space.space_id });

    // crm
    await check('crm_getProperties', { object_type: 'contacts' });
    const contact = await check('crm_createContact', {
      values: { email: 'typed.result@example.com', company: 'Typed Co' },
    });
    await check('crm_createContact', { values: { email: 'typed.idonly@example.com' }, id_only: true });
    await check('crm_getContact', { contact_id: contact.id });
    await check('crm_updateContact', { contact_id: contact.id, values: { lastname: 'Typed' } });
    await check('crm_searchContacts', { query: 'typed', limit: 1 });
    await check('crm_deleteContact', { contact_id: contact.id, dry_run: true });
    await check('crm_deleteContact', { contact_id: contact.id });

    // skiptrace and web
    await check('skiptrace_skipTraceProperty', {
      street: '1011 Rosegold St',
      city: 'Franklin Square',
      state: 'NY',
      zip: '11010',
    });
    const found = await check('web_search', { query: 'Rosegold Realty' });
    await check('web_fetch', { url: found.results[0].url });

    const all = g.executor.registry.listing().map((t) => t.name);
    expect(all.filter((name) => !checked.has(name))).toEqual([]);
  });

  it('a list cut by the budget still validates: its rows, and `truncated` naming the call for the rest', async () => {
    const lists: [string, Record<string, unknown>][] = [
      ['records_listRecords', { app_id: 3001, limit: 30 }],
      ['records_filterRecords', { app_id: 3001, filters: [], limit: 30 }],
      ['files_listChildren', { folder_id: 'home' }],
      ['workspaces_getSpaceMembers', { space_id: 2001 }],
      ['crm_searchContacts', { limit: 30 }],
    ];
    for (const [tool, args] of lists) {
      const registered = g.executor.registry.get(tool)!;
      expect(registered.declaration.rows, `${tool} declares its rows`).toBeDefined();
      const result = await g.executor.run({
        tool: registered,
        args,
        principal: everyone,
        requestId: `typed-cut-${tool}`,
      });
      // the JSON's own budget as small as the text's: a page is cut where either reaches its budget
      if (!result.ok) throw new Error(result.error.message);
      const cut = budgetedPair(result, { text: 1000, json: 1000 }, 'mcp').payload as Record<string, any>;
      expect(cut['truncated'], `${tool} was cut`).toBeDefined();
      expect(cut['truncated'].next.tool).toBe(tool);
      for (const validate of [validatorOf(tool), outlineOf(tool)]) {
        expect(validate(cut), `${tool} cut: ${JSON.stringify(validate.errors)}`).toBe(true);
      }
    }
  });

  it('a payload member the declaration does not name fails validation (the schemas are not open by accident)', () => {
    const validate = validatorOf('records_getRecordComment');
    expect(
      validate({
        comment_id: 1,
        created_on: '2026-01-01 00:00:00',
        files: [],
        ref: { type: 'record', id: 2 },
        value: 'x',
        user: { user_id: 3, name: 'A' },
        created_by: { user_id: 3, name: 'A' },
        surprise: true,
      }),
    ).toBe(false);
  });

  it('tools/list gives outlines by default, the full schemas with output_schemas=full, none with none', () => {
    const fullList = new Map(mcpToolList(g.executor, 'full').map((t) => [t.name, t.outputSchema]));
    expect(fullList).toEqual(full);
    expect(mcpToolList(g.executor, 'none').every((t) => t.outputSchema === undefined)).toBe(true);
    // the outline names and types the answer's members; rows and nested objects are "object"
    const record = schemas.get('records_getRecord') as any;
    expect(record.properties.record_id).toEqual({ type: 'number' });
    expect(record.properties.created_by).toEqual({ type: 'object' });
    const list = schemas.get('records_listRecords') as any;
    expect(list.properties.records).toEqual({ type: 'array', items: { type: 'object' } });
    expect(JSON.stringify(schemas.get('records_listRecords')).length).toBeLessThan(
      JSON.stringify(full.get('records_listRecords')).length,
    );
  });

  it('the OpenAPI document gives the same schema as the 200 answer of each operation', async () => {
    const doc = (await (await g.http.request('/openapi.json')).json()) as {
      paths: Record<string, { post: { responses: Record<string, any> } }>;
    };
    for (const [name, schema] of full) {
      const [group, tool] = name.split('_') as [string, string];
      const ok = doc.paths[`/v1/tools/${group}/${tool}`]!.post.responses['200'];
      expect(ok.content['application/json'].schema.properties.data.anyOf[1], name).toEqual(schema);
    }
  });
});
