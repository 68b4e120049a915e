import * as vscode from 'vscode';
import { NotFoundError } from '../../../api/http';
import type { Job, Project } from '../../../api/hosting';
import { projectPath } from '../../../domain/jobActions';
import { pipelineActions } from '../../../domain/pipelineActions';
import { type PipelineGraph, graphChanges, graphStatus } from '../../../domain/pipelineGraph';
import { pipelineSourceWord, pipelineWebUrl } from '../../../domain/pipelines';
import { formatAge, formatDuration } from '../../../domain/time';
import { statusAppearance } from '../../../domain/jobStatus';
import type { AccountInfo } from '../../../platform/accounts';
import { describeError } from '../../../platform/commands/registerCommand';
import { openServerLink } from '../../../platform/serverLinks';
import { showError } from '../../../platform/userMessages';
import type { Services } from '../../../services';
import { type OpenPanel, PanelHost } from '../../../webviews/shared/panelHost';
import type { FirstPaint } from '../../../webviews/shared/webviewHtml';
import { pipelineGraphFirstPaint } from './firstPaint';
import { type GraphRead, PipelineGraphReader } from './pipelineGraphReader';
import type { JobRef } from '../../jobs';
import {
  type PipelineGraphHostMessage,
  type PipelineGraphPageMessage,
  PipelineGraphPageMessageSchema,
  type PipelineHeader,
} from './protocol';

/** How often a running pipeline is read while its panel is in view and the window has focus, and otherwise. */
const LIVE_INTERVAL_MS = 3_000;
const BACKGROUND_INTERVAL_MS = 15_000;
/**
 * How long the page's HTML waits for the first read, to show the graph in its first frame. A page
 * without it shows nothing of the graph before that read either, and VS Code prepares a new webview
 * for about 260 ms before it loads the HTML.
 */
const FIRST_PAINT_WAIT_MS = 1_000;

/** What the graph's nodes and header do, lent by the features that own them. */
export interface PipelineGraphActions {
  showTrace(ref: JobRef): Promise<unknown>;
  changeJob(ref: JobRef, change: 'retry' | 'play' | 'cancel'): Promise<Job | undefined>;
  /** Retries or cancels the pipeline as the commands do. */
  changePipeline(target: GraphTarget, action: 'retry' | 'cancel'): Promise<unknown>;
  /** Opens another pipeline's graph (a child pipeline). */
  openGraph(target: GraphTarget): unknown;
}

export interface GraphTarget {
  account: AccountInfo;
  project: Project;
  pipelineId: number;
  /** The pipeline's commit when the row knew it: its CI file is read alongside the pipeline. */
  sha?: string | undefined;
}

export interface PipelineGraphPanelOptions {
  restoredPanel?: vscode.WebviewPanel;
  /** The delay between reads of a running pipeline (tests shorten it). */
  intervalMs?: number;
}

export function pipelineGraphKey(target: GraphTarget): string {
  return `${target.account.id}|${target.project.id}|${target.pipelineId}`;
}

/**
 * One pipeline's graph in a webview: stages as columns, jobs as nodes, `needs:` as edges, downstream
 * pipelines to the right. While the pipeline runs the host reads it again (every 3 s while in view
 * with focus, 15 s otherwise) and posts only the nodes that changed; the page draws them in place.
 */
export class PipelineGraphPanel implements OpenPanel {
  readonly host: PanelHost<PipelineGraphPageMessage, PipelineGraphHostMessage>;
  private read: GraphRead | undefined;
  private loading: Promise<void> | undefined;
  /** Reads run one after another, so that their messages reach the page in order. */
  private reads: Promise<void> = Promise.resolve();
  private readonly reader: PipelineGraphReader;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  private readStartedAt = 0;
  /** The problem the page shows in its header (a read or an action failed), until a read succeeds. */
  private notice: string | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  /** Settles the wait of the page's HTML for the first read (`firstPaint`). */
  private firstReadDone: () => void = () => undefined;

