// Tool descriptions and text answers as DOM nodes: markdown-parse.ts reads the Markdown (CommonMark with
// GFM tables, through mdast-util-from-markdown), this file builds elements from the tree with textContent,
// never HTML text, so an answer cannot inject markup. Only http(s) links are made clickable. A text the
// parser does not take (too long, nested too deep) is shown as it is.
import { append, el, type Child } from './dom.js';
import { parseInline, parseMarkdown, TooLargeToParse, type Align, type Block, type Inline } from './markdown-parse.js';

const WEB_LINK = /^https?:\/\//i;

const inlineNodes = (nodes: readonly Inline[]): Child[] =>
  nodes.map((node): Child => {
    switch (node.kind) {
      case 'text':
        return node.text;
      case 'code':
        return el('code', { text: node.text });
      case 'strong':
        return el('strong', null, inlineNodes(node.children));
      case 'em':
        return el('em', null, inlineNodes(node.children));
      case 'link': {
        const label = node.children.length ? inlineNodes(node.children) : node.href;
        // The parser makes only http(s) links; checked again where the href is set.
        return WEB_LINK.test(node.href)
          ? el('a', { href: node.href, target: '_blank', rel: 'noopener noreferrer' }, label)
          : el('span', null, label);
      }
    }
  });

/** Lines of one paragraph or list item, with line breaks between them. */
const lineNodes = (lines: readonly (readonly Inline[])[]): Child[] =>
  lines.map((line, i) => [i ? el('br') : null, inlineNodes(line)]);

const alignClass = (align: Align | undefined): string | null => (align ? 'align-' + align : null);

const blockNode = (block: Block): HTMLElement => {
  switch (block.kind) {
    case 'heading':
      // Answers start at ##; the page's own headings are h2, so an answer's ## is an h4.
      return el('h' + Math.min(6, block.level + 2), null, inlineNodes(block.content));
    case 'paragraph':
      return el('p', null, lineNodes(block.lines));
    case 'code':
      return el(
        'pre',
        null,
        el('code', { className: block.info ? 'language-' + block.info.split(' ')[0] : null, text: block.text }),
      );
    case 'rule':
      return el('hr');
    case 'list':
      return el(
        block.ordered ? 'ol' : 'ul',
        block.ordered && block.start !== 1 ? { start: block.start } : null,
        block.items.map((item) => el('li', null, lineNodes(item))),
      );
    case 'table':
      return el(
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
              block.head.map((cell, k) => el('th', { className: alignClass(block.align[k]) }, inlineNodes(cell))),
            ),
          ),
          el(
            'tbody',
            null,
            block.rows.map((row) =>
              el(
                'tr',
                null,
                row.map((cell, k) => el('td', { className: alignClass(block.align[k]) }, inlineNodes(cell))),
              ),
            ),
          ),
        ),
      );
  }
};

/** Inline Markdown (a description, an error message): code spans, bold, italics, links. */
export const inline = (text: string): Child[] => {
  try {
    return inlineNodes(parseInline(text));
  } catch (e) {
    if (e instanceof TooLargeToParse) return [text];
    throw e;
  }
};

/** Block Markdown as a `div.markdown`; a text the parser gives up on is shown as it is. */
export const markdown = (text: string): HTMLElement => {
  const root = el('div', { className: 'markdown' });
  try {
    append(root, parseMarkdown(text).map(blockNode));
  } catch (e) {
    if (!(e instanceof TooLargeToParse)) throw e;
    root.textContent = '';
    root.appendChild(el('pre', { className: 'plain', text }));
  }
  return root;
};
