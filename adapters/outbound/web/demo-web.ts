import { E, TE, type TaskEither } from '../../../domain/shared/fp.js';
import { invalidInput, type GatewayError } from '../../../domain/shared/errors.js';
import type { WebPage } from '../../../domain/web/page.js';
import type { Clock } from '../../../ports/clock.js';
import type { WebCaller, WebReader, WebSearch, WebSearchHit, WebSearchQuery } from '../../../ports/web.js';
import type { ParserPool } from '../documents/parser-pool.js';

// The web group in memory mode: a small built-in site about the demo data's companies and properties, on
// a host under the reserved .example top-level domain (RFC 2606, never resolvable), and a search index
// over it. web_fetch serves those pages through the same extraction as real pages; any other URL goes to
// the guarded reader (the real web, where the machine can reach it).

export const DEMO_WEB_HOST = 'demo-web.tool-gateway.example';
const base = `https://${DEMO_WEB_HOST}`;

interface DemoPage {
  readonly path: string;
  readonly title: string;
  readonly published: string;
  readonly body: string;
}

const page = (p: DemoPage): string => `<!doctype html><html><head><meta charset="utf-8"><title>${p.title}</title>
<script>window.analytics = { track() {} };</script></head><body>
<nav><a href="/">Home</a> | <a href="/companies">Companies</a> | <a href="/properties">Properties</a> | <a href="/login">Sign in</a></nav>
<aside class="ad">Sponsored: refinance today at 5.9% APR!</aside>
<article><h1>${p.title}</h1><p><time datetime="${p.published}">${p.published}</time></p>${p.body}</article>
<footer>© 2026 Demo Web · <a href="/privacy">Privacy</a></footer></body></html>`;

const PAGES: readonly DemoPage[] = [
  {
    path: '/companies/rosegold-realty',
    title: 'Rosegold Realty: about the brokerage',
    published: '2026-09-02',
    body: '<p>Rosegold Realty is a residential brokerage in Franklin Square, New York, founded in 2009. Its principal broker is Maria Alvarez, who leads a team of twelve agents working Nassau County.</p><p>The firm lists about 140 homes a year and runs a property management arm for small landlords. Office: 1011 Rosegold St, Franklin Square, NY 11010. Phone +1 516 555 0101.</p>',
  },
  {
    path: '/companies/globe-builders',
    title: 'Globe Builders wins harbor redevelopment contract',
    published: '2026-10-14',
    body: '<p>Globe Builders, a general contractor run by James Okafor, has been chosen to renovate twelve row houses along Harbor Way in Boston. Work starts in January 2027.</p><p>The company specialises in kitchen and deck renovations and reports a backlog of 38 projects.</p>',
  },
  {
    path: '/companies/harbor-lending',
    title: 'Harbor Lending rate sheet, November 2026',
    published: '2026-11-01',
    body: '<p>Harbor Lending (contact: Priya Natarajan) offers 30-year fixed loans from 6.1% and bridge loans for investors from 9.4%.</p><table><tr><th>Product</th><th>Rate</th></tr><tr><td>30-year fixed</td><td>6.1%</td></tr><tr><td>Bridge loan</td><td>9.4%</td></tr></table>',
  },
  {
    path: '/properties/10-harbor-way',
    title: 'Assessor record: 10 Harbor Way, Boston, MA 02110',
    published: '2026-07-20',
    body: '<p>Parcel 025-0100-007. Land use: two-family residence. Assessed value $612,000 (fiscal 2026). Year built 1928; living area 2,140 sq ft; lot 2,600 sq ft.</p><p>Last sale: 2011 for $298,000. Owner of record as listed by the county; tax bill mailed to the property address.</p>',
  },
  {
    path: '/properties/17-elm-st',
    title: 'Listing: 17 Elm St, Salem, MA 01970',
    published: '2026-10-30',
    body: '<p>Three-bedroom colonial on a quiet street near Salem Common, asking $489,000. 1,680 sq ft, new roof in 2024, detached garage.</p><p>Listed by a local agent; open house Sunday 1-3 pm.</p>',
  },
  {
    path: '/market/boston-2026',
    title: 'Greater Boston housing market, third quarter 2026',
    published: '2026-10-05',
    body: '<p>Median sale prices rose 3.8% year over year in Boston and 5.1% in Quincy. Days on market fell to 24. Investor purchases made up 17% of sales in Lynn and Salem.</p>',
  },
  {
    path: '/guides/skip-tracing',
    title: 'Skip tracing and the TCPA: what agents must check before calling',
    published: '2026-03-11',
    body: '<p>Before calling a number found by skip tracing, check the Do Not Call registry and whether the number is flagged under the TCPA. Known TCPA litigators should never be called. Deceased owners are handled through the estate.</p>',
  },
];

