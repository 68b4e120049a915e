import assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { taskLists } from '../../../src/domain/taskLists';

const md = new MarkdownIt({ html: false, linkify: true, breaks: true }).use(taskLists);

describe('task lists', () => {
  it('shows ticked and open tasks as read-only check boxes, not as "[x]"', () => {
    const html = md.render('- [x] write the fix\n- [ ] add a test\n* [X] tidy up');
    assert.doesNotMatch(html, /\[[ xX]\]/);
    assert.equal(html.match(/aria-checked="true"/g)?.length, 2);
    assert.equal(html.match(/aria-checked="false"/g)?.length, 1);
    assert.match(
      html,
      /<li class="task-list-item"><span class="task-box" role="checkbox" aria-checked="true" aria-disabled="true">☑<\/span> write the fix<\/li>/,
    );
    assert.match(html, /☐<\/span> add a test/);
  });

  it('leaves brackets that are not a task as they are', () => {
    for (const text of [
      '[x] not in a list',
      '- see [x] later',
      '- `[x]` in code',
      '- [x]no space',
      '    - [x] code block',
    ]) {
      assert.doesNotMatch(md.render(text), /task-box/, text);
    }
  });

  it('writes no server text into the box', () => {
    const html = md.render('- [x] <img src=x onerror=alert(1)>');
    assert.doesNotMatch(html, /<img/);
    assert.match(html, /&lt;img/);
  });
});
