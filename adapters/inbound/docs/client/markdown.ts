// The little Markdown the tool descriptions and text answers use: code spans, bold and links inline;
// headings, tables, lists, fenced code and paragraphs as blocks. Built as DOM nodes, never as HTML text.
import { append, el, type Child } from './dom.js';

const INLINE =
  /`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)|(https?:\/\/[^\s<>|]+[^\s<>|.,;:!?)\]])/g;

/** Inline Markdown: code spans, bold, links and bare URLs. */
export const inline = (text: string): Child[] => {
  const out: Child[] = [];
  let last = 0;
  let m: RegExpExecArray | null;
  INLINE.lastIndex = 0;
  while ((m = INLINE.exec(text)) !== null) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const [, code, bold, label, href, url] = m;
    if (code !== undefined) out.push(el('code', { text: code }));
    else if (bold !== undefined) out.push(el('strong', null, inline(bold)));
    else if (label !== undefined)
      out.push(el('a', { href, target: '_blank', rel: 'noopener noreferrer', text: label }));
    else out.push(el('a', { href: url, target: '_blank', rel: 'noopener noreferrer', text: url }));
    last = INLINE.lastIndex;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
};

/** The cells of a table row; `\|` is a pipe inside a cell. */
const splitRow = (line: string): string[] => {
  let body = line.trim();
  if (body.charAt(0) === '|') body = body.slice(1);
  if (body.charAt(body.length - 1) === '|' && body.charAt(body.length - 2) !== '\\') body = body.slice(0, -1);
  const cells: string[] = [];
  let cur = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body.charAt(i);
    if (ch === '\\' && body.charAt(i + 1) === '|') {
      cur += '|';
      i++;
    } else if (ch === '|') {
      cells.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  cells.push(cur.trim());
  return cells;
};

const RULE = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;
const FENCE = /^\s*```/;
const HEADING = /^(#{1,6})\s+(.*)$/;
const BULLET = /^\s*[-*]\s+/;

const isTableRow = (line: string | undefined): line is string => line !== undefined && line.trim().charAt(0) === '|';

/** Block Markdown as a `div.markdown`. */
export const markdown = (text: string): HTMLElement => {
  const lines = String(text).replace(/\r\n?/g, '\n').split('\n');
  const root = el('div', { className: 'markdown' });
  let para: string[] = [];
  const flush = (): void => {
    if (!para.length) return;
    const p = el('p');
    para.forEach((line, i) => {
      if (i) p.appendChild(el('br'));
      append(p, inline(line));
    });
    root.appendChild(p);
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const heading = HEADING.exec(line);
    if (!line.trim()) {
      flush();
      continue;
    }
    if (FENCE.test(line)) {
      flush();
      const code: string[] = [];
      for (i++; i < lines.length && !FENCE.test(lines[i] ?? ''); i++) code.push(lines[i] ?? '');
      root.appendChild(el('pre', null, el('code', { text: code.join('\n') })));
      continue;
    }
    if (heading) {
      flush();
      root.appendChild(el('h' + Math.min(6, (heading[1] ?? '').length + 2), null, inline(heading[2] ?? '')));
      continue;
    }
    if (isTableRow(line) && i + 1 < lines.length && RULE.test(lines[i + 1] ?? '')) {
      flush();
      const head = splitRow(line);
      const rows: string[][] = [];
      for (i += 2; i < lines.length && isTableRow(lines[i]); i++) rows.push(splitRow(lines[i] ?? ''));
      i--;
      root.appendChild(
        el(
          'div',
          { className: 'table-wrap' },
          el(
            'table',
            null,
            el(
              'thead',
              null,
              el(
                'tr',
                null,
                head.map((h) => el('th', null, inline(h))),
              ),
            ),
            el(
              'tbody',
              null,
              rows.map((r) =>
                el(
                  'tr',
                  null,
                  head.map((_, k) => el('td', null, inline(r[k] || ''))),
                ),
              ),
            ),
          ),
        ),
      );
      continue;
    }
    if (BULLET.test(line)) {
      flush();
      const ul = el('ul');
      for (; i < lines.length && BULLET.test(lines[i] ?? ''); i++) {
        ul.appendChild(el('li', null, inline((lines[i] ?? '').replace(BULLET, ''))));
      }
      i--;
      root.appendChild(ul);
      continue;
    }
    para.push(line);
  }
  flush();
  return root;
};
