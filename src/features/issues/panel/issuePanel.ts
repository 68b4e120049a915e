import * as vscode from 'vscode';
import { type HostingClient, type Issue, type Note, setOwnAward } from '../../../api/hosting';
import { issuePanelKey, issuePanelTitle } from '../../../domain/issueView';
import { describeError } from '../../../platform/commands/registerCommand';
import { openServerLink } from '../../../platform/serverLinks';
import { showError } from '../../../platform/userMessages';
import type { CurrentUsers } from '../../../state/currentUsers';
import { NoteDrafts } from '../../../state/noteDrafts';
import { DiscussionHost } from '../../../webviews/shared/discussionHost';
import { type OpenPanel, PanelHost } from '../../../webviews/shared/panelHost';
import type { Services } from '../../../services';
import { type IssueTarget, issueReference } from '../issueTarget';
import { type WriteOutcome, writeDescription, writeTask } from './descriptionWrites';
import { ISSUE_FIRST_PAINT_STYLE, issueFirstPaint } from './firstPaint';
import { loadIssueSnapshot, preliminaryIssueSnapshot } from './issueSnapshot';
import {
  type IssueAction,
  type IssueHostMessage,
  type IssuePageMessage,
  IssuePageMessageSchema,
  type IssueSnapshot,
  type RelatedMergeRequestView,
} from './protocol';

export interface IssuePanelContext {
  services: Services;
  currentUsers: CurrentUsers;
  drafts: NoteDrafts;
  /** After a change here, the Issues view and the project's Issues folder read again. */
  changed(target: IssueTarget): void;
  /** The palette's Edit command (title, labels, milestone, due date, confidential). */
  edit(target: IssueTarget): Promise<void>;
  /** The merge request panel (the merge requests feature's). */
  openMergeRequest(where: { accountId: string; project: number; iid: number }): Promise<unknown>;
  /** Another issue's panel (a `#12` in the text). */
  openIssue(where: { accountId: string; project: number; iid: number }): Promise<unknown>;
}

/** One issue in a webview: header, description with tickable tasks, discussion, related merge requests. */
export class IssuePanel implements OpenPanel {
  readonly host: PanelHost<IssuePageMessage, IssueHostMessage>;
  readonly key: string;
  /** The last snapshot sent (host tests read it). */
  snapshot: IssueSnapshot | undefined;
  /** Completed loads, for tests waiting on a refresh. */
  loads = 0;

  private target: IssueTarget;
  private notes: Note[] = [];
  private related: RelatedMergeRequestView[] = [];
  private loading: Promise<void> | undefined;
  private readonly discussion: DiscussionHost;

  constructor(
    private readonly context: IssuePanelContext,
    target: IssueTarget,
    restoredPanel?: vscode.WebviewPanel,
  ) {
    this.target = target;
    this.key = issuePanelKey(target.account.id, target.projectId, target.issue.iid);
    this.host = new PanelHost<IssuePageMessage, IssueHostMessage>({
      kind: 'issue',
      app: 'issues',
      title: issuePanelTitle(target.issue),
      extensionUri: context.services.context.extensionUri,
      log: context.services.log,
      schema: IssuePageMessageSchema,
      restoreKey: { accountId: target.account.id, projectId: target.projectId, id: target.issue.iid },
      restoredPanel,
      firstPaint: {
        markup: issueFirstPaint(target.issue, target.projectPath),
        style: ISSUE_FIRST_PAINT_STYLE,
      },
    });
    this.discussion = new DiscussionHost({
      drafts: context.drafts,
      draftKey: () => this.draftKey,
      log: context.services.log,
      logError: (text) => context.services.log.error(`Issue panel ${this.key}: ${text}`),
      post: (message) => this.host.post(message),
      client: () => this.client(),
      shows: (noteId) => this.notes.some((note) => note.id === noteId),
      refresh: () => this.refresh(),
    });
    this.host.onReady(() => {
      if (this.snapshot) {
        this.host.post({ type: 'snapshot', snapshot: { ...this.snapshot, draft: this.draft() } });
        return;
      }
      this.host.post({
        type: 'snapshot',
        snapshot: preliminaryIssueSnapshot(this.key, target, this.draft()),
      });
      void this.refresh();
    });
    this.host.handleMessages((message) => this.handle(message));
  }

