/**
 * The two sides of a changed file for VS Code's diff editor, as read-only documents of their own
 * scheme (`forge-review:`): from the local clone when it has the commit (`git show`, never touching
 * the working tree), else from the server (`repository/files/:path/raw?ref=SHA`). A side is read
 * once per commit and path and kept: a commit's file never changes.
 */
import * as vscode from 'vscode';
import { REVIEW_SCHEME } from '../../shell';
import { ReplyTooLargeError } from '../../api/http';
import type { ProjectRef } from '../../api/hosting';
import { isCommitSha } from '../../domain/mergeRequestView';
import { type FileSide, shownText, tooLargeText } from '../../domain/reviewFiles';
import type { AccountManager } from '../../platform/accounts';
import { runGit } from '../../platform/localGit';

/** How many sides are kept (the most recently read). */
const KEPT_SIDES = 200;

export interface SideSource {
  accountId: string;
  project: ProjectRef;
  /** A clone of the project in this workspace, tried first. */
  cloneRoot?: string;
  /** The merge request the side belongs to: its comment threads go on the side's lines. */
  mergeRequestIid?: number;
}

/** What a side's URI says: where it is read from, which commit and path. */
export interface SideAddress {
  accountId: string;
  project: string;
  mergeRequestIid: number | undefined;
  /** The clone tried first; '' for none. */
  cloneRoot: string;
  sha: string;
  path: string;
}

export function sideAddress(uri: vscode.Uri): SideAddress | undefined {
  if (uri.scheme !== REVIEW_SCHEME) return undefined;
  const query = new URLSearchParams(uri.query);
  const iid = Number(query.get('mr') ?? '');
  return {
    accountId: query.get('account') ?? '',
    project: query.get('project') ?? '',
    mergeRequestIid: Number.isInteger(iid) && iid > 0 ? iid : undefined,
    cloneRoot: query.get('root') ?? '',
    sha: query.get('sha') ?? '',
    path: uri.path.replace(/^\/+/, ''),
  };
}

/** The project a side names, as the client takes it: its id, or its path. */
export function sideProject(side: SideAddress): number | string {
  return /^\d+$/.test(side.project) ? Number(side.project) : side.project;
}

export class ReviewContentProvider implements vscode.TextDocumentContentProvider {
  private readonly kept = new Map<string, string>();
  private readonly reads = new Map<string, Promise<string>>();
  /** Clones this provider found: only these are read with `git show` (a URI can name any folder). */
  private readonly clones = new Set<string>();

  constructor(private readonly accounts: AccountManager) {}

  uri(source: SideSource, side: FileSide): vscode.Uri {
    if (source.cloneRoot) this.clones.add(source.cloneRoot);
    const query = new URLSearchParams({
      account: source.accountId,
      project: String(source.project),
      sha: side.sha ?? '',
      root: source.cloneRoot ?? '',
      mr: source.mergeRequestIid === undefined ? '' : String(source.mergeRequestIid),
    });
    // A path from the server that starts with `/` would make `//host/…`, which a URI cannot hold.
    const path = `/${side.path.replace(/^\/+/, '')}`;
    return vscode.Uri.from({ scheme: REVIEW_SCHEME, path, query: query.toString() });
  }

  /** Reads a side into the cache; a failure is left for the editor to show when it asks. */
  async prefetch(uri: vscode.Uri): Promise<void> {
    const source = new vscode.CancellationTokenSource();
    try {
      await this.provideTextDocumentContent(uri, source.token);
    } catch {
      // The editor asks again and shows the error in place of the text.
    } finally {
      source.dispose();
    }
  }

  provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const side = sideAddress(uri);
    if (!side || side.sha === '') return Promise.resolve('');
    if (!isCommitSha(side.sha))
      return Promise.reject(new Error(vscode.l10n.t('The diff side does not name a commit.')));
    const key = `${side.accountId}\n${side.project}\n${side.sha}\n${side.path}`;
    const kept = this.kept.get(key);
    if (kept !== undefined) return Promise.resolve(kept);
    let read = this.reads.get(key);
    if (!read) {
      const controller = new AbortController();
      token.onCancellationRequested(() => controller.abort());
      read = this.read(side, controller.signal).then((text) => {
        this.keep(key, text);
        return text;
      });
      this.reads.set(key, read);
      void read.finally(() => this.reads.delete(key)).catch(() => undefined);
    }
    return read;
  }

  private async read(side: SideAddress, signal: AbortSignal): Promise<string> {
    const { cloneRoot, sha, path } = side;
    if (cloneRoot !== '' && this.clones.has(cloneRoot)) {
      const local = await runGit(cloneRoot, ['show', `${sha}:${path}`], signal).catch(() => undefined);
      if (local !== undefined) return local;
    }
    const client = await this.accounts.client(side.accountId);
    try {
      const bytes = await client.getRawFile(sideProject(side), path, sha, {
        signal,
      });
      return shownText(path, bytes);
    } catch (error) {
      if (error instanceof ReplyTooLargeError)
        return tooLargeText(path, error.declaredBytes ?? error.limitBytes);
      throw error;
    }
  }

  private keep(key: string, text: string): void {
    this.kept.delete(key);
    this.kept.set(key, text);
    for (const oldest of this.kept.keys()) {
      if (this.kept.size <= KEPT_SIDES) break;
      this.kept.delete(oldest);
    }
  }
}
