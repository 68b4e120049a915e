/**
 * GitLab's task lists (`- [ ] to do`, `- [x] done`) as read-only check boxes, for markdown-it. A list
 * item whose text starts with `[ ]`, `[x]` or `[X]` and a space gets a box drawn as a character with
 * `role="checkbox"` (the page allows no form elements); ticking is not offered, as nothing checks
 * that nobody changed the description in between. The package `markdown-it-task-lists` does the same
 * with `<input>` elements and has not been released since 2018.
 */
import type MarkdownIt from 'markdown-it';

type Renderer = InstanceType<typeof MarkdownIt>;
type StateCore = Parameters<Parameters<Renderer['core']['ruler']['push']>[1]>[0];

const TASK = /^\[([ xX])\][ \t\u00a0]/;

export function taskLists(md: Renderer): void {
  md.core.ruler.after('inline', 'forge_task_lists', (state: StateCore) => {
    const { tokens } = state;
    for (let index = 2; index < tokens.length; index++) {
      const inline = tokens[index];
      const item = tokens[index - 2];
      if (inline?.type !== 'inline' || item?.type !== 'list_item_open') continue;
      if (tokens[index - 1]?.type !== 'paragraph_open') continue;
      const first = inline.children?.[0];
      const marker = first?.type === 'text' ? TASK.exec(first.content) : null;
      if (!first || !marker) continue;
      const checked = marker[1] !== ' ';
      first.content = first.content.slice(marker[0].length);
      const box = new state.Token('html_inline', '', 0);
      box.content = `<span class="task-box" role="checkbox" aria-checked="${checked}" aria-disabled="true">${checked ? '☑' : '☐'}</span> `;
      inline.children?.unshift(box);
      item.attrJoin('class', 'task-list-item');
    }
    return true;
  });
}
