import { constants, createDeflate, createDeflateRaw, type Deflate, type DeflateRaw } from 'node:zlib';

// Documents built to hurt a reader, made in the test: deeply nested and very wide HTML, PDFs whose one
// compressed content stream is huge once inflated, and a Word document whose zip directory lies about the
// size of its main part. The large ones are deflated as they are made, never held whole.

export const nestedDivs = (levels: number): string =>
  `<!doctype html><html><head><title>deep</title></head><body>${'<div>'.repeat(levels)}deep text${'</div>'.repeat(levels)}</body></html>`;

export const flatParagraphs = (n: number): string =>
  `<!doctype html><html><head><title>wide</title></head><body>${Array.from(
    { length: n },
    (_, i) => `<p>Paragraph ${i} with some words in it <a href="/p/${i}">and a link ${i}</a></p>`,
  ).join('')}</body></html>`;

const MiB = 1024 * 1024;

/** Deflates `data` and flushes, on an existing stream: the compressed bytes for it alone. */
const flushed = (z: Deflate | DeflateRaw, data: Buffer): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const take = (c: Buffer) => chunks.push(c);
    z.on('data', take);
    z.once('error', reject);
    z.write(data);
    z.flush(constants.Z_SYNC_FLUSH, () => {
      z.off('data', take);
      resolve(Buffer.concat(chunks));
    });
  });

/**
 * `total` bytes of `unit` repeated, deflated (zlib or raw) in about a millisecond a MiB: one MiB is compressed,
 * and its compressed form (which refers only to the MiB before it, the same text) repeated. A zlib stream's
 * closing checksum is then wrong, which only matters to a reader that gets that far.
 */
const deflated = async (unit: string, total: number, raw: boolean): Promise<Buffer> => {
  const z = raw ? createDeflateRaw({ level: 9 }) : createDeflate({ level: 9 });
  const step = Buffer.from(unit.repeat(Math.ceil(MiB / unit.length))).subarray(0, MiB);
  const steps = Math.max(2, Math.floor(total / MiB));
  const head = await flushed(z, step);
  const body = await flushed(z, step);
  const tail = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    z.on('data', (c: Buffer) => chunks.push(c));
    z.once('error', reject);
    z.once('end', () => resolve(Buffer.concat(chunks)));
    z.end();
  });
  return Buffer.concat([head, ...Array.from({ length: steps - 1 }, () => body), tail]);
};

/** A one-page PDF whose content stream is `stream`, FlateDecode-compressed; cross-reference offsets computed. */
const pdfWithStream = (compressed: Buffer): Buffer => {
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const add = (b: Buffer | string) => {
    const buf = typeof b === 'string' ? Buffer.from(b, 'latin1') : b;
    parts.push(buf);
    length += buf.length;
  };
  add('%PDF-1.4\n');
  const objects: (string | Buffer[])[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    [
      Buffer.from(`<< /Length ${compressed.length} /Filter /FlateDecode >>\nstream\n`, 'latin1'),
      compressed,
      Buffer.from('\nendstream', 'latin1'),
    ],
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  objects.forEach((body, i) => {
    offsets.push(length);
    add(`${i + 1} 0 obj\n`);
    if (typeof body === 'string') add(body);
    else body.forEach(add);
    add('\nendobj\n');
  });
  const xref = length;
  add(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`);
  for (const o of offsets) add(`${String(o).padStart(10, '0')} 00000 n \n`);
  add(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
};

/** A one-page PDF whose content stream draws `(ab) Tj` over and over: `megabytes` MiB of operators inflated. */
export const floodPdf = async (megabytes: number): Promise<Buffer> =>
  pdfWithStream(await deflated('(ab) Tj ', megabytes * 1024 * 1024, false));

/** A PDF whose content stream inflates to `bytes` of spaces (about 1 KB on disk per MB inflated). */
export const inflateBombPdf = async (bytes: number): Promise<Buffer> =>
  pdfWithStream(await deflated(' ', bytes, false));

/**
 * A Word document (a zip) whose `word/document.xml` inflates to `actual` bytes while the zip's directory and
 * local header declare `declared`. Built by hand: no zip library writes a false size.
 */
export const lyingDocx = async (actual: number, declared = 1000): Promise<Buffer> => {
  const entries: { name: string; data: Buffer; size: number; method: number }[] = [
    {
      name: '[Content_Types].xml',
      data: Buffer.from('<?xml version="1.0"?><Types/>'),
      size: 29,
      method: 0,
    },
    { name: 'word/document.xml', data: await deflated(' ', actual, true), size: declared, method: 8 },
  ];
  const out: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(e.method, 8);
    local.writeUInt32LE(0, 14); // CRC-32 (never reached: the size check fails first)
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.size, 22);
    local.writeUInt16LE(name.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(e.method, 10);
    dir.writeUInt32LE(0, 16);
    dir.writeUInt32LE(e.data.length, 20);
    dir.writeUInt32LE(e.size, 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE(offset, 42);
    out.push(local, name, e.data);
    central.push(dir, name);
    offset += local.length + name.length + e.data.length;
  }
  const dirBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dirBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...out, dirBytes, end]);
};
