import { describe, expect, it } from 'vitest';
import { CachedDocumentReader } from '../../../adapters/outbound/web/cached-document-reader.js';
import { FileDocumentReader } from '../../../adapters/outbound/web/document-reader.js';
import type { DocumentReader } from '../../../ports/document-reader.js';
import { pdfWithText } from '../../support/documents.js';

/** The real reader, counting how often it extracts. */
const counting = () => {
  const real = new FileDocumentReader();
  const calls: string[] = [];
  const reader: DocumentReader = {
    read: (bytes, name, type) => (calls.push(name), real.read(bytes, name, type)),
  };
  return { reader, calls };
};

const text = (s: string) => new TextEncoder().encode(s);

describe('CachedDocumentReader', () => {
  it('extracts the same bytes once, and gives the same answer again', async () => {
    const { reader, calls } = counting();
    const cached = new CachedDocumentReader(reader);
    const pdf = pdfWithText('Quarterly report, page one');
    const first = await cached.read(pdf, 'report.pdf');
    const again = await cached.read(pdf, 'report-copy.pdf', 'application/pdf');
    // a different content type is another reading of the bytes: extracted again
    expect(calls).toEqual(['report.pdf', 'report-copy.pdf']);
    expect(await cached.read(pdf, 'report.pdf')).toEqual(first);
    expect(calls).toHaveLength(2);
    expect(first).toMatchObject({ kind: 'text', format: 'pdf' });
    expect(again).toEqual(first);
  });

  it('reads other bytes, and the same bytes as another type, anew', async () => {
    const { reader, calls } = counting();
    const cached = new CachedDocumentReader(reader);
    expect(await cached.read(text('a,b\n1,2\n'), 'data.csv')).toMatchObject({ kind: 'table', header: ['a', 'b'] });
    expect(await cached.read(text('a,b\n1,2\n'), 'data.txt')).toMatchObject({ kind: 'text', text: 'a,b\n1,2\n' });
    expect(await cached.read(text('a,b\n1,3\n'), 'data.csv')).toMatchObject({ rows: [['1', '3']] });
    expect(calls).toEqual(['data.csv', 'data.txt', 'data.csv']);
  });

  it('keeps no more text than its bound: the oldest entries go first', async () => {
    const { reader, calls } = counting();
    const cached = new CachedDocumentReader(reader, { maxChars: 250, ttlMs: 60_000 });
    for (let i = 0; i < 10; i++) await cached.read(text(`${i}`.repeat(100)), `f${i}.txt`);
    expect(cached.size).toBeLessThanOrEqual(2);
    await cached.read(text('0'.repeat(100)), 'f0.txt');
    expect(calls.filter((c) => c === 'f0.txt')).toHaveLength(2);
    // a text larger than the whole bound is answered, not kept
    const huge = await cached.read(text('x'.repeat(1000)), 'huge.txt');
    expect(huge).toMatchObject({ kind: 'text' });
    await cached.read(text('x'.repeat(1000)), 'huge.txt');
    expect(calls.filter((c) => c === 'huge.txt')).toHaveLength(2);
  });
});
