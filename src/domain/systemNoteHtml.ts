/**
 * System notes ("added 2 commits <ul><li>…") come from servers as Markdown with HTML in it. Before any
 * of it reaches a DOM parser, every tag is rebuilt from an allowlist: lists, paragraphs, line breaks,
 * code, emphasis and links with an http(s) or relative address, with no other attribute. Any other
 * tag is dropped (the text inside stays, except in script and style, which go whole). A browser
 * parsing `<img onerror=…>` reports a CSP violation even in an inert document, so the raw text must
 * not be parsed at all; DOMPurify still filters what this gives.
 */

const PLAIN_TAGS = new Set([
  'p',
  'br',
  'ul',
  'ol',
  'li',
  'code',
  'pre',
  'strong',
  'b',
  'em',
  'i',
  'del',
  's',
]);

/** Elements whose content is not text to show: they go with everything in them. */
const DROPPED_WITH_CONTENT = new Set([
  'script',
  'style',
  'template',
  'textarea',
  'title',
  'xmp',
  'noscript',
  'iframe',
  'object',
]);

/** Longer than this, a `<…>` is not read as a tag but shown as text: the scan stays linear. */
const MAX_TAG_CHARS = 2000;

interface Tag {
  closing: boolean;
  name: string;
  attributes: Map<string, string>;
  end: number;
}

/** Reads the tag at `start` (a `<`); undefined when it is not one. */
function readTag(text: string, start: number): Tag | undefined {
  const limit = Math.min(text.length, start + MAX_TAG_CHARS);
  let index = start + 1;
  const closing = text[index] === '/';
  if (closing) index++;
  const nameStart = index;
  if (!/[a-zA-Z]/.test(text[index] ?? '')) return undefined;
  while (index < limit && /[a-zA-Z0-9-]/.test(text[index] ?? '')) index++;
  const name = text.slice(nameStart, index).toLowerCase();
  const attributes = new Map<string, string>();
  while (index < limit) {
    const char = text[index] ?? '';
    if (char === '>') return { closing, name, attributes, end: index + 1 };
    if (/[\s/]/.test(char)) {
      index++;
      continue;
    }
    const attributeStart = index;
    while (index < limit && !/[\s/>=]/.test(text[index] ?? '')) index++;
    const attribute = text.slice(attributeStart, index).toLowerCase();
    let value = '';
    if (text[index] === '=') {
      index++;
      const quote = text[index];
      if (quote === '"' || quote === "'") {
        const close = text.indexOf(quote, index + 1);
        if (close < 0 || close >= limit) return undefined;
        value = text.slice(index + 1, close);
        index = close + 1;
      } else {
        const valueStart = index;
        while (index < limit && !/[\s>]/.test(text[index] ?? '')) index++;
        value = text.slice(valueStart, index);
      }
    }
    if (attribute !== '' && !attributes.has(attribute)) attributes.set(attribute, value);
  }
  return undefined;
}

/** Whether an address may be linked: http(s), or relative to the server (`/group/project/-/…`). */
function isLinkable(href: string): boolean {
  return /^https?:\/\//i.test(href) || (/^\/(?!\/)/.test(href) && !/[\\\s]/.test(href));
}

function escapeText(text: string): string {
  // Entities the server wrote stay as they are; a bare `&` or a stray angle bracket becomes text.
  return text
    .replace(/&(?![a-zA-Z][a-zA-Z0-9]{0,31};|#[0-9]{1,7};|#x[0-9a-fA-F]{1,6};)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Decodes the few entities an address in an attribute may use, so that the check sees the real one. */
function decodeAttribute(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) =>
      String.fromCodePoint(Number.parseInt(hex, 16) % 0x110000),
    )
    .replace(/&#([0-9]+);?/g, (_, decimal: string) => String.fromCodePoint(Number(decimal) % 0x110000))
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The system note's text with only allowlisted tags, each rebuilt; Markdown around them is kept. */
export function allowlistedSystemNoteHtml(text: string): string {
  const lower = text.toLowerCase();
  let out = '';
  let index = 0;
  let openLinks = 0;
  while (index < text.length) {
    const next = text.indexOf('<', index);
    if (next < 0) break;
    out += escapeText(text.slice(index, next));
    if (text.startsWith('<!--', next)) {
      const close = text.indexOf('-->', next + 4);
      index = close < 0 ? text.length : close + 3;
      continue;
    }
    const tag = readTag(text, next);
    if (!tag) {
      out += '&lt;';
      index = next + 1;
      continue;
    }
    index = tag.end;
    if (DROPPED_WITH_CONTENT.has(tag.name)) {
      if (tag.closing) continue;
      const close = lower.indexOf(`</${tag.name}`, index);
      const closeEnd = close < 0 ? -1 : text.indexOf('>', close);
      index = closeEnd < 0 ? text.length : closeEnd + 1;
      continue;
    }
    if (tag.name === 'a') {
      if (tag.closing) {
        if (openLinks > 0) {
          openLinks--;
          out += '</a>';
        }
        continue;
      }
      const address = decodeAttribute(tag.attributes.get('href') ?? '');
      const handlers = [...tag.attributes.keys()].some((attribute) => attribute.startsWith('on'));
      if (isLinkable(address) && !handlers) {
        openLinks++;
        out += `<a href="${escapeAttribute(address)}">`;
      }
      continue;
    }
    if (PLAIN_TAGS.has(tag.name)) out += tag.closing ? `</${tag.name}>` : `<${tag.name}>`;
  }
  out += escapeText(text.slice(index));
  return out + '</a>'.repeat(openLinks);
}
