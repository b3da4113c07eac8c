import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import { parseHTML } from 'linkedom';
import { beforeAll, describe, expect, it } from 'vitest';

// The reference page's Markdown renderer as the browser runs it: adapters/inbound/docs/client/markdown.ts
// bundled by esbuild (as the page's script is) and run against linkedom's DOM, so this runs where no
// Chromium is installed. The elements it builds, and that answer text never becomes markup.

const CLIENT = fileURLToPath(new URL('../../../../adapters/inbound/docs/client/', import.meta.url));

interface Rendered {
  readonly innerHTML: string;
  readonly textContent: string | null;
  querySelector(selector: string): Rendered | null;
  querySelectorAll(selector: string): ArrayLike<Rendered>;
  getAttribute(name: string): string | null;
  readonly className: string;
}

let render: {
  markdown(text: string): Rendered;
  /** inline() appended to a `p`. */
  inline(text: string): Rendered;
};

beforeAll(async () => {
  const bundle = await build({
    stdin: {
      contents: [
        "import { append, el } from './dom.ts';",
        "import { inline, markdown } from './markdown.ts';",
        "globalThis.render = { markdown, inline: (text) => { const p = el('p'); append(p, inline(text)); return p; } };",
      ].join('\n'),
      resolveDir: CLIENT,
      loader: 'ts',
    },
    tsconfig: `${CLIENT}tsconfig.json`,
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    logLevel: 'silent',
  });
  const { window } = parseHTML('<!doctype html><html><body></body></html>');
  const context: Record<string, unknown> = { window, document: window.document };
  runInNewContext(bundle.outputFiles[0]!.text, context);
  render = context['render'] as typeof render;
});

const texts = (root: Rendered, selector: string): string[] =>
  Array.from(root.querySelectorAll(selector), (n) => n.textContent ?? '');

describe('the Markdown renderer in a DOM', () => {
  it('builds strong, em, code, links, headings, lists, rules, code blocks and tables', () => {
    const root = render.markdown(
      [
        '## Contact Maria Alvarez (id 101)',
        '',
        '**Created:** 2026-01-05 with *emphasis*, _more_ and `code`',
        '**URL:** https://podio.com/acme and [the docs](https://example.com/d)',
        '',
        '---',
        '1. **First**',
        '   https://demo.test/one',
        '- a',
        '- b',
        '',
        '```ts',
        'const x = "**not bold**" < 1;',
        '```',
        '| id | name | amount |',
        '|---|:---:|---:|',
        '| 101 | **Maria** | 3 |',
      ].join('\n'),
    );
    expect(root.className).toBe('markdown');
    expect(texts(root, 'h4')).toEqual(['Contact Maria Alvarez (id 101)']);
    expect(texts(root, 'strong')).toEqual(['Created:', 'URL:', 'First', 'Maria']);
    expect(texts(root, 'em')).toEqual(['emphasis', 'more']);
    expect(texts(root, 'p > code')).toEqual(['code']);
    expect(texts(root, 'pre > code')).toEqual(['const x = "**not bold**" < 1;']);
    expect(root.querySelector('pre > code')?.className).toBe('language-ts');
    expect(root.querySelectorAll('hr').length).toBe(1);
    expect(texts(root, 'ol > li')).toEqual(['Firsthttps://demo.test/one']);
    expect(root.querySelectorAll('ol > li br').length).toBe(1);
    expect(texts(root, 'ul > li')).toEqual(['a', 'b']);
    const links = Array.from(root.querySelectorAll('a'), (a) => [
      a.getAttribute('href'),
      a.textContent,
      a.getAttribute('target'),
      a.getAttribute('rel'),
    ]);
    expect(links).toEqual([
      ['https://podio.com/acme', 'https://podio.com/acme', '_blank', 'noopener noreferrer'],
      ['https://example.com/d', 'the docs', '_blank', 'noopener noreferrer'],
      ['https://demo.test/one', 'https://demo.test/one', '_blank', 'noopener noreferrer'],
    ]);
    expect(root.querySelector('div.table-wrap > table > thead > tr')).not.toBeNull();
    expect(texts(root, 'th')).toEqual(['id', 'name', 'amount']);
    expect(Array.from(root.querySelectorAll('td'), (td) => td.className)).toEqual(['', 'align-center', 'align-right']);
    expect(texts(root, 'td strong')).toEqual(['Maria']);
  });

  it('shows markup in an answer as text, and makes only http(s) links', () => {
    const root = render.markdown(
      '<img src=x onerror=alert(1)> <script>alert(2)</script>\n[x](javascript:alert(3)) [y](data:text/html,hi) memory://crm/1',
    );
    expect(root.querySelectorAll('img, script, a').length).toBe(0);
    expect(root.innerHTML).toBe(
      '<p>&lt;img src=x onerror=alert(1)&gt; &lt;script&gt;alert(2)&lt;/script&gt;<br>[x](javascript:alert(3)) [y](data:text/html,hi) memory://crm/1</p>',
    );
    // CommonMark keeps quotes in a destination; the href is set as an attribute value, never as markup.
    const quoted = render.markdown('[a "quote"](https://q.test/?a="b")');
    expect(Array.from(quoted.querySelectorAll('a'), (a) => a.getAttribute('href'))).toEqual(['https://q.test/?a="b"']);
    expect(quoted.textContent).toBe('a "quote"');
    expect(quoted.innerHTML).toBe(
      '<p><a rel="noopener noreferrer" target="_blank" href="https://q.test/?a=&quot;b&quot;">a "quote"</a></p>',
    );
  });

  it('renders inline Markdown for descriptions and error messages', () => {
    const p = render.inline('No contact with id **999999**. `crm_searchContacts` finds ids; see https://x.test.');
    expect(texts(p, 'strong')).toEqual(['999999']);
    expect(texts(p, 'code')).toEqual(['crm_searchContacts']);
    expect(Array.from(p.querySelectorAll('a'), (a) => a.getAttribute('href'))).toEqual(['https://x.test']);
    expect(p.textContent).toBe('No contact with id 999999. crm_searchContacts finds ids; see https://x.test.');
  });

  it('finishes on the answers that froze the old renderer', () => {
    const contact =
      '## Contact Maria Alvarez (id 101)\n\n| Property | Value |\n|---|---|\n| firstname | Maria |\n\n**Created:** 2026-01-05T09:00:00.000Z\n**URL:** memory://crm/contacts/101';
    expect(texts(render.markdown(contact), 'strong')).toEqual(['Created:', 'URL:']);
    const hostile = render.markdown('**'.repeat(5000) + '\n' + '*a '.repeat(3000) + '\n' + '['.repeat(5000));
    expect(hostile.textContent).toContain('*a *a');
  });
});
