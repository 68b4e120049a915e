/**
 * GitLab's task lists (`- [ ] to do`, `- [x] done`): a list item whose text starts with `[ ]`, `[x]`
 * or `[X]` and a space. `taskLists` draws them for markdown-it as boxes (a character with
 * `role="checkbox"`: the page allows no form elements), read-only unless a page makes them tickable;
 * `setTask` ticks or clears the n-th of them in the Markdown source, found by the same parse, so the
 * box a user ticks and the line changed are the same. The package `markdown-it-task-lists` does the
 * drawing with `<input>` elements and has not been released since 2018.
 */
import MarkdownIt from 'markdown-it';

type Renderer = InstanceType<typeof MarkdownIt>;
type StateCore = Parameters<Parameters<Renderer['core']['ruler']['push']>[1]>[0];
type Token = StateCore['tokens'][number];

const TASK = /^\[([ xX])\][ \t\u00a0]/;

interface TaskItem {
  item: Token;
  inline: Token;
  first: Token;
  checked: boolean;
  marker: string;
}

/** The task items of a parsed document, in document order. */
function taskItems(tokens: readonly Token[]): TaskItem[] {
  const found: TaskItem[] = [];
  for (let index = 2; index < tokens.length; index++) {
    const inline = tokens[index];
    const item = tokens[index - 2];
    if (inline?.type !== 'inline' || item?.type !== 'list_item_open') continue;
    if (tokens[index - 1]?.type !== 'paragraph_open') continue;
    const first = inline.children?.[0];
    const marker = first?.type === 'text' ? TASK.exec(first.content) : null;
    if (!first || !marker) continue;
    found.push({ item, inline, first, checked: marker[1] !== ' ', marker: marker[0] });
  }
  return found;
}

export function taskLists(md: Renderer): void {
  md.core.ruler.after('inline', 'forge_task_lists', (state: StateCore) => {
    for (const { item, inline, first, checked, marker } of taskItems(state.tokens)) {
      first.content = first.content.slice(marker.length);
      const box = new state.Token('html_inline', '', 0);
      box.content = `<span class="task-box" role="checkbox" aria-checked="${checked}" aria-disabled="true">${checked ? '☑' : '☐'}</span> `;
      inline.children?.unshift(box);
      item.attrJoin('class', 'task-list-item');
    }
    return true;
  });
}

const parser = new MarkdownIt({ html: false, linkify: true, breaks: true });

export interface Task {
  checked: boolean;
  /** The item's text after the box. */
  text: string;
}

/** The tasks of a Markdown text, in the order their boxes are drawn. */
export function tasksOf(markdown: string): Task[] {
  return taskItems(parser.parse(markdown, {})).map(({ checked, inline, marker }) => ({
    checked,
    text: inline.content.slice(marker.length).trim(),
  }));
}

/** A list item's first line: container prefixes (`> `, indents), the bullet or number, then the box. */
const ITEM_LINE = /^((?:[ \t]*>)*[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+)\[([ xX])\]/;

/**
 * The text with its `index`-th task ticked or cleared; undefined when there is no such task or its
 * box is not where the parse says (the text is left as it is rather than changed in the wrong place).
 */
export function setTask(markdown: string, index: number, checked: boolean): string | undefined {
  const task = taskItems(parser.parse(markdown, {}))[index];
  const line = task?.item.map?.[0];
  if (line === undefined) return undefined;
  const lines = markdown.split('\n');
  const source = lines[line];
  const match = source === undefined ? null : ITEM_LINE.exec(source);
  if (!source || !match?.[1]) return undefined;
  const prefix = match[1];
  lines[line] = `${prefix}[${checked ? 'x' : ' '}]${source.slice(match[0].length)}`;
  return lines.join('\n');
}
