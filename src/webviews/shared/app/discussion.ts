/*
 * The Discussion tab: the comments (Markdown, sanitised), reactions on each, edit and delete for your
 * own (delete asks inline first), and a box for a new comment. What you type is sent to the host as a
 * draft (debounced), which keeps it in NoteDrafts: it survives closing the panel and a failed post.
 */
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import './discussion.css';
import { element, icon } from './bridge';
import type { NoteAction, NoteView } from '../discussionTypes';
import { renderMarkdown, renderSystemNote } from './markdown';
import { awardsRow, badge, button, personText, timeElement } from './widgets';
import * as l10n from '@vscode/l10n';

const DRAFT_DELAY_MS = 400;

function failureText(action: NoteAction): string {
  switch (action) {
    case 'edit':
      return l10n.t('The comment could not be saved.');
    case 'delete':
      return l10n.t('The comment could not be deleted.');
    case 'reply':
      return l10n.t('The reply was not sent; it is still in its box.');
    default:
      return l10n.t('The thread could not be changed.');
  }
}

export interface DiscussionCallbacks {
  post(body: string): void;
  draftChanged(body: string): void;
  edit(noteId: number, body: string): void;
  remove(noteId: number): void;
  award(noteId: number, name: string, add: boolean): void;
  /** Shows a diff comment's line in the diff editor. */
  openLine(noteId: number): void;
  /** Answers the thread whose first comment is `noteId`. */
  reply(noteId: number, body: string): void;
  resolve(noteId: number, resolved: boolean): void;
}

type TextArea = HTMLElementTagNameMap['vscode-textarea'];

export class DiscussionTab {
  readonly root = element('div', { className: 'discussion' });
  private readonly list = element('div', { className: 'notes' });
  private readonly composer: TextArea;
  private readonly postButton: HTMLElement;
  private readonly status = element('p', { className: 'composer-status', text: '' });
  private draftTimer: ReturnType<typeof setTimeout> | undefined;
  private restored = false;
  private posting = false;
  /** Comments being edited: their text so far (kept across refreshes). */
  private readonly editing = new Map<number, string>();
  private readonly confirmingDelete = new Set<number>();
  /** Replies being written, by the first comment of their thread; kept when sending fails. */
  private readonly replying = new Map<number, string>();
  private notes: readonly NoteView[] = [];

