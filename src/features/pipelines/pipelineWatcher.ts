import * as vscode from 'vscode';
import { NotFoundError } from '../../api/http';
import type { PipelineDetails, Project } from '../../api/hosting';
import { projectPath } from '../../domain/jobActions';
import { notifySetting, pipelineEndNotice, pipelineHasEnded } from '../../domain/pipelineNotices';
import { openServerLink } from '../../platform/serverLinks';
import { showError, showInformation, showWarning } from '../../platform/userMessages';
import type { Services } from '../../services';
import type { JobRef } from '../jobs';

/*
 * A word when a pipeline ends (`forge.pipelines.notify`): the pipelines started from the editor
 * ("mine", the default) or also the latest pipeline of the open folder's branch ("branch"). Each
 * pipeline is watched while it runs, read every few seconds while the window has focus (less often
 * without), and said once when it ends; a pipeline that had ended when it was first seen is never
 * said (no storm when a window opens).
 */

const FOCUSED_INTERVAL_MS = 5_000;
const UNFOCUSED_INTERVAL_MS = 30_000;
/** A refresh of the Projects view checks at once, but not the same pipeline twice within this. */
const MIN_GAP_MS = 1_000;

export interface WatchedPipeline {
  accountId: string;
  projectId: number;
  projectPath: string;
  pipelineId: number;
  /** Why it is watched: started here, or the branch's latest. */
  reason: 'mine' | 'branch';
}

export class PipelineWatcher implements vscode.Disposable {
  private readonly watched = new Map<
    string,
    {
      target: WatchedPipeline;
      timer: NodeJS.Timeout | undefined;
      checking: boolean;
      lastCheck: number;
      /** The ETag of the last answer: an unchanged pipeline is a 304. */
      etag?: string | undefined;
    }
  >();
  private readonly subscription: vscode.Disposable;
  /** Pipelines said or seen ended, never watched again. */
  private readonly done = new Set<string>();

  constructor(
    private readonly services: Services,
    private readonly showJobTrace: (ref: JobRef) => Promise<unknown>,
  ) {
    // A refresh (by hand, after an action, or the automatic one while jobs run) checks at once.
    this.subscription = services.projects.onDidChangeTreeData(() => this.checkSoon());
  }

  private checkSoon(): void {
    const now = Date.now();
    for (const [key, entry] of this.watched) {
      if (entry.checking || now - entry.lastCheck < MIN_GAP_MS) continue;
      if (entry.timer) clearTimeout(entry.timer);
      void this.check(key);
    }
  }

  private setting(): 'mine' | 'branch' | 'off' {
    return notifySetting(vscode.workspace.getConfiguration('forge').get('pipelines.notify'));
  }

  private wanted(reason: WatchedPipeline['reason']): boolean {
    const setting = this.setting();
    return setting === 'branch' || (setting === 'mine' && reason === 'mine');
  }

  /** Watches a pipeline until it ends, if the setting wants it; one that has ended already is never said. */
  watch(
    account: { id: string },
    project: Project,
    pipeline: { id: number; status: string },
    reason: WatchedPipeline['reason'],
  ): void {
    const target: WatchedPipeline = {
      accountId: account.id,
      projectId: project.id,
      projectPath: projectPath(project),
      pipelineId: pipeline.id,
      reason,
    };
    const { status } = pipeline;
    const key = `${target.accountId}/${target.projectId}/${target.pipelineId}`;
    if (this.watched.has(key) || this.done.has(key) || !this.wanted(target.reason)) return;
    if (pipelineHasEnded(status)) {
      this.done.add(key);
      return;
    }
    this.watched.set(key, { target, timer: undefined, checking: false, lastCheck: 0 });
    this.schedule(key);
  }

  private schedule(key: string): void {
    const entry = this.watched.get(key);
    if (!entry) return;
    const interval = vscode.window.state.focused ? FOCUSED_INTERVAL_MS : UNFOCUSED_INTERVAL_MS;
    entry.timer = setTimeout(() => void this.check(key), interval);
  }

  private async check(key: string): Promise<void> {
    const entry = this.watched.get(key);
    if (!entry) return;
    const { target } = entry;
    entry.checking = true;
    entry.lastCheck = Date.now();
    let pipeline: PipelineDetails;
    try {
      const client = await this.services.accounts.client(target.accountId);
      const read = await client.getPipelineIfChanged(target.projectId, target.pipelineId, entry.etag);
      if (read.unchanged) {
        entry.checking = false;
        this.schedule(key);
        return;
      }
      entry.etag = read.etag;
      pipeline = read.value;
    } catch (error) {
      entry.checking = false;
      // Gone (deleted), or the account was removed: stop; a network failure: try again later.
      this.services.log.debug(
        `Pipeline watch ${key}: ${error instanceof Error ? error.message : String(error)}`,
      );
      if (error instanceof NotFoundError || !this.services.accounts.get(target.accountId)) this.stop(key);
      else this.schedule(key);
      return;
    }
    entry.checking = false;
    if (!pipelineHasEnded(pipeline.status)) {
      this.schedule(key);
      return;
    }
    this.stop(key);
    if (this.wanted(target.reason)) this.say(pipeline, target);
  }

  private stop(key: string): void {
    const entry = this.watched.get(key);
    if (entry?.timer) clearTimeout(entry.timer);
    this.watched.delete(key);
    this.done.add(key);
  }

  private say(pipeline: PipelineDetails, target: WatchedPipeline): void {
    const notice = pipelineEndNotice(pipeline, target.projectPath);
    const open = vscode.l10n.t('Open in Browser');
    const failedJob = vscode.l10n.t('Show Failed Job');
    const buttons = pipeline.status === 'failed' ? [failedJob, open] : [open];
    const show =
      notice.severity === 'error' ? showError : notice.severity === 'warning' ? showWarning : showInformation;
    void show(notice.text, ...buttons).then((choice) => {
      if (choice === open && pipeline.web_url)
        void openServerLink(pipeline.web_url, vscode.l10n.t('the web page of pipeline #{0}', pipeline.id));
      if (choice === failedJob) void this.showFirstFailedJob(target);
    });
    this.services.afterAction(undefined, {
      accountId: target.accountId,
      projectId: target.projectId,
      folder: 'jobs',
    });
  }

  /** The trace of the pipeline's first failed job, in the trace panel. */
  private async showFirstFailedJob(target: WatchedPipeline): Promise<void> {
    const client = await this.services.accounts.client(target.accountId);
    const [project, failed] = await Promise.all([
      client.getProject(target.projectId),
      client.listPipelineJobs(target.projectId, target.pipelineId, ['failed']).page({ perPage: 100 }),
    ]);
    const job = [...failed.items].sort((a, b) => a.id - b.id)[0];
    if (!job) return;
    await this.showJobTrace({ kind: 'forge.jobRef', accountId: target.accountId, project, job });
  }

  dispose(): void {
    this.subscription.dispose();
    for (const key of [...this.watched.keys()]) this.stop(key);
  }
}
