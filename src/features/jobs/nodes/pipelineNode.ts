import * as vscode from 'vscode';
import { NotFoundError } from '../../../api/http';
import type { Bridge, HostingClient, Job, JobScope, PipelineDetails } from '../../../api/hosting';
import { summarizeStatuses, statusAppearance } from '../../../domain/jobStatus';
import { pipelineContextTokens } from '../../../domain/pipelineActions';
import {
  orderPipelineJobs,
  pipelineSourceWord,
  pipelineStages,
  pipelineWebUrl,
} from '../../../domain/pipelines';
import { formatAge, formatDuration } from '../../../domain/time';
import { tooltipMarkdown } from '../../../platform/serverMarkdown';
import type { TreeNode } from '../../../platform/tree/treeNode';
import type { FolderMember, ProjectNode, TreeContext } from '../../projects';
import { JobNode } from './jobNode';
import { StageNode } from './stageNode';

/** The most jobs read for one pipeline when it is expanded (its own endpoint, 100 a page). */
const MAX_PIPELINE_JOBS = 2_000;

/** What a pipeline row knows before it is expanded: from the pipelines list, or from the jobs list. */
export interface PipelineRowSource {
  pipelineId: number | undefined;
  ref?: string | undefined;
  status?: string | undefined;
  /** The pipeline as `GET /pipelines` (or a trigger job's `downstream_pipeline`) gave it. */
  details?: PipelineDetails;
  /** The jobs list's jobs of this pipeline (a page may cut it): when the server lists no pipelines. */
  listedJobs?: readonly Job[];
  /** The states the Jobs folder shows; the pipeline's own endpoint is asked for the same. */
  scope?: readonly JobScope[];
  /** The Jobs folder read every page: `listedJobs` are all the pipeline's jobs it shows. */
  listComplete?: boolean;
  /** The trigger job that started this pipeline (a child pipeline's row). */
  triggeredBy?: string;
}

/**
 * A pipeline in a project's Jobs folder: its status, ref, source and age (who ran it and how long it
 * took once expanded, from the pipeline's own endpoint), its stages in order with their jobs (earlier
 * attempts folded under the latest), then the pipelines its trigger jobs started, to any depth.
 */
export class PipelineNode implements FolderMember {
  readonly folderKind = 'jobs';
  /** Every job of the pipeline, read from its own endpoint once expanded. */
  private loaded: readonly Job[] | undefined;
  private details: PipelineDetails | undefined;
  private bridges: readonly Bridge[] = [];
  readonly pipelineId: number | undefined;
  readonly ref: string | undefined;

  constructor(
    readonly owner: ProjectNode,
    private readonly context: TreeContext,
    private readonly source: PipelineRowSource,
  ) {
    this.pipelineId = source.pipelineId;
    this.details = source.details;
    this.ref = source.details?.ref ?? source.ref;
  }

  /** The jobs known now: all of them once expanded, else those the Jobs folder listed. */
  get jobs(): readonly Job[] {
    return this.loaded ?? this.source.listedJobs ?? [];
  }

  /** The pipeline's status as the server gave it, else as its jobs add up. */
  get pipelineStatus(): string {
    return (
      this.details?.status ??
      this.source.status ??
      summarizeStatuses(orderPipelineJobs(this.jobs).map(({ job }) => job.status))
    );
  }

  /** The pipeline's commit, when the list or the pipeline's own endpoint gave it. */
  get sha(): string | undefined {
    return this.details?.sha ?? undefined;
  }

  /** The pipeline's page on the server. */
  get webUrl(): string | undefined {
    return pipelineWebUrl(this.pipelineId, this.details?.web_url, this.owner.project.web_url);
  }

  private countText(entries: number): string | undefined {
    if (this.pipelineId !== undefined && this.loaded === undefined && this.source.listedJobs === undefined)
      return undefined;
    const whole = this.loaded || this.source.listComplete || this.pipelineId === undefined;
    return vscode.l10n.t('{0}{1} job{2}', entries, whole ? '' : '+', entries === 1 ? '' : 's');
  }

  private describe(statusLabel: string, entries: number): string {
    const details = this.details;
    return [
      this.source.triggeredBy ? vscode.l10n.t('from {0}', this.source.triggeredBy) : undefined,
      this.ref,
      statusLabel,
      pipelineSourceWord(details?.source),
      details?.user?.username ? `@${details.user.username}` : undefined,
      formatAge(details?.created_at),
      formatDuration(details?.started_at, details?.finished_at),
      details?.name ?? undefined,
      this.countText(entries),
    ]
      .filter(Boolean)
      .join(' · ');
  }

