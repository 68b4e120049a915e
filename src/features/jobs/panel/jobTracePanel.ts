import * as vscode from 'vscode';
import { walkthroughStepDone } from '../../../platform/walkthrough';
import { setTimeout as delay } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { FirstReadPause } from './firstReadPause';
import { JOB_TRACE_FIRST_PAINT_STYLE, jobTraceFirstPaint, traceFirstPaintRows } from './firstPaint';
import type { Job, Project } from '../../../api/hosting';
import { type JobRef } from '../commands';
import { describeError } from '../../../platform/commands/registerCommand';
import { jobTitle, jobWebUrl } from '../../../domain/jobActions';
import { changeJobAsked } from '../jobChangeFlow';
import { openServerLink } from '../../../platform/serverLinks';
import { TraceBytes, TracePlainTail, takeBytes } from '../../../domain/trace';
import type { AccountInfo } from '../../../platform/accounts';
import type { Services } from '../../../services';
import { TraceFollower, isJobFinished, jobTraceSource } from '../../../state/traceFollower';
import { type OpenPanel, PanelHost, type PanelRegistry } from '../../../webviews/shared/panelHost';
import type { FirstPaint } from '../../../webviews/shared/webviewHtml';
import {
  type JobPanelAction,
  type JobTraceHostMessage,
  type JobTracePageMessage,
  JobTracePageMessageSchema,
} from './protocol';
import { jobView } from './jobView';
import { showError, showInformation, showStatusMessage } from '../../../platform/userMessages';

/** The first piece of a trace sent to a page that just loaded, and the size of the pieces after it. */
const SNAPSHOT_FIRST_BYTES = 64 * 1024;
const SNAPSHOT_PIECE_BYTES = 256 * 1024;
/**
 * Pieces of text on their way to the page or waiting there to be parsed. The page gives one back
 * each time it has parsed one, so a long trace crosses as fast as the page parses it (in its idle
 * time) instead of all at once: megabytes of messages delivered in a burst held up the page's
 * frames, and stayed in its memory until parsed.
 */
const PAGE_WINDOW = 3;
/**
 * Pieces of at least this many bytes cross to the page gzipped (the page's worker inflates
 * them). Every byte sent passes through the workbench's own heap on the way; 20 MB of trace did so
 * several times over and set off collections of that heap, which paused the frames of the page and
 * of the whole window. CI traces shrink five to twelve times, at level 1 in about 1.5 ms per MB.
 */
const GZIP_MIN_BYTES = 16 * 1024;
/** The first read waits this long at most for the page to draw its first piece (`FirstReadPause`). */
const FIRST_READ_PAUSE_MAX_MS = 5000;
/**
 * How long the page's HTML waits for the trace's first piece, to show its rows in the first frame.
 * VS Code prepares a new webview for longer than this (about 260 ms from the panel's creation in the
 * benchmark), and only then loads the HTML, so the wait costs nothing when it is shorter.
 */
const FIRST_PAINT_WAIT_MS = 300;
/** How often the page hears how much of a long trace has arrived. */
const READING_REPORT_MS = 100;

export interface JobTraceTarget {
  account: AccountInfo;
  project: Project;
  job: Job;
}

/** What the panel's Tail and Download buttons run: the same as the commands, with their own UI. */
export interface JobPanelActions {
  tail(ref: JobRef): Promise<unknown>;
  downloadArtifacts(ref: JobRef): Promise<unknown>;
}

export interface JobTracePanelOptions {
  /** Poll delays while the job runs (defaults 1 s, backing off to 10 s). */
  minIntervalMs?: number;
  maxIntervalMs?: number;
  /** A panel VS Code restored after a window reload, to fill instead of opening one. */
  restoredPanel?: vscode.WebviewPanel;
  /** How long the page's HTML waits for the trace's first piece (default `FIRST_PAINT_WAIT_MS`). */
  firstPaintWaitMs?: number;
}

export function jobTracePanelKey(target: {
  account: { id: string };
  project: { id: number };
  job: { id: number };
}): string {
  return `${target.account.id}|${target.project.id}|${target.job.id}`;
}

