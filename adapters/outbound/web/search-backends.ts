import * as t from 'io-ts';
import type { AxiosInstance } from 'axios';
import { upstreamFailure, type GatewayError } from '../../../domain/shared/errors.js';
import { E, type TaskEither } from '../../../domain/shared/fp.js';
import type { WebSearch, WebSearchHit, WebSearchQuery } from '../../../ports/web.js';
import { createVendorHttp, transportFailure } from '../http/vendor-http.js';
import type { Resilience } from '../http/resilience.js';

// web_search's hosted backends: a self-hosted SearXNG instance (its JSON API) and Brave Search's web
// search API. Both answers are decoded with io-ts; a changed answer is an upstream error, not a guess.

const SearxAnswer = t.type({
  results: t.array(
    t.intersection([
      t.type({ url: t.string, title: t.string }),
      t.partial({ content: t.union([t.string, t.null]), publishedDate: t.union([t.string, t.null]) }),
    ]),
  ),
});

const BraveAnswer = t.partial({
  web: t.partial({
    results: t.array(
      t.intersection([
        t.type({ url: t.string, title: t.string }),
        t.partial({ description: t.string, age: t.string, page_age: t.string }),
      ]),
    ),
  }),
});

/** Markup some engines put in snippets (`<strong>`), and runs of space. */
const plain = (s: string | null | undefined): string =>
  (s ?? '')
    .replace(/<[^>]{0,200}>/g, '')
    .replace(/\s+/g, ' ')
    .trim();

const withSite = (q: WebSearchQuery): string => (q.site ? `${q.query} site:${q.site}` : q.query);

const answerFailure = (vendor: string, status: number): GatewayError =>
  upstreamFailure(
    vendor,
    status === 401 || status === 403
      ? `${vendor} refused the gateway's credentials (HTTP ${status}). The operator must check the search configuration.`
      : status === 429
        ? `${vendor} is rate limiting searches (HTTP 429). Try again in a minute.`
        : `${vendor} answered HTTP ${status}. Try again shortly.`,
    { retryable: status === 429 || status >= 500, status },
  );

export class SearxngSearch implements WebSearch {
  private readonly http: AxiosInstance;
  constructor(o: { readonly baseUrl: string; readonly timeoutMs: number; readonly resilience?: Resilience }) {
    this.http = createVendorHttp({
      vendor: 'SearXNG',
      baseURL: o.baseUrl,
      timeoutMs: o.timeoutMs,
      resilience: o.resilience,
    });
  }

  search(q: WebSearchQuery): TaskEither<GatewayError, readonly WebSearchHit[]> {
    return async () => {
      try {
        const res = await this.http.get('/search', {
          params: { q: withSite(q), format: 'json', ...(q.recency ? { time_range: q.recency } : {}) },
        });
        if (res.status !== 200) return E.left(answerFailure('SearXNG', res.status));
        const decoded = SearxAnswer.decode(res.data);
        if (E.isLeft(decoded))
          return E.left(
            upstreamFailure('SearXNG', 'SearXNG answered in an unexpected shape (is format=json enabled?).', {
              retryable: false,
            }),
          );
        return E.right(
          decoded.right.results.slice(0, q.count).map((r) => ({
            title: plain(r.title) || r.url,
            url: r.url,
            snippet: plain(r.content),
            ...(r.publishedDate ? { published: r.publishedDate } : {}),
          })),
        );
      } catch (error) {
        return E.left(transportFailure('SearXNG', error));
      }
    };
  }
}

const FRESHNESS = { day: 'pd', week: 'pw', month: 'pm', year: 'py' } as const;

export class BraveSearch implements WebSearch {
  private readonly http: AxiosInstance;
  constructor(o: {
    readonly baseUrl: string;
    readonly apiKey: string;
    readonly timeoutMs: number;
    readonly resilience?: Resilience;
  }) {
    this.http = createVendorHttp({
      vendor: 'Brave Search',
      baseURL: o.baseUrl,
      timeoutMs: o.timeoutMs,
      resilience: o.resilience,
      headers: { 'X-Subscription-Token': o.apiKey },
    });
  }

  search(q: WebSearchQuery): TaskEither<GatewayError, readonly WebSearchHit[]> {
    return async () => {
      try {
        const res = await this.http.get('/res/v1/web/search', {
          params: { q: withSite(q), count: q.count, ...(q.recency ? { freshness: FRESHNESS[q.recency] } : {}) },
        });
        if (res.status !== 200) return E.left(answerFailure('Brave Search', res.status));
        const decoded = BraveAnswer.decode(res.data);
        if (E.isLeft(decoded))
          return E.left(
            upstreamFailure('Brave Search', 'Brave Search answered in an unexpected shape.', { retryable: false }),
          );
        return E.right(
          (decoded.right.web?.results ?? []).slice(0, q.count).map((r) => ({
            title: plain(r.title) || r.url,
            url: r.url,
            snippet: plain(r.description),
            ...(r.page_age || r.age ? { published: r.page_age ?? r.age } : {}),
          })),
        );
      } catch (error) {
        return E.left(transportFailure('Brave Search', error));
      }
    };
  }
}
