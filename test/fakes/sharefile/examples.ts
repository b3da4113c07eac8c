import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// ShareFile's published request examples (test/fixtures/sharefile-examples) and the check of a JSON
// request body against one: members must exist in the example (or in the SDK's documented extras) with the
// example's JSON type.

type Json = Record<string, unknown>;

export const EXAMPLES_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../fixtures/sharefile-examples',
);

const example = (name: string): Json => JSON.parse(readFileSync(path.join(EXAMPLES_DIR, name), 'utf8')) as Json;

/** Request-body members the ShareFile .NET SDK's models accept beyond the documented example. */
const EXTRAS: Record<string, Json> = {
  'itemsUpload2.request.json': {
    BatchId: '',
    BatchLast: false,
    CanResume: false,
    StartOver: false,
    Unzip: false,
    Overwrite: false,
    Title: '',
    Details: '',
    IsSend: false,
    SendGuid: '',
    Notify: false,
    ThreadCount: 0,
    ClientCreatedDate: '',
    ClientModifiedDate: '',
    BaseFileId: '',
  },
  'createShare-send.request.json': { IsViewOnly: false, Settings: { NotifyOnUse: false } },
  'createShare-request.request.json': { Settings: { NotifyOnUse: false } },
  'updateShare.request.json': { MaxDownloads: 0, RequireUserInfo: false, IsViewOnly: false },
};

const typeOfJson = (v: unknown): string => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v);

const checkAgainst = (body: unknown, shape: unknown, at: string, problems: string[]): void => {
  if (typeOfJson(body) !== typeOfJson(shape)) {
    problems.push(`${at || 'body'}: ${typeOfJson(body)} where the example has ${typeOfJson(shape)}`);
    return;
  }
  if (Array.isArray(body) && Array.isArray(shape) && shape.length) {
    body.forEach((b, i) => checkAgainst(b, shape[0], `${at}[${i}]`, problems));
    return;
  }
  if (typeOfJson(body) === 'object') {
    for (const [k, v] of Object.entries(body as Json)) {
      if (!(k in (shape as Json))) problems.push(`${at ? `${at}.` : ''}${k}: not a member of the documented request`);
      else checkAgainst(v, (shape as Json)[k], `${at ? `${at}.` : ''}${k}`, problems);
    }
  }
};

/** How a request body departs from the named example (with its documented extras); empty when it does not. */
export const exampleProblems = (body: unknown, exampleName: string): string[] => {
  const problems: string[] = [];
  checkAgainst(body, { ...example(exampleName), ...(EXTRAS[exampleName] ?? {}) }, '', problems);
  return problems;
};
