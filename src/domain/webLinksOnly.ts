/**
 * Server Markdown with only web links: an inline link or image, an autolink or a reference
 * definition whose destination is not `http(s)://` becomes text (its bracket or paren escaped), so
 * a comment cannot open a file, run a `vscode:` handler or a command when clicked. Code spans and
 * fenced blocks are left as written.
 */

import { checkWebLink } from './webLinks';

/** A web link as `openServerLink` takes it: http(s), a host, no user name. */
function isWeb(destination: string): boolean {
  const bare = destination
    .trim()
    .replace(/^<([\s\S]*)>$/, '$1')
    .trim();
  return /^https?:\/\//i.test(bare) && checkWebLink(bare).ok;
}

// `](` destination (angle-bracketed, or a run with balanced parentheses) and an optional title `)`.
const INLINE_LINK =
  /\]\(\s*(<[^>\n]*>|(?:[^\s()]|\((?:[^\s()]|\([^\s()]*\))*\))*)(\s+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?\s*\)/g;
const AUTOLINK = /<([a-z][a-z0-9+.-]{1,31}:[^\s<>]*)>/gi;
const DEFINITION = /^( {0,3})\[([^\]\n]+)\]:[ \t]*(<[^>\n]*>|\S+)/gm;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

function rewriteProse(text: string): string {
  return text
    .replace(INLINE_LINK, (link: string, destination: string) =>
      isWeb(destination) ? link : `]\\(${link.slice(2)}`,
    )
    .replace(AUTOLINK, (link: string, destination: string) => (isWeb(destination) ? link : `\\${link}`))
    .replace(DEFINITION, (line: string, indent: string, _label: string, destination: string) =>
      isWeb(destination) ? line : `${indent}\\${line.slice(indent.length)}`,
    );
}

/**
 * Code spans as `[start, end)` ranges: a run of backticks up to the next run of the same length (a
 * scan over the runs, linear in the text: a regex with a back-reference is not, on long runs).
 */
function codeSpans(text: string): [number, number][] {
  const runs: { at: number; length: number }[] = [];
  for (let index = 0; index < text.length;) {
    if (text[index] !== '`') {
      index += 1;
      continue;
    }
    const at = index;
    while (text[index] === '`') index += 1;
    runs.push({ at, length: index - at });
  }
  // For each run, the index of the next run of the same length.
  const nextOfLength = new Map<number, number>();
  const next: (number | undefined)[] = new Array<number | undefined>(runs.length);
  for (let index = runs.length - 1; index >= 0; index -= 1) {
    const run = runs[index];
    if (!run) continue;
    next[index] = nextOfLength.get(run.length);
    nextOfLength.set(run.length, index);
  }
  const spans: [number, number][] = [];
  for (let index = 0; index < runs.length;) {
    const run = runs[index];
    const closing = next[index];
    const close = closing === undefined ? undefined : runs[closing];
    if (!run || closing === undefined || !close) {
      index += 1;
      continue;
    }
    spans.push([run.at, close.at + close.length]);
    index = closing + 1;
  }
  return spans;
}

/** Rewrites outside code spans. */
function rewriteOutsideSpans(text: string): string {
  let result = '';
  let last = 0;
  for (const [start, end] of codeSpans(text)) {
    result += rewriteProse(text.slice(last, start)) + text.slice(start, end);
    last = end;
  }
  return result + rewriteProse(text.slice(last));
}

export function webLinksOnly(markdown: string): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  let prose: string[] = [];
  let fence: string | undefined;
  const flush = (): void => {
    if (prose.length > 0) out.push(rewriteOutsideSpans(prose.join('\n')));
    prose = [];
  };
  for (const line of lines) {
    const opening = FENCE.exec(line)?.[1];
    if (fence === undefined && opening !== undefined) {
      flush();
      fence = opening;
      out.push(line);
    } else if (fence !== undefined) {
      out.push(line);
      const closing = FENCE.exec(line)?.[1];
      if (closing !== undefined && closing[0] === fence[0] && closing.length >= fence.length)
        fence = undefined;
    } else prose.push(line);
  }
  flush();
  return out.join('\n');
}
