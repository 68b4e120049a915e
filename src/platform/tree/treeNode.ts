import * as vscode from 'vscode';
import { describeError } from '../commands/errorMessages';
import { tooltipMarkdown } from '../serverMarkdown';
import { CancelledError, UnauthorizedError } from '../../api/http';
import type { PagedList } from '../../state/pagedList';
import { isTreeRow } from '../commands/defineCommand';

/** Every node of every tree: how it looks, and (for folders) its children. */
export interface TreeNode {
  getTreeItem(): vscode.TreeItem;
  getChildren?(): Promise<TreeNode[]>;
  /** A row with a checkbox: the person ticked or cleared it (the row says what went wrong itself). */
  checkboxChanged?(checked: boolean): void;
}

/** Whether a command argument is a tree row (VS Code passes the row a command ran on). */
export function isTreeNode(value: unknown): value is TreeNode {
  return isTreeRow(value);
}

/** A line of text: an empty list, a hint. */
export class MessageNode implements TreeNode {
  constructor(
    private readonly message: string,
    private readonly icon = 'info',
  ) {}

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.message);
    item.iconPath = new vscode.ThemeIcon(this.icon);
    item.contextValue = 'message';
    return item;
  }
}

/**
 * What went wrong, and a click that fixes it: retry, or update the token when the server
 * rejected it.
 */
export class ErrorNode implements TreeNode {
  constructor(
    readonly error: unknown,
    readonly retry: () => void,
    readonly accountId: string | undefined,
  ) {}

  get tokenRejected(): boolean {
    return this.error instanceof UnauthorizedError;
  }

  getTreeItem(): vscode.TreeItem {
    // In words: the request (method, route) is in the log, where the failure was written.
    const message = describeError(this.error);
    const item = new vscode.TreeItem(
      this.tokenRejected
        ? vscode.l10n.t('The server rejected the token. Click to update it.')
        : vscode.l10n.t('Could not load: {0}', message),
    );
    item.tooltip = tooltipMarkdown().appendText(message);
    item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
    item.contextValue = this.tokenRejected ? 'error tokenRejected' : 'error retryable';
    item.command = this.tokenRejected
      ? {
          command: 'forge.account.updateToken',
          title: vscode.l10n.t('Update Token'),
          arguments: [this.accountId],
        }
      : { command: 'forge.tree.retry', title: vscode.l10n.t('Retry'), arguments: [this] };
    return item;
  }
}

/** The last item of a partly loaded list. */
export class LoadMoreNode implements TreeNode {
  constructor(
    readonly load: () => void,
    private readonly loadedCount: number,
    private readonly total: number | undefined,
    /** Every page that is left ("Load All"), with a word after each; the tree redraws at the end. */
    readonly loadAll: (
      signal: AbortSignal,
      onPage: (loaded: number, total: number | undefined) => void,
    ) => Promise<void>,
  ) {}

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('Load more…'));
    item.description =
      this.total !== undefined
        ? vscode.l10n.t('{0} of {1}', this.loadedCount, this.total)
        : vscode.l10n.t('{0} shown', this.loadedCount);
    item.iconPath = new vscode.ThemeIcon('fold-down');
    item.contextValue = 'loadMore';
    item.command = { command: 'forge.tree.loadMore', title: vscode.l10n.t('Load More'), arguments: [this] };
    return item;
  }
}

/**
 * The children of a paged list: its items, then an error (with retry) or "Load more" as it
 * stands. `changed` asks the tree to redraw this folder after a page arrived.
 */
export async function pagedChildren<T>(
  list: PagedList<T>,
  toNodes: (items: readonly T[]) => TreeNode[],
  changed: () => void,
  options: { emptyMessage: string; accountId: string | undefined },
): Promise<TreeNode[]> {
  await list.ensureLoaded();
  const nodes = list.items.length > 0 ? toNodes(list.items) : [];
  const error = list.error;
  if (error !== undefined && !(error instanceof CancelledError)) {
    nodes.push(
      new ErrorNode(
        error,
        () => {
          void list.loadNext().then(changed);
        },
        options.accountId,
      ),
    );
  } else if (list.hasMore) {
    nodes.push(
      new LoadMoreNode(
        () => {
          void list.loadNext().then(changed);
        },
        list.items.length,
        list.total,
        (signal, onPage) => list.loadAll(signal, onPage).finally(changed),
      ),
    );
  } else if (list.items.length === 0) {
    nodes.push(new MessageNode(options.emptyMessage));
  }
  return nodes;
}
