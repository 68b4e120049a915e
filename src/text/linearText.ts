// Trimming by scanning, not by regex: `/\/+$/` and `/^-+|-+$/g` backtrack over every run of the
// character and take quadratic time on a long one (a server's URL of 64 KB of slashes took 5.8 s).

function isOneOf(chars: string, char: string | undefined): boolean {
  return char !== undefined && chars.includes(char);
}

/** `text` without the run of any of `chars` at its end. */
export function trimEndOf(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && isOneOf(chars, text[end - 1])) end--;
  return text.slice(0, end);
}

/** `text` without the run of any of `chars` at its start. */
export function trimStartOf(text: string, chars: string): string {
  let start = 0;
  while (start < text.length && isOneOf(chars, text[start])) start++;
  return text.slice(start);
}

/** `text` without runs of any of `chars` at either end. */
export function trimBothOf(text: string, chars: string): string {
  return trimEndOf(trimStartOf(text, chars), chars);
}

/**
 * The text inside the first `<tag ...>...</tag>` of an HTML page (case-insensitive), found with
 * `indexOf`; undefined when there is none or it holds markup.
 */
export function firstTagText(html: string, tag: string, maxLength = 300): string | undefined {
  const lower = html.toLowerCase();
  let from = 0;
  for (;;) {
    const open = lower.indexOf(`<${tag}`, from);
    if (open < 0) return undefined;
    const after = lower[open + tag.length + 1];
    from = open + tag.length + 1;
    if (after !== '>' && after !== ' ' && after !== '\t' && after !== '\n' && after !== '\r') continue;
    const contentStart = lower.indexOf('>', open) + 1;
    if (contentStart === 0) return undefined;
    const close = lower.indexOf(`</${tag}>`, contentStart);
    if (close < 0) return undefined;
    const content = html.slice(contentStart, close);
    if (content.length === 0 || content.length > maxLength || content.includes('<')) continue;
    return content;
  }
}
