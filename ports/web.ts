import type { ServiceIdentifier } from 'inversify';
import type { GatewayError } from '../domain/shared/errors.js';
import type { TaskEither } from '../domain/shared/fp.js';
import type { WebPage } from '../domain/web/page.js';

/** Who reads: the tenant (whose host lists apply) and the principal within it. */
export interface WebCaller {
  readonly tenant: string;
  readonly principal: string;
  /** When the call's time runs out (epoch ms): reading the page stops then. */
  readonly deadline?: number;
}

/** Reads a public web page or document as text (HTML as markdown, PDF as text), within the gateway's limits. */
export interface WebReader {
  /** `caller` bounds concurrent fetches per caller, and its tenant's host lists apply. */
  read(url: string, caller: WebCaller): TaskEither<GatewayError, WebPage>;
  /** Releases pooled connections at shutdown. */
  close?(): Promise<void>;
}

export interface WebSearchQuery {
  readonly query: string;
  readonly count: number;
  /** Only results from this host (and its subdomains). */
  readonly site?: string;
  /** Only results from the last day, week, month or year. */
  readonly recency?: 'day' | 'week' | 'month' | 'year';
}

export interface WebSearchHit {
  readonly title: string;
  readonly url: string;
  readonly snippet: string;
  /** When the page was published or last changed, when the backend says. */
  readonly published?: string;
}

/** Finds web pages: a built-in demo index, a SearXNG instance, or a hosted search API. */
export interface WebSearch {
  search(query: WebSearchQuery): TaskEither<GatewayError, readonly WebSearchHit[]>;
}

export const WebReader = Symbol.for('WebReader') as ServiceIdentifier<WebReader>;
export const WebSearch = Symbol.for('WebSearch') as ServiceIdentifier<WebSearch>;
