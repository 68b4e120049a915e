import * as vscode from 'vscode';
import * as z from 'zod';
import { defineCommand } from '../../../platform/commands/defineCommand';
import { MergeRequestArgumentSchema } from '../commandArguments';
import type {
  AwardEmoji,
  HostingClient,
  MergeRequest,
  MergeRequestDiff,
  Note,
  Project,
} from '../../../api/hosting';
import { HttpError } from '../../../api/http';
import { type MergeResult, describeMergeResult, mergeRefusal, sendMerge } from '../actions';
import {
  type MergeRequestCommandContext,
  type MergeRequestTarget,
  afterMergeRequestChange,
  applyMergeRequestChange,
  openLink,
  mergeRequestRef,
  pickMergeRequest,
  projectPath,
} from '../mergeRequestTargets';
import { describeError, registerCommands, valueOrThrow } from '../../../platform/commands/registerCommand';
import { isSafeBranchName } from '../../../domain/gitRemote';
import { defaultMergeCommitMessage, describeMergeStatus, isDraft } from '../../../domain/mergeRequestStatus';
import {
  type Viewer,
  canChangeNote,
  diffRefs,
  diffStats,
  displayPath,
  fileBadge,
  headerActions,
  isCommitSha,
  mergeRequestPanelKey,
  summarizeAwards,
  unifiedDiff,
} from '../../../domain/mergeRequestView';
import { type LocalClone, findLocalClone, runGit } from '../../../platform/localGit';
import { mapWithConcurrency } from '../../../state/boundedConcurrency';
import { NoteDrafts } from '../../../state/noteDrafts';
import { registerPanelRestorer, restoredProject } from '../../../webviews/shared/panelRestore';
import { PanelHost, PanelRegistry, type OpenPanel } from '../../../webviews/shared/panelHost';
import {
  type CommitView,
  type FileView,
  type HeaderAction,
  type MergeRequestHostMessage,
  type MergeRequestPageMessage,
  MergeRequestPageMessageSchema,
  type MergeRequestSnapshot,
  type NoteView,
  type PanelMergeOptions,
  type PersonView,
} from './protocol';
import { checkProjectPath } from '../../../domain/inputValidation';
import { showError, withProgress } from '../../../platform/userMessages';

/*
 * The merge request panel (host side): one webview per merge request, keyed `account|project|iid`.
 * It loads the merge request, its changes, commits, notes and award emoji into one snapshot and sends
 * it whenever the page asks (`ready`, each time the page loads). The header buttons run the same
 * commands as the tree menus (with a `MergeRequestRef` as their first argument), so the messages,
 * confirmations and results are the same; the panel refreshes after each action.
 */

/** How many commits and notes a panel loads at most. */
const MAX_COMMITS = 500;
const MAX_NOTES = 1000;
/** Notes whose award emoji are loaded (one request each, a few at a time). */
const MAX_NOTES_WITH_AWARDS = 100;

/** What the palette path of `forge.mergeRequest.openPanel` accepts (tests and automation). */
/** The merge request named outright (tests, automation), instead of a row or a question. */
const OpenPanelOptionsSchema = z.strictObject({
  /** Default: the only account, or the first. */
  accountId: z.string().optional(),
  /** Project id or path. */
  project: z.union([z.number().int().positive(), z.string()]),
  iid: z.number().int().positive(),
});
type OpenPanelOptions = z.output<typeof OpenPanelOptionsSchema>;

// ---- git show content -----------------------------------------------------------------------------

export const GIT_SHOW_SCHEME = 'forge-mr-git';

/**
 * Serves `git show <sha>:<path>` from a local clone, for the diff editor's two sides. Only clones the
 * panel resolved are served; a side without a sha (the base of an added file) is empty.
 */
export class GitShowContentProvider implements vscode.TextDocumentContentProvider {
  private readonly roots = new Set<string>();

  allow(root: string): void {
    this.roots.add(root);
  }

  uri(root: string, sha: string | undefined, path: string, side: 'base' | 'head'): vscode.Uri {
    const query = new URLSearchParams({ root, sha: sha ?? '', side }).toString();
    return vscode.Uri.from({ scheme: GIT_SHOW_SCHEME, path: `/${path}`, query });
  }

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const query = new URLSearchParams(uri.query);
    const root = query.get('root') ?? '';
    const sha = query.get('sha') ?? '';
    if (sha === '') return '';
    if (!this.roots.has(root)) throw new Error(`${root} is not a clone the merge request panel opened.`);
    if (!isCommitSha(sha)) throw new Error('The diff side does not name a commit.');
    const controller = new AbortController();
    const subscription = token.onCancellationRequested(() => controller.abort());
    try {
      return await runGit(root, ['show', `${sha}:${uri.path.replace(/^\/+/, '')}`], controller.signal);
    } finally {
      subscription.dispose();
    }
  }
}

