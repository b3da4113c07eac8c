import { E } from '../../domain/shared/fp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { principal } from '../../composition/gateway.js';
import { EXAMPLES } from '../../application/runtime/discovery-hints.js';
import { createToolFinder } from '../../application/runtime/discovery-answers.js';
import { compileNames, type CompiledNames } from '../../application/runtime/name-terms.js';
import { TenantNamesCache } from '../../application/runtime/tenant-names.js';
import { queryTerms, ToolIndex, words } from '../../application/runtime/tool-search.js';
import { visibleTools } from '../../application/runtime/toolsets.js';
import { testGateway } from '../support/gateway.js';

// Issue 41: tool search grounded in the tenant's world (its Podio apps and spaces, its folders, the vendors'
// names), questions that rank Read tools first, and find answers that say where ids come from.

const g = testGateway();
afterAll(() => g.close());
const registry = g.executor.registry;
const index = new ToolIndex(registry.tools);
const everyone = principal('names-test', ['*']);

/** The demo account's names, as the names cache reads them in memory mode. */
const demoNames = (): Promise<CompiledNames> =>
  new TenantNamesCache((tool, principal) => g.executor.resolve(tool, principal)).of(everyone, registry.tools);

const top = (query: string, names: CompiledNames = [], limit = 3) => {
  const q = queryTerms(query, names);
  if ('status' in q) throw new Error(q.message);
  return index.search(q, undefined, limit).map((t) => t.name);
};

describe("the tenant's names", () => {
  it('reads the demo account: apps, spaces, folders and HubSpot labels, and the vendors of the visible groups', async () => {
    const cache = new TenantNamesCache((tool, principal) => g.executor.resolve(tool, principal));
    const names = await cache.of(everyone, registry.tools);
    const spelled = names.map((n) => n.words.join(' '));
    for (const name of ['deal', 'lead', 'work order', 'acquisit', 'property management', 'contract', 'hubspot'])
      expect(spelled).toContain(name);
    // once per caller and visible set, not once per search
    await cache.of(everyone, registry.tools);
    expect(cache.reads).toBe(1);
    // a caller that sees only crm reads no Podio or ShareFile names
    const crmOnly = visibleTools(registry, principal('crm-only', ['crm:read']), undefined);
    const crmNames = (await cache.of(principal('crm-only', ['crm:read']), crmOnly)).map((n) => n.words.join(' '));
    expect(crmNames).not.toContain('deal');
    expect(crmNames).not.toContain('podio');
    expect(crmNames).toContain('hubspot');
    expect(cache.reads).toBe(2);
  });

  it.each([
    ["what's in the Deals app", ['records_listRecords', 'records_filterRecords']],
    ['who is in the Acquisitions space', ['workspaces_getSpaceMembers']],
    ['open the Contracts folder', ['files_listChildren', 'files_getTopLevelFolders']],
    ['full profile of the contact in hubspot with id 310', ['crm_getContact']],
    ['is there a lease somewhere in sharefile', ['files_searchItems']],
  ])('ranks an expected tool first for "%s"', async (query, expected) => {
    expect(expected).toContain(top(query, await demoNames(), 1)[0]);
  });

  it('takes a name of more words as a name, not for the meaning of its words', async () => {
    // without the names, "Property" pulls the crm properties and skip trace tools ahead of the space
    expect(top('details of the Property Management space', [], 1)).not.toEqual(['workspaces_getSpace']);
    expect(top('details of the Property Management space', await demoNames(), 1)).toEqual(['workspaces_getSpace']);
    // the kind's word, stemmed as the tools' words are ("spac"), so that it matches them
    expect(compileNames([{ text: 'Harbor Ops', kind: 'space' }])[0]).toMatchObject({ terms: words('space') });
  });
});

describe('questions read first', () => {
  it.each([
    ['do we have anyone from acme.com in hubspot', 'crm_searchContacts'],
    ['which shares have we sent out?', 'files_listShares'],
    ['who made the last comment on record 3?', 'records_listRecordComments'],
  ])('ranks Read tools first for "%s"', async (query, tool) => {
    const found = top(query, await demoNames(), 3);
    expect(found).toContain(tool);
    expect(found.map((n) => registry.get(n)!.declaration.annotations.kind)).toEqual(['Read', 'Read', 'Read']);
  });

  it('keeps a change first when the task asks for one', async () => {
    expect(top('delete the contact with email jane@acme.com in hubspot', await demoNames(), 1)).toEqual([
      'crm_deleteContact',
    ]);
  });
});

describe('find answers', () => {
  const finder = createToolFinder();
  it('say where required ids come from and give one example call for nested arguments', () => {
    const answer = finder.find(registry.tools, { query: 'filter the records of an app by a field' });
    if ('status' in answer) throw new Error(answer.message);
    const tools = answer.payload['tools'] as Array<{ name: string; required: unknown[]; example?: unknown }>;
    const filter = tools.find((t) => t.name === 'records_filterRecords')!;
    expect(filter.required).toContainEqual({ name: 'app_id', type: 'integer', from: 'records_listApps' });
    expect(filter.example).toEqual(EXAMPLES['records_filterRecords']);
    expect(answer.text).toContain('app_id (integer; from records_listApps)');
    expect(answer.text).toContain('e.g. {"app_id":3001,"filters":[');
  });

  it('name a source only when the caller can call it', () => {
    const reader = visibleTools(registry, principal('files-only', ['records:read']), undefined);
    const noApps = reader.filter((t) => t.name !== 'records_listApps');
    const answer = finder.find(noApps, { query: 'filter the records of an app by a field' });
    if ('status' in answer) throw new Error(answer.message);
    expect(answer.text).not.toContain('records_listApps');
  });

  it.each(Object.entries(EXAMPLES))('gives an example of %s its codec accepts', (name, example) => {
    const tool = registry.get(name)!;
    expect(Object.keys(example).every((k) => k in (tool.inputSchema.properties ?? {}))).toBe(true);
    expect(E.isRight(tool.declaration.params.decode(example))).toBe(true);
  });

  it('suggests by meaning for a name that is no tool', () => {
    expect(finder.suggest(registry.tools, 'crm_lookupPerson', { email: 'x' }, registry)).toContain(
      'crm_searchContacts',
    );
  });
});
