import { describe, expect, it } from 'vitest';
import {
  MAX_MARKDOWN_CHARS,
  parseInline,
  parseMarkdown,
  TooLargeToParse,
  type Inline,
} from '../../../../adapters/inbound/docs/client/markdown-parse.js';

// The reference page's Markdown parser: CommonMark with GFM tables and bare links through
// mdast-util-from-markdown (issue 39), reduced to the page's tree. Each construct as the clients read it,
// then adversarial input (issue 27: a bold answer sent an old renderer into an endless loop): every parse
// finishes and keeps the text, and a text past the size bound or nested too deep is refused, not parsed.

const text = (t: string): Inline => ({ kind: 'text', text: t });
const code = (t: string): Inline => ({ kind: 'code', text: t });
const strong = (...children: Inline[]): Inline => ({ kind: 'strong', children });
const em = (...children: Inline[]): Inline => ({ kind: 'em', children });
const link = (href: string, ...children: Inline[]): Inline => ({ kind: 'link', href, children });

/** The text a reader sees, markup left out. */
const plain = (nodes: readonly Inline[]): string =>
  nodes.map((n) => (n.kind === 'text' || n.kind === 'code' ? n.text : plain(n.children))).join('');

describe('inline Markdown', () => {
  it('reads bold, italics and code spans', () => {
    expect(parseInline('a **bold** b')).toEqual([text('a '), strong(text('bold')), text(' b')]);
    expect(parseInline('**Created:** 2026-01-05')).toEqual([strong(text('Created:')), text(' 2026-01-05')]);
    expect(parseInline('an *italic* and an _underscored_ one')).toEqual([
      text('an '),
      em(text('italic')),
      text(' and an '),
      em(text('underscored')),
      text(' one'),
    ]);
    // CommonMark reads *** as emphasis around strong.
    expect(parseInline('***both***')).toEqual([em(strong(text('both')))]);
    expect(parseInline('**bold with `code` and *em***')).toEqual([
      strong(text('bold with '), code('code'), text(' and '), em(text('em'))),
    ]);
    expect(parseInline('run `records_getRecord {"record_id":1}` next')).toEqual([
      text('run '),
      code('records_getRecord {"record_id":1}'),
      text(' next'),
    ]);
    expect(parseInline('``a ` b``')).toEqual([code('a ` b')]);
    expect(parseInline('`**not bold**`')).toEqual([code('**not bold**')]);
  });

  it('leaves delimiters that open or close nothing as text', () => {
    expect(parseInline('records_getRecord and files_getItem_v2')).toEqual([
      text('records_getRecord and files_getItem_v2'),
    ]);
    expect(parseInline('2 * 3 * 4')).toEqual([text('2 * 3 * 4')]);
    expect(parseInline('permission crm:* or records:*')).toEqual([text('permission crm:* or records:*')]);
    expect(parseInline('**unclosed bold')).toEqual([text('**unclosed bold')]);
    expect(parseInline('an `unclosed tick')).toEqual([text('an `unclosed tick')]);
    expect(parseInline('[x] Call back; [ ] Send offer letter')).toEqual([text('[x] Call back; [ ] Send offer letter')]);
    expect(parseInline('\\*not italic\\* and a \\| pipe')).toEqual([text('*not italic* and a | pipe')]);
  });

  it("ends a bare link at a quote, which no address holds: an answer's web_fetch call links its URL", () => {
    expect(parseInline('Read one: web_fetch {"url":"https://x.test/companies/rosegold-realty"}')).toEqual([
      text('Read one: web_fetch {"url":"'),
      link('https://x.test/companies/rosegold-realty', text('https://x.test/companies/rosegold-realty')),
      text('"}'),
    ]);
    expect(parseInline("see https://x.test/a'b")).toEqual([
      text('see '),
      link('https://x.test/a', text('https://x.test/a')),
      text("'b"),
    ]);
  });

  it('makes http(s) links, labelled and bare, and nothing else', () => {
    expect(parseInline('see [the docs](https://example.com/a?b=1) now')).toEqual([
      text('see '),
      link('https://example.com/a?b=1', text('the docs')),
      text(' now'),
    ]);
    expect(parseInline('[**bold** label](http://x.test)')).toEqual([
      link('http://x.test', strong(text('bold')), text(' label')),
    ]);
    expect(parseInline('at https://example.org/path.')).toEqual([
      text('at '),
      link('https://example.org/path', text('https://example.org/path')),
      text('.'),
    ]);
    expect(parseInline('**URL:** https://podio.com/acme')).toEqual([
      strong(text('URL:')),
      text(' '),
      link('https://podio.com/acme', text('https://podio.com/acme')),
    ]);
    expect(parseInline('**https://x.test/a**')).toEqual([strong(link('https://x.test/a', text('https://x.test/a')))]);
    // A link holds no link: a bare URL in the label is its text.
    expect(parseInline('[https://a.test](https://b.test)')).toEqual([link('https://b.test', text('https://a.test'))]);
    for (const s of [
      '[x](javascript:alert(1))',
      '[x](data:text/html,hi)',
      '[x](ftp://files.test/a)',
      'memory://crm/contacts/101',
      'xhttps://glued.test',
      '<img src=x onerror=alert(1)>',
    ]) {
      const nodes = parseInline(s);
      expect(
        nodes.some((n) => n.kind === 'link'),
        s,
      ).toBe(false);
      expect(plain(nodes), s).toBe(s);
    }
  });
});

