import * as vscode from 'vscode';
import type { Job } from '../../../api/hosting';
import { jobCapabilities, statusAppearance } from '../../../domain/jobStatus';
import { formatAge, formatDuration } from '../../../domain/time';
import { tooltipMarkdown } from '../../../platform/serverMarkdown';
import type { TreeNode } from '../../../platform/tree/treeNode';
import type { FolderMember, ProjectNode } from '../../projects';

/** A job in a pipeline row: its trace on click, its earlier attempts (run again) folded under it. */
export class JobNode implements FolderMember {
  readonly folderKind = 'jobs';

  constructor(
    readonly owner: ProjectNode,
    readonly job: Job,
    /** Earlier attempts this job replaced (run again), newest first; shown folded under it. */
    readonly retried: readonly Job[] = [],
    /** This is one of those earlier attempts. */
    readonly isEarlierAttempt = false,
    /** Its description names its stage (not under a stage row, which names it already). */
    private readonly namesStage = true,
  ) {}

  getTreeItem(): vscode.TreeItem {
    const { job } = this;
    const appearance = statusAppearance(job.status);
    const item = new vscode.TreeItem(
      job.name,
      this.retried.length > 0
        ? vscode.TreeItemCollapsibleState.Collapsed
        : vscode.TreeItemCollapsibleState.None,
    );
    item.id = `account/${this.owner.account.id}/project/${this.owner.project.id}/job/${job.id}`;
    item.description = [
      this.isEarlierAttempt
        ? vscode.l10n.t('#{0} (run again)', job.id)
        : this.namesStage
          ? job.stage
          : undefined,
      appearance.label,
      formatDuration(job.started_at, job.finished_at),
      this.retried.length > 0
        ? this.retried.length === 1
          ? vscode.l10n.t('1 earlier attempt')
          : vscode.l10n.t('{0} earlier attempts', this.retried.length)
        : undefined,
    ]
      .filter(Boolean)
      .join(' · ');
    const tooltip = tooltipMarkdown();
    tooltip.appendMarkdown('**').appendText(`${job.name} #${job.id}`).appendMarkdown('**\n\n');
    tooltip.appendText(vscode.l10n.t('{0} on {1}', appearance.label, job.ref));
    if (job.commit?.title)
      tooltip.appendMarkdown('\n\n').appendText(`${job.commit.short_id ?? ''} ${job.commit.title}`);
    if (job.created_at)
      tooltip.appendMarkdown('\n\n').appendText(vscode.l10n.t('Created {0}', formatAge(job.created_at)));
    item.tooltip = tooltip;
    item.iconPath = new vscode.ThemeIcon(
      appearance.codicon,
      appearance.color ? new vscode.ThemeColor(appearance.color) : undefined,
    );
    item.command = {
      command: 'forge.job.showTrace',
      title: vscode.l10n.t('Show Job Trace'),
      arguments: [this],
    };
    item.contextValue = [
      'job',
      job.status,
      appearance.active ? 'active' : 'finished',
      ...jobCapabilities(job),
    ].join(' ');
    return item;
  }

  getChildren(): Promise<TreeNode[]> {
    return Promise.resolve(this.retried.map((attempt) => new JobNode(this.owner, attempt, [], true)));
  }
}
