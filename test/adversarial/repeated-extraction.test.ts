import { afterAll, describe, expect, it, vi } from 'vitest';
import { PooledDocumentReader } from '../../adapters/outbound/documents/pooled-document-reader.js';
import { post, testGateway } from '../support/gateway.js';
import { pdfWithText } from '../support/documents.js';

// Attack: ask files_readFile for the same heavy document over and over (every offset, or the same page
// again), so that the gateway runs the PDF extractor on every call. The extracted text is kept (keyed by
// the bytes' hash), so repeated reads cost a lookup, not pdf.js.

const g = testGateway({}, { RATE_LIMIT_PER_MINUTE: '1000000' });
afterAll(() => g.close());

describe('repeated reads of one document', () => {
  it('extract it once however often and wherever it is read', async () => {
    const extract = vi.spyOn(PooledDocumentReader.prototype, 'read');
    const pdf = Buffer.from(pdfWithText('Lease terms: '.repeat(40))).toString('base64');
    const written = await post(g, '/v1/tools/files/writeFile?format=json', {
      folder_id: 'home',
      file_name: 'heavy.pdf',
      content: pdf,
      encoding: 'base64',
    });
    expect(written.status).toBe(200);
    const folder = await post(g, '/v1/tools/files/createFolder?format=json', { parent_id: 'home', name: 'Copies' });
    const copy = await post(g, '/v1/tools/files/copyItem?format=json', {
      item_id: written.body.data.Id,
      target_folder_id: folder.body.data.Id,
    });
    expect(copy.status).toBe(200);
    for (let i = 0; i < 25; i++) {
      const id = i % 2 === 0 ? written.body.data.Id : copy.body.data.Id;
      const r = await post(g, '/v1/tools/files/readFile?format=json', {
        item_id: id,
        offset: (i * 7) % 80,
        max_chars: 500,
      });
      expect(r.status).toBe(200);
      expect(r.body.data.text).toMatch(/Lease|terms/);
    }
    // the copy has the same bytes: one extraction serves both
    expect(extract).toHaveBeenCalledTimes(1);
    extract.mockRestore();
  });
});