/**
 * A job's trace in a webview. The host follows the trace (If-None-Match polls, only new bytes passed
 * on) and keeps it as the server sent it, in byte blocks (`TraceBytes`), for copy and save; the
 * host never decodes it for the page: the page's worker does, once, then parses it, and the page
 * draws only the lines on screen. When the page reloads (the panel was hidden) it gets the whole
 * trace again.
 */
export class JobTracePanel implements OpenPanel {
  readonly host: PanelHost<JobTracePageMessage, JobTraceHostMessage>;
  /** The raw trace, as the server sent it. */
  private readonly trace = new TraceBytes();
  /** A poll's bytes not posted yet (views of `trace`): they go to the page as one `append`. */
  private unsent: Uint8Array[] = [];
  private unsentReplaces = false;
  private flushQueued = false;
  /** Bytes for the page not sent yet, in order; with `outboxReplaces`, they replace the page's trace. */
  private outbox: Uint8Array[] = [];
  private outboxReplaces = false;
  /**
   * Pieces the page can take now (`PAGE_WINDOW` at most). None after a snapshot until the page has
   * drawn its first piece: megabytes posted at once would reach the page before that piece does.
   */
  private credits = 0;
  private job: Job;
  private follower: TraceFollower<Job> | undefined;
  /** The job has ended and its whole trace is here; `completeSent` once the page was told. */
  private traceComplete = false;
  private completeSent = false;
  /** The first read of the trace is going on; when the page was last told how far it is. */
  private reading = true;
  private readingReportedAt = 0;
  // A third of the request timeout at most: a held body must not be taken for a stalled one.
  private readonly firstReadPause = new FirstReadPause(
    Math.min(
      FIRST_READ_PAUSE_MAX_MS,
      (vscode.workspace.getConfiguration('forge').get<number>('requestTimeoutSeconds', 30) * 1000) / 3,
    ),
  );
  private notice: { level: 'info' | 'warning' | 'error'; message: string } | undefined;
  /** Settles the wait of the page's HTML for the trace's first piece (`firstPaint`). */
  private firstPieceHere: () => void = () => undefined;

  constructor(
    private readonly services: Services,
    private readonly registry: PanelRegistry<JobTracePanel>,
    private readonly actions: JobPanelActions,
    readonly account: AccountInfo,
    readonly project: Project,
    job: Job,
    private readonly options: JobTracePanelOptions = {},
  ) {
    this.job = job;
    this.host = new PanelHost<JobTracePageMessage, JobTraceHostMessage>({
      kind: 'jobTrace',
      app: 'jobs',
      title: this.title(),
      extensionUri: services.context.extensionUri,
      log: services.log,
      schema: JobTracePageMessageSchema,
      // Parses and keeps the trace off the page's thread (see traceWorker.ts).
      workers: true,
      restoreKey: { accountId: account.id, projectId: project.id, id: job.id },
      restoredPanel: options.restoredPanel,
      firstPaint: this.firstPaint(new Promise((resolve) => (this.firstPieceHere = resolve))),
    });
    this.host.onReady(() => this.sendSnapshot());
    this.host.handleMessages((message) => this.onMessage(message));
    this.host.onDidDispose(() => {
      this.firstReadPause.release();
      this.follower?.stop();
    });
    this.follow();
  }

  /** The job shown now (a retry switches the panel to the new job). */
  get currentJob(): Job {
    return this.job;
  }

  /** The trace decoded (Copy, and tests); Save writes the bytes. */
  get rawTrace(): string {
    return new TextDecoder().decode(this.trace.whole());
  }

  /** How much of the trace had been read when the page first asked for it (host tests). */
  bytesAtFirstSnapshot: number | undefined;

  /** Bytes of the trace not sent to the page yet (waiting for it to parse what it has). */
  get unsentBytes(): number {
    return this.outbox.reduce((sum, part) => sum + part.length, 0);
  }

  get isFollowing(): boolean {
    return this.follower !== undefined && !this.follower.isStopped;
  }

  /** Polls now (tests, and after an action changed the job). */
  pollNow(): void {
    if (this.isFollowing) this.follower?.pollNow();
    else this.follow();
  }

