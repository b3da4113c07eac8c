// Paging through a long PDF with files_readFile, in memory mode: the time per page with the extracted
// text cached (the gateway as built) and without (every page extracts the whole file again).
//
//   npm run bench:read-file            (BENCH_PAGES=300 for a longer document)
import pino from 'pino';
import { ParserPool } from '../adapters/outbound/documents/parser-pool.js';
import { PooledDocumentReader } from '../adapters/outbound/documents/pooled-document-reader.js';
import { createGateway, principal } from '../composition/gateway.js';
import { DocumentReader } from '../ports/document-reader.js';

const PAGES = Number(process.env['BENCH_PAGES'] ?? 120);
const LINES = 40;

/** A PDF of PAGES pages with LINES lines of text each (a text layer, Helvetica), offsets computed here. */
const longPdf = (): Buffer => {
  const objects: string[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  const kids: string[] = [];
  for (let p = 0; p < PAGES; p++) {
    const lines = Array.from(
      { length: LINES },
      (_, l) => `(Page ${p + 1}, line ${l + 1}: the tenant agrees to keep the premises in good repair) Tj 0 -16 Td`,
    );
    const stream = `BT /F1 10 Tf 40 760 Td ${lines.join(' ')} ET`;
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
    const contents = objects.length;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${contents} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`,
    );
    kids.push(`${objects.length} 0 R`);
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${PAGES} >>`;
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
};

const run = async (cached: boolean) => {
  const pool = new ParserPool();
  const gateway = createGateway({
    env: { GATEWAY_DEMO_TOKEN: 'read-file-bench-token-0123', RATE_LIMIT_PER_MINUTE: '1000000' },
    logger: pino({ level: 'silent' }),
    overrides: cached ? {} : { ports: [[DocumentReader, new PooledDocumentReader(pool)]] },
  });
  const who = principal('bench', ['*']);
  const pdf = longPdf();
  const written = await gateway.callTool(
    'files_writeFile',
    { folder_id: 'home', file_name: 'lease-long.pdf', content: pdf.toString('base64'), encoding: 'base64' },
    { principal: who, format: 'json' },
  );
  if (!written.body.success) throw new Error(JSON.stringify(written.body));
  const id = (written.body.data as { Id: string }).Id;
  const times: number[] = [];
  let offset: number | null = 0;
  let chars = 0;
  while (offset !== null) {
    const started = performance.now();
    const r = await gateway.callTool(
      'files_readFile',
      { item_id: id, offset, max_chars: 10_000 },
      { principal: who, format: 'json' },
    );
    times.push(performance.now() - started);
    if (!r.body.success) throw new Error(JSON.stringify(r.body));
    const page = r.body.data as { next_offset: number | null; total_chars: number };
    offset = page.next_offset;
    chars = page.total_chars;
  }
  await gateway.close();
  await pool.close();
  const sorted = [...times].sort((a, b) => a - b);
  const total = times.reduce((a, b) => a + b, 0);
  return {
    bytes: pdf.length,
    chars,
    pages: times.length,
    first: times[0]!,
    median: sorted[sorted.length >> 1]!,
    total,
  };
};

const ms = (n: number) => `${n.toFixed(1)} ms`;
console.log(`files_readFile through a ${PAGES}-page PDF, 10,000 characters a page, Node ${process.version}\n`);
console.log('| reader | file | text | reads | first read | median read | all reads |\n|---|---|---|---|---|---|---|');
for (const cached of [false, true]) {
  const r = await run(cached);
  console.log(
    `| ${cached ? 'cached (as built)' : 'uncached'} | ${(r.bytes / 1024).toFixed(0)} KiB | ${r.chars.toLocaleString('en')} chars | ${r.pages} | ${ms(r.first)} | ${ms(r.median)} | ${ms(r.total)} |`,
  );
}