  get issue(): Issue {
    return this.target.issue;
  }

  private get draftKey(): string {
    return NoteDrafts.keyFor(this.target.account.id, {
      kind: 'issue',
      project: this.target.projectId,
      id: this.target.issue.iid,
    });
  }

  private draft(): string {
    return this.discussion.draft;
  }

  private client(): Promise<HostingClient> {
    return this.context.services.accounts.client(this.target.account.id);
  }

  private get where() {
    return { projectId: this.target.projectId, iid: this.issue.iid, reference: issueReference(this.target) };
  }

  /** Loads everything again and sends the page a new snapshot; concurrent calls share one load. */
  refresh(): Promise<void> {
    if (!this.loading) {
      this.host.post({ type: 'loading', loading: true });
      this.loading = this.load()
        .then(() => {
          this.loads++;
          this.host.title = issuePanelTitle(this.issue);
          if (this.snapshot) this.host.post({ type: 'snapshot', snapshot: this.snapshot });
        })
        .catch((error: unknown) => {
          this.context.services.log.error(`Issue panel ${this.key}: ${describeError(error)}`);
          this.host.post({ type: 'status', level: 'error', text: describeError(error) });
        })
        .finally(() => {
          this.loading = undefined;
          this.host.post({ type: 'loading', loading: false });
        });
    }
    return this.loading;
  }

  private async load(): Promise<void> {
    const loaded = await loadIssueSnapshot({
      client: await this.client(),
      target: this.target,
      key: this.key,
      username: this.context.currentUsers.username(this.target.account.id),
      draft: () => this.draft(),
    });
    this.target = { ...this.target, issue: loaded.issue };
    this.notes = loaded.notes;
    this.related = loaded.related;
    this.snapshot = loaded.snapshot;
  }

  private get noteParent() {
    return { kind: 'issue' as const, project: this.target.projectId, iid: this.issue.iid };
  }

  private async handle(message: IssuePageMessage): Promise<void> {
    switch (message.type) {
      case 'refresh':
        return this.refresh();
      case 'action':
        return this.runAction(message.action);
      case 'draftChanged':
        return this.discussion.saveDraft(message.body);
      case 'postNote':
        return this.postNote(message.body);
      case 'editNote':
        return this.discussion.noteAction('edit', message.noteId, (client) =>
          client.updateNote(this.noteParent, message.noteId, message.body),
        );
      case 'deleteNote':
        return this.discussion.noteAction('delete', message.noteId, (client) =>
          client.deleteNote(this.noteParent, message.noteId),
        );
      case 'replyToThread':
        return this.reply(message.noteId, message.body);
      case 'awardEmoji':
      case 'removeAwardEmoji':
        return this.award(message.type === 'awardEmoji', message.name, message.noteId);
      case 'setTask':
        return this.describe((client, shown) =>
          writeTask(client, this.where, shown, message.index, message.checked),
        );
      case 'saveDescription':
        return this.describe(
          (client, shown) => writeDescription(client, this.where, shown, message.body),
          true,
        );
      case 'openMergeRequest':
        return this.openMergeRequest(message.index);
      case 'openReference':
        return this.discussion.openReference(
          message,
          this.snapshot && { description: this.snapshot.issue.description, notes: this.snapshot.notes },
          (kind, iid) => {
            const where = { accountId: this.target.account.id, project: this.target.projectId, iid };
            return kind === 'issue' ? this.context.openIssue(where) : this.context.openMergeRequest(where);
          },
        );
    }
  }

