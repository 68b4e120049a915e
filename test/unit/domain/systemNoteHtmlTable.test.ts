// Every branch of the system note allowlist, as a table of what a server may send and what reaches
// the DOM parser (each row was read and judged by hand, not copied blindly from the output).
import assert from 'node:assert/strict';
import { allowlistedSystemNoteHtml } from '../../../src/domain/systemNoteHtml';

const rows: [string, string][] = [
  ['plain & text', 'plain &amp; text'],
  ['a &amp; b &#169; &#xA9; &nbsp; &bad entity;', 'a &amp; b &#169; &#xA9; &nbsp; &amp;bad entity;'],
  ['a < b > c', 'a &lt; b &gt; c'],
  ['x <!-- hidden --> y', 'x  y'],
  ['x <!-- never closed', 'x '],
  ['<script>alert(1)</script>after', 'after'],
  ['<SCRIPT type="x">alert(1)</SCRIPT >after', 'after'],
  ['<style>p{}</style', ''],
  ['<script>never closed', ''],
  ['</script>stray close', 'stray close'],
  ['<p class="x" onclick="y">para</p>', '<p>para</p>'],
  ['<UL><LI>one<li>two</UL>', '<ul><li>one<li>two</ul>'],
  ['<br/><br />', '<br><br>'],
  ['<img src=x onerror=alert(1)>text', 'text'],
  ['<custom-tag data-x="1">inside</custom-tag>', 'inside'],
  [
    '<a href="https://example.com/x?a=1&amp;b=2">link</a>',
    '<a href="https://example.com/x?a=1&amp;b=2">link</a>',
  ],
  ['<a href="/group/project/-/commit/abc">rel</a>', '<a href="/group/project/-/commit/abc">rel</a>'],
  ['<a href="//evil.example">protocol-relative</a>', 'protocol-relative'],
  ['<a href="/a\\b">backslash</a>', 'backslash'],
  ['<a href="/a b">space</a>', 'space'],
  ['<a href="javascript:alert(1)">js</a>', 'js'],
  ['<a href="&#x6A;avascript:alert(1)">entity js</a>', 'entity js'],
  ['<a href="&#106;avascript:alert(1)">decimal js</a>', 'decimal js'],
  ['<a href="https://e.com" onmouseover="x">handler</a>', 'handler'],
  ['<a href=https://e.com/unquoted>unquoted</a>', '<a href="https://e.com/unquoted">unquoted</a>'],
  ["<a href='https://e.com/single'>single</a>", '<a href="https://e.com/single">single</a>'],
  ['<a href="https://e.com/open>unclosed quote', '&lt;a href="https://e.com/open&gt;unclosed quote'],
  ['<a>no href</a>', 'no href'],
  ['</a>stray', 'stray'],
  [
    '<a href="https://a.com"><a href="https://b.com">nested</a>',
    '<a href="https://a.com"><a href="https://b.com">nested</a></a>',
  ],
  ['<a href="https://a.com" href="javascript:x">first wins</a>', '<a href="https://a.com">first wins</a>'],
  ['<a HREF="HTTPS://E.COM/UP">upper</a>', '<a href="HTTPS://E.COM/UP">upper</a>'],
  ['<1notatag>', '&lt;1notatag&gt;'],
  ['</ >', '&lt;/ &gt;'],
  ['<p', '&lt;p'],
  ['<code>&lt;b&gt;</code>', '<code>&lt;b&gt;</code>'],
  [
    '<a href="https://e.com/&quot;&gt;&lt;x">quotes</a>',
    '<a href="https://e.com/&quot;&gt;&lt;x">quotes</a>',
  ],
  [
    '<del>x</del><s>y</s><pre>z</pre><em>e</em><i>i</i><b>b</b><strong>s</strong><ol><li>o</li></ol>',
    '<del>x</del><s>y</s><pre>z</pre><em>e</em><i>i</i><b>b</b><strong>s</strong><ol><li>o</li></ol>',
  ],
  [
    '<textarea><b>x</b></textarea>y<title>t</title>z<xmp>a</xmp><noscript>n</noscript><iframe>f</iframe><object>o</object><template>t</template>end',
    'yzend',
  ],
];

describe('allowlistedSystemNoteHtml, as a table', () => {
  for (const [input, expected] of rows) {
    it(JSON.stringify(input).slice(0, 100), () => {
      assert.equal(allowlistedSystemNoteHtml(input), expected);
    });
  }

  it('shows a tag longer than its limit as text, so the scan stays linear', () => {
    const long = `<a href="x${'y'.repeat(2100)}">long</a>`;
    const out = allowlistedSystemNoteHtml(long);
    assert.ok(out.startsWith('&lt;a href="xyyy'), out.slice(0, 40));
    assert.ok(!out.includes('<a '));
    const short = `<a href="/x${'y'.repeat(1900)}">short</a>`;
    assert.ok(allowlistedSystemNoteHtml(short).startsWith('<a href="/xyy'));
  });
});
