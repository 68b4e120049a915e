import * as vscode from 'vscode';
import { walkthroughStepDone } from '../../../platform/walkthrough';
import { type MergeRequest, type MergeRequestDiff, type Note, setOwnAward } from '../../../api/hosting';
import { mergeFromPanel } from './panelMerge';
import {
  type MergeRequestCommandContext,
  type MergeRequestTarget,
  afterMergeRequestChange,
  applyMergeRequestChange,
  openLink,
  mergeRequestRef,
} from '../mergeRequestTargets';
import { describeError } from '../../../platform/commands/registerCommand';
import { mergeRequestPanelKey, mergeRequestPanelTitle } from '../../../domain/mergeRequestView';
import { loadSnapshot, preliminarySnapshot } from './mergeRequestSnapshot';
import { MERGE_REQUEST_FIRST_PAINT_STYLE, mergeRequestFirstPaint } from './firstPaint';
import { checkoutMergeRequest } from '../checkoutMergeRequest';
import { addNote } from '../noteCommands';
import { NoteDrafts } from '../../../state/noteDrafts';
import { PanelHost, type OpenPanel } from '../../../webviews/shared/panelHost';
import { DiscussionHost } from '../../../webviews/shared/discussionHost';
import type { ReferenceKind } from '../../../domain/references';
import {
  type HeaderAction,
  type MergeRequestHostMessage,
  type MergeRequestPageMessage,
  MergeRequestPageMessageSchema,
  type MergeRequestSnapshot,
  type PanelMergeOptions,
} from './protocol';
import { type ThreadMessage, threadCall } from './threadMessages';
import { PanelViewedFiles } from './viewedInPanel';
import {
  generalThreadsText,
  isReviewAction,
  openNoteLine,
  runReviewAction,
  unresolvedGeneralThreads,
} from './reviewActions';

interface PanelDependencies {
  context: MergeRequestCommandContext;
  /** Another merge request's panel (a `!3` in the text). */
  openMergeRequest(where: { accountId: string; project: number; iid: number }): Promise<unknown>;
}

export class MergeRequestPanel implements OpenPanel {
  readonly host: PanelHost<MergeRequestPageMessage, MergeRequestHostMessage>;
  readonly key: string;
  /** The last snapshot built (host tests read it). */
  snapshot: MergeRequestSnapshot | undefined;
  /** Completed loads, for tests waiting on a refresh. */
  loads = 0;

  private target: MergeRequestTarget;
  private changes: MergeRequestDiff[] = [];
  private notes: Note[] = [];
  private loading: Promise<void> | undefined;
  private readonly discussion: DiscussionHost;
  private readonly viewed: PanelViewedFiles;

  constructor(
    private readonly deps: PanelDependencies,
    target: MergeRequestTarget,
    restoredPanel?: vscode.WebviewPanel,
  ) {
    this.target = { account: target.account, project: target.project, mergeRequest: target.mergeRequest };
    const { services } = deps.context;
    this.key = mergeRequestPanelKey(target.account.id, target.project.id, target.mergeRequest.iid);
    this.host = new PanelHost<MergeRequestPageMessage, MergeRequestHostMessage>({
      kind: 'mergeRequest',
      app: 'mergeRequests',
      title: mergeRequestPanelTitle(target.mergeRequest),
      extensionUri: services.context.extensionUri,
      log: services.log,
      schema: MergeRequestPageMessageSchema,
      restoreKey: {
        accountId: target.account.id,
        projectId: target.project.id,
        id: target.mergeRequest.iid,
      },
      restoredPanel,
      firstPaint: {
        markup: mergeRequestFirstPaint(target.mergeRequest, target.project),
        style: MERGE_REQUEST_FIRST_PAINT_STYLE,
      },
    });
    this.discussion = new DiscussionHost({
      drafts: deps.context.drafts,
      draftKey: () => this.draftKey,
      log: services.log,
      logError: (text) => services.log.error(`Merge request panel ${this.key}: ${text}`),
      post: (message) => this.host.post(message),
      client: () => services.accounts.client(this.target.account.id),
      shows: (noteId) => this.notes.some((note) => note.id === noteId),
      refresh: () => this.refresh(),
      noteChanged: () =>
        deps.context.view.refreshNotes(this.target.account.id, this.target.project.id, this.mergeRequest.iid),
    });
    this.viewed = new PanelViewedFiles(
      deps.context.review?.viewed,
      () => ({ target: this.reviewTarget(), changes: this.changes }),
      (paths) => this.host.post({ type: 'viewed', paths }),
    );
    this.host.onReady(() => {
      if (this.snapshot) {
        this.host.post({ type: 'snapshot', snapshot: this.withDraft(this.snapshot) });
        this.viewed.send();
        return;
      }
      // The merge request the user picked is drawn at once; the rest follows.
      this.host.post({ type: 'snapshot', snapshot: this.preliminarySnapshot() });
      // Not before: requests and replies handled while VS Code creates the page delay its first
      // frame by about 80 ms (measured in the benchmark).
      void this.refresh();
    });
    this.host.handleMessages((message) => this.handle(message));
  }

