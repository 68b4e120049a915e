import * as vscode from 'vscode';
import { registerCommands } from '../../platform/commands/registerCommand';
import type { TreeNode } from '../../platform/tree/treeNode';
import type { Services } from '../../services';
import { CurrentUsers } from '../../state/currentUsers';
import { NoteDrafts } from '../../state/noteDrafts';
import type { PanelRegistry } from '../../webviews/shared/panelHost';
import { FOLDER_ORDER } from '../projects';
import { type IssueCommandContext, editIssue, issueCommands, issueTarget } from './commands';
import { createIssuesFolder } from './issuesFolder';
import { IssuesTreeProvider, QUERIES_SETTING } from './issuesTreeProvider';
import type { IssuePanel } from './panel/issuePanel';
import { registerIssuePanels } from './panel/registerIssuePanel';

/*
 * Issues (issue 40): the Issues view (assigned to me, created by me, the user's queries), an Issues
 * folder under each project, the issue panel (description with tickable tasks, discussion, related
 * merge requests), creating and editing issues. This file is its only public face.
 */

export type { IssuesTreeProvider } from './issuesTreeProvider';
export type { IssuePanel } from './panel/issuePanel';
export type { IssueHostMessage, IssueSnapshot } from './panel/protocol';

export interface IssuesFeature {
  readonly provider: IssuesTreeProvider;
  readonly view: vscode.TreeView<TreeNode>;
  readonly panels: PanelRegistry<IssuePanel>;
  /** An issue's panel, named by project and iid (links from merge requests). */
  openPanel(where: { accountId: string; project: number; iid: number }): Promise<unknown>;
}

export function createIssuesFeature(
  services: Services,
  peers: { openMergeRequest(where: { accountId: string; project: number; iid: number }): Promise<unknown> },
): IssuesFeature {
  const { context, shell, log, accounts } = services;
  const provider = new IssuesTreeProvider(accounts);
  const view = shell.treeView('forge.issues', provider);
  context.subscriptions.push(provider, view);
  const currentUsers = new CurrentUsers((accountId) => accounts.client(accountId));
  context.subscriptions.push(accounts.onDidChange(() => currentUsers.clear()));
  services.projects.contributeFolder(createIssuesFolder, FOLDER_ORDER.issues);
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`forge.${QUERIES_SETTING}`)) provider.refresh();
    }),
  );
  /** After a change: the Issues view reads again, and the project's Issues folder where it shows. */
  const changed = (where?: { account: { id: string }; projectId: number }): void => {
    provider.refresh();
    if (where)
      services.projects.refreshProjectFolder({
        accountId: where.account.id,
        projectId: where.projectId,
        folder: 'issues',
      });
  };
  const panels = registerIssuePanels({
    services,
    currentUsers,
    drafts: new NoteDrafts(context.globalState),
    changed,
    openMergeRequest: (where) => peers.openMergeRequest(where),
    openIssue: async (where) => panels.open(await issueTarget(services, where)),
    edit: async (target) => {
      await editIssue(commandContext, target);
    },
  });
  const commandContext: IssueCommandContext = {
    services,
    currentUsers,
    changed,
    panels: panels.registry,
    open: (target) => panels.open(target),
  };
  registerCommands(context, log, issueCommands(commandContext));
  return {
    provider,
    view,
    panels: panels.registry,
    openPanel: async (where) => panels.open(await issueTarget(services, where)),
  };
}
