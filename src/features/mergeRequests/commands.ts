import { CANCELLED } from './mergeRequestTargets';
import * as vscode from 'vscode';
import type { ClosesIssue, Issue, MergeRequest, Project } from '../../api/hosting';
import { defaultMergeCommitMessage } from '../../domain/mergeRequestStatus';
import { type MergeOptions, type MergeResult, describeMergeResult, mergeRefusal, sendMerge } from './actions';
import type { MergeRequestChange } from './changes';
import type { Services } from '../../services';
import { NoteDrafts } from '../../state/noteDrafts';
import { CurrentUsers } from '../../state/currentUsers';
import { MergeRequestsTreeProvider } from './mergeRequestsTreeProvider';
import type { MergeRequestPanel } from './panel/mergeRequestPanel';
import { openNamedMergeRequest, registerMergeRequestPanel } from './panel/registerPanel';
import type { PanelRegistry } from '../../webviews/shared/panelHost';
import type { TreeNode } from '../../platform/tree/treeNode';
import { FOLDER_ORDER } from '../projects';
import { MergeRequestsFolder } from './nodes/mergeRequestNodes';
import { registerStateFilterCommand } from './stateFilterCommand';
import { awardEmojiCommands } from './awardEmojiCommands';
import {
  type MergeRequestCommandContext,
  afterMergeRequestChange,
  applyMergeRequestChange,
  openLink,
  pickMergeRequest,
  projectPath,
} from './mergeRequestTargets';
import { noteCommands } from './noteCommands';
import {
  ConfirmOptionsSchema,
  CreateMergeRequestOptionsSchema,
  EditMergeRequestOptionsSchema,
  MergeOptionsSchema,
  MergeRequestArgumentSchema,
  ProjectArgumentSchema,
  ShowClosedIssuesOptionsSchema,
  type MergeRequestArgument,
} from './commandArguments';
import { type CommandDeclaration, defineCommand } from '../../platform/commands/defineCommand';
import { registerCommands } from '../../platform/commands/registerCommand';
import {
  askText,
  pickMany,
  pickOne,
  showError,
  showInformation,
  showWarning,
  withProgress,
} from '../../platform/userMessages';
import { createMergeRequest } from './createMergeRequest';
import { editMergeRequest } from './editMergeRequest';
import { checkoutMergeRequest } from './checkoutMergeRequest';
import { changesCommand } from './changesCommand';

/*
 * Every command here takes the tree node it ran on first (a merge request of the Projects or the
 * Merge Requests view, or a project for `create`), or nothing from the command palette, where it
 * asks. A second argument, an options object, is for tests and automation: with it nothing is
 * asked, confirmations are taken as given (`confirmed`) and missing values take their defaults.
 * Handlers return a small result object (`executeCommand` hands it back) saying what happened.
 */

export interface MergeRequestsFeature {
  readonly provider: MergeRequestsTreeProvider;
  readonly view: vscode.TreeView<TreeNode>;
  readonly panels: PanelRegistry<MergeRequestPanel>;
  /** "Create Merge Request", asking every question (for the status bar). */
  createMergeRequest(): Promise<unknown>;
  /** The panel of a merge request named by project and iid (links from issues). */
  openPanel(where: { accountId: string; project: number; iid: number }): Promise<unknown>;
}

