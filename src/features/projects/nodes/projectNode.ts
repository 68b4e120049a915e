import * as vscode from 'vscode';
import { tooltipMarkdown } from '../../../platform/serverMarkdown';
import type { Project } from '../../../api/hosting';
import { projectCapabilities } from '../../../domain/projectActions';
import type { AccountInfo } from '../../../platform/accounts';
import type { TreeNode } from '../../../platform/tree/treeNode';
import { type ContributedFolder, FOLDER_ORDER, type FolderKind, type TreeContext } from '../projectFolder';
import { BranchesFolder } from './branchNodes';
import { EventsFolder } from './eventNodes';

export function projectTitle(project: Project): string {
  return (
    project.name ?? project.path_with_namespace ?? project.path ?? vscode.l10n.t('Project {0}', project.id)
  );
}

export class ProjectNode implements TreeNode {
  readonly branches: BranchesFolder;
  readonly events: EventsFolder;
  /** Every folder under this project in the order shown: its own and those features add. */
  readonly folders: readonly ContributedFolder[];

  constructor(
    readonly account: AccountInfo,
    public project: Project,
    context: TreeContext,
  ) {
    this.branches = new BranchesFolder(this, context);
    this.events = new EventsFolder(this, context);
    const own = [
      { order: FOLDER_ORDER.branches, folder: this.branches },
      { order: FOLDER_ORDER.events, folder: this.events },
    ];
    const added = context.contributedFolders.map(({ order, create }) => ({
      order,
      folder: create(this, context),
    }));
    this.folders = [...own, ...added].sort((a, b) => a.order - b.order).map(({ folder }) => folder);
  }

  /** This project's folder of a class a feature contributed. */
  contributedFolder<T>(folderClass: abstract new (...args: never[]) => T): T | undefined {
    return this.folders.find((folder): folder is ContributedFolder & T => folder instanceof folderClass);
  }

  /** The folder an action names (`ChangedFolder.folder`). */
  folderOfKind(kind: FolderKind): ContributedFolder | undefined {
    return this.folders.find((folder) => folder.kind === kind);
  }

  getTreeItem(): vscode.TreeItem {
    const { project } = this;
    const item = new vscode.TreeItem(projectTitle(project), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `account/${this.account.id}/project/${project.id}`;
    item.description = project.path_with_namespace ?? '';
    const tooltip = tooltipMarkdown();
    tooltip
      .appendMarkdown('**')
      .appendText(project.name_with_namespace ?? projectTitle(project))
      .appendMarkdown('**');
    if (project.description) tooltip.appendMarkdown('\n\n').appendText(project.description);
    tooltip
      .appendMarkdown('\n\n')
      .appendText(
        [project.visibility, project.archived ? 'archived' : undefined, `★ ${project.star_count ?? 0}`]
          .filter(Boolean)
          .join(' · '),
      );
    item.tooltip = tooltip;
    item.iconPath = new vscode.ThemeIcon(
      project.archived ? 'archive' : project.visibility === 'private' ? 'lock' : 'repo',
    );
    item.contextValue = [
      'project',
      project.archived ? 'archived' : 'active',
      ...projectCapabilities(project, this.account.isAdmin),
    ].join(' ');
    return item;
  }

  getChildren(): Promise<TreeNode[]> {
    return Promise.resolve(this.folders.filter((folder) => folder.shown));
  }
}
