import assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { marked } from 'marked';
import { codeSpan, plainTextMarkdown, safeMarkdown } from '../../../src/domain/safeMarkdown';
import { checkWebLink } from '../../../src/domain/webLinks';
import { HOSTILE_LINK_CORPUS } from '../../support/markdownLinkCorpus';

// markdown-it as permissive as it can be (every scheme a link), and marked, which VS Code renders with.
const markdownIt = new MarkdownIt({ html: false, linkify: true });
markdownIt.validateLink = () => true;
const renderers: [string, (markdown: string) => string][] = [
  ['markdown-it', (markdown) => markdownIt.render(markdown)],
  ['marked', (markdown) => marked.parse(markdown, { async: false, gfm: true })],
];

function targetsIn(html: string): string[] {
  return [...html.matchAll(/\b(?:href|src)="([^"]*)"/g)].map((match) =>
    (match[1] ?? '').replace(/&amp;/g, '&'),
  );
}

describe('safeMarkdown', () => {
  for (const [what, note] of HOSTILE_LINK_CORPUS) {
    it(`no refused link in either renderer: ${what}`, () => {
      const safe = safeMarkdown(note);
      for (const [renderer, render] of renderers) {
        const refused = targetsIn(render(safe)).filter((target) => !checkWebLink(target).ok);
        assert.deepEqual(refused, [], `${renderer} made a link of ${JSON.stringify(safe)}`);
      }
    });
  }

  it('keeps web links, autolinks and reference links as links to the same place', () => {
    const note =
      'See [the docs](https://docs.example.org/a_(b)) and <https://example.org/x>, https://bare.example/y and [ref][1].\n\n[1]: https://example.org/ref';
    for (const [renderer, render] of renderers) {
      assert.deepEqual(
        targetsIn(render(safeMarkdown(note))),
        [
          'https://docs.example.org/a_(b)',
          'https://example.org/x',
          'https://bare.example/y',
          'https://example.org/ref',
        ],
        renderer,
      );
    }
  });

  it('shows a refused link as its text with the target as code, and a refused bare address as text', () => {
    assert.equal(safeMarkdown('[open](file:///etc/passwd)'), 'open `file:///etc/passwd`');
    assert.equal(safeMarkdown('mail alice@example.com'), 'mail alice\\@example\\.com');
    assert.equal(safeMarkdown('[a](/group/project/-/issues/1)'), 'a `/group/project/-/issues/1`');
  });

  it('shows images as links unless asked to load them', () => {
    const note = '![logo](https://example.org/l.png)';
    assert.equal(safeMarkdown(note), '[🖼 logo](<https://example.org/l.png>)');
    assert.equal(safeMarkdown(note, { loadImages: true }), '![logo](<https://example.org/l.png>)');
    assert.equal(safeMarkdown('![x](file:///a.png)', { loadImages: true }), 'x `file:///a.png`');
  });

  it('renders as the note did: headings, lists, quotes, code, tables, emphasis and breaks', () => {
    const note = [
      '# Title *with* `code`',
      '',
      'Para one\nline two  \nhard break, **bold** ~~gone~~ _em_ 1 < 2 & 3 > 2 \\* star',
      '',
      '- tight\n- list\n  - nested\n    1. deep',
      '',
      '3. starts at three\n4. four',
      '',
      '> quoted\n> lines\n>\n> - in a list',
      '',
      '```ts\nconst fence = "```";\n```',
      '',
      '    indented code',
      '',
      '| left | right |\n|:-----|------:|\n| `a` | **b** |',
      '',
      '***',
      '',
      '- loose\n\n- items\n\n  second paragraph',
    ].join('\n');
    assert.equal(
      markdownIt.render(safeMarkdown(note)),
      markdownIt.render(note).replace(/<pre><code>indented/, '<pre><code>indented'),
    );
  });

  it('keeps code as written, fences and spans longer than the backticks inside', () => {
    const note = 'Use ``a`b`` and:\n\n````\n```\n[y](file:///b)\n```\n````';
    const html = markdownIt.render(safeMarkdown(note));
    assert.match(html, /<code>a`b<\/code>/);
    assert.match(html, /<pre><code>```\n\[y\]\(file:\/\/\/b\)\n```\n<\/code><\/pre>/);
    assert.equal(codeSpan('`x`'), '`` `x` ``');
  });

  it('writes a fenced block through the hook when it gives Markdown, as code when it does not', () => {
    const fence = (info: string) => (info === 'suggestion' ? '**changed**' : undefined);
    assert.equal(
      safeMarkdown('```suggestion\nx\n```\n\n```js\ny\n```', { fence }),
      '**changed**\n\n```js\ny\n```',
    );
  });

  it('keeps text nested 20 deep and survives nesting deeper than the parser follows', () => {
    assert.match(safeMarkdown(`${'> '.repeat(20)}x\n\n${'- '.repeat(20)}y`), /^(> ){20}x\n\n(- ){20}y$/);
    assert.equal(typeof safeMarkdown(`${'> '.repeat(5000)}x\n\n${'- '.repeat(5000)}y`), 'string');
  });
});

describe('plainTextMarkdown (tooltips and hovers)', () => {
  const textOf = (html: string) =>
    html
      .replace(/<[^>]*>/g, '')
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .trim();

  it('makes no link of an address, a URL or Markdown in server text, in either renderer', () => {
    for (const text of [
      'alice@hub.example',
      'Alice (alice@hub.example)',
      'see https://evil.example/x and www.evil.example',
      '<mailto:a@b.example> [x](https://y.example) ![i](https://i.example/p.png)',
      'javascript:alert(1)',
      ...HOSTILE_LINK_CORPUS.map(([, note]) => note),
    ]) {
      for (const [renderer, render] of renderers) {
        const html = render(plainTextMarkdown(text));
        assert.deepEqual(targetsIn(html), [], `${renderer} made a link of ${JSON.stringify(text)}`);
      }
    }
  });

  it('shows the text as written, a line break as a new paragraph', () => {
    const text = '# Not a heading *nor emphasis* `nor code` a_b_c 1. <b>x</b> \\ &amp;';
    assert.equal(textOf(marked.parse(plainTextMarkdown(text), { async: false, gfm: true })), text);
    assert.equal(plainTextMarkdown('one\ntwo'), 'one\n\ntwo');
  });
});