  /** Resolves once the poll in flight, if any, has finished. */
  async settled(): Promise<void> {
    await this.follower?.settled();
  }

  dispose(): void {
    this.follower?.stop();
    this.host.dispose();
  }

  private receive(bytes: Uint8Array, replaced: boolean): void | Promise<void> {
    if (replaced) {
      this.trace.clear();
      this.unsent = [];
      this.unsentReplaces = true;
    }
    this.unsent.push(...this.trace.append(bytes));
    this.reportReading();
    if (this.trace.size >= SNAPSHOT_FIRST_BYTES) this.firstPieceHere();
    if (!this.flushQueued) {
      // The follower hands a read's bytes on in one or more calls, synchronously: post once it is done.
      this.flushQueued = true;
      queueMicrotask(() => this.flushText());
    }
    return this.firstReadPause.hold(this.trace.size, SNAPSHOT_FIRST_BYTES);
  }

  /** The page says how much of a long trace is here while the first read goes on (a few times a second). */
  private reportReading(): void {
    const now = Date.now();
    if (!this.reading || now - this.readingReportedAt < READING_REPORT_MS) return;
    this.readingReportedAt = now;
    // Not `post`: that flushes the text, which goes to the page once the follower's read is handed on.
    this.host.post({ type: 'progress', receivedBytes: this.trace.size, done: false });
  }

  private readDone(): void {
    if (!this.reading) return;
    this.reading = false;
    this.post({ type: 'progress', receivedBytes: this.trace.size, done: true });
  }

  private flushText(): void {
    this.flushQueued = false;
    const parts = this.unsent;
    const replaced = this.unsentReplaces;
    this.unsent = [];
    this.unsentReplaces = false;
    // A page that is not listening gets all of it in the snapshot that answers its `ready`.
    if (!this.host.isReady) return;
    if (replaced) this.replaceOutbox();
    for (const part of parts) this.outbox.push(part);
    this.sendOutbox();
  }

  private replaceOutbox(): void {
    this.outbox = [];
    this.outboxReplaces = true;
  }

  /** Sends the page as many pieces of the outbox as it can take now. */
  private sendOutbox(): void {
    while (this.credits > 0 && (this.outboxReplaces || this.outbox.length > 0)) {
      // A plain Uint8Array of its own: a Node Buffer would cross as JSON, or share a larger buffer.
      const piece = takeBytes(this.outbox, SNAPSHOT_PIECE_BYTES);
      const gzip = piece.length >= GZIP_MIN_BYTES;
      const bytes = gzip ? new Uint8Array(gzipSync(piece, { level: 1 })) : piece;
      this.host.post({ type: 'append', bytes, replaced: this.outboxReplaces, gzip });
      walkthroughStepDone('traceShown');
      this.outboxReplaces = false;
      this.credits--;
    }
    if (this.traceComplete && !this.completeSent && this.outbox.length === 0 && !this.outboxReplaces) {
      this.completeSent = true;
      this.host.post({ type: 'complete', openAt: openFinishedTraceAt() });
      walkthroughStepDone('traceShown');
    }
  }

  /**
   * Posts a message after the text received before it has gone to the outbox. Text waiting there
   * for the page to parse what it has may reach the page after the message.
   */
  private post(message: JobTraceHostMessage): void {
    this.flushText();
    this.host.post(message);
  }

  private title(): string {
    return `${this.job.name} #${this.job.id}`;
  }

  private ref(): JobRef {
    return { kind: 'forge.jobRef', accountId: this.account.id, project: this.project, job: this.job };
  }

