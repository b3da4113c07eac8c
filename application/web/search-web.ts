import { inject, injectable } from 'inversify';
import type { GatewayError } from '../../domain/shared/errors.js';
import type { TaskEither } from '../../domain/shared/fp.js';
import { WebSearch, type WebSearchHit } from '../../ports/web.js';
import { described, intRange, nonEmptyUpTo, oneOf, params, t } from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { call } from '../runtime/markdown.js';
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
export class SearchWeb implements UseCase<SearchWebParams, readonly WebSearchHit[]> {
  constructor(@inject(WebSearch) private readonly search: WebSearch) {}

  execute(p: SearchWebParams): TaskEither<GatewayError, readonly WebSearchHit[]> {
    return this.search.search({
      query: p.query.trim(),
      count: p.count,
      ...(p.site ? { site: p.site.trim().toLowerCase() } : {}),
      ...(p.recency ? { recency: p.recency } : {}),
    });
  }
}

export const searchWebTool = defineTool({
  group: 'web',
  name: 'search',
  title: 'Search the web',
  description: 'Searches the web: title, address and snippet of the best results; read one with web_fetch.',
  annotations: { kind: 'Read', idempotent: true, openWorld: true },
  params: SearchWebParams,
  useCase: SearchWeb,
  result: SearchResult,
  json: (hits) => ({ count: hits.length, results: hits }),
  text: (hits, p) =>
    hits.length === 0
      ? `## No results for "${p.query}"${p.site ? ` on ${p.site}` : ''}\n\nTry other words${p.site || p.recency ? ', or drop site and recency' : ''}.`
      : [
          `## ${hits.length} result${hits.length === 1 ? '' : 's'} for "${p.query}"${p.site ? ` on ${p.site}` : ''}`,
          hits
            .map(
              (h, i) =>
                `${i + 1}. **${h.title}**${h.published ? ` (${h.published.slice(0, 10)})` : ''}\n   ${h.url}${h.snippet ? `\n   ${h.snippet}` : ''}`,
            )
            .join('\n'),
          `Read one: ${call('web_fetch', { url: hits[0]!.url })}`,
        ].join('\n\n'),
});
