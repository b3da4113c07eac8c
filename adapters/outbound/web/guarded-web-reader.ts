import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import robotsParserModule from 'robots-parser';
import { invalidInput, rateLimited, upstreamFailure, type GatewayError } from '../../../domain/shared/errors.js';
import { E, type TaskEither } from '../../../domain/shared/fp.js';
import { hostRefusal, type WebPage } from '../../../domain/web/page.js';
import type { Clock } from '../../../ports/clock.js';
import type { FetchedResource, GuardedFetcher } from '../../../ports/url-fetcher.js';
import type { SharedCache } from '../../../ports/shared-cache.js';
import type { WebCaller, WebReader } from '../../../ports/web.js';
import type { ParserPool } from '../documents/parser-pool.js';
import { kindOf, mediaTypeOf } from './extract.js';

/** robots-parser is CommonJS: its default export is the function itself. */
const robotsParser = robotsParserModule as unknown as (
  url: string,
  body: string,
) => {
  isAllowed(url: string, ua?: string): boolean | undefined;
};

// web_fetch's reader: every fetch goes through the gateway's one URL guard (public addresses only, the
// connection pinned to the checked address, each redirect checked again), then the host lists, robots.txt,
// a per-caller limit on concurrent fetches, and a short-lived cache that revalidates with ETag and
// Last-Modified, so that an agent reading a page again costs at most one conditional request.

export interface WebReaderOptions {
  readonly fetcher: GuardedFetcher;
  readonly clock: Clock;
  readonly allowHosts: readonly string[];
  readonly denyHosts: readonly string[];
  /** A tenant's own lists: its deny list adds to the global one, its allow list replaces the global one. */
  readonly tenantHosts?: Readonly<
    Record<string, { readonly allow?: readonly string[]; readonly deny?: readonly string[] }>
  >;
  /** Where pages are kept for revalidation: shared by every instance when Redis is configured. */
  readonly cache: SharedCache;
  readonly respectRobots: boolean;
  /** The product token robots.txt rules are matched against. */
  readonly robotsAgent: string;
  /** Fetches one caller may have running at once (default 3). */
  readonly perCaller?: number;
  /** How long a page is served from the cache without asking the server (default 60 s). */
  readonly freshMs?: number;
  /** How long a page is kept for revalidation (default 10 minutes). */
  readonly keepMs?: number;
  /** Where fetched documents are turned into text: worker threads, within time and memory bounds. */
  readonly parser: ParserPool;
}

interface Cached {
  readonly page: WebPage;
  readonly etag?: string;
  readonly lastModified?: string;
  readonly storedAt: number;
}

const ACCEPT =
  'text/html,application/xhtml+xml,application/pdf,application/json,text/markdown,text/plain;q=0.9,text/csv;q=0.9,*/*;q=0.5';

export class GuardedWebReader implements WebReader {
  private readonly inFlight = new Map<string, number>();
  private readonly robots = new LRUCache<string, { isAllowed(url: string, ua?: string): boolean | undefined }>({
    max: 500,
    ttl: 3_600_000,
  });

  constructor(private readonly o: WebReaderOptions) {}

  async close(): Promise<void> {
    await (this.o.fetcher as { close?: () => Promise<void> }).close?.();
  }

  read(url: string, caller: WebCaller): TaskEither<GatewayError, WebPage> {
    return async () => {
      let u: URL;
      try {
        u = new URL(url);
      } catch {
        return E.left(
          invalidInput(`"${url.slice(0, 200)}" is not a URL. Give an http or https address.`, 'url', 'http(s) URL'),
        );
      }
      const own = this.o.tenantHosts?.[caller.tenant];
      const refused = hostRefusal(u.hostname, own?.allow ?? this.o.allowHosts, [
        ...this.o.denyHosts,
        ...(own?.deny ?? []),
      ]);
      if (refused)
        return E.left(invalidInput(`${refused}; the page was not fetched.`, 'url', 'a URL on an allowed host'));
      const limit = this.o.perCaller ?? 3;
      const key = `${caller.tenant}\n${caller.principal}`;
      const running = this.inFlight.get(key) ?? 0;
      if (running >= limit) {
        return E.left(
          rateLimited(`At most ${limit} web fetches run at once per caller; wait for one to finish, then retry.`, 1),
        );
      }
      this.inFlight.set(key, running + 1);
      try {
        return await this.readChecked(u, caller);
      } finally {
        const left = (this.inFlight.get(key) ?? 1) - 1;
        if (left > 0) this.inFlight.set(key, left);
        else this.inFlight.delete(key);
      }
    };
  }

