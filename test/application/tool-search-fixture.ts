import { afterAll } from 'vitest';
import { principal } from '../../composition/gateway.js';
import { loadLexicon } from '../../application/runtime/lexicon.js';
import type { CompiledNames } from '../../application/runtime/name-terms.js';
import { TenantNamesCache } from '../../application/runtime/tenant-names.js';
import { queryTerms, ToolIndex, type Query } from '../../application/runtime/tool-search.js';
import { testGateway } from '../support/gateway.js';

/**
 * The ranking tests' set-up (issue 41): a memory-mode gateway, the index of its tools, the demo account's names
 * as the names cache reads them, the general lexicon; `top` ranks a request, `without` takes a rule's part back
 * out of a query so a test can show the ranking with the rule and without it. Call it at a file's top level.
 */
export const searchFixture = (caller: string) => {
  const g = testGateway();
  afterAll(() => g.close());
  const registry = g.executor.registry;
  const index = new ToolIndex(registry.tools);
  let names: Promise<CompiledNames> | undefined;
  const demoNames = () =>
    (names ??= new TenantNamesCache((tool, who) => g.executor.resolve(tool, who)).of(
      principal(caller, ['*']),
      registry.tools,
    ));
  const terms = async (query: string): Promise<Query> => {
    const q = queryTerms(query, await demoNames(), await loadLexicon(), (w) => index.knows(w));
    if ('status' in q) throw new Error(q.message);
    return q;
  };
  const rank = (q: Query, limit = 1) => index.search(q, undefined, limit).map((t) => t.name);
  const top = async (query: string, limit = 1) => rank(await terms(query), limit);
  /** The same query with some of what a rule added left out (`keep` its words) or its form changed (`form`). */
  const without = (q: Query, form: Partial<Omit<Query, number>>, keep: (t: Query[number]) => boolean = () => true) =>
    Object.assign(q.filter(keep), {
      question: q.question,
      givesId: q.givesId,
      groups: q.groups,
      idOf: q.idOf,
      verb: q.verb,
      verbRelated: q.verbRelated,
      object: q.object,
      many: q.many,
      ...form,
    }) as Query;
  return { g, registry, index, demoNames, terms, rank, top, without };
};