  constructor(private readonly callbacks: DiscussionCallbacks) {
    this.composer = document.createElement('vscode-textarea');
    this.composer.className = 'composer-input';
    this.composer.setAttribute('rows', '5');
    this.composer.setAttribute('resize', 'vertical');
    this.composer.setAttribute('placeholder', l10n.t('Write a comment (Markdown). Ctrl+Enter posts it.'));
    this.composer.setAttribute('label', l10n.t('New comment'));
    this.composer.addEventListener('input', () => this.scheduleDraft());
    this.composer.addEventListener('keydown', (event: KeyboardEvent) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        this.post();
      }
    });
    this.postButton = button(l10n.t('Comment'), 'comment', () => this.post(), { action: 'postNote' });
    const composer = element(
      'div',
      { className: 'composer' },
      element('h3', { text: l10n.t('Add a comment') }),
      this.composer,
      element('div', { className: 'composer-actions' }, this.postButton, this.status),
    );
    this.root.append(this.list, composer);
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') this.flushDraft();
    });
  }

  update(notes: readonly NoteView[], draft: string): void {
    this.notes = notes;
    if (!this.restored) {
      this.restored = true;
      if (this.composer.value === '' && draft !== '') {
        this.composer.value = draft;
        this.setStatus(l10n.t('Your unsent comment was restored.'), false);
      }
    }
    this.renderNotes();
  }

  /** The host's answer to a post, edit or delete. */
  noteResult(action: NoteAction, ok: boolean, noteId?: number, message?: string): void {
    if (action === 'post') {
      this.posting = false;
      this.postButton.removeAttribute('disabled');
      if (ok) {
        this.composer.value = '';
        this.setStatus('', false);
      } else {
        this.setStatus(
          message === undefined
            ? l10n.t('The comment was not posted. Your text is kept as a draft.')
            : l10n.t('{0} Your text is kept as a draft.', message),
          true,
        );
      }
      return;
    }
    if (noteId !== undefined && ok) {
      this.editing.delete(noteId);
      this.confirmingDelete.delete(noteId);
      if (action === 'reply') this.replying.delete(noteId);
    }
    if (!ok) this.setStatus(message ?? failureText(action), true);
    this.renderNotes();
  }

  private setStatus(text: string, error: boolean): void {
    this.status.textContent = text;
    this.status.classList.toggle('error-text', error);
  }

  private scheduleDraft(): void {
    if (this.draftTimer !== undefined) clearTimeout(this.draftTimer);
    this.draftTimer = setTimeout(() => this.flushDraft(), DRAFT_DELAY_MS);
  }

  private flushDraft(): void {
    if (this.draftTimer === undefined) return;
    clearTimeout(this.draftTimer);
    this.draftTimer = undefined;
    if (!this.posting) this.callbacks.draftChanged(this.composer.value);
  }

  private post(): void {
    const body = this.composer.value;
    if (this.posting || body.trim() === '') return;
    if (this.draftTimer !== undefined) {
      clearTimeout(this.draftTimer);
      this.draftTimer = undefined;
    }
    this.posting = true;
    this.postButton.setAttribute('disabled', '');
    this.setStatus(l10n.t('Posting…'), false);
    this.callbacks.post(body);
  }

  private renderNotes(): void {
    this.list.replaceChildren();
    if (this.notes.length === 0) {
      this.list.append(element('p', { className: 'muted', text: l10n.t('No comments yet.') }));
      return;
    }
    // Notes come in thread order: a thread's first comment, then its replies.
    let first: NoteView | undefined;
    this.notes.forEach((note, index) => {
      this.list.append(this.noteElement(note));
      const thread = note.thread;
      if (thread && !thread.reply) first = note;
      // The reply box goes after the thread's last comment.
      if (!thread || this.notes[index + 1]?.thread?.id === thread.id) return;
      if (first?.thread?.id === thread.id && this.replying.has(first.id))
        this.list.append(this.replyBox(first.id));
    });
  }

  /** A reply to the thread whose first comment is `noteId`: Reply sends it, Cancel drops it. */
  private replyBox(noteId: number): HTMLElement {
    const editor = document.createElement('vscode-textarea');
    editor.className = 'reply-input';
    editor.setAttribute('rows', '3');
    editor.setAttribute('resize', 'vertical');
    editor.setAttribute('label', l10n.t('Reply'));
    editor.setAttribute('placeholder', l10n.t('Write a reply (Markdown). Ctrl+Enter sends it.'));
    editor.value = this.replying.get(noteId) ?? '';
    editor.addEventListener('input', () => this.replying.set(noteId, editor.value));
    const send = (): void => {
      if (editor.value.trim() !== '') this.callbacks.reply(noteId, editor.value);
    };
    editor.addEventListener('keydown', (event: KeyboardEvent) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        send();
      }
    });
    const cancel = (): void => {
      this.replying.delete(noteId);
      this.renderNotes();
    };
    return element(
      'div',
      { className: 'note-reply reply-box' },
      editor,
      element(
        'div',
        { className: 'note-actions' },
        button(l10n.t('Reply'), 'reply', send, { action: 'sendReply' }),
        button(l10n.t('Cancel'), undefined, cancel, { secondary: true }),
      ),
    );
  }

  /** Reply, and Resolve or Unresolve, on a thread's first comment. */
  private threadButtons(note: NoteView): HTMLElement[] {
    const thread = note.thread;
    if (!thread || thread.reply) return [];
    const buttons: HTMLElement[] = [];
    if (!this.replying.has(note.id)) {
      buttons.push(
        button(
          l10n.t('Reply'),
          'reply',
          () => {
            this.replying.set(note.id, '');
            this.renderNotes();
          },
          { secondary: true, action: 'replyToThread' },
        ),
      );
    }
    if (thread.resolved !== undefined) {
      const resolved = thread.resolved;
      buttons.push(
        button(
          resolved ? l10n.t('Unresolve') : l10n.t('Resolve'),
          resolved ? 'issue-reopened' : 'check',
          () => this.callbacks.resolve(note.id, !resolved),
          { secondary: true, action: resolved ? 'unresolveThread' : 'resolveThread' },
        ),
      );
    }
    return buttons;
  }

  private noteElement(note: NoteView): HTMLElement {
    if (note.system) {
      return element(
        'div',
        { className: 'note system' },
        icon('info'),
        element('span', { className: 'note-author', text: note.author?.name ?? l10n.t('System') }),
        element('div', { className: 'muted markdown system-body' }, renderSystemNote(note.body)),
        timeElement(note.createdAt),
      );
    }
    // A reply sits under its thread's first comment.
    const root = element('article', { className: note.thread?.reply ? 'note note-reply' : 'note' });
    root.dataset['noteId'] = String(note.id);
    root.append(this.noteHeader(note));
    if (this.confirmingDelete.has(note.id)) root.append(this.deleteConfirmation(note));
    const editing = this.editing.get(note.id);
    if (editing !== undefined) root.append(...this.noteEditor(note, editing));
    else root.append(element('div', { className: 'markdown note-body' }, renderMarkdown(note.body)));
    root.append(awardsRow(note.awards, (name, add) => this.callbacks.award(note.id, name, add)));
    return root;
  }

  /** Author, time, "(edited)", and Edit and Delete on your own comments. */
  private noteHeader(note: NoteView): HTMLElement {
    const header = element(
      'div',
      { className: 'note-header' },
      element('span', { className: 'note-author', text: personText(note.author) }),
      timeElement(note.createdAt),
    );
    if (note.updatedAt && note.createdAt && note.updatedAt !== note.createdAt) {
      header.append(element('span', { className: 'muted', text: l10n.t('(edited)'), title: note.updatedAt }));
    }
    if (note.place && !note.thread?.reply) header.append(this.placeLink(note.id, note.place));
    const resolved = note.thread?.resolved;
    if (resolved !== undefined)
      header.append(
        badge(
          resolved ? l10n.t('Resolved') : l10n.t('Unresolved'),
          resolved ? 'thread-state resolved' : 'thread-state',
        ),
      );
    header.append(element('span', { className: 'spacer' }), ...this.threadButtons(note));
    if (note.own && !this.editing.has(note.id)) {
      header.append(
        button(
          l10n.t('Edit'),
          'edit',
          () => {
            this.editing.set(note.id, note.body);
            this.renderNotes();
          },
          { secondary: true, action: 'editNote' },
        ),
        button(
          l10n.t('Delete'),
          'trash',
          () => {
            this.confirmingDelete.add(note.id);
            this.renderNotes();
          },
          { secondary: true, action: 'deleteNote' },
        ),
      );
    }
    return header;
  }

  /** `path:line` of a diff comment, a link to its line; "outdated" when written on an older version. */
  private placeLink(noteId: number, place: NonNullable<NoteView['place']>): HTMLElement {
    const where = `${place.path}:${place.line}`;
    const link = element('a', {
      className: 'note-place',
      text: place.outdated ? l10n.t('{0} (outdated)', where) : where,
      title: place.outdated
        ? l10n.t('Open the version this comment was written on, at its line')
        : l10n.t('Open the diff at this line'),
    });
    link.setAttribute('href', '#');
    link.setAttribute('role', 'button');
    link.addEventListener('click', (event) => {
      event.preventDefault();
      this.callbacks.openLine(noteId);
    });
    return link;
  }

  private deleteConfirmation(note: NoteView): HTMLElement {
    return element(
      'div',
      { className: 'confirm' },
      element('span', { text: l10n.t('Delete this comment? This cannot be undone.') }),
      button(l10n.t('Delete'), 'trash', () => this.callbacks.remove(note.id), { action: 'confirmDelete' }),
      button(
        l10n.t('Cancel'),
        undefined,
        () => {
          this.confirmingDelete.delete(note.id);
          this.renderNotes();
        },
        { secondary: true },
      ),
    );
  }

  /** The comment's text in an editor, with Save and Cancel; what is typed is kept while it is open. */
  private noteEditor(note: NoteView, editing: string): HTMLElement[] {
    const editor = document.createElement('vscode-textarea');
    editor.className = 'note-editor';
    editor.setAttribute('rows', '5');
    editor.setAttribute('resize', 'vertical');
    editor.value = editing;
    editor.addEventListener('input', () => this.editing.set(note.id, editor.value));
    return [
      editor,
      element(
        'div',
        { className: 'note-actions' },
        button(
          l10n.t('Save'),
          'check',
          () => {
            if (editor.value.trim() !== '') this.callbacks.edit(note.id, editor.value);
          },
          { action: 'saveNote' },
        ),
        button(
          l10n.t('Cancel'),
          undefined,
          () => {
            this.editing.delete(note.id);
            this.renderNotes();
          },
          { secondary: true },
        ),
      ),
    ];
  }
}
