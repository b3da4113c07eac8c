import { afterAll, expect, it } from 'vitest';
import { post, testGateway } from '../support/gateway.js';

// The attack: a paged listing given an offset of 1.8e308 (an integer, to JavaScript) answered 200 with an
// empty page, the unbounded number echoed back and handed to the use case. Found by the bad-input property
// test. Every offset is now bounded in its codec: past the bound is a 400 that names the parameter.

const g = testGateway();
afterAll(() => g.close());

const PAGED: [string, Record<string, unknown>][] = [
  ['crm_getProperties', {}],
  ['records_getRecordRevisions', { record_id: 1 }],
  ['records_getRelatedRecords', { app_id: 3001, related_app_id: 3002, record_ids: [1] }],
  ['records_aggregateRecords', { app_id: 3001, group_by: { field_id: 'property' } }],
  ['workspaces_getSpaceMembers', { space_id: 2001 }],
  ['files_readFile', { item_id: 'fi-any' }],
];

it.each(PAGED)('%s refuses an offset past its bound before any work', async (name, args) => {
  for (const offset of [Number.MAX_VALUE, 1e15, 50_000_001]) {
    const r = await post(g, '/v1/tools/call', { name, arguments: { ...args, offset } });
    expect(r.status, `${name} offset ${offset}`).toBe(400);
    expect(r.body.error.details.parameter).toBe('offset');
  }
});
