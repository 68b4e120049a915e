// The one way host and server text reaches a page's HTML before its script runs: escaped, always.
import assert from 'node:assert/strict';
import { escapeHtml, html } from '../../../src/webviews/shared/safeHtml';
import { mergeRequestFirstPaint } from '../../../src/features/mergeRequests/panel/firstPaint';
import { issueFirstPaint } from '../../../src/features/issues/panel/firstPaint';

const HOSTILE = `</span><script>alert(1)</script><img src=x onerror="alert(2)">'&`;

/** The tags a piece of markup opens, in order. */
function tagsOf(markup: string): string[] {
  return [...markup.matchAll(/<([a-z][a-z0-9-]*)/gi)].map((match) => (match[1] ?? '').toLowerCase());
}

describe('SafeHtml', () => {
  it('escapes every value put into it, and keeps its own markup', () => {
    const cell = html`<td title="${HOSTILE}">${HOSTILE}</td>`;
    assert.deepEqual(tagsOf(cell.markup), ['td']);
    assert.equal(cell.markup, `<td title="${escapeHtml(HOSTILE)}">${escapeHtml(HOSTILE)}</td>`);
    assert.doesNotMatch(escapeHtml(HOSTILE), /[<>"']/);
  });

  it('nests markup it made, alone or in a list, without escaping it twice', () => {
    const items = ['a', '<b>'].map((text) => html`<li>${text}</li>`);
    const list = html`<ul>
        ${items}
      </ul>
      <p>${html`<em>${7}</em>`}</p>`;
    // (Prettier lays out html`` templates as HTML: the whitespace between tags is its.)
    assert.equal(
      list.markup.replace(/>\s+</g, '><'),
      '<ul><li>a</li><li>&#60;b&#62;</li></ul><p><em>7</em></p>',
    );
  });

  it('escapes the five characters that matter in text and quoted attributes', () => {
    assert.equal(escapeHtml(`&<>"'`), '&#38;&#60;&#62;&#34;&#39;');
    assert.equal(escapeHtml('plain text → ok'), 'plain text → ok');
  });
});

describe('the merge request panel first paint', () => {
  it('shows the merge request as picked, every server string as text', () => {
    const markup = mergeRequestFirstPaint(
      {
        iid: 12,
        title: HOSTILE,
        state: 'opened',
        draft: true,
        source_branch: `feature/<i>x</i>`,
        target_branch: 'main"onload="y',
      },
      { id: 1, path_with_namespace: `acme/<web>` },
    ).markup;
    assert.deepEqual(
      tagsOf(markup),
      ['header', 'h1', 'span', 'span', 'div', 'span', 'span', 'span', 'span', 'span', 'p'],
      'only the first paint own elements',
    );
    assert.match(markup, /<span class="fp-iid">!12<\/span>/);
    assert.ok(markup.includes(`<span>${escapeHtml(HOSTILE)}</span>`));
    assert.match(markup, /<span>draft<\/span>/);
    // Classes of its own, so that no selector of the app's page finds the first paint too.
    assert.doesNotMatch(markup, /class="(?!fp-)/);
    assert.ok(markup.includes('acme/&#60;web&#62;'));
    assert.ok(markup.includes('feature/&#60;i&#62;x&#60;/i&#62;'));
    assert.ok(markup.includes('main&#34;onload=&#34;y'));
  });

  it('names a merged merge request merged, drafts or not', () => {
    const markup = mergeRequestFirstPaint(
      { iid: 3, title: 't', state: 'merged', draft: true, source_branch: 'a', target_branch: 'b' },
      { id: 1, path: 'web' },
    ).markup;
    assert.match(markup, /<span>merged<\/span>/);
  });
});

describe('the issue panel first paint', () => {
  it('shows the issue as picked, every server string as text', () => {
    const markup = issueFirstPaint({ iid: 7, title: HOSTILE, state: 'closed' }, `acme/<web>`).markup;
    assert.deepEqual(tagsOf(markup), ['header', 'h1', 'span', 'span', 'div', 'span', 'span', 'p']);
    assert.doesNotMatch(markup, /<script|<img|onerror="/);
    assert.ok(markup.includes('acme/&#60;web&#62;'));
    assert.match(markup, /<span class="fp-iid">#7<\/span>/);
    assert.match(markup, /<span>Closed<\/span>/);
  });
});
