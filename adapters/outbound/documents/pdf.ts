import { constants, createInflateRaw } from 'node:zlib';
import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
import { tidy } from './html.js';
import { DocumentTooComplex, MAX_PDF_DECODED_BYTES, MAX_PDF_PAGES, describeBytes } from './limits.js';

// The text of a PDF (pdfjs-dist), in a parser worker only. pdf.js inflates a stream whole, synchronously, into
// ArrayBuffers that a worker's heap limit does not count, so before pdf.js sees the file its FlateDecode
// streams are inflated here with zlib, counted as they come, and the file is refused once they pass
// MAX_PDF_DECODED_BYTES in all: a 1 MB file whose stream inflates to 1 GB is refused after about 96 MiB of
// it, without ever holding more than one 256 KiB chunk. Image streams are skipped (text extraction never
// decodes them), and so are streams behind other filters: what slips past here (an image-labelled content
// stream, LZW) meets the pool's time limit and its watch on the process's memory.

const STREAM = Buffer.from('stream');
/** How far back from `stream` a stream's dictionary is looked for. */
const DICT_WINDOW = 4096;

/**
 * The bytes a zlib stream starting at `data`'s first byte inflates to, counted as they come and stopped
 * once past `room`. A deflate stream ends itself, so no length (which a hostile file can state falsely, or
 * by reference) is needed: what follows the stream is never read. A stream that turns out damaged counts
 * what it gave before the damage, as pdf.js would keep it.
 */
const inflatedSize = (data: Buffer, room: number): Promise<number> =>
  new Promise((resolve) => {
    // The two-byte zlib header is skipped and the rest inflated raw: no closing checksum is checked (pdf.js
    // checks none either), so a stream with a wrong one is counted whole like any other.
    const z = createInflateRaw({ finishFlush: constants.Z_SYNC_FLUSH, chunkSize: 256 * 1024 });
    let n = 0;
    const done = () => resolve(n);
    z.on('data', (chunk: Buffer) => {
      n += chunk.byteLength;
      if (n > room) {
        z.destroy();
        done();
      }
    });
    z.once('error', done);
    z.once('end', done);
    z.once('close', done);
    z.end(data.subarray(2));
  });

/** The bytes of the PDF's FlateDecode streams once inflated, counted up to `cap` (then refused). */
export const pdfDecodedBytes = async (bytes: Uint8Array, cap = MAX_PDF_DECODED_BYTES): Promise<number> => {
  const pdf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  let at = 0;
  for (;;) {
    const s = pdf.indexOf(STREAM, at);
    if (s < 0) return total;
    at = s + STREAM.length;
    // `endstream` ends in `stream`; the keyword that opens a stream has an end of line after it.
    if (s >= 3 && pdf.subarray(s - 3, s).toString('latin1') === 'end') continue;
    let start = at;
    if (pdf[start] === 0x0d) start++;
    if (pdf[start] === 0x0a) start++;
    if (start === at) continue;
    const dict = pdf.subarray(Math.max(0, s - DICT_WINDOW), s).toString('latin1');
    const own = dict.slice(dict.lastIndexOf(' obj') + 1);
    if (!/\/FlateDecode|\/Fl\b/.test(own) || /\/Subtype\s*\/Image/.test(own)) continue;
    // A filter chain that starts with another filter cannot be inflated as it is: left to the pool's watch.
    const firstFilter = /\/Filter\s*\[?\s*\/(\w+)/.exec(own)?.[1];
    if (firstFilter && firstFilter !== 'FlateDecode' && firstFilter !== 'Fl') continue;
    total += await inflatedSize(pdf.subarray(start), cap - total);
    if (total > cap)
      throw new DocumentTooComplex(
        'pdf_decoded_bytes',
        `the PDF's compressed streams inflate to more than ${describeBytes(cap)}, past what the gateway reads`,
      );
  }
};

type PdfJs = typeof PdfJsModule;
let pdfjs: Promise<PdfJs> | undefined;

/** pdf.js, loaded once per worker on first use (or when the pool warms the worker up). */
export const loadPdfJs = (): Promise<PdfJs> => (pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs'));

/** The text of a PDF, page by page (at most `maxPages`). */
export const pdfToText = async (
  bytes: Uint8Array,
  maxPages = MAX_PDF_PAGES,
): Promise<{ title?: string; text: string }> => {
  await pdfDecodedBytes(bytes);
  const { getDocument } = await loadPdfJs();
  const doc = await getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  }).promise;
  try {
    const pages: string[] = [];
    for (let n = 1; n <= Math.min(doc.numPages, maxPages); n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      let line = '';
      const lines: string[] = [];
      for (const item of content.items) {
        if (!('str' in item)) continue;
        line += item.str;
        if (item.hasEOL) {
          lines.push(line);
          line = '';
        }
      }
      if (line) lines.push(line);
      pages.push(lines.join('\n').trim());
      page.cleanup();
    }
    const info = (await doc.getMetadata().catch(() => undefined))?.info as { Title?: string } | undefined;
    const more = doc.numPages > maxPages ? `\n\n[${doc.numPages - maxPages} more pages not read]` : '';
    return { title: info?.Title || undefined, text: tidy(pages.join('\n\n')) + more };
  } finally {
    await doc.destroy();
  }
};
