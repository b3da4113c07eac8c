import JSZip from 'jszip';
import { expect, it } from 'vitest';
import { FileDocumentReader } from '../../adapters/outbound/web/document-reader.js';

// A Word document is a zip: a small file whose parts unpack to gigabytes would make files_readFile unpack
// them all. Its declared unpacked size is checked first, from the zip's directory, without unpacking.

it('refuses a docx whose parts unpack to more than 64 MiB, without unpacking them', async () => {
  const zip = new JSZip();
  zip.file('[Content_Types].xml', '<Types/>');
  zip.file('word/document.xml', ' '.repeat(65 * 1024 * 1024));
  const bomb = await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
  expect(bomb.byteLength).toBeLessThan(1024 * 1024);
  const read = await new FileDocumentReader().read(bomb, 'bomb.docx');
  expect(read).toEqual({ kind: 'unreadable', reason: 'the Word document unpacks to more than 64 MiB' });
});