  get mergeRequest(): MergeRequest {
    return this.target.mergeRequest;
  }

  private get draftKey(): string {
    return NoteDrafts.keyFor(this.target.account.id, {
      kind: 'mergeRequest',
      project: this.target.project.id,
      id: this.target.mergeRequest.iid,
    });
  }

  private withDraft(snapshot: MergeRequestSnapshot): MergeRequestSnapshot {
    return { ...snapshot, draft: this.discussion.draft };
  }

  /** Loads everything again and sends the page a new snapshot; concurrent calls share one load. */
  refresh(): Promise<void> {
    if (!this.loading) {
      this.host.post({ type: 'loading', loading: true });
      this.loading = this.load()
        .then((snapshot) => {
          this.snapshot = snapshot;
          this.loads++;
          walkthroughStepDone('mergeRequestShown');
          this.host.title = mergeRequestPanelTitle(this.target.mergeRequest);
          this.host.post({ type: 'snapshot', snapshot });
          this.viewed.send();
        })
        .catch((error: unknown) => {
          this.deps.context.services.log.error(`Merge request panel ${this.key}: ${describeError(error)}`);
          this.host.post({ type: 'status', level: 'error', text: describeError(error) });
        })
        .finally(() => {
          this.loading = undefined;
          this.host.post({ type: 'loading', loading: false });
        });
    }
    return this.loading;
  }

  /**
   * What the page can draw before anything is fetched: the merge request as it was picked (its
   * header and Overview). The full snapshot follows when the changes, commits and notes are in.
   */
  private preliminarySnapshot(): MergeRequestSnapshot {
    return preliminarySnapshot(
      this.key,
      this.target,
      this.deps.context.drafts.get(this.draftKey)?.body ?? '',
    );
  }

  private async load(): Promise<MergeRequestSnapshot> {
    const { context } = this.deps;
    const loaded = await loadSnapshot({
      client: await context.services.accounts.client(this.target.account.id),
      target: this.target,
      key: this.key,
      username: context.currentUsers.username(this.target.account.id),
      draft: () => context.drafts.get(this.draftKey)?.body ?? '',
      opensDiffs: context.review !== undefined,
    });
    ({ target: this.target, changes: this.changes, notes: this.notes } = loaded);
    return loaded.snapshot;
  }

  private reviewTarget() {
    const { account, project } = this.target;
    return { accountId: account.id, project, mergeRequest: this.mergeRequest };
  }

  private get noteParent() {
    return {
      kind: 'mergeRequest' as const,
      project: this.target.project.id,
      iid: this.target.mergeRequest.iid,
    };
  }

  // ---- messages from the page ---------------------------------------------------------------------

  private async handle(message: MergeRequestPageMessage): Promise<void> {
    switch (message.type) {
      case 'refresh':
        return this.refresh();
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
      case 'resolveThread':
        return this.threadAction(message);
      case 'awardEmoji':
      case 'removeAwardEmoji':
        return this.award(message.type === 'awardEmoji', message.name, message.noteId);
      case 'merge':
        return this.merge(message.options);
      case 'action':
        return this.runAction(message.action);
      case 'openDiff':
        return this.discussion.reportErrors(() => this.openDiff(message.file));
      case 'setViewed':
        return this.discussion.reportErrors(() => this.viewed.set(message.path, message.viewed));
      case 'openIssue':
        if (!this.snapshot?.closesIssues.some((issue) => issue.iid === message.iid)) return;
        return this.discussion.reportErrors(() => this.openReference('issue', message.iid));
      case 'openReference':
        return this.discussion.openReference(
          message,
          this.snapshot && {
            description: this.snapshot.mergeRequest.description,
            notes: this.snapshot.notes,
          },
          (kind, iid) => this.openReference(kind, iid),
        );
      case 'openNoteLine':
        return this.discussion.reportErrors(() =>
          openNoteLine(
            this.deps.context,
            { ...this.target, mergeRequest: this.mergeRequest },
            this.notes,
            message.noteId,
          ),
        );
    }
  }

  private ref() {
    return mergeRequestRef(this.target);
  }

