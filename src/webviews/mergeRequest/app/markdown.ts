/*
 * Server Markdown (descriptions, comments) turned into DOM nodes safely: markdown-it with raw HTML off,
 * images shown as links (remote images are not loaded: the page's CSP allows none), then DOMPurify over
 * the result, keeping only http(s) links. Everything else from the server goes in as text.
 */
import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';
import { isSafeLink } from '../../../domain/mergeRequestView';

// `breaks`: a single newline is a line break, as the server renders comments.
const markdown = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });
markdown.validateLink = (url: string): boolean => isSafeLink(url) || /^[#/]|^\.\.?\//.test(url);

// An image becomes a link to it, labelled with its alt text.
markdown.renderer.rules['image'] = (tokens, index) => {
  const token = tokens[index];
  if (!token) return '';
  const src = String(token.attrGet('src') ?? '');
  const label = markdown.utils.escapeHtml(token.content || src);
  return isSafeLink(src) ? `<a href="${markdown.utils.escapeHtml(src)}">🖼 ${label}</a>` : `🖼 ${label}`;
};

const purify = DOMPurify(window);
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.nodeName !== 'A') return;
  const href = node.getAttribute('href') ?? '';
  if (isSafeLink(href)) {
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

/** Sanitised HTML (as a fragment) for a Markdown text from the server. */
export function renderMarkdown(text: string): DocumentFragment {
  return purify.sanitize(markdown.render(text), {
    RETURN_DOM_FRAGMENT: true,
    FORBID_TAGS,
    FORBID_ATTR: ['style', 'id', 'name'],
    ALLOW_DATA_ATTR: false,
  });
}
