import * as vscode from 'vscode';
import * as z from 'zod';
import type { AccountManager } from '../../platform/accounts';
import { type ProjectFilter, ProjectFilterSchema, type ProjectFilterStore } from './projectFilter';
import { AccountNode } from './nodes/accountNode';
import type { ProjectsTreeProvider } from './projectsTreeProvider';
import { ErrorNode, LoadMoreNode, type TreeNode, isTreeNode } from '../../platform/tree/treeNode';
import { type AccountArgument, AccountArgumentSchema, accountTarget } from './projectTarget';
import { defineCommand, rowOf } from '../../platform/commands/defineCommand';
import { registerCommands } from '../../platform/commands/registerCommand';
import { askText, pickOne, withCancellableProgress, withProgress } from '../../platform/userMessages';

export function registerViewCommands(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  services: {
    accounts: AccountManager;
    projects: ProjectsTreeProvider;
    filters: ProjectFilterStore;
  },
): void {
  const { projects } = services;

  const refresh = (node: TreeNode | undefined): Thenable<void> =>
    withProgress({ location: { viewId: 'forge.projects' } }, async () => {
      projects.refresh(node);
      // Loading through the provider shares the request the tree itself makes.
      const children = await projects.getChildren(node);
      if (!node) {
        const accountNodes = children.filter((child) => child instanceof AccountNode);
        await Promise.all(accountNodes.map((child) => projects.getChildren(child)));
      }
    });

  registerCommands(context, log, [
    defineCommand({
      id: 'forge.tree.loadMore',
      args: [rowOf(LoadMoreNode, vscode.l10n.t('a "Load more" row'))],
      run: (node) => node.load(),
    }),
    defineCommand({
      id: 'forge.tree.loadAll',
      args: [rowOf(LoadMoreNode, vscode.l10n.t('a "Load more" row'))],
      run: async (node) => {
        let count = 0;
        await withCancellableProgress(vscode.l10n.t('Loading all…'), (signal, progress) =>
          node.loadAll(signal, (loaded, total) => {
            count = loaded;
            progress.report({
              message:
                total === undefined
                  ? vscode.l10n.t('{0} loaded', loaded)
                  : vscode.l10n.t('{0} of {1}', loaded, total),
            });
          }),
        );
        return { loaded: count };
      },
    }),
    defineCommand({
      id: 'forge.tree.retry',
      args: [rowOf(ErrorNode, vscode.l10n.t('an error row'))],
      run: (node) => node.retry(),
    }),
    defineCommand({
      id: 'forge.projects.refresh',
      args: [
        z
          .custom<TreeNode>(isTreeNode, { error: vscode.l10n.t('expected a row of the Projects view') })
          .optional(),
      ],
      run: refresh,
    }),
    defineCommand({
      id: 'forge.projects.filter',
      // `preset` is for tests and automation: the filter to apply without asking.
      args: [AccountArgumentSchema, ProjectFilterSchema.optional()],
      run: (given, preset) => filterProjects(services, given, preset),
    }),
  ]);
}

/** `forge.projects.filter`: which projects an account's row lists. */
async function filterProjects(
  services: { accounts: AccountManager; projects: ProjectsTreeProvider; filters: ProjectFilterStore },
  given: AccountArgument,
  preset: ProjectFilter | undefined,
): Promise<void> {
  const { accounts, projects, filters } = services;
  const account = await accountTarget(
    accounts,
    given,
    vscode.l10n.t('Filter the projects of which account?'),
  );
  if (!account) return;
  if (preset) {
    await filters.set(account.id, preset);
    projects.refresh();
    return;
  }
  const current = filters.get(account.id);
  const choice = await pickOne(
    [
      {
        label: vscode.l10n.t('My projects'),
        description: vscode.l10n.t('projects I am a member of'),
        scope: 'membership' as const,
      },
      { label: vscode.l10n.t('Starred'), scope: 'starred' as const },
      { label: vscode.l10n.t('Owned by me'), scope: 'owned' as const },
      { label: vscode.l10n.t('All visible projects'), scope: 'all' as const },
      {
        label: vscode.l10n.t('Search…'),
        description: current.search ? vscode.l10n.t('now: "{0}"', current.search) : undefined,
        scope: 'search' as const,
      },
    ],
    {
      title: vscode.l10n.t('Projects of {0}', account.label),
      placeHolder: vscode.l10n.t('Which projects to list'),
    },
  );
  if (!choice) return;
  let filter: ProjectFilter;
  if (choice.scope === 'search') {
    const search = await askText({
      prompt: vscode.l10n.t('Show projects whose name or path contains'),
      value: current.search ?? '',
    });
    if (search === undefined) return;
    filter = { scope: current.scope, search: search.trim() || undefined };
  } else {
    filter = { scope: choice.scope };
  }
  await filters.set(account.id, filter);
  projects.refresh();
}
