import assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { setTask, taskLists, tasksOf } from '../../../src/domain/taskLists';

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

  it('ticks and clears the n-th box drawn, in the Markdown source, and nothing else', () => {
    const text = [
      'Steps:',
      '',
      '```',
      '- [ ] in a code block, not a task',
      '```',
      '- [ ] first',
      '  - [x] nested second',
      '1. [ ] numbered third',
      '> - [ ] quoted fourth',
      '- see [ ] not a task',
      '* [X] fifth\r',
    ].join('\n');
    assert.deepEqual(
      tasksOf(text).map((task) => [task.checked, task.text]),
      [
        [false, 'first'],
        [true, 'nested second'],
        [false, 'numbered third'],
        [false, 'quoted fourth'],
        [true, 'fifth'],
      ],
    );
    // The boxes drawn are the tasks found, in the same order.
    assert.equal(md.render(text).match(/task-box/g)?.length, 5);
    const lines = (changed: string | undefined): string[] => (changed ?? '').split('\n');
    assert.equal(lines(setTask(text, 0, true))[5], '- [x] first');
    assert.equal(lines(setTask(text, 1, false))[6], '  - [ ] nested second');
    assert.equal(lines(setTask(text, 2, true))[7], '1. [x] numbered third');
    assert.equal(lines(setTask(text, 3, true))[8], '> - [x] quoted fourth');
    assert.equal(lines(setTask(text, 4, false))[10], '* [ ] fifth\r', 'the line ending is kept');
    const changed = setTask(text, 0, true) ?? '';
    assert.deepEqual(
      lines(changed).filter((line, index) => line !== lines(text)[index]),
      ['- [x] first'],
      'one line changes',
    );
    assert.equal(setTask(text, 5, true), undefined, 'no sixth task');
    assert.equal(setTask('no tasks', 0, true), undefined);
  });

  it('finds the box in every way a list item can start, as the page draws it', () => {
    const text = [
      '10. [ ] tenth',
      '-  [ ] two spaces after the bullet',
      '> > - [ ] in a quote in a quote',
      '',
      '<div>',
      '',
      '- [ ] between HTML lines, drawn as a list',
      '',
      '</div>',
    ].join('\n');
    assert.equal(md.render(text).match(/task-box/g)?.length, 4);
    assert.equal(tasksOf(text).length, 4);
    assert.equal(setTask(text, 0, true)?.split('\n')[0], '10. [x] tenth');
    assert.equal(setTask(text, 1, true)?.split('\n')[1], '-  [x] two spaces after the bullet');
    assert.equal(setTask(text, 2, true)?.split('\n')[2], '> > - [x] in a quote in a quote');
    assert.equal(setTask(text, 3, true)?.split('\n')[6], '- [x] between HTML lines, drawn as a list');
  });
});