  private async readChecked(u: URL, caller: WebCaller): Promise<E.Either<GatewayError, WebPage>> {
    const url = u.toString();
    if (this.o.respectRobots) {
      const allowed = await this.robotsAllow(u);
      if (!allowed)
        return E.left(
          invalidInput(
            `${u.host}'s robots.txt does not allow this gateway (${this.o.robotsAgent}) to read ${u.pathname}; the page was not fetched.`,
            'url',
            'a URL robots.txt allows',
          ),
        );
    }
    const now = this.o.clock.now().getTime();
    const cacheKey = `web:${createHash('sha256').update(url).digest('base64url')}`;
    const cached = await this.cached(cacheKey);
    if (cached && now - cached.storedAt < (this.o.freshMs ?? 60_000)) return E.right({ ...cached.page, cached: true });
    const conditional: Record<string, string> = {};
    if (cached?.etag) conditional['if-none-match'] = cached.etag;
    if (cached?.lastModified) conditional['if-modified-since'] = cached.lastModified;
    const started = performance.now();
    const got = await this.o.fetcher.get(url, { accept: ACCEPT, headers: conditional })();
    if (E.isLeft(got)) return got;
    const res = got.right;
    if (res.status === 304 && cached) {
      await this.keep(cacheKey, { ...cached, storedAt: now });
      return E.right({ ...cached.page, cached: true, fetchedAt: new Date(now).toISOString() });
    }
    if (res.status < 200 || res.status > 299) return E.left(this.statusError(url, res));
    const page = await this.toPage(url, res, now, Math.round(performance.now() - started), caller);
    if (
      E.isRight(page) &&
      (res.headers['etag'] || res.headers['last-modified']) &&
      !/no-store/i.test(res.headers['cache-control'] ?? '')
    ) {
      await this.keep(cacheKey, {
        page: page.right,
        etag: res.headers['etag'],
        lastModified: res.headers['last-modified'],
        storedAt: now,
      });
    }
    return page;
  }

  private async toPage(
    url: string,
    res: FetchedResource,
    now: number,
    fetchMs: number,
    caller: WebCaller,
  ): Promise<E.Either<GatewayError, WebPage>> {
    const contentType = mediaTypeOf(res.headers['content-type']) || 'application/octet-stream';
    const kind = kindOf(contentType);
    const base = {
      url,
      finalUrl: res.url,
      contentType,
      bytes: res.body.byteLength,
      fetchedAt: new Date(now).toISOString(),
      fetchMs,
      cached: false,
    };
    if (!kind) return E.right({ ...base, kind: 'binary', text: '' });
    const contentTypeHeader = res.headers['content-type'];
    const read = await this.o.parser.run(
      { op: 'page', kind, bytes: res.body, ...(contentTypeHeader ? { contentType: contentTypeHeader } : {}) },
      caller.deadline,
      // The page's tenant has its share of the document readers (parser-pool.ts).
      caller.tenant,
    );
    if (E.isLeft(read)) return read;
    if (!read.right.ok)
      return E.left(
        invalidInput(
          `${url} is ${contentType} but could not be read as such (${read.right.message}).`,
          'url',
          'a readable document',
        ),
      );
    const extracted = read.right.value;
    return E.right({ ...base, kind: extracted.kind, title: extracted.title, text: extracted.text });
  }

  private statusError(url: string, res: FetchedResource): GatewayError {
    if (res.status >= 500 || res.status === 429)
      return upstreamFailure('web server', `${url} answered HTTP ${res.status}. Try again later.`, { retryable: true });
    return invalidInput(
      `${url} answered HTTP ${res.status}; there is no page to read there.`,
      'url',
      'a URL that answers 200',
    );
  }

  private async cached(key: string): Promise<Cached | undefined> {
    const raw = await this.o.cache.get(key);
    if (!raw) return undefined;
    try {
      return JSON.parse(raw) as Cached;
    } catch {
      return undefined;
    }
  }

  /** Keeps a page for revalidation (pages over 2 MB of text are not kept). */
  private async keep(key: string, entry: Cached): Promise<void> {
    const value = JSON.stringify(entry);
    if (value.length > 2_000_000) return;
    await this.o.cache.set(key, value, Math.ceil((this.o.keepMs ?? 600_000) / 1000));
  }

  /** Whether robots.txt lets this gateway read the URL; no robots.txt (or an unreadable one) allows all. */
  private async robotsAllow(u: URL): Promise<boolean> {
    let rules = this.robots.get(u.origin);
    if (!rules) {
      const robotsUrl = `${u.origin}/robots.txt`;
      const got = await this.o.fetcher.get(robotsUrl, { accept: 'text/plain', maxBytes: 512 * 1024 })();
      const body =
        E.isRight(got) && got.right.status >= 200 && got.right.status < 300
          ? Buffer.from(got.right.body).toString('utf8')
          : '';
      const parsed = robotsParser(robotsUrl, body);
      this.robots.set(u.origin, parsed);
      rules = parsed;
    }
    return rules.isAllowed(u.toString(), this.o.robotsAgent) !== false;
  }
}
