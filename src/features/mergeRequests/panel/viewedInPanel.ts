/**
 * "Viewed" in the panel's Changes tab: the same ticks as the trees' Changes folders (the review
 * feature keeps them), sent to the page after each snapshot and after each tick anywhere.
 */
import type * as vscode from 'vscode';
import type { MergeRequestDiff } from '../../../api/hosting';
import { displayPath } from '../../../domain/mergeRequestView';
import type { ReviewTarget, ViewedFiles } from '../../review';

export class PanelViewedFiles implements vscode.Disposable {
  private readonly watch: vscode.Disposable | undefined;

  constructor(
    private readonly viewed: ViewedFiles | undefined,
    private readonly current: () => { target: ReviewTarget; changes: readonly MergeRequestDiff[] },
    private readonly post: (paths: string[]) => void,
  ) {
    this.watch = viewed?.onDidChange(() => this.send());
  }

  /** Tells the page which of the files it shows are viewed. */
  send(): void {
    if (!this.viewed) return;
    const { target, changes } = this.current();
    const viewed = this.viewed;
    this.post(changes.filter((change) => viewed.isViewed(target, change)).map(displayPath));
  }

  async set(path: string, viewed: boolean): Promise<void> {
    const { target, changes } = this.current();
    const change = changes.find((each) => displayPath(each) === path);
    // A file a refresh took away: the page is redrawn with the files there are.
    if (!change || !this.viewed) return;
    await this.viewed.setViewed(target, [change], viewed);
  }

  dispose(): void {
    this.watch?.dispose();
  }
}