  /** A header action: the same change the commands run, its outcome said in the panel. */
  private async runAction(action: HeaderAction): Promise<void> {
    if (action === 'openInBrowser') {
      openLink(this.target.mergeRequest.web_url, this.deps.context.services.log);
      return;
    }
    if (action === 'checkout') {
      await checkoutMergeRequest(this.deps.context, this.ref());
      return;
    }
    await this.discussion.reportErrors(async () => {
      const text = isReviewAction(action)
        ? await runReviewAction(
            this.deps.context,
            { ...this.target, mergeRequest: this.mergeRequest },
            action,
          )
        : (await applyMergeRequestChange(this.deps.context, this.target, action)).message;
      const general = action === 'openThreads' ? unresolvedGeneralThreads(this.snapshot?.notes ?? []) : [];
      const [first] = general;
      if (!first) {
        this.host.post({ type: 'status', level: 'info', text });
        return;
      }
      // Unresolved threads off the diff: the panel comes back, at the first of them.
      this.host.revealAndPost({ type: 'showThread', noteId: first.id });
      this.host.revealAndPost({
        type: 'status',
        level: 'info',
        text: `${text} ${generalThreadsText(general.length)}`,
      });
    }, action);
    await this.refresh();
  }

  /** Merges with the page's options, through the same use case as the command; the page is told the outcome. */
  private async merge(options: PanelMergeOptions): Promise<void> {
    const outcome = await mergeFromPanel(this.deps.context, this.target, options);
    this.deps.context.services.log[outcome.ok ? 'info' : 'warn'](
      vscode.l10n.t('Merge request panel {0}: {1}', this.key, outcome.message),
    );
    this.host.post({ type: 'mergeResult', ...outcome });
    afterMergeRequestChange(this.deps.context, this.target);
    await this.refresh();
  }

  private async postNote(body: string): Promise<void> {
    await this.discussion.settled();
    const result = await addNote(this.deps.context, this.ref(), { body });
    if (result?.posted) {
      this.host.post({ type: 'noteResult', action: 'post', ok: true, ...idOf(result.noteId) });
      await this.refresh();
      return;
    }
    // The command kept the draft (or failed before sending): make sure the text is stored.
    await this.discussion.keep(body);
    this.host.post({
      type: 'noteResult',
      action: 'post',
      ok: false,
      message: result?.message ?? vscode.l10n.t('The comment was not posted; it was kept as a draft.'),
    });
  }

  /** A reply in a thread of the Discussion tab, or resolving it; the thread named by its first comment. */
  private threadAction(message: ThreadMessage): Promise<void> {
    const action = message.type === 'replyToThread' ? 'reply' : 'resolve';
    return this.discussion.noteAction(
      action,
      message.noteId,
      threadCall(this.snapshot, this.target, message),
    );
  }

  private async award(add: boolean, name: string, noteId: number | undefined): Promise<void> {
    if (noteId === undefined) {
      const result = await vscode.commands.executeCommand<unknown>(
        add ? 'forge.awardEmoji.add' : 'forge.awardEmoji.remove',
        this.ref(),
        { emoji: name },
      );
      if (result === undefined)
        this.host.post({ type: 'status', level: 'error', text: vscode.l10n.t(':{0}: failed.', name) });
      await this.refresh();
      return;
    }
    const own = this.snapshot?.notes.find((note) => note.id === noteId);
    if (!own) {
      this.host.post({
        type: 'status',
        level: 'error',
        text: vscode.l10n.t('That comment is not shown here.'),
      });
      return;
    }
    const awardable = {
      kind: 'mergeRequestNote' as const,
      project: this.target.project.id,
      iid: this.mergeRequest.iid,
      noteId,
    };
    await this.discussion.reportErrors(async () => {
      const client = await this.deps.context.services.accounts.client(this.target.account.id);
      const ownAwardId = own.awards.find((award) => award.name === name)?.ownAwardId;
      await setOwnAward(client, awardable, name, add, ownAwardId);
    });
    await this.refresh();
  }

  // ---- the diff editor ----------------------------------------------------------------------------

  /** The file side by side in VS Code's diff editor, with its review threads (the review feature). */
  private async openDiff(index: number): Promise<void> {
    const change = this.changes[index];
    if (!change) throw new Error(vscode.l10n.t('That file is not in this merge request any more: refresh.'));
    const { review } = this.deps.context;
    if (!review) throw new Error(vscode.l10n.t('Reviews are not available in this window.'));
    await review.openChangedFile(this.reviewTarget(), change);
  }

  /** An issue it closes (`openIssue`), or `#12`/`!3` in its text (`openReference`), in its panel. */
  private async openReference(kind: ReferenceKind, iid: number): Promise<void> {
    const where = { accountId: this.target.account.id, project: this.target.project.id, iid };
    if (kind === 'mergeRequest') await this.deps.openMergeRequest(where);
    else await this.deps.context.openIssue?.(where);
  }

  dispose(): void {
    this.viewed.dispose();
    this.host.dispose();
  }
}

function idOf(noteId: number | undefined): { noteId?: number } {
  return noteId === undefined ? {} : { noteId };
}