// ---- the panel ------------------------------------------------------------------------------------

interface PanelDependencies {
  context: MergeRequestCommandContext;
  gitShow: GitShowContentProvider;
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
  private clone: LocalClone | undefined;
  private loading: Promise<void> | undefined;
  /** Draft saves run one after the other, and a post waits for them. */
  private draftWrites: Promise<void> = Promise.resolve();

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
      title: this.title(),
      extensionUri: services.context.extensionUri,
      log: services.log,
      schema: MergeRequestPageMessageSchema,
      restoreKey: {
        accountId: target.account.id,
        projectId: target.project.id,
        id: target.mergeRequest.iid,
      },
      restoredPanel,
    });
    this.host.onReady(() => {
      if (this.snapshot) {
        this.host.post({ type: 'snapshot', snapshot: this.withDraft(this.snapshot) });
        return;
      }
      // The merge request the user picked is drawn at once; the rest follows.
      this.host.post({ type: 'snapshot', snapshot: this.preliminarySnapshot() });
      void this.refresh();
    });
    this.host.handleMessages((message) => this.handle(message));
  }

  get mergeRequest(): MergeRequest {
    return this.target.mergeRequest;
  }

  private title(): string {
    const { mergeRequest: mr } = this.target;
    const title = mr.title.length > 40 ? `${mr.title.slice(0, 39)}…` : mr.title;
    return `!${mr.iid} ${title}`;
  }

  private get draftKey(): string {
    return NoteDrafts.keyFor(this.target.account.id, {
      kind: 'mergeRequest',
      project: this.target.project.id,
      id: this.target.mergeRequest.iid,
    });
  }

  private withDraft(snapshot: MergeRequestSnapshot): MergeRequestSnapshot {
    return { ...snapshot, draft: this.deps.context.drafts.get(this.draftKey)?.body ?? '' };
  }

  /** Loads everything again and sends the page a new snapshot; concurrent calls share one load. */
  refresh(): Promise<void> {
    if (!this.loading) {
      this.host.post({ type: 'loading', loading: true });
      this.loading = this.load()
        .then((snapshot) => {
          this.snapshot = snapshot;
          this.loads++;
          this.host.title = this.title();
          this.host.post({ type: 'snapshot', snapshot });
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

  /** The header, Overview and actions of a merge request: all a first paint needs. */
  private headerOf(mr: MergeRequest): Pick<MergeRequestSnapshot, 'mergeRequest' | 'actions'> {
    const { project } = this.target;
    const assignees = mr.assignees?.length ? mr.assignees : mr.assignee ? [mr.assignee] : [];
    return {
      mergeRequest: {
        iid: mr.iid,
        title: mr.title,
        description: mr.description ?? '',
        state: mr.state,
        draft: isDraft(mr),
        sourceBranch: mr.source_branch,
        targetBranch: mr.target_branch,
        author: personView(mr.author),
        assignees: assignees.map(personView),
        labels: mr.labels ?? [],
        ...(mr.milestone?.title ? { milestone: mr.milestone.title } : {}),
        mergeStatusText: describeMergeStatus(mr),
        mergeWhenPipelineSucceeds: mr.merge_when_pipeline_succeeds === true,
        ...(mr.subscribed !== undefined ? { subscribed: mr.subscribed } : {}),
        upvotes: mr.upvotes ?? 0,
        downvotes: mr.downvotes ?? 0,
        ...(mr.sha ? { sha: mr.sha } : {}),
        ...(mr.web_url ? { webUrl: mr.web_url } : {}),
        ...(mr.created_at ? { createdAt: mr.created_at } : {}),
        ...(mr.updated_at ? { updatedAt: mr.updated_at } : {}),
        defaultMergeMessage: defaultMergeCommitMessage(mr, projectPath(project)),
      },
      actions: headerActions({ ...mr, squash: (mr as { squash?: unknown }).squash === true }),
    };
  }

  /**
   * What the page can draw before anything is fetched: the merge request as it was picked (its
   * header and Overview). The full snapshot follows when the changes, commits and notes are in.
   */
  private preliminarySnapshot(): MergeRequestSnapshot {
    const { account, project, mergeRequest } = this.target;
    return {
      key: this.key,
      accountLabel: account.label,
      projectPath: projectPath(project),
      ...this.headerOf(mergeRequest),
      awards: [],
      files: [],
      commits: [],
      notes: [],
      draft: this.deps.context.drafts.get(this.draftKey)?.body ?? '',
      hasLocalClone: false,
      errors: [],
      loadedAt: new Date().toISOString(),
      partial: true,
    };
  }

  private async load(): Promise<MergeRequestSnapshot> {
    const { context } = this.deps;
    const { account, project } = this.target;
    const iid = this.target.mergeRequest.iid;
    const client = await context.services.accounts.client(account.id);
    const errors: string[] = [];
    const settle = async <T>(what: string, promise: Promise<T>, fallback: T): Promise<T> => {
      try {
        return await promise;
      } catch (error) {
        errors.push(`${what}: ${describeError(error)}`);
        return fallback;
      }
    };
    const [mergeRequest, changes, commits, notes, awards, username, clone] = await Promise.all([
      client.getMergeRequest(project.id, iid),
      settle('Changes', client.getMergeRequestChanges(project.id, iid), undefined),
      settle('Commits', firstItems(client.listMergeRequestCommits(project.id, iid), MAX_COMMITS), []),
      settle('Comments', firstItems(client.listNotes(this.noteParent), MAX_NOTES), []),
      settle(
        'Reactions',
        firstItems(client.listAwardEmoji({ kind: 'mergeRequest', project: project.id, iid }), MAX_NOTES),
        [],
      ),
      context.currentUsers.username(account.id),
      findLocalClone(project).catch(() => undefined),
    ]);
    this.target = { account, project, mergeRequest };
    this.changes = changes?.changes ?? [];
    this.notes = notes
      .filter((note): note is Note => typeof (note as Note).body === 'string')
      .sort((a, b) => (a.created_at ?? '').localeCompare(b.created_at ?? '') || a.id - b.id);
    this.clone = clone;
    const viewer: Viewer = { username, isAdmin: account.isAdmin };
    const noteAwards = await this.loadNoteAwards(client, errors);
    const mr = mergeRequest;
    return {
      key: this.key,
      accountLabel: account.label,
      projectPath: projectPath(project),
      ...this.headerOf(mr),
      awards: summarizeAwards(awards, viewer),
      files: this.changes.map(fileView),
      commits: commits.map((commit): CommitView => ({
        id: commit.id,
        shortId: commit.short_id,
        title: commit.title,
        authorName: commit.author_name ?? '',
        ...(commit.created_at ? { createdAt: commit.created_at } : {}),
      })),
      notes: this.notes.map((note): NoteView => ({
        id: note.id,
        body: note.body,
        ...(note.author ? { author: personView(note.author) } : {}),
        ...(note.created_at ? { createdAt: note.created_at } : {}),
        ...(note.updated_at ? { updatedAt: note.updated_at } : {}),
        system: note.system === true,
        own: note.system !== true && canChangeNote(note, viewer),
        awards: summarizeAwards(noteAwards.get(note.id) ?? [], viewer),
      })),
      draft: context.drafts.get(this.draftKey)?.body ?? '',
      hasLocalClone: clone !== undefined,
      ...(username ? { viewer: username } : {}),
      errors,
      loadedAt: new Date().toISOString(),
    };
  }

  private async loadNoteAwards(client: HostingClient, errors: string[]): Promise<Map<number, AwardEmoji[]>> {
    const { project, mergeRequest } = this.target;
    const comments = this.notes.filter((note) => note.system !== true).slice(-MAX_NOTES_WITH_AWARDS);
    const result = new Map<number, AwardEmoji[]>();
    let failed = false;
    await mapWithConcurrency(comments, 4, async (note) => {
      try {
        const awards = await firstItems(
          client.listAwardEmoji({
            kind: 'mergeRequestNote',
            project: project.id,
            iid: mergeRequest.iid,
            noteId: note.id,
          }),
          200,
        );
        result.set(note.id, awards);
      } catch (error) {
        if (!failed) errors.push(`Reactions on comments: ${describeError(error)}`);
        failed = true;
      }
    });
    return result;
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
        await this.refresh();
        return;
      case 'draftChanged': {
        const { body } = message;
        this.draftWrites = this.draftWrites
          .then(() => this.deps.context.drafts.save(this.draftKey, body))
          .catch((error: unknown) =>
            this.deps.context.services.log.warn(`Saving a draft: ${describeError(error)}`),
          );
        await this.draftWrites;
        return;
      }
      case 'postNote':
        await this.postNote(message.body);
        return;
      case 'editNote':
        await this.noteAction('edit', message.noteId, (client) =>
          client.updateNote(this.noteParent, message.noteId, message.body),
        );
        return;
      case 'deleteNote':
        await this.noteAction('delete', message.noteId, (client) =>
          client.deleteNote(this.noteParent, message.noteId),
        );
        return;
      case 'awardEmoji':
      case 'removeAwardEmoji':
        await this.award(message.type === 'awardEmoji', message.name, message.noteId);
        return;
      case 'merge':
        await this.merge(message.options);
        return;
      case 'action':
        await this.runAction(message.action);
        return;
      case 'openDiff':
        await this.reportErrors(() => this.openDiff(message.file));
        return;
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
    // Checking out keeps its command: the git questions and progress live there.
    if (action === 'checkout') {
      await vscode.commands.executeCommand('forge.mergeRequest.checkout', this.ref());
      return;
    }
    await this.reportErrors(async () => {
      const done = await applyMergeRequestChange(this.deps.context, this.target, action);
      this.host.post({ type: 'status', level: 'info', text: done.message });
    }, action);
    await this.refresh();
  }

  /** Merges with the page's options, through the same use case as the command; the page is told the outcome. */
  private async merge(options: PanelMergeOptions): Promise<void> {
    const { context } = this.deps;
    const { account, project } = this.target;
    const iid = this.target.mergeRequest.iid;
    let outcome: { ok: boolean; message: string };
    try {
      const client = await context.services.accounts.client(account.id);
      const fresh = await client.getMergeRequest(project.id, iid);
      const refusal = mergeRefusal(fresh);
      const result: MergeResult = refusal
        ? { merged: false, ...refusal }
        : await sendMerge(client, project.id, fresh, {
            ...options,
            message: options.message?.trim() ? options.message : undefined,
            sha: options.sha ?? fresh.sha ?? undefined,
          });
      outcome = { ok: result.merged || 'scheduled' in result, message: describeMergeResult(fresh, result) };
    } catch (error) {
      outcome = { ok: false, message: describeError(error) };
    }
    context.services.log[outcome.ok ? 'info' : 'warn'](`Merge request panel ${this.key}: ${outcome.message}`);
    this.host.post({ type: 'mergeResult', ...outcome });
    afterMergeRequestChange(context, { account, project });
    await this.refresh();
  }

  private async postNote(body: string): Promise<void> {
    await this.draftWrites;
    const result = await vscode.commands.executeCommand<
      { posted: boolean; noteId?: number; message?: string } | undefined
    >('forge.note.add', this.ref(), { body });
    if (result?.posted) {
      this.host.post({ type: 'noteResult', action: 'post', ok: true, ...idOf(result.noteId) });
      await this.refresh();
      return;
    }
    // The command kept the draft (or failed before sending): make sure the text is stored.
    if (this.deps.context.drafts.get(this.draftKey)?.body !== body) {
      await this.deps.context.drafts.save(this.draftKey, body);
    }
    this.host.post({
      type: 'noteResult',
      action: 'post',
      ok: false,
      message: result?.message ?? 'The comment was not posted; it was kept as a draft.',
    });
  }

  private async noteAction(
    action: 'edit' | 'delete',
    noteId: number,
    run: (client: HostingClient) => Promise<unknown>,
  ): Promise<void> {
    if (!this.notes.some((note) => note.id === noteId)) {
      this.host.post({
        type: 'noteResult',
        action,
        ok: false,
        noteId,
        message: 'That comment is not shown here.',
      });
      return;
    }
    try {
      await run(await this.deps.context.services.accounts.client(this.target.account.id));
      this.deps.context.view.refreshNotes(
        this.target.account.id,
        this.target.project.id,
        this.mergeRequest.iid,
      );
      this.host.post({ type: 'noteResult', action, ok: true, noteId });
    } catch (error) {
      const message = describeError(error);
      void showError(message);
      this.host.post({ type: 'noteResult', action, ok: false, noteId, message });
      return;
    }
    await this.refresh();
  }

  private async award(add: boolean, name: string, noteId: number | undefined): Promise<void> {
    if (noteId === undefined) {
      const result = await vscode.commands.executeCommand<unknown>(
        add ? 'forge.awardEmoji.add' : 'forge.awardEmoji.remove',
        this.ref(),
        { emoji: name },
      );
      if (result === undefined) this.host.post({ type: 'status', level: 'error', text: `:${name}: failed.` });
      await this.refresh();
      return;
    }
    const own = this.snapshot?.notes.find((note) => note.id === noteId);
    if (!own) {
      this.host.post({ type: 'status', level: 'error', text: 'That comment is not shown here.' });
      return;
    }
    const awardable = {
      kind: 'mergeRequestNote' as const,
      project: this.target.project.id,
      iid: this.mergeRequest.iid,
      noteId,
    };
    await this.reportErrors(async () => {
      const client = await this.deps.context.services.accounts.client(this.target.account.id);
      if (add) {
        try {
          await client.awardEmoji(awardable, name);
        } catch (error) {
          if (!(
            error instanceof HttpError && /already been taken/i.test(JSON.stringify(error.fieldErrors ?? {}))
          ))
            throw error;
        }
      } else {
        const awardId = own.awards.find((award) => award.name === name)?.ownAwardId;
        if (awardId === undefined) throw new Error(`You have not reacted with :${name}: on that comment.`);
        await client.deleteAwardEmoji(awardable, awardId);
      }
    });
    await this.refresh();
  }

  /** Runs `run`; a failure is logged (`what` names the action), shown, and said in the panel. */
  private async reportErrors(run: () => Promise<void>, what?: string): Promise<void> {
    try {
      await run();
    } catch (error) {
      if (error instanceof vscode.CancellationError) return;
      const text = describeError(error);
      this.deps.context.services.log.error(
        `Merge request panel ${this.key}: ${what ? `${what}: ` : ''}${text}`,
      );
      void showError(text);
      this.host.post({ type: 'status', level: 'error', text });
    }
  }

  // ---- the diff editor ----------------------------------------------------------------------------

  private async openDiff(index: number): Promise<void> {
    const change = this.changes[index];
    if (!change) throw new Error('That file is not in this merge request any more: refresh.');
    const clone = this.clone ?? (await findLocalClone(this.target.project));
    if (!clone) {
      throw new Error(
        `No folder in this workspace is a clone of ${projectPath(this.target.project)}: open one to compare files in the diff editor.`,
      );
    }
    this.clone = clone;
    const { base, head } = await this.resolveShas(clone);
    const { gitShow } = this.deps;
    gitShow.allow(clone.root);
    const left = gitShow.uri(clone.root, change.new_file ? undefined : base, change.old_path, 'base');
    const right = gitShow.uri(clone.root, change.deleted_file ? undefined : head, change.new_path, 'head');
    const name = displayPath(change).split('/').pop() ?? displayPath(change);
    await vscode.commands.executeCommand(
      'vscode.diff',
      left,
      right,
      `${name} (!${this.mergeRequest.iid} ${base.slice(0, 8)} ↔ ${head.slice(0, 8)})`,
      { preview: true },
    );
  }

  /**
   * The base and head commits in the local clone: the merge request's `diff_refs` when the server sent
   * them and the clone has both; otherwise the branches are fetched from the project's remote (with a
   * progress message saying so) and the base is where the head left the target branch.
   */
  private async resolveShas(clone: LocalClone): Promise<{ base: string; head: string }> {
    const mr = this.mergeRequest;
    const { root } = clone;
    const has = (sha: string | undefined): Promise<boolean> =>
      sha && isCommitSha(sha)
        ? runGit(root, ['cat-file', '-e', `${sha}^{commit}`]).then(
            () => true,
            () => false,
          )
        : Promise.resolve(false);
    const refs = diffRefs(mr);
    let head = refs?.headSha ?? mr.sha ?? undefined;
    let base = refs?.baseSha;
    if (head && base && (await has(head)) && (await has(base))) return { base, head };

    const remote = clone.remote.name;
    const fromFork = mr.source_project_id !== undefined && mr.source_project_id !== mr.project_id;
    const source = fromFork ? `refs/merge-requests/${mr.iid}/head` : mr.source_branch;
    if (!isSafeBranchName(remote) || !isSafeBranchName(mr.target_branch) || !isSafeBranchName(source)) {
      throw new Error(`The branches of !${mr.iid} cannot be fetched safely.`);
    }
    const fetched = await withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Fetching ${mr.source_branch} and ${mr.target_branch} of !${mr.iid} from ${remote} to compare the files…`,
      },
      async () => {
        const fetch = async (ref: string): Promise<string> => {
          await runGit(root, ['fetch', '--no-tags', remote, ref]);
          return (await runGit(root, ['rev-parse', 'FETCH_HEAD^{commit}'])).trim();
        };
        try {
          return { target: await fetch(mr.target_branch), source: await fetch(source) };
        } catch (error) {
          throw new Error(
            `Could not fetch !${mr.iid}'s branches from ${remote} in ${root} (${error instanceof Error ? error.message : String(error)}). The diff editor needs both versions locally.`,
            { cause: error },
          );
        }
      },
    );
    if (!(await has(head))) head = fetched.source;
    if (!head) throw new Error(`The head of !${mr.iid} is not known.`);
    if (!(await has(base))) {
      base = (await runGit(root, ['merge-base', fetched.target, head])).trim();
    }
    if (!base) throw new Error(`${mr.source_branch} and ${mr.target_branch} have no common commit.`);
    return { base, head };
  }

  dispose(): void {
    this.host.dispose();
  }
}

