// The first document read after start-up (issue 38): how long the gateway's event loop stalls while the
// first files_readFile starts a document reader, and how long that call takes. The built server in memory
// mode with the soak probe (bench/soak/probe.mjs); the read is a demo text file and then an uploaded PDF.
//
//   npm run build && npx tsx bench/first-read.ts        (BENCH_STARTS=5 by default)
//   BENCH_KIND=pdf ...                                   (the first read is a one-page PDF written first)
//   BENCH_GATEWAY_ENV='{"LOG_LEVEL":"warn"}' ...       (other settings for the gateway)
import { startProbed } from './soak/gateway.js';

const token = 'first-read-token-0123456789';
const starts = Number(process.env.BENCH_STARTS ?? 5);
const idleMs = Number(process.env.BENCH_IDLE_MS ?? 3000);
const kind = process.env.BENCH_KIND === 'pdf' ? 'pdf' : 'text';

/** A one-page PDF with a text layer (offsets computed here), for the reader's pdf.js path. */
const onePagePdf = (): string => {
  const stream = 'BT /F1 12 Tf 72 720 Td (The tenant agrees to keep the premises in good repair.) Tj ET';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R /Resources << /Font << /F1 3 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
  ];
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
  return Buffer.from(out).toString('base64');
};

const call = async (base: string, tool: string, args: unknown) => {
  const res = await fetch(`${base}/v1/tools/${tool.replace('_', '/')}?format=json`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(args),
  });
  const body = (await res.json()) as { success: boolean; data?: { items: unknown[] }; error?: unknown };
  if (!body.success) throw new Error(`${tool}: ${JSON.stringify(body.error)}`);
  return body.data!;
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const stalls: number[] = [];
const times: number[] = [];
for (let i = 0; i < starts; i++) {
  const { child, base, ask } = await startProbed('dist/composition/main.js', {
    GATEWAY_DEMO_TOKEN: token,
    LOG_LEVEL: 'info',
    ...(JSON.parse(process.env.BENCH_GATEWAY_ENV ?? '{}') as Record<string, string>),
  });
  // The first demo file: the home folder holds folders only, so its first folders are looked into.
  type Row = { Id: string; 'odata.type': string };
  const isFile = (r: Row) => r['odata.type'].endsWith('.File');
  const home = (await call(base, 'files_listChildren', {})).items as Row[];
  let file = home.find(isFile);
  for (const folder of home.filter((r) => !isFile(r))) {
    if (file) break;
    file = ((await call(base, 'files_listChildren', { item_id: folder.Id })).items as Row[]).find(isFile);
  }
  if (!file) {
    child.kill('SIGTERM');
    throw new Error('no demo file found in the home folder or the folders in it');
  }
  let target = file.Id;
  if (kind === 'pdf') {
    const written = (await call(base, 'files_writeFile', {
      folder_id: 'home',
      file_name: `first-read-${i}.pdf`,
      content: onePagePdf(),
      encoding: 'base64',
    })) as unknown as { item?: { Id?: string }; Id?: string };
    target = written.item?.Id ?? written.Id ?? '';
    if (!target) throw new Error(`files_writeFile named no item: ${JSON.stringify(written).slice(0, 300)}`);
  }
  await new Promise((r) => setTimeout(r, idleMs));
  await ask(false);
  const began = performance.now();
  await call(base, 'files_readFile', { item_id: target });
  const ms = performance.now() - began;
  const p = await ask(false);
  stalls.push(p.eldMaxMs);
  times.push(ms);
  console.log(
    `start ${i + 1}: first read ${ms.toFixed(0)} ms, longest event-loop stall ${p.eldMaxMs.toFixed(0)} ms, RSS ${p.rssMb.toFixed(0)} MB`,
  );
  child.kill('SIGTERM');
}
console.log(
  `\n${kind}, median of ${starts}: first read ${median(times).toFixed(0)} ms, stall ${median(stalls).toFixed(0)} ms (max ${Math.max(...stalls).toFixed(0)} ms; target under 200 ms)`,
);
