import * as vscode from 'vscode';
import { tooltipMarkdown } from '../../platform/serverMarkdown';
import type { Job, MergeRequest, Project } from '../../api/hosting';
import { jobCapabilities, statusAppearance, summarizeStatuses } from '../../domain/jobStatus';
import type { AccountInfo } from '../../platform/accounts';
import type { JobRef } from '../jobs';
import { localRepository, projectOfRepository } from '../projects';
import type { Services } from '../../services';
import { inertStatusText } from '../../domain/inertText';
import { pipelineActions } from '../../domain/pipelineActions';
import { openServerLink } from '../../platform/serverLinks';
import { pickOne, showInformation, type PickItem } from '../../platform/userMessages';

/** What the status bar shows for the open folder's current branch. */
export interface BranchStatus {
  account: AccountInfo;
  project: Project;
  /** The clone's folder. */
  root: string;
  branch: string;
  mergeRequest: MergeRequest | undefined;
  latestJob: Job | undefined;
  /** The branch's newest pipeline (`GET /pipelines?ref=`), else the one of its newest job. */
  pipeline: { id: number; status: string; webUrl: string | undefined } | undefined;
}

/** What the item shows, as `forge.statusBar.refresh` reports it to tests and automation. */
export interface BranchStatusView extends BranchStatus {
  text: string;
  accessibilityLabel: string;
}

/** The pipeline of the newest job on the branch; its status from the server, else from its jobs. */
export function latestPipeline(jobs: readonly Job[], branch: string): BranchStatus['pipeline'] {
  const newest = jobs.find((job) => job.ref === branch && job.pipeline?.id !== undefined);
  const pipeline = newest?.pipeline;
  if (!pipeline) return undefined;
  const status =
    pipeline.status ??
    summarizeStatuses(jobs.filter((job) => job.pipeline?.id === pipeline.id).map((job) => job.status));
  return { id: pipeline.id, status, webUrl: pipeline.web_url ?? undefined };
}

/** What the status bar's quick pick runs in other features (given by core.ts). */
export interface StatusBarActions {
  createMergeRequest(): Promise<unknown>;
  retryJob(ref: JobRef): Promise<unknown>;
  /** The pipelines feature: it watches the branch's pipeline each time the status is read, and runs,
   * retries or cancels one from the menu. */
  pipelines: {
    watchBranchPipeline(status: BranchStatus): void;
    runOnBranch(status: BranchStatus): Promise<unknown>;
    changeBranchPipeline(status: BranchStatus, action: 'retry' | 'cancel'): Promise<unknown>;
  };
}

/** A row of the item's menu and what it runs. */
type Action = PickItem & { run: () => Thenable<unknown> };

/**
 * The status bar item for the open folder: when its git remote is a project on one of the
 * accounts, it shows the current branch's merge request and latest job; clicking offers actions.
 */