  /** Starts following from scratch: a new follower reads the whole trace again, so the page starts over too. */
  private follow(): void {
    this.follower?.stop();
    this.reading = true;
    this.readingReportedAt = 0;
    this.traceComplete = false;
    this.completeSent = false;
    this.unsent = [];
    this.unsentReplaces = false;
    if (this.trace.size > 0) {
      this.trace.clear();
      this.replaceOutbox();
      this.sendOutbox();
    }
    const jobId = this.job.id;
    const projectId = this.project.id;
    const follower = new TraceFollower<Job>(
      jobTraceSource<Job>(this.services.accounts.client(this.account.id), projectId, jobId),
      {
        onBytes: (bytes, replaced) => this.receive(bytes, replaced),
        onJob: (job) => {
          // The first poll has read the whole trace (a short one) and the job.
          this.firstPieceHere();
          this.readDone();
          this.job = job;
          this.host.title = this.title();
          this.setNotice(undefined);
          this.post({
            type: 'job',
            job: jobView(job, this.project),
            following: !isJobFinished(job.status),
          });
        },
        onEnd: (job) => {
          this.firstPieceHere();
          this.readDone();
          this.job = job;
          this.post({ type: 'job', job: jobView(job, this.project), following: false });
          this.traceComplete = true;
          this.sendOutbox();
        },
        onError: (error, willRetry) => {
          this.firstPieceHere();
          this.readDone();
          const message = describeError(error);
          this.services.log.warn(`Trace of ${jobTitle(this.job)}: ${message}`);
          this.setNotice({
            level: willRetry ? 'warning' : 'error',
            message: willRetry
              ? vscode.l10n.t('Could not refresh the trace ({0}); retrying.', message)
              : message,
          });
        },
      },
      { minIntervalMs: this.options.minIntervalMs, maxIntervalMs: this.options.maxIntervalMs },
    );
    this.follower = follower;
    follower.start();
  }

  private setNotice(notice: { level: 'info' | 'warning' | 'error'; message: string } | undefined): void {
    if (!notice && !this.notice) return;
    this.notice = notice;
    this.post({ type: 'notice', level: notice?.level ?? 'info', message: notice?.message ?? '' });
  }

  /**
   * The whole state for a page that just loaded. A long trace goes in pieces: a small first one the
   * page can draw at once, then, once the page has drawn it (`snapshotDrawn`), larger ones, so the
   * first rows do not wait for megabytes to cross the webview channel (a remote window sends them
   * over its connection).
   */
  private sendSnapshot(): void {
    this.bytesAtFirstSnapshot ??= this.trace.size;
    // The snapshot carries everything received so far.
    this.unsent = [];
    this.unsentReplaces = false;
    this.outbox = this.trace.parts();
    const first = takeBytes(this.outbox, SNAPSHOT_FIRST_BYTES);
    this.host.post({
      type: 'snapshot',
      job: jobView(this.job, this.project),
      bytes: first,
      following: this.isFollowing && !isJobFinished(this.job.status),
      reading: this.reading,
      showTimestamps: showTimestamps(),
      boldBright: boldBright(),
    });
    this.outboxReplaces = false;
    this.credits = 0;
    this.completeSent = false;
    if (this.notice) this.host.post({ type: 'notice', ...this.notice });
  }

  /**
   * The job's header and the last rows of the trace's first piece (those the page's first snapshot
   * draws), once that piece is here or `FIRST_PAINT_WAIT_MS` have passed.
   */
  private async firstPaint(firstPiece: Promise<void>): Promise<FirstPaint> {
    const waitMs = this.options.firstPaintWaitMs ?? FIRST_PAINT_WAIT_MS;
    await Promise.race([firstPiece, delay(waitMs, undefined, { ref: false })]);
    const piece = takeBytes(this.trace.parts(), SNAPSHOT_FIRST_BYTES);
    const rows = traceFirstPaintRows(piece);
    return {
      markup: jobTraceFirstPaint(jobView(this.job, this.project), rows, {
        showTimestamps: showTimestamps(),
        boldBright: boldBright(),
        reading: this.reading,
      }),
      style: JOB_TRACE_FIRST_PAINT_STYLE,
    };
  }

  /** The page drew the snapshot's first piece, or parsed a piece: it can take more. */
  private pageCanTake(pieces: number): void {
    this.credits = Math.min(PAGE_WINDOW, this.credits + pieces);
    this.sendOutbox();
  }