  private async runAction(action: IssueAction): Promise<void> {
    if (action === 'openInBrowser') {
      await openServerLink(this.issue.web_url, vscode.l10n.t('the page of {0}', issueReference(this.target)));
      return;
    }
    await this.discussion.reportErrors(async () => {
      if (action === 'edit') {
        await this.context.edit(this.target);
      } else {
        const issue = await (
          await this.client()
        ).updateIssue(this.target.projectId, this.issue.iid, {
          stateEvent: action,
        });
        this.target = { ...this.target, issue };
        this.host.post({
          type: 'status',
          level: 'info',
          text:
            action === 'close'
              ? vscode.l10n.t('{0} closed.', issueReference(this.target))
              : vscode.l10n.t('{0} reopened.', issueReference(this.target)),
        });
      }
      this.context.changed(this.target);
    }, action);
    await this.refresh();
  }

  /** A write to the description; the page is told when an edit of the text was not saved. */
  private async describe(
    write: (client: HostingClient, shown: string) => Promise<WriteOutcome>,
    editing = false,
  ): Promise<void> {
    const shown = this.snapshot?.issue.description ?? this.issue.description ?? '';
    try {
      const outcome = await write(await this.client(), shown);
      if (editing)
        this.host.post({
          type: 'descriptionResult',
          ok: outcome.written,
          ...(outcome.written ? {} : { message: vscode.l10n.t('Not saved: your text is still in the box.') }),
        });
      if (outcome.written) {
        this.target = { ...this.target, issue: outcome.issue };
        this.context.changed(this.target);
      }
    } catch (error) {
      const text = describeError(error);
      void showError(text);
      this.host.post(
        editing
          ? { type: 'descriptionResult', ok: false, message: text }
          : { type: 'status', level: 'error', text },
      );
    }
    await this.refresh();
  }

  private async postNote(body: string): Promise<void> {
    // The text is kept until the server has it: a failed post leaves it to send again.
    await this.discussion.keep(body);
    try {
      const note = await (await this.client()).createNote(this.noteParent, body);
      await this.context.drafts.save(this.draftKey, '');
      this.host.post({ type: 'noteResult', action: 'post', ok: true, noteId: note.id });
    } catch (error) {
      const message = describeError(error);
      void showError(vscode.l10n.t('The comment was not posted (it is kept as a draft): {0}', message));
      this.host.post({ type: 'noteResult', action: 'post', ok: false, message });
      return;
    }
    this.context.changed(this.target);
    await this.refresh();
  }

  private reply(noteId: number, body: string): Promise<void> {
    const thread = this.snapshot?.notes.find((note) => note.id === noteId)?.thread;
    return this.discussion.noteAction('reply', noteId, (client) => {
      if (!thread)
        throw new Error(vscode.l10n.t('Replies are not available for this comment on this server.'));
      return client.replyToIssueDiscussion(this.target.projectId, this.issue.iid, thread.id, body);
    });
  }

  private async award(add: boolean, name: string, noteId: number | undefined): Promise<void> {
    const awards =
      noteId === undefined
        ? this.snapshot?.awards
        : this.snapshot?.notes.find((note) => note.id === noteId)?.awards;
    const awardable =
      noteId === undefined
        ? this.noteParent
        : { kind: 'issueNote' as const, project: this.target.projectId, iid: this.issue.iid, noteId };
    await this.discussion.reportErrors(async () => {
      const ownAwardId = awards?.find((award) => award.name === name)?.ownAwardId;
      await setOwnAward(await this.client(), awardable, name, add, ownAwardId);
    }, 'award');
    await this.refresh();
  }

  private async openMergeRequest(index: number): Promise<void> {
    const mergeRequest = this.related[index];
    if (!mergeRequest) return;
    await this.discussion.reportErrors(async () => {
      await this.context.openMergeRequest({
        accountId: this.target.account.id,
        project: this.target.projectId,
        iid: mergeRequest.iid,
      });
    }, 'openMergeRequest');
  }

  dispose(): void {
    this.host.dispose();
  }
}