describe('block Markdown', () => {
  it('reads headings, paragraphs (line by line), rules, fenced code, lists and tables', () => {
    const blocks = parseMarkdown(
      [
        '## Contact Maria Alvarez (id 101)',
        '',
        '**Created:** today',
        '**URL:** memory://crm/contacts/101',
        '',
        '---',
        '',
        '```json',
        '{"a": "**not bold**"}',
        '```',
        '1. **First** (2026-09-02)',
        '   https://demo.test/one',
        '2. Second',
        '- a bullet',
        '- another',
        '',
        '| id | name \\| alias | amount |',
        '|:---|:---:|---:|',
        '| 101 | **Maria** |',
        '| 102 | Ben | 3 | extra |',
        '',
        'after the table',
      ].join('\r\n'),
    );
    expect(blocks.map((b) => b.kind)).toEqual([
      'heading',
      'paragraph',
      'rule',
      'code',
      'list',
      'list',
      'table',
      'paragraph',
    ]);
    expect(blocks[0]).toEqual({ kind: 'heading', level: 2, content: [text('Contact Maria Alvarez (id 101)')] });
    expect(blocks[1]).toEqual({
      kind: 'paragraph',
      lines: [
        [strong(text('Created:')), text(' today')],
        [strong(text('URL:')), text(' memory://crm/contacts/101')],
      ],
    });
    expect(blocks[3]).toEqual({ kind: 'code', info: 'json', text: '{"a": "**not bold**"}' });
    expect(blocks[4]).toEqual({
      kind: 'list',
      ordered: true,
      start: 1,
      items: [
        [
          [strong(text('First')), text(' (2026-09-02)')],
          [link('https://demo.test/one', text('https://demo.test/one'))],
        ],
        [[text('Second')]],
      ],
    });
    expect(blocks[5]).toMatchObject({
      kind: 'list',
      ordered: false,
      items: [[[text('a bullet')]], [[text('another')]]],
    });
    expect(blocks[6]).toEqual({
      kind: 'table',
      align: ['left', 'center', 'right'],
      head: [[text('id')], [text('name | alias')], [text('amount')]],
      rows: [
        [[text('101')], [strong(text('Maria'))], []],
        [[text('102')], [text('Ben')], [text('3')]],
      ],
    });
  });

  it('reads a line right after a table as one more row, as GFM does', () => {
    expect(parseMarkdown('| a | b |\n|---|---|\n| 1 | 2 |\nafter')).toEqual([
      {
        kind: 'table',
        align: [null, null],
        head: [[text('a')], [text('b')]],
        rows: [
          [[text('1')], [text('2')]],
          [[text('after')], []],
        ],
      },
    ]);
  });

  it('keeps an unclosed fence to the end as code, and a pipe line without a delimiter row as text', () => {
    expect(parseMarkdown('```\n**a**\n| b |')).toEqual([{ kind: 'code', info: '', text: '**a**\n| b |' }]);
    expect(parseMarkdown('| not | a table |\nplain')).toEqual([
      { kind: 'paragraph', lines: [[text('| not | a table |')], [text('plain')]] },
    ]);
    expect(parseMarkdown('#hashtag, not a heading')[0]?.kind).toBe('paragraph');
  });
});

