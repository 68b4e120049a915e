/**
 * "Viewed" on a merge request's changed files: the tick a reviewer puts on each file, shown in the
 * Changes folders of the trees and in the panel's Changes tab, and "Hide Viewed Files". Kept in the
 * workspace's state (`state/viewedFiles.ts`); a file whose diff a later push changed is unviewed.
 */
import * as vscode from 'vscode';
import type { MergeRequestDiff } from '../../api/hosting';
import { diffRefs } from '../../domain/mergeRequestView';
import {
  type ViewedCount,
  type ViewedFile,
  countViewed,
  viewedFileOf,
  viewedMergeRequestKey,
} from '../../domain/viewedFiles';
import { ViewedFilesStore } from '../../state/viewedFiles';
import type { ReviewTarget } from './changedFiles';

const HIDING_KEY = 'forge.review.hideViewedFiles';
/** The context key the Changes folder's "Hide" and "Show" commands are chosen by. */
const HIDING_CONTEXT = 'forge.review.hidingViewed';

export class ViewedFiles implements vscode.Disposable {
  private readonly store: ViewedFilesStore;
  /** A target's head and key, read once: a thousand rows ask for them on every redraw. */
  private readonly targetFacts = new WeakMap<ReviewTarget, { head: string; key: string }>();
  private readonly changes = new vscode.EventEmitter<string | undefined>();
  private readonly storeWatch: { dispose(): void };
  /** Fires with a merge request's key when its ticks changed, or undefined when hiding was turned. */
  readonly onDidChange = this.changes.event;

  constructor(private readonly memento: vscode.Memento) {
    this.store = new ViewedFilesStore(memento);
    this.storeWatch = this.store.onDidChange((key) => this.changes.fire(key));
    void this.publishHiding();
  }

  get hiding(): boolean {
    return this.memento.get<boolean>(HIDING_KEY) === true;
  }

  async setHiding(hiding: boolean): Promise<void> {
    await this.memento.update(HIDING_KEY, hiding);
    await this.publishHiding();
    this.changes.fire(undefined);
  }

  private publishHiding(): Thenable<unknown> {
    return vscode.commands.executeCommand('setContext', HIDING_CONTEXT, this.hiding);
  }

  private factsOf(target: ReviewTarget): { head: string; key: string } {
    let facts = this.targetFacts.get(target);
    if (!facts) {
      const { mergeRequest } = target;
      facts = {
        head:
          diffRefs(mergeRequest)?.headSha ?? (typeof mergeRequest.sha === 'string' ? mergeRequest.sha : ''),
        key: viewedMergeRequestKey(target.accountId, target.project.id, mergeRequest.iid),
      };
      this.targetFacts.set(target, facts);
    }
    return facts;
  }

  /** The head commit a merge request's files are keyed with (a listed merge request has `sha`). */
  headOf(target: ReviewTarget): string {
    return this.factsOf(target).head;
  }

  /** The key a merge request's ticks are kept under. */
  keyOf(target: ReviewTarget): string {
    return this.factsOf(target).key;
  }

  /** Keys computed once per file and head: a thousand rows are drawn again on every tick. */
  private readonly keys = new WeakMap<MergeRequestDiff, { head: string; file: ViewedFile }>();

  fileOf(target: ReviewTarget, change: MergeRequestDiff): ViewedFile {
    const head = this.headOf(target);
    const known = this.keys.get(change);
    if (known?.head === head) return known.file;
    const file = viewedFileOf(change, head);
    this.keys.set(change, { head, file });
    return file;
  }

  isViewed(target: ReviewTarget, change: MergeRequestDiff): boolean {
    return this.store.isViewed(this.keyOf(target), this.fileOf(target, change));
  }

  count(target: ReviewTarget, changes: readonly MergeRequestDiff[]): ViewedCount {
    const key = this.keyOf(target);
    return countViewed(
      changes.map((change) => this.fileOf(target, change)),
      (file) => this.store.isViewed(key, file),
    );
  }

  setViewed(target: ReviewTarget, changes: readonly MergeRequestDiff[], viewed: boolean): Promise<void> {
    return this.store.setViewed(
      this.keyOf(target),
      changes.map((change) => this.fileOf(target, change)),
      viewed,
    );
  }

  reviewedHead(target: ReviewTarget): string | undefined {
    return this.store.reviewedHead(this.keyOf(target));
  }

  rememberReviewedHead(target: ReviewTarget, headSha: string): Promise<void> {
    return this.store.rememberReviewedHead(this.keyOf(target), headSha);
  }

  dispose(): void {
    this.storeWatch.dispose();
    this.changes.dispose();
  }
}

/** "3 of 12 viewed", or the plain count while none is viewed. */
export function viewedDescription(count: ViewedCount): string {
  if (count.viewed === 0) return String(count.total);
  return vscode.l10n.t('{0} of {1} viewed', count.viewed, count.total);
}
