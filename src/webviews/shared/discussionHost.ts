/* What both panels' hosts do for their Discussion: the draft kept as it is typed, note actions, errors. */
import * as vscode from 'vscode';
import type { HostingClient } from '../../api/hosting';
import { describeError } from '../../platform/commands/registerCommand';
import { showError } from '../../platform/userMessages';
import type { NoteDrafts } from '../../state/noteDrafts';
import { type ReferenceKind, mentions } from '../../domain/references';
import type { NoteAction, NoteResultMessage, StatusMessage } from './discussionTypes';
import type { OpenReferenceMessage } from './pageMessages';

export interface DiscussionHostContext {
  drafts: NoteDrafts;
  draftKey(): string;
  log: vscode.LogOutputChannel;
  /** Logs a failure with the panel's name. */
  logError(text: string): void;
  post(message: NoteResultMessage | StatusMessage): void;
  client(): Promise<HostingClient>;
  /** Whether the comment is one the page was shown (a page names only those). */
  shows(noteId: number): boolean;
  refresh(): Promise<void>;
  /** After a comment was changed on the server (other views of the same comments read again). */
  noteChanged?(): void;
}

export class DiscussionHost {
  /** Draft saves run one after the other, and a post waits for them. */
  private draftWrites: Promise<void> = Promise.resolve();

  constructor(private readonly context: DiscussionHostContext) {}

  get draft(): string {
    return this.context.drafts.get(this.context.draftKey())?.body ?? '';
  }

  saveDraft(body: string): Promise<void> {
    this.draftWrites = this.draftWrites
      .then(() => this.context.drafts.save(this.context.draftKey(), body))
      .catch((error: unknown) => this.context.log.warn(`Saving a draft: ${describeError(error)}`));
    return this.draftWrites;
  }

  /** Waits for the draft saves under way, then stores `body` (kept until the server has it). */
  async keep(body: string): Promise<void> {
    await this.draftWrites;
    if (this.draft !== body) await this.context.drafts.save(this.context.draftKey(), body);
  }

  /** The draft saves under way have finished. */
  settled(): Promise<void> {
    return this.draftWrites;
  }

  /** Edit, delete, reply or resolve on a comment the page shows; the page hears how it went. */
  async noteAction(
    action: Exclude<NoteAction, 'post'>,
    noteId: number,
    run: (client: HostingClient) => Promise<unknown>,
  ): Promise<void> {
    if (!this.context.shows(noteId)) {
      const message = vscode.l10n.t('That comment is not shown here.');
      this.context.post({ type: 'noteResult', action, ok: false, noteId, message });
      return;
    }
    try {
      await run(await this.context.client());
      this.context.noteChanged?.();
      this.context.post({ type: 'noteResult', action, ok: true, noteId });
    } catch (error) {
      const message = describeError(error);
      void showError(message);
      this.context.post({ type: 'noteResult', action, ok: false, noteId, message });
      return;
    }
    await this.context.refresh();
  }

  /**
   * `#12` or `!3` clicked in the page: opened only when the description or a comment the page was
   * sent names it (a page asks only for what it shows).
   */
  openReference(
    message: OpenReferenceMessage,
    shown: { description: string | null | undefined; notes: readonly { body: string }[] } | undefined,
    open: (kind: ReferenceKind, iid: number) => Promise<unknown>,
  ): Promise<void> {
    const texts = shown ? [shown.description, ...shown.notes.map((note) => note.body)] : [];
    if (!mentions(texts, message.kind, message.iid)) return Promise.resolve();
    return this.reportErrors(async () => {
      await open(message.kind, message.iid);
    }, 'openReference');
  }

  /** Runs `run`; a failure is logged (`what` names the action), shown, and said in the panel. */
  async reportErrors(run: () => Promise<void>, what?: string): Promise<void> {
    try {
      await run();
    } catch (error) {
      if (error instanceof vscode.CancellationError) return;
      const text = describeError(error);
      this.context.logError(what ? `${what}: ${text}` : text);
      void showError(text);
      this.context.post({ type: 'status', level: 'error', text });
    }
  }
}
