/*
 * Server Markdown (descriptions, comments) turned into DOM nodes safely: markdown-it with raw HTML off,
 * images shown as links (remote images are not loaded: the page's CSP allows none), then DOMPurify over
 * the result, keeping only http(s) links. System notes ("added 2 commits <ul>…") are HTML from the
 * server: their tags are rebuilt from an allowlist (domain/systemNoteHtml.ts), then the same path with
 * HTML on, and DOMPurify keeping only lists, links and code. Emoji
 * shortcodes (`:rocket:`) become emoji, as the server shows them. Everything else from the server goes
 * in as text.
 */
import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';
import { full as emoji } from 'markdown-it-emoji';
import emojiByName from 'markdown-it-emoji/lib/data/full.mjs';
import { checkWebLink } from '../../../domain/webLinks';
import { allowlistedSystemNoteHtml } from '../../../domain/systemNoteHtml';
import { taskLists } from '../../../domain/taskLists';
import { linkReferences } from './references';

/** The host's check (`openServerLink` opens with the same): http(s), a host, no user name before it. */
function isWebLink(href: string): boolean {
  return checkWebLink(href).ok;
}

function markdownRenderer(html: boolean) {
  // `breaks`: a single newline is a line break, as the server renders comments.
  const renderer = new MarkdownIt({ html, linkify: true, breaks: true, typographer: false }).use(emoji);
  renderer.validateLink = (url: string): boolean => isWebLink(url) || /^[#/]|^\.\.?\//.test(url);
  return renderer;
}

// Task lists (`- [x] done`) as read-only boxes, in descriptions and comments.
const markdown = markdownRenderer(false).use(taskLists);
const systemMarkdown = markdownRenderer(true);

// The emoji plugin reads text, not HTML blocks: a system note's list items get their emoji here.
systemMarkdown.renderer.rules['html_block'] = (tokens, index) =>
  (tokens[index]?.content ?? '').replace(
    /:([a-z0-9_+-]{1,50}):/g,
    (shortcode: string, name: string) => emojiByName[name] ?? shortcode,
  );

// An image becomes a link to it, labelled with its alt text.
markdown.renderer.rules['image'] = systemMarkdown.renderer.rules['image'] = (tokens, index) => {
  const token = tokens[index];
  if (!token) return '';
  const src = String(token.attrGet('src') ?? '');
  const label = markdown.utils.escapeHtml(token.content || src);
  return isWebLink(src) ? `<a href="${markdown.utils.escapeHtml(src)}">🖼 ${label}</a>` : `🖼 ${label}`;
};

const purify = DOMPurify(window);
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.nodeName !== 'A') return;
  const href = node.getAttribute('href') ?? '';
  if (isWebLink(href)) {
    node.setAttribute('title', href);
    node.setAttribute('rel', 'noopener noreferrer');
  } else {
    node.removeAttribute('href');
  }
});

const FORBID_TAGS = [
  'style',
  'img',
  'svg',
  'math',
  'form',
  'input',
  'button',
  'textarea',
  'select',
  'iframe',
];

/**
 * Sanitised HTML (as a fragment) for a Markdown text from the server; `#12` and `!3` become links
 * (`references.ts`) once it is sanitised.
 */
export function renderMarkdown(text: string): DocumentFragment {
  const fragment = purify.sanitize(markdown.render(text), {
    RETURN_DOM_FRAGMENT: true,
    FORBID_TAGS,
    FORBID_ATTR: ['style', 'id', 'name'],
    ALLOW_DATA_ATTR: false,
  });
  linkReferences(fragment);
  return fragment;
}

/** What a system note may keep of its HTML: lists, links and code. */
const SYSTEM_NOTE_TAGS = ['p', 'br', 'ul', 'ol', 'li', 'a', 'code', 'pre', 'strong', 'em', 'del', 's'];

/** Sanitised HTML for a system note, which the server sends as Markdown with HTML in it. */
export function renderSystemNote(text: string): DocumentFragment {
  return purify.sanitize(systemMarkdown.render(allowlistedSystemNoteHtml(text)), {
    RETURN_DOM_FRAGMENT: true,
    ALLOWED_TAGS: SYSTEM_NOTE_TAGS,
    ALLOWED_ATTR: ['href', 'title', 'rel'],
    ALLOW_DATA_ATTR: false,
  });
}
