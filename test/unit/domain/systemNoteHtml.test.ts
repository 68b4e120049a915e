import assert from 'node:assert/strict';
import { allowlistedSystemNoteHtml } from '../../../src/domain/systemNoteHtml';

describe('allowlistedSystemNoteHtml', () => {
  it('keeps the lists, links and code of a real system note', () => {
    const body =
      'added 2 commits\n\n<ul><li>4e1b0c2a - Keep the redirect</li><li>9f3d7e61 - Test it</li></ul>\n\n[Compare with previous version](/acme/web/-/merge_requests/1/diffs?diff_id=2&start_sha=4e1b0c2a)';
    assert.equal(
      allowlistedSystemNoteHtml(body),
      'added 2 commits\n\n<ul><li>4e1b0c2a - Keep the redirect</li><li>9f3d7e61 - Test it</li></ul>\n\n[Compare with previous version](/acme/web/-/merge_requests/1/diffs?diff_id=2&amp;start_sha=4e1b0c2a)',
    );
    assert.equal(
      allowlistedSystemNoteHtml(
        'changed <code>main</code> to <a href="https://forge.example/x" class="gfm">!2</a>',
      ),
      'changed <code>main</code> to <a href="https://forge.example/x">!2</a>',
    );
  });

  it('rebuilds every tag it keeps, without attributes', () => {
    assert.equal(
      allowlistedSystemNoteHtml('<ul class="x" onclick="alert(1)"><LI style="color:red">a</LI></ul>'),
      '<ul><li>a</li></ul>',
    );
  });

  it('drops handlers, scripts, frames and other tags, keeping their text', () => {
    const hostile =
      `changed the description <img src=x onerror="window.pwned='system'"><script>window.pwned='s'</script>` +
      `<iframe src="https://example.com">inside</iframe><form><button>go</button></form><svg onload="x()"><b>bold</b></svg>` +
      `<style>body{display:none}</style><!-- <img onerror=x> -->`;
    const out = allowlistedSystemNoteHtml(hostile);
    assert.equal(out, 'changed the description go<b>bold</b>');
  });

  it('links only http(s) and server-relative addresses, however they are spelt', () => {
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      '&#106;avascript:alert(1)',
      '&#x6A;avascript:alert(1)',
      'data:text/html,x',
      'vscode://x',
      'command:workbench.action.quit',
      '//evil.example/x',
      '/\\evil.example',
    ]) {
      assert.equal(allowlistedSystemNoteHtml(`<a href="${href}">see</a>`), 'see', href);
    }
    assert.equal(
      allowlistedSystemNoteHtml("<a href='/g/p/-/issues/1'>#1</a>"),
      '<a href="/g/p/-/issues/1">#1</a>',
    );
    assert.equal(
      allowlistedSystemNoteHtml('<a href="https://x.example/?a=&quot;b">q</a>'),
      '<a href="https://x.example/?a=&quot;b">q</a>',
    );
    assert.equal(allowlistedSystemNoteHtml('<a href="https://x.example" onclick="x()">q</a>'), 'q');
  });

  it('turns stray angle brackets and bare ampersands into text, keeping entities', () => {
    assert.equal(
      allowlistedSystemNoteHtml('a < b && c > d &amp; <img src=x onerror=alert(1)'),
      'a &lt; b &amp;&amp; c &gt; d &amp; &lt;img src=x onerror=alert(1)',
    );
  });

  it('closes a link left open', () => {
    assert.equal(allowlistedSystemNoteHtml('<a href="/x">open'), '<a href="/x">open</a>');
    assert.equal(allowlistedSystemNoteHtml('</a></a>x'), 'x');
  });
});
