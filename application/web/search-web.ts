import { inject, injectable } from 'inversify';
import type { GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { WebSearch } from '../../ports/web.js';
import { described, intRange, nonEmptyUpTo, oneOf, params, t } from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { call } from '../runtime/markdown.js';
import { judgeResults, type JudgedHit, type JudgedResults } from './relevance.js';
import { SearchResult } from './web-results.js';

export const SearchWebParams = params(
  { query: described(nonEmptyUpTo(400), 'What to search for.') },
  {
    count: described(intRange(1, 20), 'Results.', 5),
    site: described(nonEmptyUpTo(253), 'Only results from this host and its subdomains, such as "example.com".'),
    recency: described(
      oneOf(['day', 'week', 'month', 'year'] as const, 'Recency'),
      'Only pages from the last day, week, month or year.',
    ),
  },
);
export type SearchWebParams = t.TypeOf<typeof SearchWebParams>;

@injectable()
export class SearchWeb implements UseCase<SearchWebParams, JudgedResults> {
  constructor(@inject(WebSearch) private readonly search: WebSearch) {}

  execute(p: SearchWebParams): TaskEither<GatewayError, JudgedResults> {
    const query = p.query.trim();
    return pipe(
      this.search.search({
        query,
        count: p.count,
        ...(p.site ? { site: p.site.trim().toLowerCase() } : {}),
        ...(p.recency ? { recency: p.recency } : {}),
      }),
      TE.map((hits) => judgeResults(query, hits)),
    );
  }
}

/** At most this many weak results are shown, labelled (they may be the engine's spelling guesses); JSON has all. */
const WEAK_SHOWN = 3;

const hitJson = (h: JudgedHit) => ({
  title: h.title,
  url: h.url,
  snippet: h.snippet,
  ...(h.published ? { published: h.published } : {}),
  relevance: h.relevance,
  matched_words: h.matched,
});

const hitText = (h: JudgedHit, i: number, terms: readonly string[]): string =>
  `${i + 1}. **${h.title}**${h.published ? ` (${h.published.slice(0, 10)})` : ''}\n   ${h.url}${h.snippet ? `\n   ${h.snippet}` : ''}` +
  (h.relevance === 'partial'
    ? `\n   Matches only: ${h.matched.join(', ')} (not ${terms.filter((t) => !h.matched.includes(t)).join(', ')})`
    : '');

const advice = (p: SearchWebParams): string =>
  `Try other words for the same thing, fewer words, or check the spelling${p.site || p.recency ? '; or drop site and recency' : ''}.`;

export const searchWebTool = defineTool({
  group: 'web',
  name: 'search',
  title: 'Search the web',
  description:
    'Searches the web: title, address and snippet of the best results, and tells when none contains the query words; read one with web_fetch.',
  annotations: { kind: 'Read', idempotent: true, openWorld: true },
  params: SearchWebParams,
  useCase: SearchWeb,
  result: SearchResult,
  json: (r, p) => ({
    count: r.hits.length,
    relevant_count: r.relevantCount,
    nothing_relevant: r.hits.length > 0 && r.relevantCount === 0,
    results: r.hits.map(hitJson),
    ...(r.relevantCount === 0 ? { advice: advice(p) } : {}),
  }),
  text: (r, p) => {
    const where = p.site ? ` on ${p.site}` : '';
    if (r.hits.length === 0) return `## No results for "${p.query}"${where}\n\n${advice(p)}`;
    const relevant = r.hits.slice(0, r.relevantCount);
    const weak = r.hits.slice(r.relevantCount);
    const shown = weak.slice(0, WEAK_SHOWN);
    const weakList = weak.length
      ? `### Weak results (${r.keyTerms.length === r.terms.length ? 'none of your words appear' : `none of ${r.keyTerms.join(', ')} appears`} in them)\n\n${shown.map((h, i) => hitText(h, i, r.terms)).join('\n')}${weak.length > shown.length ? `\n\n${weak.length - shown.length} more weak results are not shown.` : ''}`
      : '';
    if (!relevant.length) {
      return [
        `## Nothing relevant found for "${p.query}"${where}`,
        `The search returned ${weak.length} result${weak.length === 1 ? '' : 's'}, but none contains any of your words (${r.keyTerms.join(', ')}) in its title, address or snippet${r.keyTerms.length < r.terms.length ? ` (words as common as ${r.terms.filter((t) => !r.keyTerms.includes(t)).join(', ')} alone do not count)` : ''}. ${advice(p)}`,
        weakList,
      ].join('\n\n');
    }
    return [
      `## ${relevant.length} result${relevant.length === 1 ? '' : 's'} for "${p.query}"${where}`,
      relevant.map((h, i) => hitText(h, i, r.terms)).join('\n'),
      weakList,
      `Read one: ${call('web_fetch', { url: relevant[0]!.url })}`,
    ]
      .filter(Boolean)
      .join('\n\n');
  },
});