  constructor(
    private readonly services: Services,
    private readonly actions: PipelineGraphActions,
    readonly target: GraphTarget,
    private readonly options: PipelineGraphPanelOptions = {},
  ) {
    this.reader = new PipelineGraphReader(target, services.log);
    this.host = new PanelHost<PipelineGraphPageMessage, PipelineGraphHostMessage>({
      kind: 'pipelineGraph',
      app: 'pipelines',
      title: vscode.l10n.t('Pipeline #{0}', target.pipelineId),
      extensionUri: services.context.extensionUri,
      log: services.log,
      schema: PipelineGraphPageMessageSchema,
      restoreKey: { accountId: target.account.id, projectId: target.project.id, id: target.pipelineId },
      firstPaint: this.firstPaint(),
      ...(options.restoredPanel ? { restoredPanel: options.restoredPanel } : {}),
    });
    this.host.onReady(() => void this.sendSnapshot());
    this.host.handleMessages((message) => this.handle(message));
    this.host.onDidDispose(() => this.dispose());
    this.subscriptions.push(
      vscode.window.onDidChangeWindowState((state) => {
        if (state.focused) this.readSoon();
      }),
      this.host.panel.onDidChangeViewState(({ webviewPanel }) => {
        if (webviewPanel.visible) this.readSoon();
      }),
    );
    void this.refresh();
  }

