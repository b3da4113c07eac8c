import { inject, injectable } from 'inversify';
import type { GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { partOf, type TextPart, type WebPage } from '../../domain/web/page.js';
import { WebReader } from '../../ports/web.js';
import { described, intRange, nonEmptyUpTo, params, t } from '../runtime/codecs.js';
import { defineTool, type CallContext, type UseCase } from '../runtime/define-tool.js';
import { call, fields } from '../runtime/markdown.js';
import { PageResult } from './web-results.js';

export const FetchPageParams = params(
  { url: described(nonEmptyUpTo(2048), 'The http(s) address of the page or document.') },
  {
    max_chars: described(intRange(1000, 10_000), 'Characters of text in this answer.', 6000),
    offset: described(intRange(0, 50_000_000), 'Where to start in the text (the next part of a long document).', 0),
  },
);
export type FetchPageParams = t.TypeOf<typeof FetchPageParams>;

export interface FetchedPage {
  readonly page: WebPage;
  readonly part: TextPart;
}

@injectable()
export class FetchPage implements UseCase<FetchPageParams, FetchedPage> {
  constructor(@inject(WebReader) private readonly reader: WebReader) {}

  execute(p: FetchPageParams, context: CallContext): TaskEither<GatewayError, FetchedPage> {
    return pipe(
      this.reader.read(p.url.trim(), {
        tenant: context.principal.tenant,
        principal: context.principal.id,
        deadline: context.deadline,
      }),
      // A part fits the answer's budget with room for the lines around it, so the next call is never cut off.
      TE.map((page) => ({
        page,
        part: partOf(page.text, p.offset, Math.max(200, Math.min(p.max_chars, (context.budget ?? Infinity) - 800))),
      })),
    );
  }
}

const size = (bytes: number): string =>
  bytes >= 1_048_576
    ? `${(bytes / 1_048_576).toFixed(1)} MB`
    : bytes >= 1024
      ? `${Math.round(bytes / 1024)} KB`
      : `${bytes} B`;

export const fetchPageTool = defineTool({
  group: 'web',
  name: 'fetch',
  title: 'Read a web page or document',
  description:
    'Reads a public web page or document as text (HTML as markdown of its main content; PDF, JSON, CSV, text). Long ones come in parts; the answer names the next call.',
  annotations: { kind: 'Read', idempotent: true, openWorld: true },
  params: FetchPageParams,
  useCase: FetchPage,
  result: PageResult,
  json: ({ page, part }) => ({
    url: page.url,
    final_url: page.finalUrl,
    title: page.title ?? null,
    content_type: page.contentType,
    kind: page.kind,
    bytes: page.bytes,
    fetched_at: page.fetchedAt,
    fetch_ms: page.fetchMs,
    cached: page.cached,
    offset: part.offset,
    next_offset: part.nextOffset ?? null,
    total_chars: part.total,
    text: part.text,
  }),
  text: ({ page, part }, p) => {
    const head = [
      `## ${page.title ?? page.finalUrl}`,
      fields([
        ['URL', page.finalUrl === page.url ? page.url : `${page.finalUrl} (redirected from ${page.url})`],
        ['Type', `${page.contentType} (${page.kind === 'binary' ? 'not text' : page.kind}), ${size(page.bytes)}`],
        ['Fetched', `${page.fetchedAt}${page.cached ? ' (from the cache)' : ` in ${page.fetchMs} ms`}`],
        [
          'Text',
          page.kind === 'binary'
            ? ''
            : part.nextOffset === undefined && part.offset === 0
              ? `${part.total} characters, all shown`
              : `characters ${part.offset + 1}-${part.offset + part.text.length} of ${part.total}`,
        ],
      ]),
    ].join('\n\n');
    if (page.kind === 'binary')
      return `${head}\n\nThis is ${page.contentType}, which the gateway does not turn into text. Download it directly from ${page.finalUrl} if you can read it.`;
    const next =
      part.nextOffset !== undefined
        ? `\n\n---\nNext part: ${call('web_fetch', { url: p.url, offset: part.nextOffset, ...(p.max_chars !== 6000 ? { max_chars: p.max_chars } : {}) })}`
        : '';
    return `${head}\n\n---\n\n${part.text || '(no text)'}${next}`;
  },
});
