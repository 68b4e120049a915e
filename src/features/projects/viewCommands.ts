import * as vscode from 'vscode';
import type { AccountManager } from '../../platform/accounts';
import { type ProjectFilter, type ProjectFilterStore } from './projectFilter';
import type { JobScope } from '../../api/hosting';
import { checkRefName, problemOf } from '../../domain/inputValidation';
import {
  AccountNode,
  JobsFolder,
  type MergeRequestStateFilter,
  MergeRequestsFolder,
  type ProjectsTreeProvider,
} from './projectsTreeProvider';
import { ErrorNode, LoadMoreNode, type TreeNode } from '../../platform/tree/treeNode';
import { pickAccount } from '../../platform/accountPicker';
import { registerCommand } from '../../platform/commands/registerCommand';
import { type PickItem, askText, pickOne, withProgress } from '../../platform/userMessages';

export function registerViewCommands(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  services: {
    accounts: AccountManager;
    projects: ProjectsTreeProvider;
    filters: ProjectFilterStore;
  },
): void {
  const { accounts, projects, filters } = services;

  registerCommand(context, log, 'forge.tree.loadMore', (node: LoadMoreNode) => {
    if (node instanceof LoadMoreNode) node.load();
  });

  registerCommand(context, log, 'forge.tree.retry', (node: ErrorNode) => {
    if (node instanceof ErrorNode) node.retry();
  });

  registerCommand(context, log, 'forge.projects.refresh', (node?: TreeNode) =>
    withProgress({ location: { viewId: 'forge.projects' } }, async () => {
      projects.refresh(node);
      // Loading through the provider shares the request the tree itself makes.
      const children = await projects.getChildren(node);
      if (!node) {
        const accountNodes = children.filter((child) => child instanceof AccountNode);
        await Promise.all(accountNodes.map((child) => projects.getChildren(child)));
      }
    }),
  );

  // `preset` is for tests and automation: the filter to apply without asking.
  registerCommand(context, log, 'forge.projects.filter', async (given?: unknown, preset?: ProjectFilter) => {
    const account = await pickAccount(accounts, 'Filter the projects of which account?', () => true, given);
    if (!account) return;
    if (preset) {
      await filters.set(account.id, preset);
      projects.refresh();
      return;
    }
    const current = filters.get(account.id);
    const choice = await pickOne(
      [
        { label: 'My projects', description: 'projects I am a member of', scope: 'membership' as const },
        { label: 'Starred', scope: 'starred' as const },
        { label: 'Owned by me', scope: 'owned' as const },
        { label: 'All visible projects', scope: 'all' as const },
        {
          label: 'Search…',
          description: current.search ? `now: "${current.search}"` : undefined,
          scope: 'search' as const,
        },
      ],
      { title: `Projects of ${account.label}`, placeHolder: 'Which projects to list' },
    );
    if (!choice) return;
    let filter: ProjectFilter;
    if (choice.scope === 'search') {
      const search = await askText({
        prompt: 'Show projects whose name or path contains',
        value: current.search ?? '',
      });
      if (search === undefined) return;
      filter = { scope: current.scope, search: search.trim() || undefined };
    } else {
      filter = { scope: choice.scope };
    }
    await filters.set(account.id, filter);
    projects.refresh();
  });

  // `options.state` is for tests and automation.
  registerCommand(
    context,
    log,
    'forge.mergeRequests.selectState',
    async (folder: MergeRequestsFolder, options?: { state?: MergeRequestStateFilter }) => {
      if (!(folder instanceof MergeRequestsFolder)) return;
      if (options?.state) {
        folder.setState(options.state);
        return;
      }
      const states: MergeRequestStateFilter[] = ['opened', 'merged', 'closed', 'all'];
      const choice = await pickOne(
        states.map((state) => ({ label: state, picked: state === folder.state })),
        { placeHolder: 'Show merge requests that are…' },
      );
      if (choice) folder.setState(choice.label);
    },
  );

  // `options` is for tests and automation: the states (none: all) and the branch (none: every branch).
  registerCommand(context, log, 'forge.jobs.filter', filterJobs);
}

/** The Jobs folder's filter: jobs in some states (asked of the server), or of one branch. */
async function filterJobs(folder: JobsFolder, options?: { scope?: JobScope[]; ref?: string }): Promise<void> {
  if (!(folder instanceof JobsFolder)) return;
  if (options) {
    folder.setFilter({ scope: options.scope, ref: options.ref || undefined });
    return;
  }
  const current = folder.filter;
  type Choice = PickItem & { scope?: JobScope[]; branch?: true };
  const choices: Choice[] = [
    { label: 'All jobs', icon: 'list-flat', scope: [] },
    { label: 'Running and pending', icon: 'sync', scope: ['running', 'pending'] },
    { label: 'Failed', icon: 'error', scope: ['failed'] },
    { label: 'Passed', icon: 'pass', scope: ['success'] },
    { label: 'Canceled', icon: 'circle-slash', scope: ['canceled'] },
    { label: 'Created', icon: 'circle-outline', scope: ['created'] },
    { label: 'Skipped', icon: 'debug-step-over', scope: ['skipped'] },
    {
      label: current.ref ? `On branch ${current.ref}… (change)` : 'On one branch…',
      description: 'with the state chosen before',
      icon: 'git-branch',
      branch: true,
    },
  ];
  const choice = await pickOne(choices, {
    placeHolder: 'Show which jobs?',
    title: `Jobs of ${folder.owner.project.path_with_namespace ?? ''}`,
  });
  if (!choice) return;
  if (choice.branch) {
    const ref = await askText({
      prompt: 'Show the jobs of this branch or tag (empty: every branch)',
      value: current.ref ?? '',
      validateInput: (value) => (value.trim() === '' ? undefined : problemOf(checkRefName(value.trim()))),
    });
    if (ref === undefined) return;
    folder.setFilter({ scope: current.scope, ref: ref.trim() || undefined });
    return;
  }
  folder.setFilter({ scope: choice.scope, ref: current.ref });
}
