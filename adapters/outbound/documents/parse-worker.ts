import type { ParseOutcome, ParseTask } from './parse-task.js';
import { DocumentTooComplex } from './limits.js';
import { loadPdfJs } from './pdf.js';
import { isStackOverflow, readFileText, readPage } from './tasks.js';

// A parser worker's entry (piscina loads this file in each worker thread). The document libraries
// (linkedom, Readability, turndown, pdf.js, mammoth, yauzl) are loaded here and nowhere on the main thread.

export default async function parse(task: ParseTask): Promise<ParseOutcome<unknown>> {
  try {
    switch (task.op) {
      case 'warm':
        await loadPdfJs();
        return { ok: true, value: true };
      case 'page':
        return { ok: true, value: await readPage(task.kind, task.bytes, task.contentType) };
      case 'file':
        return { ok: true, value: await readFileText(task.bytes, task.fileName, task.contentType) };
    }
  } catch (e) {
    if (e instanceof DocumentTooComplex) return { ok: false, limit: e.limit, message: e.message };
    if (isStackOverflow(e))
      return { ok: false, limit: 'nesting', message: 'the document nests its parts too deeply to read' };
    return { ok: false, message: (e as Error).message?.slice(0, 200) ?? String(e) };
  }
}
