import type * as vscode from 'vscode';
import type { AccountManager } from '../../platform/accounts';
import type { Services } from '../../services';
import type { Shell } from '../../shell';
import type { TreeNode } from '../../platform/tree/treeNode';
import { registerBranchCommands } from './branchCommands';
import { registerProjectCommands } from './commands';
import { ProjectFilterStore } from './projectFilter';
import { ProjectsTreeProvider } from './projectsTreeProvider';
import { registerViewCommands } from './viewCommands';

/*
 * Projects: the Projects view (accounts when there are several, their projects, and each
 * project's folders: branches, jobs, merge requests, events, and the folders other features
 * contribute), the project, branch and view commands, and the project picker other features ask
 * with. This file is its only public face.
 */

export { ProjectsTreeProvider } from './projectsTreeProvider';
export { AccountNode } from './nodes/accountNode';
export { ProjectNode } from './nodes/projectNode';
export { BranchNode } from './nodes/branchNodes';
export {
  FOLDER_ORDER,
  type FolderKind,
  type FolderMember,
  ProjectFolder,
  type TreeContext,
  listLoader,
} from './projectFolder';
export {
  type AccountArgument,
  AccountArgumentSchema,
  type ProjectTarget,
  accountTarget,
  projectTarget,
} from './projectTarget';
export { type ProjectFilter, ProjectFilterStore } from './projectFilter';
export { type FolderProject, localRepository, projectOfRepository } from './folderProject';

export interface ProjectsView {
  provider: ProjectsTreeProvider;
  view: vscode.TreeView<TreeNode>;
  filters: ProjectFilterStore;
}

/** The Projects view, built first: every other feature hangs its nodes and folders under it. */
export function createProjectsView(
  context: vscode.ExtensionContext,
  shell: Shell,
  accounts: AccountManager,
): ProjectsView {
  const filters = new ProjectFilterStore(context.globalState);
  const provider = new ProjectsTreeProvider(accounts, filters);
  const view = shell.treeView('forge.projects', provider);
  context.subscriptions.push(provider, view);
  return { provider, view, filters };
}

/** The commands of the Projects view, its projects and their branches. */
export function registerProjectsCommands(services: Services): void {
  registerViewCommands(services.context, services.log, {
    accounts: services.accounts,
    projects: services.projects,
    filters: services.projectFilters,
  });
  registerBranchCommands(services);
  registerProjectCommands(services);
}
