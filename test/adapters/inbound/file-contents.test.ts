import { afterAll, describe, expect, it } from 'vitest';
import { docxWithParagraphs, pdfWithText } from '../../support/documents.js';
import { post, testGateway } from '../../support/gateway.js';

// files_readFile and files_writeFile in memory mode, through REST (issue 15, "File contents").

const g = testGateway();
afterAll(() => g.close());

const write = (file_name: string, content: string, extra: Record<string, unknown> = {}) =>
  post(g, '/v1/tools/files/writeFile?format=json', { folder_id: 'home', file_name, content, ...extra });
const read = (item_id: string, extra: Record<string, unknown> = {}, format = 'json') =>
  post(g, `/v1/tools/files/readFile${format === 'json' ? '?format=json' : ''}`, { item_id, ...extra });

describe('files_writeFile and files_readFile', () => {
  it('writes text and reads it back; overwrite makes a new version, without it a numbered name', async () => {
    const first = await write('notes-cf.txt', 'first line\nsecond line\n');
    expect(first.status).toBe(200);
    const id = first.body.data.Id as string;
    const back = await read(id);
    expect(back.body.data).toMatchObject({ name: 'notes-cf.txt', format: 'text', offset: 0, next_offset: null });
    expect(back.body.data.text).toBe('first line\nsecond line\n');
    const again = await write('notes-cf.txt', 'replaced\n', { overwrite: true });
    expect(again.body.data.Id).toBe(id);
    expect((await read(id)).body.data.text).toBe('replaced\n');
    const numbered = await write('notes-cf.txt', 'another\n');
    expect(numbered.body.data.Name).toBe('notes-cf (1).txt');
  });

  it('pages long text by character offset at line breaks, every line exactly once', async () => {
    const lines = Array.from({ length: 900 }, (_, i) => `line ${String(i).padStart(4, '0')} ${'x'.repeat(20)}`);
    const made = await write('long-cf.txt', `${lines.join('\n')}\n`);
    const id = made.body.data.Id as string;
    const seen: string[] = [];
    let offset: number | null = 0;
    let pages = 0;
    while (offset !== null) {
      const r = await read(id, { offset, max_chars: 2000 });
      expect(r.body.data.text.length).toBeLessThanOrEqual(2000);
      seen.push(...(r.body.data.text as string).split('\n').filter(Boolean));
      offset = r.body.data.next_offset;
      pages++;
    }
    expect(pages).toBeGreaterThan(5);
    expect(seen).toEqual(lines);
    const text = await read(id, { max_chars: 2000 }, 'text');
    expect(text.body.data).toContain('Next page: files_readFile {"item_id":');
  });

  it('reads csv as a table whose header opens every page, json pretty, html as text', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => `${i},"Owner ${i}, LLC",${i * 10}`);
    const csv = await write('owners-cf.csv', `id,owner,amount\n${rows.join('\n')}\n`);
    const first = await read(csv.body.data.Id, { max_chars: 1500 });
    expect(first.body.data.format).toBe('csv');
    expect(first.body.data.text.startsWith('| id | owner | amount |\n|---|---|---|\n| 0 | Owner 0, LLC | 0 |')).toBe(
      true,
    );
    const second = await read(csv.body.data.Id, { offset: first.body.data.next_offset, max_chars: 1500 });
    expect(second.body.data.text.startsWith('| id | owner | amount |\n|---|---|---|\n|')).toBe(true);
    const json = await write('data-cf.json', '{"a":1,"b":[true,null]}');
    expect((await read(json.body.data.Id)).body.data.text).toBe('{\n  "a": 1,\n  "b": [\n    true,\n    null\n  ]\n}');
    const html = await write(
      'page-cf.html',
      '<html><body><h1>Lease</h1><p>Rent is <b>due</b> monthly.</p></body></html>',
    );
    const h = (await read(html.body.data.Id)).body.data.text as string;
    expect(h).toContain('# Lease');
    expect(h).toContain('Rent is **due** monthly.');
    expect(h).not.toContain('<p>');
  });

  it('reads pdf and docx written as base64', async () => {
    const pdf = await write('lease-cf.pdf', Buffer.from(pdfWithText('Monthly rent USD 3,250')).toString('base64'), {
      encoding: 'base64',
    });
    expect(pdf.status).toBe(200);
    const p = await read(pdf.body.data.Id);
    expect(p.body.data.format).toBe('pdf');
    expect(p.body.data.text).toContain('Monthly rent USD 3,250');
    const docx = await docxWithParagraphs(['Offer letter', 'Closing on 2026-12-01']);
    const d = await write('offer-cf.docx', Buffer.from(docx).toString('base64'), { encoding: 'base64' });
    const text = (await read(d.body.data.Id)).body.data.text as string;
    expect(text).toContain('Offer letter');
    expect(text).toContain('Closing on 2026-12-01');
  });

  it('answers an unknown binary type with a clear word and the download address', async () => {
    const bin = await write('blob-cf.bin', Buffer.from([0, 1, 2, 3, 255]).toString('base64'), { encoding: 'base64' });
    const r = await read(bin.body.data.Id);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ readable: false, download_url: expect.stringMatching(/^http/) });
    const text = await read(bin.body.data.Id, {}, 'text');
    expect(text.body.data).toContain('cannot be read as text');
  });

  it('refuses bad input with the parameter named, and writes nothing', async () => {
    const bad = await write('bad-cf.txt', '***not base64***', { encoding: 'base64' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.parameter).toBe('content');
    const folder = await read('home');
    expect(folder.status).toBe(400);
    expect(folder.body.error.details.parameter).toBe('item_id');
    const listing = await post(g, '/v1/tools/files/searchItems?format=json', { query: 'bad-cf' });
    expect(JSON.stringify(listing.body.data)).not.toContain('bad-cf.txt');
  });
});