describe('adversarial input', () => {
  const n = 10_000;
  const cases: [string, string][] = [
    ['10,000 asterisks', '*'.repeat(n)],
    ['10,000 asterisks between letters', 'x' + '*'.repeat(n) + 'x'],
    ['unclosed ** repeated', '**a '.repeat(n / 4)],
    ['* and _ openers that never close', '*a _b '.repeat(n / 6)],
    ['closers with nothing open', 'a* b_ '.repeat(n / 6)],
    ['nested brackets', '['.repeat(n / 2) + ']'.repeat(n / 2)],
    ['brackets and parentheses', '[a]('.repeat(n / 4)],
    ['link destinations that never close', '[a](https://x.test/'.repeat(n / 20)],
    ['backtick runs of growing length', Array.from({ length: 140 }, (_, k) => '`'.repeat(k + 1) + 'a').join('')],
    ['unmatched backticks', '`a'.repeat(n / 2)],
    ['bare URLs back to back', 'https://a.test/'.repeat(n / 15)],
    ['URLs ending in punctuation', 'http://a.test/.,;:!?)]'.repeat(n / 22)],
    ['escapes', '\\*\\_\\`\\['.repeat(n / 8)],
    ['mixed delimiters', '*_`[]()**__'.repeat(n / 11)],
    ['emphasis across brackets', '*[a*]'.repeat(n / 5)],
  ];

  it.each(cases)('%s: finishes inline, and shows no more text than was sent', (_, s) => {
    expect(plain(parseInline(s)).length).toBeLessThanOrEqual(s.length);
  });

  it.each(cases)('%s: finishes as a block (one line, many lines, a table cell)', (_, s) => {
    for (const doc of [s, s.split('a').join('\n'), `| h |\n|---|\n| ${s} |`]) {
      expect(Array.isArray(parseMarkdown(doc))).toBe(true);
    }
  });

  it('keeps text that opens nothing exactly as written', () => {
    expect(parseInline('x' + '*'.repeat(n) + 'x')).toEqual([text('x' + '*'.repeat(n) + 'x')]);
    expect(plain(parseInline('['.repeat(n)))).toBe('['.repeat(n));
    expect(parseMarkdown('*'.repeat(n))).toEqual([{ kind: 'rule' }]);
  });

  it('refuses a text past the size bound, and nesting too deep for the parser, instead of parsing it', () => {
    const long = 'a'.repeat(MAX_MARKDOWN_CHARS + 1);
    expect(() => parseMarkdown(long)).toThrow(TooLargeToParse);
    expect(() => parseInline(long)).toThrow(TooLargeToParse);
    expect(parseMarkdown('a'.repeat(MAX_MARKDOWN_CHARS))).toHaveLength(1);
    for (const deep of ['>'.repeat(20_000) + 'a', '- '.repeat(5_000) + 'a', '> - 1. '.repeat(3) + 'a']) {
      expect(() => parseMarkdown(deep)).toThrow(TooLargeToParse);
    }
  });

  it('shows nesting past its depth as the source text', () => {
    const nested = '*a '.repeat(40) + 'b' + '*'.repeat(40);
    expect(plain(parseInline(nested)).length).toBeGreaterThan(0);
    expect(parseMarkdown('> - 1. > a')).toEqual([
      { kind: 'list', ordered: false, start: 1, items: [[[text('1. > a')]]] },
    ]);
    const list = Array.from({ length: 40 }, (_, k) => ' '.repeat(2 * k) + '- item ' + k).join('\n');
    const [block] = parseMarkdown(list);
    expect(block?.kind).toBe('list');
  });

  it('finishes on seeded random input from the characters that matter', () => {
    let seed = 27;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const alphabet = '*_`[]()\\|#-: \nahttps:/.x1>';
    for (let round = 0; round < 40; round++) {
      const s = Array.from({ length: 2000 }, () => alphabet.charAt(Math.floor(random() * alphabet.length))).join('');
      expect(Array.isArray(parseMarkdown(s))).toBe(true);
      expect(plain(parseInline(s)).length).toBeLessThanOrEqual(s.length);
    }
  });
});
