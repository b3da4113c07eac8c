import { afterAll, describe, expect, it } from 'vitest';
import { CachedDocumentReader } from '../../../adapters/outbound/documents/cached-document-reader.js';
import { ParserPool } from '../../../adapters/outbound/documents/parser-pool.js';
import { PooledDocumentReader } from '../../../adapters/outbound/documents/pooled-document-reader.js';
import { tooComplex, unavailable, type GatewayError } from '../../../domain/shared/errors.js';
import { E, type TaskEither } from '../../../domain/shared/fp.js';
import type { DocumentReader, DocumentText } from '../../../ports/document-reader.js';
import { pdfWithText } from '../../support/documents.js';

const pool = new ParserPool({ threads: 1 });
afterAll(() => pool.close());

/** The real reader, counting how often it extracts; `refuse` makes it answer a refusal instead. */
const counting = (refuse?: GatewayError) => {
  const real = new PooledDocumentReader(pool);
  const calls: string[] = [];
  const reader: DocumentReader = {
    read: (bytes, name, type): TaskEither<GatewayError, DocumentText> => {
      calls.push(name);
      return refuse ? async () => E.left(refuse) : real.read(bytes, name, type);
    },
  };
  return { reader, calls };
};

const text = (s: string) => new TextEncoder().encode(s);

/** What the reader read; a refusal fails the test. */
const textOf = async (reader: DocumentReader, bytes: Uint8Array, name: string, type?: string) => {
  const read = await reader.read(bytes, name, type)();
  if (E.isLeft(read)) throw new Error(`refused: ${read.left.message}`);
  return read.right;
};

describe('CachedDocumentReader', () => {
  it('extracts the same bytes once, and gives the same answer again', async () => {
    const { reader, calls } = counting();
    const cached = new CachedDocumentReader(reader);
    const pdf = pdfWithText('Quarterly report, page one');
    const first = await textOf(cached, pdf, 'report.pdf');
    const again = await textOf(cached, pdf, 'report-copy.pdf', 'application/pdf');
    // a different content type is another reading of the bytes: extracted again
    expect(calls).toEqual(['report.pdf', 'report-copy.pdf']);
    expect(await textOf(cached, pdf, 'report.pdf')).toEqual(first);
    expect(calls).toHaveLength(2);
    expect(first).toMatchObject({ kind: 'text', format: 'pdf' });
    expect(again).toEqual(first);
  });

  it('reads other bytes, and the same bytes as another type, anew', async () => {
    const { reader, calls } = counting();
    const cached = new CachedDocumentReader(reader);
    expect(await textOf(cached, text('a,b\n1,2\n'), 'data.csv')).toMatchObject({ kind: 'table', header: ['a', 'b'] });
    expect(await textOf(cached, text('a,b\n1,2\n'), 'data.txt')).toMatchObject({ kind: 'text', text: 'a,b\n1,2\n' });
    expect(await textOf(cached, text('a,b\n1,3\n'), 'data.csv')).toMatchObject({ rows: [['1', '3']] });
    expect(calls).toEqual(['data.csv', 'data.txt', 'data.csv']);
  });

  it('keeps no more text than its bound: the oldest entries go first', async () => {
    const { reader, calls } = counting();
    const cached = new CachedDocumentReader(reader, { maxChars: 250, ttlMs: 60_000 });
    for (let i = 0; i < 10; i++) await textOf(cached, text(`${i}`.repeat(100)), `f${i}.txt`);
    expect(cached.size).toBeLessThanOrEqual(2);
    await textOf(cached, text('0'.repeat(100)), 'f0.txt');
    expect(calls.filter((c) => c === 'f0.txt')).toHaveLength(2);
    // a text larger than the whole bound is answered, not kept
    const huge = await textOf(cached, text('x'.repeat(1000)), 'huge.txt');
    expect(huge).toMatchObject({ kind: 'text' });
    await textOf(cached, text('x'.repeat(1000)), 'huge.txt');
    expect(calls.filter((c) => c === 'huge.txt')).toHaveLength(2);
  });

  it("keeps a document's own refusal, but not a busy pool's or a call that ran out of time", async () => {
    const hostile = counting(tooComplex('This document is too complex to read: too deep.', 'html_depth'));
    const cached = new CachedDocumentReader(hostile.reader);
    for (let i = 0; i < 3; i++) {
      const r = await cached.read(text('<div>'), 'deep.html')();
      expect(E.isLeft(r) && r.left).toMatchObject({ _tag: 'TooComplex', limit: 'html_depth' });
    }
    expect(hostile.calls).toEqual(['deep.html']);
    for (const refusal of [unavailable('busy', 2), tooComplex('out of time', 'call_time')]) {
      const passing = counting(refusal);
      const again = new CachedDocumentReader(passing.reader);
      await again.read(text('<p>'), 'page.html')();
      await again.read(text('<p>'), 'page.html')();
      expect(passing.calls).toEqual(['page.html', 'page.html']);
    }
  });
});
