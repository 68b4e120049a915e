import * as vscode from 'vscode';
import type { Job } from '../../../api/hosting';
import { statusAppearance, summarizeStatuses } from '../../../domain/jobStatus';
import type { PipelineStage } from '../../../domain/pipelines';
import type { TreeNode } from '../../../platform/tree/treeNode';
import type { FolderMember, ProjectNode } from '../../projects';
import { JobNode } from './jobNode';

/**
 * A stage of a pipeline row: its status as its jobs add up and how many jobs it has, open at first
 * (a pipeline opened shows its jobs at once, as before stages were rows); its jobs under it.
 */
export class StageNode implements FolderMember {
  readonly folderKind = 'jobs';

  constructor(
    readonly owner: ProjectNode,
    /** Its pipeline: the stage's id is under the pipeline row's, so that its open state is kept. */
    private readonly pipelineId: number,
    readonly stage: PipelineStage<Job>,
  ) {}

  get status(): string {
    return summarizeStatuses(this.stage.entries.map(({ job }) => job.status));
  }

  getTreeItem(): vscode.TreeItem {
    const appearance = statusAppearance(this.status);
    const count = this.stage.entries.length;
    const item = new vscode.TreeItem(
      this.stage.name.length > 0 ? this.stage.name : vscode.l10n.t('No stage'),
      vscode.TreeItemCollapsibleState.Expanded,
    );
    item.id = `account/${this.owner.account.id}/project/${this.owner.project.id}/pipeline/${this.pipelineId}/stage/${encodeURIComponent(this.stage.name)}`;
    item.description = [
      appearance.label,
      count === 1 ? vscode.l10n.t('1 job') : vscode.l10n.t('{0} jobs', count),
    ].join(' · ');
    item.iconPath = new vscode.ThemeIcon(
      appearance.codicon,
      appearance.color ? new vscode.ThemeColor(appearance.color) : undefined,
    );
    item.contextValue = 'stage';
    return item;
  }

  getChildren(): Promise<TreeNode[]> {
    return Promise.resolve(
      this.stage.entries.map(({ job, retried }) => new JobNode(this.owner, job, retried, false, false)),
    );
  }
}
