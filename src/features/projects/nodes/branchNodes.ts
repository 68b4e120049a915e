import * as vscode from 'vscode';
import type { z } from 'zod';
import type { ListRequest } from '../../../api/http';
import type { Branch, HostingClient } from '../../../api/hosting';
import { describeProtection, isDefaultBranch } from '../../../domain/branchActions';
import type { TreeNode } from '../../../platform/tree/treeNode';
import { type FolderMember, ProjectFolder } from '../projectFolder';
import type { ProjectNode } from './projectNode';

export class BranchesFolder extends ProjectFolder<Branch> {
  readonly menuName = vscode.l10n.t('Branches');
  readonly label = vscode.l10n.t('Branches');
  override readonly kind = 'branches';
  readonly icon = 'git-branch';
  readonly emptyMessage = vscode.l10n.t('No branches');

  protected override request(client: HostingClient, projectId: number): ListRequest<z.ZodType<Branch>> {
    return client.listBranches(projectId);
  }

  protected toNodes(items: readonly Branch[]): TreeNode[] {
    return items.map((branch) => new BranchNode(this.owner, branch));
  }
}

export class BranchNode implements FolderMember {
  readonly folderKind = 'branches';

  constructor(
    readonly owner: ProjectNode,
    readonly branch: Branch,
  ) {}

  getTreeItem(): vscode.TreeItem {
    const { branch } = this;
    const item = new vscode.TreeItem(branch.name);
    item.id = `account/${this.owner.account.id}/project/${this.owner.project.id}/branch/${branch.name}`;
    const flags = [
      branch.name === this.owner.project.default_branch ? 'default' : undefined,
      branch.protected ? 'protected' : undefined,
      branch.merged ? 'merged' : undefined,
    ].filter(Boolean);
    item.description = [flags.join(', '), branch.commit?.title].filter(Boolean).join(' · ');
    item.tooltip = [
      branch.name,
      `${branch.commit?.short_id ?? ''} ${branch.commit?.title ?? ''}`,
      branch.protected ? vscode.l10n.t('Protected: {0}', describeProtection(branch)) : undefined,
    ]
      .filter(Boolean)
      .join('\n');
    item.iconPath = new vscode.ThemeIcon(branch.protected ? 'lock' : 'git-branch');
    const isDefault = isDefaultBranch(branch, this.owner.project.default_branch);
    item.contextValue = [
      'branch',
      branch.protected ? 'protected' : 'unprotected',
      branch.merged ? 'merged' : '',
      // The server refuses to delete the default branch (405): no delete item there.
      isDefault ? 'default' : 'deletable',
    ]
      .filter(Boolean)
      .join(' ');
    return item;
  }
}
