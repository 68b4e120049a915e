/**
 * The sides of the review's diffs as VS Code asks for them, also for a diff tab it restores after a
 * window reload, before anything else has loaded the core: the entry registers the `forge-review:`
 * scheme (extension.ts) and hands the request here. A side is read from its URI as always; the
 * merge request's threads, which lived in the window that was reloaded, are placed again (once).
 */
import * as vscode from 'vscode';
import type { HostingClient, MergeRequest, Project } from '../../api/hosting';
import type { AccountManager } from '../../platform/accounts';
import { describeError } from '../../platform/commands/errorMessages';
import type { ReviewTarget } from './changedFiles';
import { type ReviewContentProvider, sideAddress, sideProject } from './reviewContent';
import type { ReviewComments } from './reviewComments';

export class ReviewSides implements vscode.TextDocumentContentProvider {
  /** Merge requests whose threads were looked for already (`account|project|iid`). */
  private readonly resumed = new Set<string>();

  constructor(
    private readonly content: ReviewContentProvider,
    private readonly comments: ReviewComments,
    private readonly accounts: AccountManager,
    private readonly prepare: (target: ReviewTarget) => Promise<unknown>,
    private readonly log: { warn(line: string): void },
  ) {}

  provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    this.resume(uri);
    return this.content.provideTextDocumentContent(uri, token);
  }

  /** The last look for a restored diff's threads (host tests wait for it). */
  resuming: Promise<void> = Promise.resolve();

  private resume(uri: vscode.Uri): void {
    const side = sideAddress(uri);
    if (!side || side.mergeRequestIid === undefined || side.accountId === '') return;
    const iid = side.mergeRequestIid;
    const key = `${side.accountId}|${side.project}|${iid}`;
    if (this.resumed.has(key)) return;
    this.resumed.add(key);
    const project = sideProject(side);
    // Opened in this window: its threads are there (no request for this).
    if (typeof project === 'number' && this.comments.hasSession(side.accountId, project, iid)) return;
    this.resuming = this.placeThreads(side.accountId, project, iid).catch((error: unknown) => {
      this.resumed.delete(key);
      this.log.warn(`Threads of !${iid} for a restored diff: ${describeError(error)}`);
    });
  }

  private async placeThreads(accountId: string, projectRef: number | string, iid: number): Promise<void> {
    const client: HostingClient = await this.accounts.client(accountId);
    const project: Project = await client.getProject(projectRef);
    if (this.comments.hasSession(accountId, project.id, iid)) return;
    const mergeRequest: MergeRequest = await client.getMergeRequest(project.id, iid);
    await this.prepare({ accountId, project, mergeRequest });
  }
}
