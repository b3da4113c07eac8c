import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listenOnLoopback, loopbackUrl } from './listen.js';

// Stand-ins for the hosted search backends, answering in their documented JSON shapes: SearXNG's
// `GET /search?q=&format=json` (results of url, title, content, engine, publishedDate, score) and Brave
// Search's `GET /res/v1/web/search` (web.results of title, url, description, age; X-Subscription-Token).

export interface StandIn {
  readonly baseUrl: string;
  readonly requests: URL[];
  close(): Promise<void>;
}

const CORPUS = [
  {
    url: 'https://www.rosegoldrealty.example/about',
    title: 'About Rosegold Realty',
    content: 'Rosegold Realty is a <b>brokerage</b> in Franklin Square, NY.',
    date: '2026-11-20T08:00:00',
  },
  {
    url: 'https://news.example/harbor-way',
    title: 'Harbor Way row houses to be renovated',
    content: 'Globe Builders will renovate twelve row houses on Harbor Way.',
    date: '2026-10-14T12:00:00',
  },
  {
    url: 'https://assessor.example/10-harbor-way',
    title: 'Assessor: 10 Harbor Way',
    content: 'Two-family residence, assessed at $612,000.',
    date: '2025-07-20T00:00:00',
  },
];

const DAYS = { day: 1, week: 7, month: 31, year: 366 } as const;
const NOW = Date.parse('2026-11-21T10:00:00Z');

/** Corpus entries matching the words of q (a `site:host` term limits the host), newest first. */
const match = (q: string, recency?: keyof typeof DAYS) => {
  const site = /\bsite:(\S+)/.exec(q)?.[1];
  const words = q
    .replace(/\bsite:\S+/, '')
    .toLowerCase()
    .split(/\W+/)
    .filter(Boolean);
  return CORPUS.filter((c) => !site || new URL(c.url).hostname.endsWith(site))
    .filter((c) => !recency || NOW - Date.parse(c.date) <= DAYS[recency] * 86_400_000)
    .filter((c) => words.some((w) => `${c.title} ${c.content}`.toLowerCase().includes(w)));
};

const start = async (handle: (u: URL, req: IncomingMessage, res: ServerResponse) => void): Promise<StandIn> => {
  const requests: URL[] = [];
  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://stand-in');
    requests.push(u);
    handle(u, req, res);
  });
  await listenOnLoopback(server);
  return { baseUrl: loopbackUrl(server), requests, close: () => new Promise((r) => server.close(() => r())) };
};

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

export const startSearxng = (): Promise<StandIn> =>
  start((u, _req, res) => {
    if (u.pathname !== '/search') return json(res, 404, {});
    if (u.searchParams.get('format') !== 'json') return json(res, 403, {}); // SearXNG refuses formats it does not enable
    const q = u.searchParams.get('q') ?? '';
    const recency = u.searchParams.get('time_range') as keyof typeof DAYS | null;
    const results = match(q, recency ?? undefined).map((c, i) => ({
      url: c.url,
      title: c.title,
      content: c.content,
      engine: 'duckduckgo',
      engines: ['duckduckgo'],
      positions: [i + 1],
      score: 1 / (i + 1),
      category: 'general',
      publishedDate: c.date,
    }));
    json(res, 200, {
      query: q,
      number_of_results: results.length,
      results,
      answers: [],
      corrections: [],
      infoboxes: [],
      suggestions: [],
      unresponsive_engines: [],
    });
  });

export const BRAVE_TEST_KEY = 'brave-test-key-0123';

export const startBrave = (): Promise<StandIn> =>
  start((u, req, res) => {
    if (u.pathname !== '/res/v1/web/search') return json(res, 404, {});
    if (req.headers['x-subscription-token'] !== BRAVE_TEST_KEY) return json(res, 401, { type: 'ErrorResponse' });
    const freshness = { pd: 'day', pw: 'week', pm: 'month', py: 'year' }[u.searchParams.get('freshness') ?? ''] as
      keyof typeof DAYS | undefined;
    const count = Number(u.searchParams.get('count') ?? 20);
    const results = match(u.searchParams.get('q') ?? '', freshness)
      .slice(0, count)
      .map((c) => ({
        title: c.title,
        url: c.url,
        description: c.content,
        age: c.date.slice(0, 10),
        type: 'search_result',
      }));
    json(res, 200, { type: 'search', query: { original: u.searchParams.get('q') }, web: { type: 'search', results } });
  });
