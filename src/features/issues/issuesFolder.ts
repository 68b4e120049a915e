import * as vscode from 'vscode';
import type { z } from 'zod';
import type { HostingClient, Issue } from '../../api/hosting';
import type { ListRequest } from '../../api/http';
import type { TreeNode } from '../../platform/tree/treeNode';
import { ProjectFolder, type ProjectNode } from '../projects';
import { IssueNode } from './issueNodes';

type FolderContext = ConstructorParameters<typeof ProjectFolder>[1];

/** A project's opened issues, most recently updated first. */
export class IssuesFolder extends ProjectFolder<Issue> {
  readonly menuName = vscode.l10n.t('Issues');
  override readonly kind = 'issues' as const;
  readonly label = vscode.l10n.t('Issues');
  readonly icon = 'issues';
  readonly emptyMessage = vscode.l10n.t('No opened issues');

  /** No folder when the project has issues turned off. */
  override get shown(): boolean {
    return this.owner.project.issues_enabled !== false;
  }

  protected override request(client: HostingClient, projectId: number): ListRequest<z.ZodType<Issue>> {
    return client.listProjectIssues(projectId, { state: 'opened', orderBy: 'updated_at' });
  }

  protected override description(): string | undefined {
    return this.list.total === undefined ? undefined : String(this.list.total);
  }

  protected toNodes(items: readonly Issue[]): TreeNode[] {
    return items.map((issue) => new IssueNode(this.owner.account, issue, this.folderId, false));
  }
}

export function createIssuesFolder(owner: ProjectNode, context: FolderContext): IssuesFolder {
  return new IssuesFolder(owner, context);
}