  private async onMessage(message: JobTracePageMessage): Promise<unknown> {
    switch (message.type) {
      case 'action':
        return this.runAction(message.action);
      case 'copy': {
        const tail = new TracePlainTail();
        const text = tail.push(this.rawTrace) + tail.finish();
        await vscode.env.clipboard.writeText(text);
        void showStatusMessage(vscode.l10n.t('Copied the trace of {0}', jobTitle(this.job)), 3000);
        return text.length;
      }
      case 'saveRaw':
        return this.saveRaw();
      case 'tail':
        return this.actions.tail(this.ref());
      case 'snapshotDrawn':
        this.firstReadPause.release();
        return this.pageCanTake(PAGE_WINDOW);
      case 'parsed':
        return this.pageCanTake(1);
      default:
        return undefined;
    }
  }

  /** A header action: job changes through the same flow as the commands; the panel follows the job it got back. */
  private async runAction(action: JobPanelAction): Promise<unknown> {
    if (action === 'openInBrowser') {
      return openServerLink(
        jobWebUrl(this.job, this.project.web_url),
        vscode.l10n.t('the web page of job #{0}', this.job.id),
      );
    }
    if (action === 'downloadArtifacts') return this.actions.downloadArtifacts(this.ref());
    let done: Awaited<ReturnType<typeof changeJobAsked>>;
    try {
      done = await changeJobAsked(
        this.services,
        { account: this.account, project: this.project, job: this.job, node: undefined },
        action,
      );
    } catch (error) {
      // Said where the person clicked, and as a notification, as a command's failure is.
      const message = describeError(error);
      this.services.log.error(`Trace of ${jobTitle(this.job)}: ${action}: ${message}`);
      void showError(message);
      this.host.post({ type: 'notice', level: 'error', message });
      return undefined;
    }
    const returned = done?.job;
    const result = done?.message;
    if (returned && returned.id !== this.job.id) {
      // A retry runs as a new job: show that one, as the web page does.
      this.job = returned;
      this.registry.rekey(
        this,
        jobTracePanelKey({ account: this.account, project: this.project, job: returned }),
      );
      this.host.title = this.title();
      this.host.setRestoreKey({ accountId: this.account.id, projectId: this.project.id, id: returned.id });
      this.follow();
      this.sendSnapshot();
    } else if (returned) {
      this.job = returned;
      this.post({
        type: 'job',
        job: jobView(returned, this.project),
        following: !isJobFinished(returned.status),
      });
      this.pollNow();
    }
    return result;
  }

  private async saveRaw(): Promise<string | undefined> {
    const fileName = `${(this.project.path ?? 'project').replace(/[^\w.-]+/g, '_')}-${this.job.name.replace(/[^\w.-]+/g, '_')}-${this.job.id}.log`;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const uri = await vscode.window.showSaveDialog({
      defaultUri: folder ? vscode.Uri.joinPath(folder, fileName) : undefined,
      filters: { 'Job traces': ['log', 'txt'] },
      saveLabel: vscode.l10n.t('Save Trace'),
      title: vscode.l10n.t('Save the raw trace of {0}', jobTitle(this.job)),
    });
    if (!uri) return undefined;
    await this.saveRawTo(uri);
    void showInformation(vscode.l10n.t('Saved the trace of {0} to {1}.', jobTitle(this.job), uri.fsPath));
    return uri.fsPath;
  }

  /** Writes the trace as the server sent it. */
  async saveRawTo(uri: vscode.Uri): Promise<void> {
    await vscode.workspace.fs.writeFile(uri, this.trace.whole());
  }
}

/** `forge.trace.showTimestamps`: the runner's timestamps in the trace's gutter. */
function showTimestamps(): boolean {
  return vscode.workspace.getConfiguration('forge').get<boolean>('trace.showTimestamps', true);
}

/** `terminal.integrated.drawBoldTextInBrightColors`: the trace draws bold basic colours bright. */
function boldBright(): boolean {
  return vscode.workspace
    .getConfiguration('terminal.integrated')
    .get<boolean>('drawBoldTextInBrightColors', true);
}

/** `forge.trace.openAt`: where a finished job's trace opens. */
function openFinishedTraceAt(): 'end' | 'firstError' {
  return vscode.workspace.getConfiguration('forge').get<string>('trace.openAt') === 'firstError'
    ? 'firstError'
    : 'end';
}
