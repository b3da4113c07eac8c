import { button, facts, h, replace, status } from './dom.js';
import { callTool, show, startView, textOf, type ToolAnswer, type ViewContext } from './shell.js';

// The file preview: an item (files_getItem) or a page of a file's text (files_readFile: text files, and
// PDF and Office documents page by page as text), with the next page and the download link. An image is
// shown (views_fileImage, at most 2 MiB, from a data: URL); another file without text shows why. Each has
// its download link.

const size = (bytes: unknown): string | undefined => {
  if (typeof bytes !== 'number') return undefined;
  if (bytes < 1024) return `${bytes} B`;
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
};

const download = (ctx: ViewContext, itemId: string, out: HTMLElement) =>
  button('Download', () => {
    void (async () => {
      replace(out, status('info', 'Getting the download link…'));
      const result = await callTool(ctx, 'files_getDownloadUrl', { item_id: itemId });
      const url = result.structuredContent?.['DownloadUrl'];
      if (result.isError || typeof url !== 'string') return replace(out, status('bad', textOf(result)));
      replace(out, status('info', 'The download opens in your browser.'));
      ctx.app.openLink({ url }).catch(() => replace(out, status('info', `Download link: ${url}`)));
    })();
  });

const readPage = async (ctx: ViewContext, itemId: string, offset?: number) => {
  const result = await callTool(ctx, 'files_readFile', { item_id: itemId, ...(offset ? { offset } : {}) });
  show(result, ctx, render);
};

const renderText = (data: Record<string, unknown>, ctx: ViewContext): void => {
  const itemId = String(data['item_id'] ?? '');
  const offset = typeof data['offset'] === 'number' ? data['offset'] : 0;
  const text = typeof data['text'] === 'string' ? data['text'] : '';
  const total = typeof data['total_chars'] === 'number' ? data['total_chars'] : text.length;
  const next = typeof data['next_offset'] === 'number' ? data['next_offset'] : undefined;
  const out = h('div', { 'aria-live': 'polite' });
  replace(
    ctx.root,
    h('h1', {}, String(data['name'] ?? 'File')),
    h(
      'p',
      { class: 'muted' },
      `${String(data['format'] ?? 'text')}: characters ${offset + 1}–${offset + text.length} of ${total}`,
    ),
    h('pre', { tabindex: '0', 'aria-label': 'File text' }, text),
    h(
      'div',
      { class: 'actions' },
      next !== undefined ? button('Next page', () => void readPage(ctx, itemId, next), 'primary') : false,
      download(ctx, itemId, out),
    ),
    out,
  );
};

const renderItem = (data: Record<string, unknown>, ctx: ViewContext): void => {
  const itemId = String(data['Id'] ?? '');
  const isFolder = String(data['odata.type'] ?? '').endsWith('Folder');
  const out = h('div', { 'aria-live': 'polite' });
  const creator = [data['CreatorFirstName'], data['CreatorLastName']].filter(Boolean).join(' ');
  replace(
    ctx.root,
    h('h1', {}, String(data['Name'] ?? 'Item')),
    facts([
      ['Path', data['Path']],
      ['Size', size(data['FileSizeBytes'])],
      ['Created', data['CreationDate']],
      ['Creator', creator || undefined],
      ['Description', data['Description']],
    ]),
    isFolder
      ? h('p', { class: 'muted' }, 'A folder: list it with files_listChildren.')
      : h(
          'div',
          { class: 'actions' },
          button('Preview', () => void readPage(ctx, itemId), 'primary'),
          download(ctx, itemId, out),
        ),
    out,
  );
};

const IMAGE = /\.(png|jpe?g|gif|webp|bmp)$/i;

/** An image's bytes through views_fileImage, shown from a data: URL; too large or refused: the reason. */
const showImage = async (ctx: ViewContext, itemId: string, name: string, into: HTMLElement) => {
  replace(into, status('info', 'Loading the image…'));
  const result = await callTool(ctx, 'views_fileImage', { item_id: itemId });
  const data = result.structuredContent ?? {};
  const type = data['content_type'];
  const base64 = data['data_base64'];
  if (result.isError || typeof type !== 'string' || typeof base64 !== 'string')
    return replace(into, status('info', `No preview: ${textOf(result)} Use Download.`));
  replace(
    into,
    h('figure', {}, h('img', { src: `data:${type};base64,${base64}`, alt: name }), h('figcaption', {}, name)),
  );
};

const render = (answer: ToolAnswer, ctx: ViewContext): void => {
  const data = answer.structuredContent ?? {};
  if (typeof data['text'] === 'string') return renderText(data, ctx);
  if ('Id' in data) return renderItem(data, ctx);
  // A file with no text to show (an image, an archive...): why, an image's preview, and its download link.
  const itemId = String(data['item_id'] ?? ctx.args['item_id'] ?? '');
  const name = String(data['name'] ?? 'File');
  const out = h('div', { 'aria-live': 'polite' });
  const preview = h('div', { 'aria-live': 'polite' });
  replace(
    ctx.root,
    h('h1', {}, name),
    IMAGE.test(name) ? preview : h('p', {}, textOf(answer)),
    h('div', { class: 'actions' }, download(ctx, itemId, out)),
    out,
  );
  if (IMAGE.test(name)) void showImage(ctx, itemId, name, preview);
};

startView('file', render);