/** Merge request actions, notes and award emoji; the Merge Requests view and the panel. */
export function registerMergeRequestCommands(
  services: Services,
  peers: Pick<MergeRequestCommandContext, 'review' | 'showJobTrace' | 'openIssue'> = {},
): MergeRequestsFeature {
  const { review, showJobTrace, openIssue } = peers;
  const currentUsers = new CurrentUsers((accountId) => services.accounts.client(accountId));
  const view = new MergeRequestsTreeProvider(services.accounts, currentUsers, review);
  const treeView = services.shell.treeView('forge.mergeRequests', view);
  services.context.subscriptions.push(view, treeView);
  services.projects.contributeFolder(
    (owner, folderContext) => new MergeRequestsFolder(owner, folderContext, review),
    FOLDER_ORDER.mergeRequests,
  );
  registerStateFilterCommand(services.context, services.log);

  const context: MergeRequestCommandContext = {
    services,
    view,
    currentUsers,
    drafts: new NoteDrafts(services.context.globalState),
    ...(review ? { review } : {}),
    ...(showJobTrace ? { showJobTrace } : {}),
    ...(openIssue ? { openIssue } : {}),
  };
  registerCommands(services.context, services.log, [
    ...mergeRequestCommands(context),
    changesCommand(context),
    ...noteCommands(context),
    ...awardEmojiCommands(context),
  ]);
  const panels = registerMergeRequestPanel(context);
  services.context.subscriptions.push(
    // Any action on a merge request, ours or the review's (a comment, an applied suggestion).
    services.onDidAct((changed) => {
      if (changed?.folder === 'mergeRequests') view.refresh();
    }),
  );
  return {
    provider: view,
    view: treeView,
    panels,
    createMergeRequest: () => createMergeRequest(context, undefined, undefined),
    openPanel: (where) => openNamedMergeRequest(context, panels, where),
  };
}

/** What a change command answers when the user cancelled the pick. */
const UNCHANGED = { changed: false, ...CANCELLED };

/** Every `forge.mergeRequest.*` command but notes, award emoji and the panel. */
function mergeRequestCommands(context: MergeRequestCommandContext): CommandDeclaration[] {
  const { services, view } = context;
  const { log } = services;

  /** A one-click change from a row or the palette; the panel's header runs the same change. */
  const change = (
    kind: MergeRequestChange,
    placeHolder: string,
    cancelled: Record<string, unknown>,
  ): CommandDeclaration =>
    defineCommand({
      id: `forge.mergeRequest.${kind}`,
      args: [MergeRequestArgumentSchema],
      run: async (arg): Promise<Record<string, unknown>> => {
        const target = await pickMergeRequest(services, arg, placeHolder);
        if (!target) return cancelled;
        return (await applyMergeRequestChange(context, target, kind)).result;
      },
    });

  return [
    defineCommand({ id: 'forge.mergeRequests.refresh', args: [], run: () => view.refresh() }),
    defineCommand({
      id: 'forge.mergeRequest.create',
      args: [ProjectArgumentSchema, CreateMergeRequestOptionsSchema.optional()],
      run: (arg, options) => createMergeRequest(context, arg, options),
    }),
    defineCommand({
      id: 'forge.mergeRequest.edit',
      args: [MergeRequestArgumentSchema, EditMergeRequestOptionsSchema.optional()],
      run: (arg, options) => editMergeRequest(context, arg, options),
    }),
    change('close', vscode.l10n.t('Close which merge request?'), CANCELLED),
    change('reopen', vscode.l10n.t('Reopen which merge request?'), CANCELLED),
    change(
      'cancelMergeWhenPipelineSucceeds',
      vscode.l10n.t('Stop which merge request from merging automatically?'),
      {
        cancelled: false,
        ...CANCELLED,
      },
    ),
    change('subscribe', vscode.l10n.t('Subscribe to which merge request?'), UNCHANGED),
    change('unsubscribe', vscode.l10n.t('Unsubscribe from which merge request?'), UNCHANGED),
    change('addTodo', vscode.l10n.t('Add which merge request to your todos?'), UNCHANGED),
    defineCommand({
      id: 'forge.mergeRequest.delete',
      args: [MergeRequestArgumentSchema, ConfirmOptionsSchema.optional()],
      run: (arg, given) => deleteMergeRequest(context, arg, given?.confirmed === true),
    }),
    defineCommand({
      id: 'forge.mergeRequest.merge',
      args: [MergeRequestArgumentSchema, MergeOptionsSchema.optional()],
      run: (arg, options) => mergeMergeRequest(context, arg, options),
    }),
    defineCommand({
      id: 'forge.mergeRequest.showClosedIssues',
      args: [MergeRequestArgumentSchema, ShowClosedIssuesOptionsSchema.optional()],
      run: (arg, options) => showClosedIssues(context, arg, options !== undefined),
    }),
    defineCommand({
      id: 'forge.mergeRequest.checkout',
      args: [MergeRequestArgumentSchema],
      run: (arg) => checkoutMergeRequest(context, arg),
    }),
    defineCommand({
      id: 'forge.mergeRequest.openInBrowser',
      args: [MergeRequestArgumentSchema],
      run: async (arg) => {
        const target = await pickMergeRequest(services, arg, vscode.l10n.t('Open which merge request?'));
        if (!target) return { url: undefined };
        const url = target.mergeRequest.web_url;
        return { url, opened: openLink(url, log) };
      },
    }),
    defineCommand({
      id: 'forge.mergeRequest.copyUrl',
      args: [MergeRequestArgumentSchema],
      run: (arg) => copyMergeRequestUrl(context, arg),
    }),
  ];
}

