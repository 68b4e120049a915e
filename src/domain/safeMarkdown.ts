/**
 * Server Markdown made safe for VS Code's renderer (marked) by parsing it with a CommonMark parser
 * (markdown-it) and writing it out again from its tokens: every character of server text escaped, so
 * no construct of the note itself can become a link in any renderer; links, images and autolinks
 * written back only when `checkWebLink` accepts their target (images as links unless asked to load
 * them); code kept as code behind fences longer than anything inside. Regex rewriting of Markdown
 * missed constructions and took quadratic time on openers without closers (issue 41); the parser
 * does neither.
 */
import MarkdownIt from 'markdown-it';
import { checkWebLink } from './webLinks';
import { ownEntry } from './ownEntry';

export interface SafeMarkdownOptions {
  /** Show images (a remote image tells its author who looked and when); else they are links. */
  loadImages?: boolean;
  /** Markdown of ours for a fenced block (a suggestion shown as a diff), or undefined to keep it as code. */
  fence?: (info: string, content: string) => string | undefined;
}

type Token = ReturnType<InstanceType<typeof MarkdownIt>['parse']>[number];

const parser = new MarkdownIt('default', { html: false, linkify: true, typographer: false });
// Bare domains and addresses stay text, as GitLab shows them; the scheme decides, not the parser.
parser.linkify.set({ fuzzyLink: false, fuzzyEmail: false });
parser.validateLink = () => true;