function idOf(noteId: number | undefined): { noteId?: number } {
  return noteId === undefined ? {} : { noteId };
}

function fileView(change: MergeRequestDiff): FileView {
  const stats = diffStats(change.diff);
  return {
    oldPath: change.old_path,
    newPath: change.new_path,
    path: displayPath(change),
    badge: fileBadge(change),
    diff: unifiedDiff(change),
    ...stats,
  };
}

/** The first `max` items of a list (all of them when fewer). */
async function firstItems<T>(list: AsyncIterable<T>, max: number): Promise<T[]> {
  const items: T[] = [];
  for await (const item of list) {
    items.push(item);
    if (items.length >= max) break;
  }
  return items;
}

function personView(user: { name: string; username: string }): PersonView {
  return { name: user.name, username: user.username };
}

// ---- registration ---------------------------------------------------------------------------------

/** `forge.mergeRequest.openPanel`, the panel registry and the diff editor's content provider. */
export function registerMergeRequestPanel(
  context: MergeRequestCommandContext,
): PanelRegistry<MergeRequestPanel> {
  const { services } = context;
  const registry = new PanelRegistry<MergeRequestPanel>();
  const gitShow = new GitShowContentProvider();
  services.context.subscriptions.push(
    registry,
    vscode.workspace.registerTextDocumentContentProvider(GIT_SHOW_SCHEME, gitShow),
  );

  registerCommands(services.context, services.log, [
    defineCommand({
      id: 'forge.mergeRequest.openPanel',
      args: [MergeRequestArgumentSchema, OpenPanelOptionsSchema.optional()],
      run: async (arg, options) => {
        const target = options
          ? await targetFromOptions(context, options)
          : await pickMergeRequest(services, arg, 'Open which merge request?', 'all');
        if (!target) return { opened: false, reason: 'cancelled' };
        const key = mergeRequestPanelKey(target.account.id, target.project.id, target.mergeRequest.iid);
        const { panel, created } = registry.openOrReveal(
          key,
          () => new MergeRequestPanel({ context, gitShow }, target),
        );
        return { opened: true, created, key: panel.key };
      },
    }),
  ]);
  services.context.subscriptions.push(
    registerPanelRestorer('forge.mergeRequest', async (restored, key) => {
      const { account, client, project } = await restoredProject(services.accounts, key);
      const mergeRequest = await client.getMergeRequest(project.id, key.id);
      const { created } = registry.openOrReveal(
        mergeRequestPanelKey(account.id, project.id, mergeRequest.iid),
        () => new MergeRequestPanel({ context, gitShow }, { account, project, mergeRequest }, restored),
      );
      if (!created) restored.dispose();
    }),
  );
  return registry;
}

async function targetFromOptions(
  context: MergeRequestCommandContext,
  options: OpenPanelOptions,
): Promise<MergeRequestTarget> {
  const { accounts } = context.services;
  const account = options.accountId ? accounts.get(options.accountId) : accounts.list()[0];
  if (!account)
    throw new Error(options.accountId ? `No account ${options.accountId}.` : 'Add an account first.');
  const client = await accounts.client(account.id);
  const project: Project = await client.getProject(
    typeof options.project === 'number' ? options.project : valueOrThrow(checkProjectPath(options.project)),
  );
  const mergeRequest = await client.getMergeRequest(project.id, options.iid);
  return { account, project, mergeRequest };
}
