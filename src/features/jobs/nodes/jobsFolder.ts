import * as vscode from 'vscode';
import { NotFoundError } from '../../../api/http';
import type { Job, JobScope, PipelineDetails } from '../../../api/hosting';
import { statusAppearance } from '../../../domain/jobStatus';
import { groupJobsByPipeline } from '../../../domain/pipelines';
import { MessageNode, type TreeNode } from '../../../platform/tree/treeNode';
import type { LoadedPage, PageLoader } from '../../../state/pagedList';
import { ProjectFolder, listLoader } from '../../projects';
import { PipelineNode } from './pipelineNode';

/*
 * A project's Jobs folder in the Projects view (added through `contributeFolder`): the project's
 * pipelines (`GET /pipelines`, newest first), each read whole when it is expanded. Filtered by job
 * state, or on a server that lists no pipelines (404), it lists jobs and groups them by pipeline.
 */

/** Pipeline statuses the folder's filter offers (GitLab's `status` filter of the pipelines list). */
export const PIPELINE_FILTER_STATUSES = [
  'running',
  'pending',
  'success',
  'failed',
  'canceled',
  'manual',
] as const;
export type PipelineFilterStatus = (typeof PIPELINE_FILTER_STATUSES)[number];

/** What the Jobs folder shows: jobs in some states, or pipelines by status or source; on one branch. */
export interface JobsFilter {
  scope?: readonly JobScope[] | undefined;
  ref?: string | undefined;
  pipelineStatus?: PipelineFilterStatus | undefined;
  source?: string | undefined;
}

/** A row's source: a pipeline of the pipelines list, or a job of the jobs list. */
export type JobsFolderItem = { pipeline: PipelineDetails } | { job: Job };

export class JobsFolder extends ProjectFolder<JobsFolderItem> {
  readonly menuName = vscode.l10n.t('Jobs');
  readonly label = vscode.l10n.t('Jobs');
  readonly icon = 'rocket';
  override readonly kind = 'jobs';
  filter: JobsFilter = {};
  /** The server answered 404 to the pipelines list: jobs from now on. */
  private noPipelinesList = false;

  override get shown(): boolean {
    return this.owner.project.jobs_enabled !== false;
  }

  /** Lists jobs (grouped) rather than pipelines: a job-state filter, or a server without the list. */
  get listsJobs(): boolean {
    return this.noPipelinesList || (this.filter.scope?.length ?? 0) > 0;
  }

  /** Reloaded by the automatic refresh while it shows running or pending pipelines or jobs. */
  wantsAutoRefresh(): boolean {
    return this.list.items.some(
      (item) => statusAppearance('pipeline' in item ? item.pipeline.status : item.job.status).active,
    );
  }

  get emptyMessage(): string {
    const what = this.filter.scope?.length
      ? vscode.l10n.t('No {0} jobs', this.filter.scope.join(' or '))
      : this.listsJobs
        ? vscode.l10n.t('No jobs')
        : vscode.l10n.t('No pipelines');
    if (!this.filter.ref) return what;
    // The pipelines list is filtered by the server; the jobs list only in the pages loaded.
    return this.listsJobs
      ? vscode.l10n.t('{0} on {1} in the jobs loaded', what, this.filter.ref)
      : vscode.l10n.t('No pipelines on {0}', this.filter.ref);
  }

  protected override loader(): PageLoader<JobsFolderItem> {
    const { accounts } = this.context;
    const accountId = this.owner.account.id;
    const projectId = this.owner.project.id;
    const jobs = listLoader(accounts, accountId, (client) =>
      client.listJobs(projectId, this.filter.scope?.length ? this.filter.scope : undefined),
    );
    const pipelines = listLoader(accounts, accountId, (client) =>
      client.listPipelines(projectId, {
        ...(this.filter.ref ? { ref: this.filter.ref } : {}),
        ...(this.filter.pipelineStatus ? { status: this.filter.pipelineStatus } : {}),
        ...(this.filter.source ? { source: this.filter.source } : {}),
      }),
    );
    const asJobs = async (
      nextUrl: string | undefined,
      signal: AbortSignal,
    ): Promise<LoadedPage<JobsFolderItem>> => {
      const page = await jobs(nextUrl, signal);
      return { ...page, items: page.items.map((job) => ({ job })) };
    };
    return async (nextUrl, signal) => {
      if (this.listsJobs) return asJobs(nextUrl, signal);
      try {
        const page = await pipelines(nextUrl, signal);
        return { ...page, items: page.items.map((pipeline) => ({ pipeline })) };
      } catch (error) {
        // GitLab before 8.11 (or a server without it): the jobs list, grouped as before.
        if (!(error instanceof NotFoundError) || nextUrl !== undefined) throw error;
        this.noPipelinesList = true;
        return asJobs(undefined, signal);
      }
    };
  }

  protected override description(): string | undefined {
    const parts = [
      this.filter.scope?.join(', '),
      this.filter.pipelineStatus ? vscode.l10n.t('{0} pipelines', this.filter.pipelineStatus) : undefined,
      this.filter.source ? vscode.l10n.t('from {0}', this.filter.source) : undefined,
      this.filter.ref ? vscode.l10n.t('on {0}', this.filter.ref) : undefined,
    ];
    return parts.filter(Boolean).join(' ') || undefined;
  }

  /** A reload asks for pipelines again: the 404 may have been a proxy's, or the server was upgraded. */
  override reload(): void {
    this.noPipelinesList = false;
    super.reload();
  }

  setFilter(filter: JobsFilter): void {
    this.filter = filter;
    this.reload();
  }

  protected toNodes(all: readonly JobsFolderItem[]): TreeNode[] {
    const pipelines = all.flatMap((item) => ('pipeline' in item ? [item.pipeline] : []));
    if (pipelines.length > 0)
      return pipelines.map(
        (pipeline) =>
          new PipelineNode(this.owner, this.context, { pipelineId: pipeline.id, details: pipeline }),
      );
    const jobs = all.flatMap((item) => ('job' in item ? [item.job] : []));
    // The jobs list has no branch filter: the loaded pages are filtered here.
    const ref = this.filter.ref;
    const items = ref ? jobs.filter((job) => job.ref === ref) : jobs;
    if (ref && items.length === 0 && jobs.length > 0)
      return [new MessageNode(vscode.l10n.t('None of the {0} jobs loaded ran on {1}', jobs.length, ref))];
    return groupJobsByPipeline(items).map(
      (group) =>
        new PipelineNode(this.owner, this.context, {
          pipelineId: group.pipelineId,
          ref: group.ref,
          status: group.status,
          listedJobs: group.jobs,
          scope: this.filter.scope,
          // No page left to load: every job of each pipeline is here already.
          listComplete: !this.list.hasMore,
        }),
    );
  }
}
