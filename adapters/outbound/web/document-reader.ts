import JSZip from 'jszip';
import mammoth from 'mammoth';
import type { DocumentReader, DocumentText } from '../../../ports/document-reader.js';
import { decodeText, htmlToMarkdown, pdfToText } from './extract.js';

// A file's bytes as text, by type: the same extractors as the web group (HTML to Markdown, pdfjs-dist for PDF),
// mammoth for Word documents, and a small CSV reader of our own (RFC 4180 quoting; no library is installed for
// it, and the format needs only a linear state machine, bounded here by MAX_CELLS).

const MAX_CELLS = 200_000;
/** A Word document's parts may unpack to at most this (a zip bomb is refused before mammoth unpacks it). */
const MAX_DOCX_UNPACKED_BYTES = 64 * 1024 * 1024;

/** The sum of the zip's declared unpacked sizes, read from its directory without unpacking anything. */
const unpackedSize = async (bytes: Uint8Array): Promise<number> => {
  const zip = await JSZip.loadAsync(bytes);
  let total = 0;
  zip.forEach((_path, entry) => {
    if (entry.dir) return;
    const size = (entry as unknown as { _data?: { uncompressedSize?: number } })._data?.uncompressedSize;
    total += typeof size === 'number' ? size : Number.POSITIVE_INFINITY;
  });
  return total;
};

type Format = 'text' | 'markdown' | 'csv' | 'json' | 'html' | 'pdf' | 'docx';

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

/** RFC 4180 CSV: quoted fields with doubled quotes and line breaks; at most MAX_CELLS cells are read. */
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
      if (++cells >= MAX_CELLS) return { rows: [...rows, row], cut: true };
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

export class FileDocumentReader implements DocumentReader {
  async read(bytes: Uint8Array, fileName: string, contentType?: string): Promise<DocumentText> {
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
        case 'docx': {
          if ((await unpackedSize(bytes)) > MAX_DOCX_UNPACKED_BYTES)
            return {
              kind: 'unreadable',
              reason: `the Word document unpacks to more than ${MAX_DOCX_UNPACKED_BYTES / 1024 / 1024} MiB`,
            };
          const { value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes) });
          return { kind: 'text', format, text: value.replace(/\n{3,}/g, '\n\n').trim() };
        }
        case 'html':
          return { kind: 'text', format, text: htmlToMarkdown(decodeText(bytes, contentType, true)).markdown };
        case 'csv': {
          const { rows } = parseCsv(decodeText(bytes, contentType, false));
          const [header = [], ...rest] = rows;
          return { kind: 'table', format, header, rows: rest };
        }
        case 'json': {
          const text = decodeText(bytes, contentType, false);
          try {
            return { kind: 'text', format, text: JSON.stringify(JSON.parse(text), null, 2) };
          } catch {
            return { kind: 'text', format, text };
          }
        }
        default: {
          const text = decodeText(bytes, contentType, false);
          // NUL bytes in the first KiB: a binary file named like text
          return text.slice(0, 1024).includes('\u0000')
            ? { kind: 'unreadable', reason: `"${fileName}" holds binary data` }
            : { kind: 'text', format, text };
        }
      }
    } catch (e) {
      return {
        kind: 'unreadable',
        reason: `the ${format} file could not be read (${(e as Error).message.slice(0, 200)})`,
      };
    }
  }
}
