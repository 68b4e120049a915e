import * as vscode from 'vscode';
import { describeError } from '../../platform/commands/errorMessages';
import type { HostingClient, Job, Project } from '../../api/hosting';
import { jobTitle, projectPath } from '../../domain/jobActions';
import { statusAppearance } from '../../domain/jobStatus';
import { formatDuration } from '../../domain/time';
import { TracePlainTail } from '../../domain/trace';
import { TraceFollower, decodeText, jobTraceSource } from '../../state/traceFollower';
import type { AccountInfo } from '../../platform/accounts';

/** Characters of appended text each tail remembers for tests (the channel itself has it all). */
const RECENT_TEXT_CHARS = 64 * 1024;

export interface TailTarget {
  account: AccountInfo;
  project: Project;
  job: Job;
}

/** One job's trace streaming into its own output channel. */
export class TraceTail implements vscode.Disposable {
  readonly channel: vscode.OutputChannel;
  readonly follower: TraceFollower<Job>;
  private readonly formatter = new TracePlainTail({
    timestamps: vscode.workspace.getConfiguration('forge').get<boolean>('trace.showTimestamps', true),
  });
  private recent = '';
  /** Set once the job has ended or the tail was stopped: how it ended, in words. */
  endedWith: string | undefined;
  appendedChars = 0;
  private readonly endedEmitter = new vscode.EventEmitter<string>();
  readonly onDidEnd = this.endedEmitter.event;

  constructor(
    readonly key: string,
    readonly target: TailTarget,
    client: HostingClient,
    log: vscode.LogOutputChannel,
    pollIntervals: { minIntervalMs: number; maxIntervalMs: number },
    /** The channel of an earlier tail of this job, cleared and used again. */
    channel?: vscode.OutputChannel,
  ) {
    const { project, job } = target;
    channel?.clear();
    this.channel =
      channel ??
      vscode.window.createOutputChannel(vscode.l10n.t('Forge: {0} {1}', projectPath(project), jobTitle(job)));
    this.follower = new TraceFollower<Job>(
      jobTraceSource<Job>(client, project.id, job.id),
      {
        // The one place a tailed trace is decoded.
        onBytes: decodeText((text, replaced) => {
          if (replaced && this.appendedChars > 0) {
            this.formatter.reset();
            this.append(
              vscode.l10n.t('\n── The trace was rewritten (erased or restarted); showing it again ──\n'),
            );
          }
          this.append(this.formatter.push(text));
        }),
        onJob: () => undefined,
        onEnd: (ended) => {
          this.append(this.formatter.finish());
          const appearance = statusAppearance(ended.status);
          const duration = formatDuration(ended.started_at, ended.finished_at);
          this.finish(
            duration
              ? vscode.l10n.t('{0} ended: {1} after {2}.', jobTitle(ended), appearance.label, duration)
              : vscode.l10n.t('{0} ended: {1}.', jobTitle(ended), appearance.label),
          );
        },
        onError: (error, willRetry) => {
          log.warn(`Tail of ${jobTitle(job)}: ${error instanceof Error ? error.message : String(error)}`);
          const message = describeError(error);
          if (!willRetry) {
            this.append(this.formatter.finish());
            this.finish(vscode.l10n.t('Stopped following {0}: {1}', jobTitle(job), message));
          }
        },
      },
      pollIntervals,
    );
  }

  /** The last appended text (up to 64 KB), for tests. */
  get recentText(): string {
    return this.recent;
  }

  get isActive(): boolean {
    return this.endedWith === undefined;
  }

  start(): void {
    this.channel.appendLine(
      vscode.l10n.t(
        '── Following the trace of {0} in {1} ──',
        jobTitle(this.target.job),
        projectPath(this.target.project),
      ),
    );
    this.follower.start();
  }

  stop(): void {
    if (!this.isActive) return;
    this.follower.stop();
    this.append(this.formatter.finish());
    this.finish(vscode.l10n.t('Stopped following {0}.', jobTitle(this.target.job)));
  }

  dispose(): void {
    this.handOverChannel().dispose();
  }

  /** Ends this tail and gives its channel to the next tail of the job. */
  handOverChannel(): vscode.OutputChannel {
    this.follower.stop();
    this.endedEmitter.dispose();
    return this.channel;
  }

  private append(text: string): void {
    if (text.length === 0) return;
    this.channel.append(text);
    this.appendedChars += text.length;
    this.recent = (this.recent + text).slice(-RECENT_TEXT_CHARS);
  }

  private finish(message: string): void {
    if (this.endedWith !== undefined) return;
    this.endedWith = message;
    this.append(`── ${message} ──\n`);
    this.endedEmitter.fire(message);
  }
}

/**
 * The trace tails running in the output panel, one per job. Tailing a job again shows its channel;
 * a tail stops by itself when its job ends, or through "Forge: Stop Tailing Job Trace".
 */
export class TraceTails implements vscode.Disposable {
  private readonly tails = new Map<string, TraceTail>();
  private readonly changedEmitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changedEmitter.event;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly pollIntervals = { minIntervalMs: 1000, maxIntervalMs: 10_000 },
  ) {}

  static keyFor(target: TailTarget): string {
    return `${target.account.id}|${target.project.id}|${target.job.id}`;
  }

  get(key: string): TraceTail | undefined {
    return this.tails.get(key);
  }

  /** Tails that are still following their job. */
  active(): TraceTail[] {
    return [...this.tails.values()].filter((tail) => tail.isActive);
  }

  all(): TraceTail[] {
    return [...this.tails.values()];
  }

  /** Starts tailing (or, when this job is already tailed, shows its channel). */
  start(
    target: TailTarget,
    client: HostingClient,
    intervals: { minIntervalMs?: number; maxIntervalMs?: number } = {},
  ): { tail: TraceTail; started: boolean } {
    const key = TraceTails.keyFor(target);
    const existing = this.tails.get(key);
    if (existing?.isActive) {
      existing.channel.show(true);
      return { tail: existing, started: false };
    }
    // A new channel per tail would leave the old one's text behind: VS Code keeps a disposed output
    // channel's document open in the extension host once it has been shown.
    const tail = new TraceTail(
      key,
      target,
      client,
      this.log,
      {
        minIntervalMs: intervals.minIntervalMs ?? this.pollIntervals.minIntervalMs,
        maxIntervalMs: intervals.maxIntervalMs ?? this.pollIntervals.maxIntervalMs,
      },
      existing?.handOverChannel(),
    );
    this.tails.set(key, tail);
    tail.onDidEnd(() => this.changedEmitter.fire());
    tail.start();
    tail.channel.show(true);
    this.changedEmitter.fire();
    return { tail, started: true };
  }

  stop(key: string): boolean {
    const tail = this.tails.get(key);
    if (!tail?.isActive) return false;
    tail.stop();
    return true;
  }

  stopAll(): number {
    const active = this.active();
    for (const tail of active) tail.stop();
    return active.length;
  }

  dispose(): void {
    for (const tail of this.tails.values()) tail.dispose();
    this.tails.clear();
    this.changedEmitter.dispose();
  }
}