const byPath = new Map(PAGES.map((p) => [p.path, p]));
const DAY = 86_400_000;
const RECENCY_DAYS = { day: 1, week: 7, month: 31, year: 366 } as const;

/** The demo site's search index: pages ranked by how many query words they contain (title words count twice). */
export class DemoWebSearch implements WebSearch {
  constructor(private readonly clock: Clock) {}

  search(q: WebSearchQuery): TaskEither<GatewayError, readonly WebSearchHit[]> {
    const words = [...new Set(q.query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, 20);
    const now = this.clock.now().getTime();
    const hits = PAGES.filter(() => !q.site || DEMO_WEB_HOST.endsWith(q.site.toLowerCase().replace(/^\*\./, '')))
      .filter((p) => !q.recency || now - Date.parse(p.published) <= RECENCY_DAYS[q.recency] * DAY)
      .map((p) => {
        const title = p.title.toLowerCase();
        const text = p.body.toLowerCase();
        const score = words.reduce((s, w) => s + (title.includes(w) ? 2 : 0) + (text.includes(w) ? 1 : 0), 0);
        return { p, score };
      })
      .filter((x) => x.score > 0)
      .sort((a, b) => b.score - a.score || a.p.path.localeCompare(b.p.path))
      .slice(0, q.count)
      .map(({ p }) => ({
        title: p.title,
        url: `${base}${p.path}`,
        snippet: p.body
          .replace(/<[^>]+>/g, ' ')
          .replace(/\s+/g, ' ')
          .trim()
          .slice(0, 200),
        published: p.published,
      }));
    return TE.right(hits);
  }
}

/** Serves the demo site's pages; every other URL goes to `web` (the guarded reader). */
export class DemoWebReader implements WebReader {
  constructor(
    private readonly web: WebReader,
    private readonly clock: Clock,
    private readonly parser: ParserPool,
  ) {}

  close(): Promise<void> {
    return this.web.close?.() ?? Promise.resolve();
  }

  read(url: string, caller: WebCaller): TaskEither<GatewayError, WebPage> {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return this.web.read(url, caller);
    }
    if (u.hostname !== DEMO_WEB_HOST) return this.web.read(url, caller);
    return async () => {
      const found = byPath.get(u.pathname.replace(/\/+$/, ''));
      if (!found)
        return E.left(
          invalidInput(`${url} answered HTTP 404; there is no page to read there.`, 'url', 'a URL that answers 200'),
        );
      const html = Buffer.from(page(found), 'utf8');
      const read = await this.parser.run(
        { op: 'page', kind: 'html', bytes: html, contentType: 'text/html; charset=utf-8' },
        caller.deadline,
        caller.tenant,
      );
      if (E.isLeft(read)) return read;
      if (!read.right.ok) throw new Error(`a demo page could not be read: ${read.right.message}`);
      const extracted = read.right.value;
      return E.right({
        url,
        finalUrl: url,
        title: extracted.title,
        contentType: 'text/html',
        kind: 'html',
        bytes: html.byteLength,
        fetchedAt: this.clock.now().toISOString(),
        fetchMs: 0,
        text: extracted.text,
        cached: false,
      });
    };
  }
}
