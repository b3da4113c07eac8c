import { createServer, type Server } from 'node:http';
import { listenOnLoopback, loopbackUrl } from './listen.js';

// A small web site on loopback for the web group's tests: an article with page furniture around it, a
// redirect chain, a 10 MB body, a slow answer, a PDF, a page in windows-1252, robots.txt, an ETag page and
// an image. `hits` counts requests per path (to see what the cache saved).

/** A one-page PDF whose text is `line`. */
export const tinyPdf = (line: string): Buffer => {
  const text = `BT /F1 14 Tf 20 100 Td (${line}) Tj ET`;
  const objs = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 144] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((n) => `${String(n).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
};

export const ARTICLE_HTML = `<!doctype html><html><head><meta charset="utf-8"><title>County assessor: 10 Harbor Way</title>
<script>document.write('TRACKING-SCRIPT-TEXT')</script><style>.x{color:red}</style></head>
<body><nav><a href="/">Home</a> <a href="/search">NAVIGATION-LINK-TEXT</a></nav>
<div class="ad">ADVERTISEMENT-TEXT: buy now</div>
<article><h1>Parcel 025-0100-007</h1>
<p>The property at 10 Harbor Way is a two-family residence built in 1928, assessed at $612,000 for fiscal 2026.</p>
<p>The living area is 2,140 square feet on a lot of 2,600 square feet; the last recorded sale was in 2011.</p>
<p>Owner of record: see the registry of deeds. Tax bills are mailed to the property address every quarter.</p>
</article><footer>FOOTER-TEXT © County</footer></body></html>`;

export interface WebSite {
  readonly base: string;
  readonly hits: Map<string, number>;
  close(): Promise<void>;
}

export const startWebSite = async (): Promise<WebSite> => {
  const hits = new Map<string, number>();
  const latin = Buffer.from(
    '<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1252"><title>Caf\xe9</title></head><body><article><p>Le caf\xe9 co\xfbte 3 \x80 et la cr\xe8me br\xfbl\xe9e est d\xe9licieuse, dit le g\xe9rant du caf\xe9 pr\xe8s du port.</p><p>Encore un paragraphe pour que le texte soit assez long pour Readability, avec des accents: \xe0 \xe9 \xe8 \xea \xe7.</p></article></body></html>',
    'latin1',
  );
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const send = (status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': type, ...headers });
      res.end(body);
    };
    switch (path) {
      case '/robots.txt':
        return send(200, 'text/plain', 'User-agent: ToolGateway\nDisallow: /private/\n\nUser-agent: *\nAllow: /\n');
      case '/article':
        return send(200, 'text/html; charset=utf-8', ARTICLE_HTML);
      case '/long':
        return send(
          200,
          'text/html; charset=utf-8',
          `<html><head><title>Harbor Way history</title></head><body><nav>NAVIGATION-LINK-TEXT</nav><article><h1>Harbor Way, 1850 to today</h1>${Array.from(
            { length: 30 },
            (_, i) =>
              `<p>Paragraph ${i + 1}: the street changed hands ${i + 2} times in this period, and the row houses were rebuilt after the storm of 18${String(50 + i)}; records of parcel ${100 + i} survive in the county archive.</p>`,
          ).join('')}</article></body></html>`,
        );
      case '/hop1':
        return send(302, 'text/plain', '', { location: '/hop2' });
      case '/hop2':
        return send(301, 'text/plain', '', { location: '/article' });
      case '/loop':
        return send(302, 'text/plain', '', { location: '/loop' });
      case '/big': {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(64 * 1024, 'a');
        let sent = 0;
        const more = () => {
          while (sent < 10 * 1024 * 1024) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', more);
          }
          res.end();
        };
        return more();
      }
      case '/slow':
        return void setTimeout(() => send(200, 'text/plain', 'late'), 3000);
      case '/contract.pdf':
        return send(200, 'application/pdf', tinyPdf('Purchase agreement for 10 Harbor Way, closing on 2027-01-15'));
      case '/cafe':
        return send(200, 'text/html', latin);
      case '/private/notes':
        return send(200, 'text/plain', 'robots say no');
      case '/data.json':
        return send(200, 'application/json', '{"parcel":"025-0100-007","value":612000}');
      case '/photo.png':
        return send(200, 'image/png', Buffer.alloc(2048, 1));
      case '/etag':
        if (req.headers['if-none-match'] === '"v1"') return send(304, 'text/plain', '');
        return send(200, 'text/plain', 'Versioned text that rarely changes.', { etag: '"v1"' });
      default:
        return send(404, 'text/plain', 'not found');
    }
  });
  await listenOnLoopback(server);
  return {
    base: loopbackUrl(server),
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
