import { afterAll, describe, expect, it } from 'vitest';
import { principal } from '../../composition/gateway.js';
import { GROUPS } from '../../application/runtime/define-tool.js';
import { checkFindArgs, META_GROUP, parsePins, searchesTools } from '../../application/runtime/discovery.js';
import {
  MAX_QUERY_TERMS,
  queryTerms,
  stem,
  ToolIndex,
  ToolIndexes,
  words,
} from '../../application/runtime/tool-search.js';
import { visibleTools } from '../../application/runtime/toolsets.js';
import { testGateway } from '../support/gateway.js';

// Issue 30: the BM25F tool search of application/runtime/tool-search.ts over the real catalogue.

const g = testGateway();
afterAll(() => g.close());
const registry = g.executor.registry;
const index = new ToolIndex(registry.tools);
const top = (query: string, limit = 3) => {
  const q = queryTerms(query);
  if ('status' in q) throw new Error(q.message);
  return index.search(q, undefined, limit).map((t) => t.name);
};

describe('words', () => {
  it('splits names at camelCase and underscores, drops stop words and stems', () => {
    expect(words('records_getRecordRevisions')).toEqual(['record', 'get', 'record', 'revis']);
    expect(words('Show me the deleted shares')).toEqual(['delet', 'shar']);
    expect(['delete', 'deleted', 'deletion', 'deletes'].map(stem)).toEqual(['delet', 'delet', 'delet', 'delet']);
    expect(stem('news')).toBe('news');
  });
});

describe('ranking', () => {
  it.each([
    ['delete the contact with email jane@acme.com', 'crm_deleteContact'],
    ['make a new folder called Reports', 'files_createFolder'],
    ['restore the record I deleted', 'records_restoreRecord'],
    ['search the web for mortgage rates', 'web_search'],
    ['who owns 12 Elm Street', 'skiptrace_skipTraceProperty'],
  ])('ranks the tool for "%s" first', (query, tool) => {
    expect(top(query, 1)).toEqual([tool]);
  });

  it('finds nothing for words no tool has, and keeps to the groups asked for', () => {
    expect(top('zzqx wibble')).toEqual([]);
    const q = queryTerms('delete it') as Exclude<ReturnType<typeof queryTerms>, { status: number }>;
    expect(index.search(q, ['crm'], 20).every((t) => t.declaration.group === 'crm')).toBe(true);
  });

  it('bounds the query before any work: length refused, words cut', () => {
    expect(queryTerms('x'.repeat(501))).toMatchObject({ status: 400, details: { parameter: 'query' } });
    const many = queryTerms(Array.from({ length: 100 }, (_, i) => `w${i}`).join(' '));
    expect('status' in many ? -1 : many.length).toBe(MAX_QUERY_TERMS);
    expect(checkFindArgs({ query: 'a', limit: 21 })).toMatchObject({ details: { parameter: 'limit' } });
    expect(checkFindArgs({ query: 'a', groups: Array(50).fill('crm') })).toMatchObject({
      details: { parameter: 'groups' },
    });
  });
});

describe('indexes', () => {
  it('builds one index per distinct visible set and reuses it', () => {
    const indexes = new ToolIndexes(4);
    const all = visibleTools(registry, undefined, undefined);
    const reader = visibleTools(registry, principal('r', ['crm:read']), undefined);
    expect(indexes.of(all)).toBe(indexes.of([...all]));
    expect(indexes.of(reader)).not.toBe(indexes.of(all));
    // a different principal that sees the same tools shares the index
    indexes.of(visibleTools(registry, principal('r2', ['crm:read', 'crm:read']), undefined));
    expect(indexes.built).toBe(2);
    expect(indexes.of(reader).size).toBe(reader.length);
  });
});

describe('discovery parameters', () => {
  const reader = principal('reader', ['crm:read']);
  it('checks pins against the caller and its toolsets', () => {
    expect(parsePins('crm_getContact, crm_searchContacts', registry, reader, undefined)).toEqual([
      'crm_getContact',
      'crm_searchContacts',
    ]);
    for (const pin of ['crm_deleteContact', 'nope', 'x'.repeat(2000), Array(30).fill('crm_getContact').join(',x')]) {
      expect(parsePins(pin, registry, reader, undefined)).toMatchObject({ status: 400 });
    }
    expect(parsePins('crm_getContact', registry, reader, ['web'])).toMatchObject({ status: 400 });
  });

  it('turns search on when asked, or above a size greater than 0', () => {
    expect(searchesTools('search', 3, 0)).toBe(true);
    expect(searchesTools(undefined, 60, 0)).toBe(false);
    expect(searchesTools(undefined, 60, 20)).toBe(true);
    expect(searchesTools(undefined, 20, 20)).toBe(false);
    expect(searchesTools('list', 60, 20)).toBe(false);
  });

  it('reserves the meta group: no tool group is named gateway', () => {
    expect(GROUPS as readonly string[]).not.toContain(META_GROUP);
  });
});