async function deleteMergeRequest(
  context: MergeRequestCommandContext,
  arg: MergeRequestArgument,
  confirmed: boolean,
) {
  const target = await pickMergeRequest(context.services, arg, vscode.l10n.t('Delete which merge request?'));
  if (!target) return { deleted: false, ...CANCELLED };
  const { mergeRequest: mr } = target;
  if (!confirmed) {
    const answer = await showWarning(
      vscode.l10n.t('Delete merge request !{0} "{1}" of {2}?', mr.iid, mr.title, projectPath(target.project)),
      { modal: true, detail: vscode.l10n.t('Its comments and reactions go with it. This cannot be undone.') },
      vscode.l10n.t('Delete'),
    );
    if (answer !== vscode.l10n.t('Delete')) return { deleted: false, ...CANCELLED };
  }
  await (
    await context.services.accounts.client(target.account.id)
  ).deleteMergeRequest(target.project.id, mr.iid);
  afterMergeRequestChange(context, target);
  void showInformation(vscode.l10n.t('Deleted !{0} {1}', mr.iid, mr.title));
  return { deleted: true };
}

/** The issues merging closes: returned to automation, offered to open otherwise. */
async function showClosedIssues(
  context: MergeRequestCommandContext,
  arg: MergeRequestArgument,
  automated: boolean,
) {
  const target = await pickMergeRequest(
    context.services,
    arg,
    vscode.l10n.t('Show the issues closed by which merge request?'),
  );
  if (!target) return { issues: [] };
  const { mergeRequest: mr } = target;
  const page = await (
    await context.services.accounts.client(target.account.id)
  )
    .listMergeRequestClosesIssues(target.project.id, mr.iid)
    .page({ perPage: 100 });
  const issues = page.items.map((issue) =>
    isTrackedIssue(issue)
      ? { id: issue.id, iid: issue.iid, title: issue.title, state: issue.state, webUrl: issue.web_url }
      : { id: issue.id, iid: undefined, title: issue.title, state: undefined, webUrl: undefined },
  );
  if (automated) return { issues };
  if (issues.length === 0) {
    void showInformation(vscode.l10n.t('Merging !{0} closes no issues.', mr.iid));
    return { issues };
  }
  const picked = await pickOne(
    issues.map((issue) => ({
      label: `${issue.iid !== undefined ? `#${issue.iid}` : issue.id} ${issue.title}`,
      description: issue.state ?? '',
      issue,
    })),
    {
      title: vscode.l10n.t('Issues closed when !{0} is merged', mr.iid),
      placeHolder: vscode.l10n.t('Open an issue in the browser'),
    },
  );
  if (picked) openLink(picked.issue.webUrl, context.services.log);
  return { issues, opened: picked?.issue.webUrl };
}

async function copyMergeRequestUrl(context: MergeRequestCommandContext, arg: MergeRequestArgument) {
  const target = await pickMergeRequest(
    context.services,
    arg,
    vscode.l10n.t('Copy the link of which merge request?'),
  );
  if (!target) return { url: undefined };
  const url = target.mergeRequest.web_url;
  if (!url) {
    void showWarning(vscode.l10n.t('The server did not send a web link for this merge request.'));
    return { url: undefined };
  }
  await vscode.env.clipboard.writeText(url);
  void showInformation(vscode.l10n.t('Copied {0}', url));
  return { url };
}

