// web_fetch's reading cost: a normal news-style article (24 KiB of HTML: navigation, a header, 40
// paragraphs with links, a table, a list and a footer) fetched through the web reader from a stand-in
// fetcher (no network, no cache hits: every read extracts again), so the figure is the extraction and
// its hand-off, the part the parser pool changes.
//
//   npm run bench:web-page            (BENCH_READS=200 for more samples)
import { E, TE } from '../domain/shared/fp.js';
import { InMemorySharedCache } from '../adapters/outbound/memory/in-memory-shared-cache.js';
import { GuardedWebReader } from '../adapters/outbound/web/guarded-web-reader.js';
import { ParserPool } from '../adapters/outbound/documents/parser-pool.js';
import type { GuardedFetcher } from '../ports/url-fetcher.js';

const READS = Number(process.env['BENCH_READS'] ?? 100);

/** An article page as a typical publisher serves it (deterministic text). */
export const articleHtml = (): string => {
  const words = 'the council agreed on the new budget after a long debate about housing roads and schools'.split(' ');
  const sentence = (n: number) =>
    Array.from({ length: 18 }, (_, i) => words[(n * 7 + i * 3) % words.length]).join(' ') + '.';
  const paragraphs = Array.from(
    { length: 40 },
    (_, p) =>
      `<p>${sentence(p)} ${sentence(p + 1)} <a href="/news/${p}">Read more about item ${p}</a>, and <em>${sentence(p + 2)}</em> <strong>${sentence(p + 3)}</strong></p>`,
  ).join('\n');
  const nav = Array.from({ length: 30 }, (_, i) => `<li><a href="/section/${i}">Section ${i}</a></li>`).join('');
  const rows = Array.from({ length: 12 }, (_, i) => `<tr><td>Line ${i}</td><td>${i * 1250}</td></tr>`).join('');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Council agrees budget</title>
<style>body{font-family:serif}</style><script>window.analytics=[];</script></head>
<body><header><nav><ul>${nav}</ul></nav></header>
<main><article><h1>Council agrees budget</h1><p class="byline">By A. Reporter</p>
${paragraphs}
<h2>The figures</h2><table><thead><tr><th>Line</th><th>Amount</th></tr></thead><tbody>${rows}</tbody></table>
<ul><li>Housing</li><li>Roads</li><li>Schools</li></ul></article></main>
<aside><h3>Most read</h3><ul>${nav}</ul></aside><footer><p>Copyright</p><ul>${nav}</ul></footer></body></html>`;
};

const html = Buffer.from(articleHtml(), 'utf8');
const fetcher: GuardedFetcher = {
  get: (url) =>
    TE.right({ status: 200, url, headers: { 'content-type': 'text/html; charset=utf-8' }, body: new Uint8Array(html) }),
};
const pool = new ParserPool();
const reader = new GuardedWebReader({
  fetcher,
  clock: { now: () => new Date() },
  allowHosts: [],
  denyHosts: [],
  cache: new InMemorySharedCache(),
  respectRobots: false,
  robotsAgent: 'bench',
  parser: pool,
});

// As the server does once it listens: one reader started with its libraries loaded, before the first read.
const warmStarted = performance.now();
await pool.run({ op: 'warm' });
const warmMs = performance.now() - warmStarted;

const times: number[] = [];
let chars = 0;
for (let i = 0; i < READS; i++) {
  const started = performance.now();
  const page = await reader.read(`https://news.example/article-${i}`, { tenant: 't', principal: 'p' })();
  times.push(performance.now() - started);
  if (E.isLeft(page)) throw new Error(JSON.stringify(page.left));
  chars = page.right.text.length;
}
await reader.close();
await pool.close();
const sorted = [...times].sort((a, b) => a - b);
const median = sorted[sorted.length >> 1]!;
const p90 = sorted[Math.floor(sorted.length * 0.9)]!;
console.log(
  `web_fetch's reader over a ${(html.length / 1024).toFixed(0)} KiB article, ${READS} reads, Node ${process.version}\n`,
);
console.log('| reader warm-up | first read | median read | p90 read | text |\n|---|---|---|---|---|');
console.log(
  `| ${warmMs.toFixed(0)} ms | ${times[0]!.toFixed(1)} ms | ${median.toFixed(2)} ms | ${p90.toFixed(2)} ms | ${chars.toLocaleString('en')} chars |`,
);