  /**
   * The page's first paint: the graph as first read, written into its HTML, when the read ends within
   * `FIRST_PAINT_WAIT_MS`; else the page opens without it and draws the graph when it comes.
   */
  private async firstPaint(): Promise<FirstPaint | undefined> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      new Promise<void>((resolve) => (this.firstReadDone = resolve)),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, FIRST_PAINT_WAIT_MS))),
    ]);
    clearTimeout(timer);
    return this.read && pipelineGraphFirstPaint(this.header(this.read), this.read.graph);
  }

  /** The graph as last read (host tests). */
  get graph(): PipelineGraph | undefined {
    return this.read?.graph;
  }

  /** Answers the page's `ready` (it may have loaded again): the graph, and the notice it shows, if any. */
  private async sendSnapshot(): Promise<void> {
    await this.loading;
    if (this.read)
      this.host.post({ type: 'snapshot', header: this.header(this.read), graph: this.read.graph });
    if (this.notice !== undefined) this.host.post({ type: 'notice', level: 'error', message: this.notice });
  }

  /** Reads the pipeline again and sends the page what changed; schedules the next read while it runs. */
  refresh(): Promise<void> {
    const next = this.reads.then(() => this.readAndPost());
    this.reads = next;
    this.loading = next;
    return next;
  }

  private async readAndPost(): Promise<void> {
    if (this.disposed) return;
    this.readStartedAt = Date.now();
    this.clearTimer();
    try {
      const read = await this.reader.read(await this.services.accounts.client(this.target.account.id));
      const before = this.read;
      this.read = read;
      const changes = before && graphChanges(before.graph, read.graph);
      const header = this.header(read);
      if (!changes) {
        this.host.post({ type: 'snapshot', header, graph: read.graph });
      } else if (
        changes.nodes.length + changes.stages.length + changes.downstream.length > 0 ||
        JSON.stringify(header) !== JSON.stringify(before && this.header(before))
      ) {
        this.host.post({ type: 'update', header, ...changes });
      }
      this.clearNotice();
    } catch (error) {
      this.showNotice(
        vscode.l10n.t('Could not read pipeline #{0}: {1}', this.target.pipelineId, describeError(error)),
      );
      if (!this.read && error instanceof NotFoundError) {
        this.firstReadDone();
        return;
      }
    }
    this.firstReadDone();
    if (!this.read || this.isLive(this.read)) this.schedule(this.interval());
  }

  private clearNotice(): void {
    if (this.notice !== undefined) this.host.post({ type: 'notice', level: 'info', message: '' });
    this.notice = undefined;
  }

  private showNotice(message: string): void {
    this.notice = message;
    this.host.post({ type: 'notice', level: 'error', message });
  }

  private interval(): number {
    if (this.options.intervalMs !== undefined) return this.options.intervalMs;
    return vscode.window.state.focused && this.host.panel.visible ? LIVE_INTERVAL_MS : BACKGROUND_INTERVAL_MS;
  }

  private isLive(read: GraphRead): boolean {
    const active = (status: string): boolean => statusAppearance(status).active;
    return (
      (read.pipeline !== undefined && active(read.pipeline.status)) ||
      read.graph.nodes.some((node) => active(node.status)) ||
      read.graph.downstream.some((each) => active(each.status))
    );
  }

  /**
   * Back in view or in focus: a running pipeline is read at once, unless it was read less than the
   * live interval ago (a panel is shown as it opens, just after its first read started).
   */
  private readSoon(): void {
    if (Date.now() - this.readStartedAt >= LIVE_INTERVAL_MS) this.schedule(0);
  }

  private schedule(delayMs: number): void {
    if (this.disposed || !this.read || (delayMs === 0 && !this.isLive(this.read))) return;
    this.clearTimer();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.refresh();
    }, delayMs);
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private header(read: GraphRead): PipelineHeader {
    const { pipeline } = read;
    const status = pipeline?.status ?? read.graph.stages.at(-1)?.status ?? '';
    const allowed = pipelineActions({ status, web_url: pipeline?.web_url ?? this.webUrl() });
    return {
      pipelineId: this.target.pipelineId,
      projectPath: projectPath(this.target.project),
      ref: pipeline?.ref ?? '',
      details: [
        pipelineSourceWord(pipeline?.source),
        pipeline?.user?.username ? `@${pipeline.user.username}` : undefined,
        formatAge(pipeline?.created_at),
        formatDuration(pipeline?.started_at, pipeline?.finished_at),
        pipeline?.name ?? undefined,
      ]
        .filter(Boolean)
        .join(' · '),
      ...graphStatus(status),
      actions: {
        retry: allowed.includes('retry'),
        cancel: allowed.includes('cancel'),
        openInBrowser: allowed.includes('openInBrowser'),
      },
      live: this.isLive(read),
    };
  }

  private webUrl(): string | undefined {
    return pipelineWebUrl(this.target.pipelineId, this.read?.pipeline?.web_url, this.target.project.web_url);
  }

  private jobRef(jobId: number): JobRef | undefined {
    const job = this.read?.jobs.find((each) => each.id === jobId);
    // Only a job the graph shows: the page names ids, the host decides what they are.
    if (!job || !this.read?.graph.nodes.some((node) => node.id === jobId)) return undefined;
    return { kind: 'forge.jobRef', accountId: this.target.account.id, project: this.target.project, job };
  }

  private async handle(message: PipelineGraphPageMessage): Promise<void> {
    try {
      await this.act(message);
    } catch (error) {
      const text = describeError(error);
      this.showNotice(text);
      void showError(text);
    }
  }

  private async act(message: PipelineGraphPageMessage): Promise<void> {
    switch (message.type) {
      case 'openJob': {
        const ref = this.jobRef(message.jobId);
        if (ref) await this.actions.showTrace(ref);
        return;
      }
      case 'jobAction': {
        const ref = this.jobRef(message.jobId);
        if (!ref) return;
        this.host.post({ type: 'busy', jobId: message.jobId, busy: true });
        try {
          await this.actions.changeJob(ref, message.action);
        } finally {
          this.host.post({ type: 'busy', jobId: message.jobId, busy: false });
        }
        await this.refresh();
        return;
      }
      case 'openDownstream':
        await this.openDownstream(message.pipelineId);
        return;
      case 'pipelineAction':
        await this.pipelineAction(message.action);
        return;
      default:
        return;
    }
  }

  private async openDownstream(pipelineId: number): Promise<void> {
    const downstream = this.read?.downstream.find((each) => each.pipeline.id === pipelineId);
    if (!downstream) return;
    const node = this.read?.graph.downstream.find((each) => each.pipelineId === pipelineId);
    if (node?.sameProject) {
      this.actions.openGraph({ ...this.target, pipelineId });
      return;
    }
    const url = downstream.pipeline.web_url;
    if (url) await openServerLink(url, vscode.l10n.t('the web page of pipeline #{0}', pipelineId));
  }

  private async pipelineAction(action: 'retry' | 'cancel' | 'openInBrowser' | 'refresh'): Promise<void> {
    if (action === 'refresh') return this.refresh();
    if (action === 'openInBrowser') {
      const url = this.webUrl();
      if (url)
        await openServerLink(url, vscode.l10n.t('the web page of pipeline #{0}', this.target.pipelineId));
      return;
    }
    await this.actions.changePipeline(this.target, action);
    await this.refresh();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.clearTimer();
    for (const subscription of this.subscriptions) subscription.dispose();
    this.host.dispose();
  }
}
