import { describe, expect, it } from 'vitest';
import { htmlStructure, htmlToMarkdown } from '../../../../adapters/outbound/documents/html.js';
import { DocumentTooComplex } from '../../../../adapters/outbound/documents/limits.js';
import { pdfDecodedBytes } from '../../../../adapters/outbound/documents/pdf.js';
import { readFileText } from '../../../../adapters/outbound/documents/tasks.js';
import { storedZip, unzipBounded } from '../../../../adapters/outbound/documents/zip.js';
import { docxWithParagraphs, pdfWithText } from '../../../support/documents.js';
import { inflateBombPdf, lyingDocx, nestedDivs } from '../../../support/hostile-documents.js';

// The structure bounds the parser workers check before (or while) the work they bound: elements and depth
// counted on HTML tokens, inflated bytes counted while inflating. These run in the test's own thread.

const MiB = 1024 * 1024;

const refusal = async (work: () => unknown): Promise<DocumentTooComplex> => {
  try {
    await work();
  } catch (e) {
    if (e instanceof DocumentTooComplex) return e;
    throw e;
  }
  throw new Error('not refused');
};

describe('HTML structure', () => {
  it('counts elements and the deepest nesting, a void element one level below its parent, and implied closes not nesting', () => {
    expect(htmlStructure('<html><body><div><p>a<br><img src=x><p>b</div></body></html>')).toEqual({
      elements: 7,
      depth: 5,
    });
    // 200 list items each implicitly closed by the next: 200 elements, never 200 deep.
    expect(htmlStructure(`<ul>${'<li>x'.repeat(200)}</ul>`).depth).toBe(2);
  });

  it('refuses past the depth bound, stopping at the first element past it', async () => {
    expect(htmlStructure(nestedDivs(120)).depth).toBe(122);
    const e = await refusal(() => htmlStructure(nestedDivs(300_000)));
    expect(e.limit).toBe('html_depth');
  });

  it('refuses past the element bound', async () => {
    const e = await refusal(() => htmlStructure('<p>x</p>'.repeat(11), { elements: 10, depth: 100 }));
    expect(e).toMatchObject({ limit: 'html_elements', message: expect.stringMatching(/more than 10 elements/) });
  });

  it('reads a page within the bounds as markdown', () => {
    const { title, markdown } = htmlToMarkdown(
      '<html><head><title>T</title></head><body><nav>menu</nav><article><h1>Head</h1><p>Some <b>bold</b> text that is long enough to be the article of this page, with more words after it.</p></article></body></html>',
    );
    expect(title).toBe('T');
    expect(markdown).toContain('**bold**');
  });
});

describe('PDF inflated bytes', () => {
  it('counts what the streams inflate to, and refuses past the cap without inflating the rest', async () => {
    expect(await pdfDecodedBytes(pdfWithText('plain, uncompressed'))).toBe(0);
    expect(await pdfDecodedBytes(await inflateBombPdf(8 * MiB))).toBeGreaterThanOrEqual(8 * MiB);
    const bomb = await inflateBombPdf(64 * MiB);
    const e = await refusal(() => pdfDecodedBytes(bomb, 16 * MiB));
    expect(e.limit).toBe('pdf_decoded_bytes');
  });
});

describe('zip parts', () => {
  it('inflates the parts asked for and packs them again, stored, into a zip with true sizes', async () => {
    const docx = await docxWithParagraphs(['First paragraph', 'Second paragraph']);
    const parts = await unzipBounded(docx, (name) => name.endsWith('.xml') || name.endsWith('.rels'));
    expect([...parts.keys()].sort()).toEqual(['[Content_Types].xml', '_rels/.rels', 'word/document.xml']);
    const again = await unzipBounded(await storedZip(parts), () => true);
    expect(again.get('word/document.xml')?.toString()).toContain('Second paragraph');
    const text = await readFileText(docx, 'note.docx', undefined);
    expect(text).toEqual({ kind: 'text', format: 'docx', text: 'First paragraph\n\nSecond paragraph' });
  });

  it('stops a part that inflates past its declared size at the first byte past it', async () => {
    await expect(unzipBounded(await lyingDocx(64 * MiB), () => true)).rejects.toThrow(/too many bytes/);
  });

  it('refuses once the true total passes the cap', async () => {
    const honest = await lyingDocx(8 * MiB, 8 * MiB);
    const e = await refusal(() => unzipBounded(honest, () => true, 4 * MiB));
    expect(e.limit).toBe('zip_unpacked_bytes');
  });
});
