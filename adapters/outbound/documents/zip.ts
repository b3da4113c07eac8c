import yauzl from 'yauzl';
import yazl from 'yazl';
import { DocumentTooComplex, MAX_ZIP_ENTRIES, MAX_ZIP_UNPACKED_BYTES, describeBytes } from './limits.js';

// A zip's parts inflated under a byte cap that counts what inflating really produces. A zip's directory
// states each part's size, and a hostile one lies (1,000 bytes declared for a 1 GiB part): yauzl checks the
// inflated bytes against the declared size as they come (validateEntrySizes), and the running total here
// stops the whole read at the cap, so no more than the cap is ever inflated. The parts kept are then packed
// again, uncompressed, into a zip whose directory is true, and only that reaches the document library: it
// never inflates anything a second time from the caller's bytes.

/** The parts whose names pass `keep`, inflated and counted; refused past `cap` bytes or `MAX_ZIP_ENTRIES` entries. */
export const unzipBounded = async (
  bytes: Uint8Array,
  keep: (name: string) => boolean,
  cap = MAX_ZIP_UNPACKED_BYTES,
): Promise<Map<string, Buffer>> => {
  const zip = await yauzl.fromBufferPromise(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
    lazyEntries: true,
    validateEntrySizes: true,
    strictFileNames: false,
  });
  const parts = new Map<string, Buffer>();
  let total = 0;
  let entries = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      if (++entries > MAX_ZIP_ENTRIES)
        throw new DocumentTooComplex('zip_entries', `the file holds more than ${MAX_ZIP_ENTRIES} parts`);
      if (entry.fileName.endsWith('/') || !keep(entry.fileName) || parts.has(entry.fileName)) continue;
      if (total + entry.uncompressedSize > cap) throw tooLarge(cap);
      const stream = await zip.openReadStreamPromise(entry);
      const chunks: Buffer[] = [];
      try {
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          total += chunk.byteLength;
          if (total > cap) throw tooLarge(cap);
          chunks.push(chunk);
        }
      } finally {
        stream.destroy();
      }
      parts.set(entry.fileName, Buffer.concat(chunks));
    }
  } finally {
    zip.close();
  }
  return parts;
};

const tooLarge = (cap: number) =>
  new DocumentTooComplex('zip_unpacked_bytes', `the file's parts inflate to more than ${describeBytes(cap)}`);

/** The parts as a new zip, stored without compression (nothing in it inflates). */
export const storedZip = (parts: ReadonlyMap<string, Buffer>): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const out = new yazl.ZipFile();
    for (const [name, data] of parts) out.addBuffer(data, name, { compress: false });
    out.end();
    const chunks: Buffer[] = [];
    out.outputStream.on('data', (c: Buffer) => chunks.push(c));
    out.outputStream.on('error', reject);
    out.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