const PUNCTUATION = /[!-/:-@[-`{-~]/g;

const CHUNK = 4096;

/** Text that every CommonMark renderer shows as written: each ASCII punctuation escaped. */
export function escapeMarkdownText(text: string): string {
  // In pieces: one replace over a megabyte of punctuation grows worse than linearly (V8's strings).
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += CHUNK) {
    pieces.push(
      text
        .slice(start, start + CHUNK)
        .replace(/\n/g, ' ')
        .replace(PUNCTUATION, '\\$&'),
    );
  }
  return pieces.join('');
}

/**
 * Plain text as Markdown that shows it as written, line breaks kept as paragraphs: no address, web
 * address or bare URL in it becomes a link (VS Code's `appendText` leaves those to the renderer's
 * autolinks, so `alice@host` became a mail link).
 */
export function plainTextMarkdown(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => escapeMarkdownText(line.trim()))
    .join('\n\n');
}

function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (const each of text) {
    run = each === char ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

/** A code span no backtick inside can close. */
export function codeSpan(content: string): string {
  const text = content.replace(/\n/g, ' ');
  const fence = '`'.repeat(longestRun(text, '`') + 1);
  const pad = /^[` ]|[` ]$/.test(text) ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** A fence no line inside can close. */
export function fencedBlock(info: string, content: string): string[] {
  const fence = '`'.repeat(Math.max(3, longestRun(content, '`') + 1));
  const language = (info.trim().split(/\s/)[0] ?? '').replace(/[^\w+#.-]/g, '');
  return [`${fence}${language}`, ...content.replace(/\n$/, '').split('\n'), fence];
}

/** A destination in angle brackets, which holds anything but `<`, `>`, a backslash and a newline. */
function destination(url: string): string {
  return `<${url.replace(/[<>\\\s`]/g, (char) => encodeURIComponent(char))}>`;
}

/** A token's attribute as text (markdown-it's types allow numbers). */
function attribute(token: Token, name: string): string | undefined {
  const value = token.attrGet(name);
  return value === null ? undefined : String(value);
}

function webTarget(href: string | undefined): string | undefined {
  if (href === undefined) return undefined;
  const check = checkWebLink(href);
  return check.ok ? check.url : undefined;
}

interface InlineState {
  options: SafeMarkdownOptions;
  inTable: boolean;
  /** Refused links (their text is kept, their target shown as code), innermost last. */
  links: { target: string | undefined; refused: string | undefined }[];
}

function imageMarkdown(token: Token, state: InlineState): string {
  const alt = escapeMarkdownText(token.content);
  const source = attribute(token, 'src');
  const target = webTarget(source);
  if (target === undefined) return source ? `${alt} ${codeSpan(source)}` : alt;
  if (state.links.length > 0) return alt;
  if (state.options.loadImages) return `![${alt}](${destination(target)})`;
  return `[🖼 ${alt === '' ? escapeMarkdownText(target) : alt}](${destination(target)})`;
}

function linkOpen(token: Token, state: InlineState): string {
  const href = attribute(token, 'href');
  const target = webTarget(href);
  const autolink = token.markup === 'linkify' || token.markup === 'autolink';
  // A refused bare address stays as the text it was; a refused link shows where it pointed.
  const refused = target === undefined && !autolink && href ? href : undefined;
  state.links.push({ target, refused });
  return target === undefined ? '' : '[';
}

function linkClose(state: InlineState): string {
  const link = state.links.pop();
  if (link?.target !== undefined) return `](${destination(link.target)})`;
  return link?.refused ? ` ${codeSpan(link.refused)}` : '';
}

const MARKS: Record<string, string> = {
  em_open: '*',
  em_close: '*',
  strong_open: '**',
  strong_close: '**',
  s_open: '~~',
  s_close: '~~',
};

function inlineToken(token: Token, state: InlineState): string {
  switch (token.type) {
    case 'text':
      return escapeMarkdownText(token.content);
    case 'softbreak':
      return state.inTable ? ' ' : '\n';
    case 'hardbreak':
      return state.inTable ? ' ' : '\\\n';
    case 'code_inline': {
      const span = codeSpan(token.content);
      return state.inTable ? span.replace(/\|/g, '\\|') : span;
    }
    case 'link_open':
      return linkOpen(token, state);
    case 'link_close':
      return linkClose(state);
    case 'image':
      return imageMarkdown(token, state);
    default:
      return ownEntry(MARKS, token.type) ?? escapeMarkdownText(token.content);
  }
}

function inlineMarkdown(token: Token | undefined, options: SafeMarkdownOptions, inTable = false): string {
  const state: InlineState = { options, inTable, links: [] };
  return (token?.children ?? []).map((child) => inlineToken(child, state)).join('');
}

/** Where the blocks are written: lines under the prefixes of the open quotes and list items. */
class BlockWriter {
  readonly lines: string[] = [];
  private readonly containers: { first: string; rest: string; used: boolean }[] = [];
  /** Whether the container's next block needs a blank line before it. */
  private started = false;

  open(first: string, rest: string): void {
    this.containers.push({ first, rest, used: false });
    this.started = false;
  }

  close(): void {
    this.containers.pop();
    this.started = true;
  }

  /** A block's lines, after a blank line unless it follows its container's start or `tight`. */
  block(lines: readonly string[], tight = false): void {
    this.separate(tight);
    for (const line of lines.flatMap((each) => each.split('\n'))) this.write(line);
    this.started = true;
  }

  /** The blank line before a container (a quote, a list, an item) that opens next. */
  separate(tight = false): void {
    if (this.started && !tight) this.write('');
    this.started = false;
  }

  private write(line: string): void {
    const prefix = this.containers
      .map((container) => {
        const text = container.used ? container.rest : container.first;
        container.used = true;
        return text;
      })
      .join('');
    this.lines.push(line === '' ? prefix.trimEnd() : prefix + line);
  }
}

function alignmentOf(token: Token): string {
  const style = attribute(token, 'style') ?? '';
  if (style.includes('center')) return ':---:';
  if (style.includes('right')) return '---:';
  if (style.includes('left')) return ':---';
  return '---';
}

/** A table from `table_open` to `table_close`; returns the index after it. */
function table(
  tokens: readonly Token[],
  start: number,
  options: SafeMarkdownOptions,
  out: BlockWriter,
): number {
  const rows: string[][] = [];
  let alignments: string[] = [];
  let index = start + 1;
  for (; index < tokens.length && tokens[index]?.type !== 'table_close'; index++) {
    const token = tokens[index];
    if (token?.type === 'tr_open') rows.push([]);
    if (token?.type === 'th_open') alignments.push(alignmentOf(token));
    if (token?.type === 'inline') rows.at(-1)?.push(inlineMarkdown(token, options, true));
  }
  alignments = alignments.length > 0 ? alignments : ['---'];
  const [header = [], ...body] = rows;
  const row = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  out.block([row(header), row(alignments), ...body.map(row)]);
  return index;
}

function fence(token: Token, options: SafeMarkdownOptions): string[] {
  const replaced = token.type === 'fence' ? options.fence?.(token.info, token.content) : undefined;
  return replaced === undefined ? fencedBlock(token.info, token.content) : replaced.split('\n');
}

interface ListState {
  tight: boolean;
  ordered: boolean;
}

function listItemMarker(token: Token, list: ListState | undefined): string {
  if (!list?.ordered) return '- ';
  const number = /^\d{1,9}$/.test(token.info) ? token.info : '1';
  return `${number}. `;
}

/** One block token; returns the index of the last token it used. */
function blockToken(
  tokens: readonly Token[],
  index: number,
  options: SafeMarkdownOptions,
  out: BlockWriter,
  lists: ListState[],
): number {
  const token = tokens[index];
  if (!token) return index;
  const list = lists.at(-1);
  switch (token.type) {
    case 'paragraph_open':
      out.block([inlineMarkdown(tokens[index + 1], options)], token.hidden);
      return index + 2;
    case 'heading_open': {
      const level = Number(token.tag.slice(1)) || 1;
      const text = inlineMarkdown(tokens[index + 1], options).replace(/\n|\\\n/g, ' ');
      out.block([`${'#'.repeat(level)} ${text}`]);
      return index + 2;
    }
    case 'fence':
    case 'code_block':
      out.block(fence(token, options));
      return index;
    case 'hr':
      out.block(['***']);
      return index;
    case 'table_open':
      return table(tokens, index, options, out);
    case 'blockquote_open':
      out.separate();
      out.open('> ', '> ');
      return index;
    case 'bullet_list_open':
    case 'ordered_list_open':
      out.separate(list?.tight);
      lists.push({ tight: tokens[index + 2]?.hidden === true, ordered: token.type === 'ordered_list_open' });
      return index;
    case 'bullet_list_close':
    case 'ordered_list_close':
      lists.pop();
      return index;
    case 'list_item_open': {
      const marker = listItemMarker(token, list);
      out.separate(list?.tight);
      out.open(marker, ' '.repeat(marker.length));
      return index;
    }
    case 'list_item_close':
    case 'blockquote_close':
      out.close();
      return index;
    default:
      return index;
  }
}

/** The note as Markdown in which only web links are links (see the module comment). */
export function safeMarkdown(markdown: string, options: SafeMarkdownOptions = {}): string {
  const tokens = parser.parse(markdown, {});
  const out = new BlockWriter();
  const lists: ListState[] = [];
  for (let index = 0; index < tokens.length; index++) {
    index = blockToken(tokens, index, options, out, lists);
  }
  return out.lines.join('\n');
}
