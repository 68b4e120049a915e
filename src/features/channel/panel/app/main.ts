/*
 * The channel post reading pane (browser code): the post, who wrote it and for whom, its full text,
 * its comments and a reply box. Every server string goes into the DOM as text.
 */
import '../../../../webviews/shared/app/l10n';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import { connect, element } from '../../../../webviews/shared/app/bridge';
import type { ChannelEntryView, ChannelPostHostMessage, ChannelPostPageMessage } from '../protocol';
import './style.css';
import * as l10n from '@vscode/l10n';

interface PageState {
  reply: string;
}

const root = document.getElementById('app') ?? document.body;

function entryElement(entry: ChannelEntryView, kind: 'post' | 'comment'): HTMLElement {
  const article = element('article', { className: kind });
  article.style.setProperty('--depth', String(entry.depth));
  const meta = [entry.created ? new Date(entry.created).toLocaleString() : '', entry.audience]
    .concat(entry.categories.length > 0 ? [l10n.t('categories: {0}', entry.categories.join(', '))] : [])
    .filter(Boolean)
    .join(' · ');
  article.append(
    element(
      'div',
      { className: 'byline' },
      element('span', { className: 'author', text: entry.author || entry.address || l10n.t('someone') }),
      element('span', { className: 'muted', text: entry.address && entry.author ? entry.address : '' }),
    ),
    element('div', { className: 'muted meta', text: meta }),
  );
  if (entry.title) article.append(element(kind === 'post' ? 'h1' : 'h3', { text: entry.title }));
  article.append(element('div', { className: 'text', text: entry.text }));
  return article;
}

let replyBox: (HTMLElement & { value: string }) | undefined;
const notice = element('div', { className: 'notice hidden' });
notice.setAttribute('role', 'status');

function render(message: Extract<ChannelPostHostMessage, { type: 'snapshot' }>): void {
  const kept = replyBox?.value ?? bridge.savedState.reply ?? '';
  const comments = element('section', { className: 'comments' });
  comments.append(
    element('h2', {
      text:
        message.comments.length === 0
          ? l10n.t('No comments yet')
          : l10n.t('{0} comments', message.comments.length),
    }),
  );
  for (const comment of message.comments) comments.append(entryElement(comment, 'comment'));
  const parts: HTMLElement[] = [entryElement(message.post, 'post'), comments];
  if (message.commentsClosed) {
    parts.push(element('p', { className: 'muted', text: l10n.t('The author turned comments off.') }));
  } else {
    const box = document.createElement('vscode-textarea') as HTMLElement & { value: string };
    box.className = 'reply-box';
    box.setAttribute('placeholder', l10n.t('Write a comment'));
    box.setAttribute('rows', '4');
    box.setAttribute('aria-label', l10n.t('Your comment'));
    box.value = kept;
    box.addEventListener('input', () => bridge.saveState({ reply: box.value }));
    replyBox = box;
    const send = element('vscode-button', { text: l10n.t('Comment') });
    send.dataset['action'] = 'reply';
    send.addEventListener('click', () => {
      const body = box.value.trim();
      if (body === '') return;
      send.setAttribute('disabled', '');
      bridge.post({ type: 'reply', body });
    });
    parts.push(
      element('section', { className: 'reply' }, box, element('div', { className: 'actions' }, send)),
    );
  }
  if (message.canOpenInBrowser) {
    const open = element('vscode-button', { text: l10n.t('Open in Browser') });
    open.setAttribute('secondary', '');
    open.dataset['action'] = 'openInBrowser';
    open.addEventListener('click', () => bridge.post({ type: 'openInBrowser' }));
    parts.push(element('div', { className: 'actions' }, open));
  }
  root.replaceChildren(notice, ...parts);
}

function onMessage(message: ChannelPostHostMessage): void {
  switch (message.type) {
    case 'snapshot':
      render(message);
      break;
    case 'replyResult':
      document.querySelector('[data-action="reply"]')?.removeAttribute('disabled');
      notice.textContent = message.message;
      notice.className = `notice ${message.ok ? 'info' : 'error'}`;
      if (message.ok && replyBox) {
        replyBox.value = '';
        bridge.saveState({ reply: '' });
      }
      break;
  }
}

const bridge = connect<ChannelPostPageMessage, ChannelPostHostMessage, PageState>(onMessage);