export class StatusBarController implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private current: BranchStatus | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private refreshing: Promise<BranchStatus | undefined> | undefined;
  private readonly statusChanges = new vscode.EventEmitter<BranchStatus | undefined>();
  /** Fires after each reading of the branch's state (the review follows the branch's merge request). */
  readonly onDidChangeStatus = this.statusChanges.event;
  private queued: Promise<BranchStatus | undefined> | undefined;

  constructor(
    private readonly services: Services,
    private readonly actions: StatusBarActions,
  ) {
    this.item = vscode.window.createStatusBarItem('forge.branchStatus', vscode.StatusBarAlignment.Left, 50);
    this.item.name = vscode.l10n.t('Forge: Merge Request and Job of the Current Branch');
    this.item.command = 'forge.statusBar.showActions';
    this.disposables.push(this.item, this.statusChanges);
    const watcher = vscode.workspace.createFileSystemWatcher('**/.git/HEAD');
    this.disposables.push(
      watcher,
      watcher.onDidChange(() => void this.refresh()),
      watcher.onDidCreate(() => void this.refresh()),
      services.accounts.onDidChange(() => void this.refresh()),
      // A merge, a retry: what the item shows may have changed.
      services.onDidAct(() => void this.refresh()),
      vscode.workspace.onDidChangeWorkspaceFolders(() => void this.refresh()),
    );
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }

  get status(): BranchStatus | undefined {
    return this.current;
  }

  /** The item's text and what screen readers say of it. */
  get shown(): Pick<BranchStatusView, 'text' | 'accessibilityLabel'> {
    return { text: this.item.text, accessibilityLabel: this.item.accessibilityInformation?.label ?? '' };
  }

  /**
   * Finds the project and the branch's state. A call while a run is going waits for it and then
   * runs once more (the branch may have changed meanwhile); calls during that wait share it.
   */
  refresh(): Promise<BranchStatus | undefined> {
    if (this.refreshing) {
      this.queued ??= this.refreshing.then(() => {
        this.queued = undefined;
        return this.refresh();
      });
      return this.queued;
    }
    this.refreshing = this.load()
      .catch((error: unknown) => {
        this.services.log.debug(`Status bar: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      })
      .then((status) => {
        this.current = status;
        if (status) this.actions.pipelines.watchBranchPipeline(status);
        this.render();
        this.statusChanges.fire(status);
        return status;
      })
      .finally(() => {
        this.refreshing = undefined;
      });
    return this.refreshing;
  }

  private async load(): Promise<BranchStatus | undefined> {
    const folder = vscode.workspace.workspaceFolders?.find((candidate) => candidate.uri.scheme === 'file');
    if (!folder) return undefined;
    const repository = await localRepository(folder.uri.fsPath);
    if (!repository) return undefined;
    const found = await projectOfRepository(this.services, repository);
    if (!found) return undefined;
    const { account, project } = found;
    const client = await this.services.accounts.client(account.id);
    const [mergeRequests, jobs, pipelines] = await Promise.all([
      client.listMergeRequests(project.id, { state: 'opened' }).page({ perPage: 100 }),
      client.listJobs(project.id).page({ perPage: 50 }),
      // The branch's newest pipeline (never a child pipeline, whose jobs may be newer); a server
      // without the list (before GitLab 8.11) leaves the pipeline of the newest job.
      client
        .listPipelines(project.id, { ref: repository.branch })
        .page({ perPage: 1 })
        .catch(() => undefined),
    ]);
    const newestPipeline = pipelines?.items[0];
    return {
      account,
      project,
      root: repository.root,
      branch: repository.branch,
      mergeRequest: mergeRequests.items.find((mr) => mr.source_branch === repository.branch),
      latestJob: jobs.items.find((job) => job.ref === repository.branch),
      pipeline: newestPipeline
        ? {
            id: newestPipeline.id,
            status: newestPipeline.status,
            webUrl: newestPipeline.web_url ?? undefined,
          }
        : latestPipeline(jobs.items, repository.branch),
    };
  }

  private render(): void {
    const status = this.current;
    if (!status) {
      this.item.hide();
      return;
    }
    const parts: string[] = [];
    const spoken: string[] = [];
    if (status.mergeRequest) {
      parts.push(`$(git-pull-request) !${status.mergeRequest.iid}`);
      spoken.push(vscode.l10n.t('Merge request !{0} of {1}', status.mergeRequest.iid, status.branch));
    } else {
      parts.push(vscode.l10n.t('$(git-branch) {0}', inertStatusText(status.branch)));
      spoken.push(vscode.l10n.t('Branch {0}, no open merge request', status.branch));
    }
    if (status.pipeline) {
      const appearance = statusAppearance(status.pipeline.status);
      parts.push(vscode.l10n.t('$({0}) Pipeline {1}', appearance.codicon, appearance.label.toLowerCase()));
      spoken.push(vscode.l10n.t('pipeline #{0} {1}', status.pipeline.id, appearance.label.toLowerCase()));
    } else if (status.latestJob) {
      const appearance = statusAppearance(status.latestJob.status);
      parts.push(`$(${appearance.codicon}) ${inertStatusText(status.latestJob.name)}`);
      spoken.push(vscode.l10n.t('latest job {0} {1}', status.latestJob.name, appearance.label.toLowerCase()));
    }
    this.item.text = parts.join('  ');
    // Said by screen readers instead of the tooltip, whose Markdown escapes would be read out.
    this.item.accessibilityInformation = {
      label: vscode.l10n.t('Forge: {0}', spoken.join(', ')),
      role: 'button',
    };
    const tooltip = tooltipMarkdown();
    tooltip.appendText(
      `${status.project.path_with_namespace ?? status.project.name ?? ''} · ${status.branch}`,
    );
    if (status.mergeRequest) {
      tooltip.appendMarkdown('\n\n').appendText(`!${status.mergeRequest.iid} ${status.mergeRequest.title}`);
    } else tooltip.appendMarkdown('\n\n').appendText(vscode.l10n.t('No open merge request for this branch'));
    if (status.pipeline) {
      tooltip
        .appendMarkdown('\n\n')
        .appendText(
          vscode.l10n.t(
            'Pipeline #{0}: {1}',
            status.pipeline.id,
            statusAppearance(status.pipeline.status).label,
          ),
        );
    }
    if (status.latestJob) {
      tooltip
        .appendMarkdown('\n\n')
        .appendText(
          vscode.l10n.t(
            'Latest job: {0} #{1} — {2}',
            status.latestJob.name,
            status.latestJob.id,
            statusAppearance(status.latestJob.status).label,
          ),
        );
    }
    this.item.tooltip = tooltip;
    this.item.show();
  }

  /** The actions offered when the item is clicked. */
  async showActions(): Promise<void> {
    const status = this.current ?? (await this.refresh());
    if (!status) {
      void showInformation(
        vscode.l10n.t(
          'The open folder is not a clone of a project on your accounts (its git remote matches none of them).',
        ),
      );
      return;
    }
    const { mergeRequest, latestJob, project } = status;
    const actions: Action[] = [];
    if (mergeRequest) {
      actions.push({
        icon: 'link-external',
        label: vscode.l10n.t('Open !{0} in Browser', mergeRequest.iid),
        run: () =>
          openServerLink(mergeRequest.web_url, vscode.l10n.t('the web page of !{0}', mergeRequest.iid)),
      });
    } else {
      actions.push({
        icon: 'git-pull-request-create',
        label: vscode.l10n.t('Create Merge Request…'),
        run: () => this.actions.createMergeRequest(),
      });
    }
    if (latestJob && jobCapabilities(latestJob).includes('retryable')) {
      actions.push({
        icon: 'refresh',
        label: vscode.l10n.t('Retry {0}', latestJob.name),
        // As the job command: its message, and the refresh of every view (this item through onDidAct).
        run: () =>
          this.actions.retryJob({
            kind: 'forge.jobRef',
            accountId: status.account.id,
            project,
            job: latestJob,
          }),
      });
    }
    actions.push(...this.pipelineItems(status));
    const pipelineUrl = status.pipeline?.webUrl;
    if (status.pipeline && pipelineUrl) {
      const pipelineId = status.pipeline.id;
      actions.push({
        icon: 'link-external',
        label: vscode.l10n.t('Open Pipeline #{0} in Browser', pipelineId),
        run: () => openServerLink(pipelineUrl, vscode.l10n.t('the web page of pipeline #{0}', pipelineId)),
      });
    }
    if (project.web_url) {
      actions.push({
        icon: 'repo',
        label: vscode.l10n.t('Open Project in Browser'),
        run: () => openServerLink(project.web_url, vscode.l10n.t('the web page of the project')),
      });
    }
    actions.push({ icon: 'sync', label: vscode.l10n.t('Refresh'), run: () => this.refresh() });
    const picked = await pickOne(actions, {
      placeHolder: `${project.path_with_namespace ?? ''} · ${status.branch}`,
    });
    await picked?.run();
  }

  /** Run Pipeline on the branch, and retry or cancel its latest pipeline as its state allows. */
  private pipelineItems(status: BranchStatus): Action[] {
    const actions: Action[] = [];
    actions.push({
      icon: 'play-circle',
      label: vscode.l10n.t('Run Pipeline on {0}…', status.branch),
      run: () => this.actions.pipelines.runOnBranch(status),
    });
    if (status.pipeline) {
      const allowed = pipelineActions({ status: status.pipeline.status });
      const pipelineId = status.pipeline.id;
      if (allowed.includes('retry'))
        actions.push({
          icon: 'refresh',
          label: vscode.l10n.t('Retry Failed Jobs of Pipeline #{0}', pipelineId),
          run: () => this.actions.pipelines.changeBranchPipeline(status, 'retry'),
        });
      if (allowed.includes('cancel'))
        actions.push({
          icon: 'stop-circle',
          label: vscode.l10n.t('Cancel Pipeline #{0}', pipelineId),
          run: () => this.actions.pipelines.changeBranchPipeline(status, 'cancel'),
        });
    }
    return actions;
  }
}