/** An issue of the project (numeric id), not one of an external tracker. */
function isTrackedIssue(issue: ClosesIssue): issue is Issue {
  return typeof issue.id === 'number';
}

// ---- merge --------------------------------------------------------------------------------------

async function mergeMergeRequest(
  context: MergeRequestCommandContext,
  arg: unknown,
  options: MergeOptions | undefined,
): Promise<MergeResult> {
  const target = await pickMergeRequest(context.services, arg, vscode.l10n.t('Merge which merge request?'));
  if (!target) return { merged: false, ...CANCELLED };
  const { project } = target;
  const client = await context.services.accounts.client(target.account.id);
  const fresh = await client.getMergeRequest(project.id, target.mergeRequest.iid);
  // The head the person saw: the row they clicked, or (from the palette) what was just fetched.
  const seenSha =
    options?.sha ?? (target.node ? target.mergeRequest.sha : undefined) ?? fresh.sha ?? undefined;
  // Said before any question is asked, not after three of them.
  const refusal = mergeRefusal(fresh);
  if (refusal) {
    if (refusal.reason === 'not-open') void showInformation(refusal.message);
    else void showError(refusal.message);
    afterMergeRequestChange(context, target);
    return { merged: false, ...refusal };
  }
  const chosen = options ?? (await askMergeOptions(fresh, project, seenSha));
  if (!chosen) return { merged: false, ...CANCELLED };
  const result = await withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Merging !{0} into {1}…', fresh.iid, fresh.target_branch),
    },
    () => sendMerge(client, project.id, fresh, { ...chosen, squash: options?.squash, sha: seenSha }),
  );
  afterMergeRequestChange(context, target);
  const said = describeMergeResult(fresh, result);
  if (result.merged || 'scheduled' in result) void showInformation(said);
  else {
    context.services.log.warn(`Merge of !${fresh.iid} refused: ${said}`);
    void showError(said);
  }
  return result;
}

async function askMergeOptions(
  mr: MergeRequest,
  project: Project,
  seenSha: string | undefined,
): Promise<
  { removeSourceBranch: boolean; mergeWhenPipelineSucceeds: boolean; message: string | undefined } | undefined
> {
  const picks = await pickMany(
    [
      {
        label: vscode.l10n.t('Remove source branch'),
        description: mr.source_branch,
        picked: mr.force_remove_source_branch === true || mr.should_remove_source_branch === true,
        key: 'remove' as const,
      },
      {
        label: vscode.l10n.t('Merge when pipeline succeeds'),
        description: vscode.l10n.t('instead of now'),
        picked: false,
        key: 'mwps' as const,
      },
    ],
    {
      title: vscode.l10n.t('Merge !{0} {1}', mr.iid, mr.title),
      placeHolder: seenSha
        ? vscode.l10n.t(
            '{0} → {1} at {2}: options, then Enter',
            mr.source_branch,
            mr.target_branch,
            seenSha.slice(0, 8),
          )
        : vscode.l10n.t('{0} → {1}: options, then Enter', mr.source_branch, mr.target_branch),
      ignoreFocusOut: true,
    },
  );
  if (!picks) return undefined;
  const suggested = defaultMergeCommitMessage(mr, projectPath(project));
  const firstLine = suggested.split('\n')[0] ?? suggested;
  const typed = await askText({
    title: vscode.l10n.t('Merge !{0}: commit message', mr.iid),
    prompt: vscode.l10n.t('Merge commit message (leave as is for the server default)'),
    value: firstLine,
    ignoreFocusOut: true,
  });
  if (typed === undefined) return undefined;
  return {
    removeSourceBranch: picks.some((pick) => pick.key === 'remove'),
    mergeWhenPipelineSucceeds: picks.some((pick) => pick.key === 'mwps'),
    message: typed.trim() === '' || typed === firstLine ? undefined : typed,
  };
}
