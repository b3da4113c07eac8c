import mammoth from 'mammoth';
import type { PageKind } from '../../../domain/web/page.js';
import type { DocumentText } from '../../../ports/document-reader.js';
import { decodeText } from './decode.js';
import { htmlToMarkdown } from './html.js';
import { DocumentTooComplex, MAX_CSV_CELLS } from './limits.js';
import { pdfToText } from './pdf.js';
import { storedZip, unzipBounded } from './zip.js';

// What a parser worker does with a document's bytes: a fetched page by its media type (web_fetch), a file
// by its name and type (files_readFile). These run only inside the pool's workers; a bound passed throws
// DocumentTooComplex, which the worker answers as a refusal.

export interface Extracted {
  readonly kind: PageKind;
  readonly title?: string;
  readonly text: string;
}

/** Fetched bytes of a supported kind as text: HTML as markdown of its main content, PDF as its text. */
export const readPage = async (
  kind: PageKind,
  bytes: Uint8Array,
  contentType: string | undefined,
): Promise<Extracted> => {
  if (kind === 'pdf') {
    const { title, text } = await pdfToText(bytes);
    return { kind, title, text };
  }
  const text = decodeText(bytes, contentType, kind === 'html');
  if (kind === 'html') {
    const { title, markdown } = htmlToMarkdown(text);
    return { kind, title, text: markdown };
  }
  if (kind === 'json') return { kind, text: prettyJson(text) };
  return { kind, text };
};

const prettyJson = (text: string): string => {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
};

export type Format = 'text' | 'markdown' | 'csv' | 'json' | 'html' | 'pdf' | 'docx';

const BY_EXTENSION: Readonly<Record<string, Format>> = {
  txt: 'text',
  text: 'text',
  log: 'text',
  md: 'markdown',
  markdown: 'markdown',
  csv: 'csv',
  json: 'json',
  html: 'html',
  htm: 'html',
  pdf: 'pdf',
  docx: 'docx',
};

const BY_TYPE: readonly [RegExp, Format][] = [
  [/^text\/csv\b/i, 'csv'],
  [/^text\/markdown\b/i, 'markdown'],
  [/^text\/html\b|^application\/xhtml\+xml\b/i, 'html'],
  [/^application\/json\b|\+json\b/i, 'json'],
  [/^application\/pdf\b/i, 'pdf'],
  [/^application\/vnd\.openxmlformats-officedocument\.wordprocessingml\.document\b/i, 'docx'],
  [/^text\//i, 'text'],
];

export const formatOf = (fileName: string, contentType?: string): Format | undefined => {
  const dot = fileName.lastIndexOf('.');
  const ext = dot >= 0 ? fileName.slice(dot + 1).toLowerCase() : '';
  return BY_EXTENSION[ext] ?? (contentType ? BY_TYPE.find(([re]) => re.test(contentType))?.[1] : undefined);
};

/**
 * RFC 4180 CSV: quoted fields with doubled quotes and line breaks; at most MAX_CSV_CELLS cells are read. Our
 * own: no CSV library is installed, and the format needs only this linear state machine.
 */
export const parseCsv = (text: string): { rows: string[][]; cut: boolean } => {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let cells = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
      continue;
    }
    if (ch === '"' && cell === '') quoted = true;
    else if (ch === ',' || ch === '\n' || ch === '\r') {
      row.push(cell);
      cell = '';
      if (++cells >= MAX_CSV_CELLS) return { rows: [...rows, row], cut: true };
      if (ch !== ',') {
        if (ch === '\r' && text[i + 1] === '\n') i++;
        rows.push(row);
        row = [];
      }
    } else cell += ch;
  }
  if (cell !== '' || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return { rows: rows.filter((r) => r.length > 1 || r[0] !== ''), cut: false };
};

/** The parts of a Word document its text is read from (media and embedded files are never inflated). */
const isDocxTextPart = (name: string): boolean => /\.(xml|rels)$/i.test(name);

const docxText = async (bytes: Uint8Array): Promise<string> => {
  const honest = await storedZip(await unzipBounded(bytes, isDocxTextPart));
  const { value } = await mammoth.extractRawText({ buffer: honest });
  return value.replace(/\n{3,}/g, '\n\n').trim();
};

/** A file's bytes as text by its type (name first, then content type). */
export const readFileText = async (
  bytes: Uint8Array,
  fileName: string,
  contentType: string | undefined,
): Promise<DocumentText> => {
  const format = formatOf(fileName, contentType);
  if (!format)
    return {
      kind: 'unreadable',
      reason: `"${fileName}" is not a type the gateway reads as text${contentType ? ` (${contentType})` : ''}`,
    };
  try {
    switch (format) {
      case 'pdf': {
        const { text } = await pdfToText(bytes);
        return text.trim()
          ? { kind: 'text', format, text }
          : { kind: 'unreadable', reason: 'the PDF has no text layer (a scan?)' };
      }
      case 'docx':
        return { kind: 'text', format, text: await docxText(bytes) };
      case 'html':
        return { kind: 'text', format, text: htmlToMarkdown(decodeText(bytes, contentType, true)).markdown };
      case 'csv': {
        const { rows } = parseCsv(decodeText(bytes, contentType, false));
        const [header = [], ...rest] = rows;
        return { kind: 'table', format, header, rows: rest };
      }
      case 'json':
        return { kind: 'text', format, text: prettyJson(decodeText(bytes, contentType, false)) };
      default: {
        const text = decodeText(bytes, contentType, false);
        // NUL bytes in the first KiB: a binary file named like text
        return text.slice(0, 1024).includes('\u0000')
          ? { kind: 'unreadable', reason: `"${fileName}" holds binary data` }
          : { kind: 'text', format, text };
      }
    }
  } catch (e) {
    if (e instanceof DocumentTooComplex || isStackOverflow(e)) throw e;
    return {
      kind: 'unreadable',
      reason: `the ${format} file could not be read (${(e as Error).message.slice(0, 200)})`,
    };
  }
};

export const isStackOverflow = (e: unknown): boolean => e instanceof RangeError && /call stack/i.test(e.message);