  getTreeItem(): vscode.TreeItem {
    const entries = orderPipelineJobs(this.jobs);
    const status = this.pipelineStatus;
    const appearance = statusAppearance(status);
    const label =
      this.pipelineId !== undefined
        ? vscode.l10n.t('Pipeline #{0}', this.pipelineId)
        : vscode.l10n.t('Jobs without a pipeline');
    const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `account/${this.owner.account.id}/project/${this.owner.project.id}/pipeline/${this.pipelineId ?? 'none'}`;
    item.description = this.describe(appearance.label, entries.length);
    item.iconPath = new vscode.ThemeIcon(
      appearance.codicon,
      appearance.color ? new vscode.ThemeColor(appearance.color) : undefined,
    );
    if (this.details) {
      const tooltip = tooltipMarkdown();
      tooltip.appendMarkdown('**').appendText(label).appendMarkdown('**\n\n');
      tooltip.appendText(item.description);
      if (this.details.yaml_errors) tooltip.appendMarkdown('\n\n').appendText(this.details.yaml_errors);
      item.tooltip = tooltip;
    }
    // Actions on the pipeline as a whole, as its state allows them (src/domain/pipelineActions.ts).
    item.contextValue =
      this.pipelineId === undefined
        ? 'pipeline'
        : ['pipeline', 'whole', ...pipelineContextTokens({ status, web_url: this.webUrl })].join(' ');
    return item;
  }

  /**
   * The pipeline (who, how long), its jobs with earlier attempts, and its trigger jobs, read
   * together: one round trip's wait to open a row, not two.
   */
  private async load(client: HostingClient, pipelineId: number): Promise<void> {
    const projectId = this.owner.project.id;
    const fromPipelines = this.source.details !== undefined;
    const [complete, details, bridges] = await Promise.all([
      this.readJobs(client, pipelineId, fromPipelines),
      fromPipelines ? client.getPipeline(projectId, pipelineId).catch(() => this.details) : this.details,
      fromPipelines ? this.triggerJobs(client, pipelineId) : this.bridges,
    ]);
    // Without include_retried the endpoint leaves out attempts run again; the Jobs folder has them.
    const ids = new Set(complete.map((job) => job.id));
    this.loaded = [...complete, ...(this.source.listedJobs ?? []).filter((job) => !ids.has(job.id))];
    this.details = details;
    this.bridges = bridges;
  }

  private async readJobs(client: HostingClient, pipelineId: number, includeRetried: boolean): Promise<Job[]> {
    const jobs: Job[] = [];
    const scope = this.source.scope?.length ? this.source.scope : undefined;
    for await (const job of client
      .listPipelineJobs(this.owner.project.id, pipelineId, scope, { includeRetried })
      .all()) {
      jobs.push(job);
      if (jobs.length >= MAX_PIPELINE_JOBS) break;
    }
    return jobs;
  }

  /** A server without the trigger jobs' endpoint (before GitLab 13.0) shows the jobs alone. */
  private async triggerJobs(client: HostingClient, pipelineId: number): Promise<readonly Bridge[]> {
    try {
      return (await client.listPipelineBridges(this.owner.project.id, pipelineId).page({ perPage: 100 }))
        .items;
    } catch (error) {
      if (error instanceof NotFoundError) return [];
      throw error;
    }
  }

  async getChildren(): Promise<TreeNode[]> {
    if (!this.loaded && this.pipelineId !== undefined) {
      try {
        await this.load(await this.context.accounts.client(this.owner.account.id), this.pipelineId);
        // The row's count and details were of what the list gave.
        this.context.changed(this);
      } catch {
        // The jobs listed are still worth showing; the folder's refresh tries again.
        this.loaded = undefined;
      }
    }
    if (this.pipelineId === undefined) {
      return orderPipelineJobs(this.jobs).map(({ job, retried }) => new JobNode(this.owner, job, retried));
    }
    const pipelineId = this.pipelineId;
    const stages = pipelineStages(this.jobs).map((stage) => new StageNode(this.owner, pipelineId, stage));
    return [...stages, ...this.downstreamRows()];
  }

  private downstreamRows(): TreeNode[] {
    return this.bridges.flatMap((bridge) => {
      const downstream = bridge.downstream_pipeline;
      if (!downstream) return [];
      const sameProject =
        downstream.project_id === undefined ||
        downstream.project_id === null ||
        downstream.project_id === this.owner.project.id;
      return [
        sameProject
          ? new PipelineNode(this.owner, this.context, {
              pipelineId: downstream.id,
              details: downstream,
              triggeredBy: bridge.name,
            })
          : new DownstreamLinkNode(bridge.name, downstream),
      ];
    });
  }
}

/** A pipeline of another project that a trigger job started: its status and page, opened in the browser. */
export class DownstreamLinkNode implements TreeNode {
  constructor(
    readonly triggeredBy: string,
    readonly pipeline: PipelineDetails,
  ) {}

  getTreeItem(): vscode.TreeItem {
    const appearance = statusAppearance(this.pipeline.status);
    const item = new vscode.TreeItem(vscode.l10n.t('Pipeline #{0}', this.pipeline.id));
    item.description = [
      vscode.l10n.t('from {0}', this.triggeredBy),
      vscode.l10n.t('another project'),
      this.pipeline.ref,
      appearance.label,
    ]
      .filter(Boolean)
      .join(' · ');
    item.iconPath = new vscode.ThemeIcon(
      appearance.codicon,
      appearance.color ? new vscode.ThemeColor(appearance.color) : undefined,
    );
    const tooltip = tooltipMarkdown();
    tooltip.appendText(this.pipeline.web_url ?? '');
    item.tooltip = tooltip;
    // Its page, opened or copied from its menu (the pipeline belongs to another project).
    item.contextValue = this.pipeline.web_url ? 'downstreamPipeline linked' : 'downstreamPipeline';
    return item;
  }
}
