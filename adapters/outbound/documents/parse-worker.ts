import type { ParseOutcome, ParseTask, Started } from './parse-task.js';
import { DocumentTooComplex } from './limits.js';
import { loadPdfJs } from './pdf.js';
import { formatOf, isStackOverflow, readFileText, readPage } from './tasks.js';

// A parser worker's entry (piscina loads this file in each worker thread). The document libraries
// (linkedom, Readability, turndown, pdf.js, mammoth, yauzl) are loaded here and nowhere on the main thread:
// all but pdf.js as the worker starts, pdf.js on the first PDF (or a warm-up).

/** Whether the task reads a PDF, so that pdf.js must be loaded first. */
const needsPdfJs = (task: ParseTask): boolean =>
  task.op === 'warm' ||
  (task.op === 'page' ? task.kind === 'pdf' : formatOf(task.fileName, task.contentType) === 'pdf');

export default async function parse(task: ParseTask & Started): Promise<ParseOutcome<unknown>> {
  try {
    // Loading a library is the gateway's own code, the same for every document: it is done before the task
    // counts as begun, so that a reader's first document is not refused for the time its libraries took.
    if (needsPdfJs(task)) await loadPdfJs();
    task.started?.postMessage(true);
    switch (task.op) {
      case 'warm':
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
