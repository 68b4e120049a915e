import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ChannelAccountInfo, ChannelAccountManager } from '../../platform/channelAccounts';
import type { Services } from '../../services';
import type { ChannelDrafts, ChannelItemIds } from '../../state/channelDrafts';
import type { ChannelTreeProvider } from './channelTreeProvider';
import { chooseAccount } from '../../platform/accountPicker';

/** What the channel command modules share. */
export interface ChannelCommandContext {
  readonly services: Services;
  readonly accounts: ChannelAccountManager;
  readonly tree: ChannelTreeProvider;
  readonly drafts: ChannelDrafts;
  readonly itemIds: ChannelItemIds;
}

/** The account a tree node belongs to, if the argument is one of the Channel view's nodes. */
export function accountOfNode(arg: unknown): ChannelAccountInfo | undefined {
  if (typeof arg !== 'object' || arg === null || !('getTreeItem' in arg) || !('account' in arg))
    return undefined;
  const account = (arg as { account: unknown }).account;
  if (typeof account !== 'object' || account === null) return undefined;
  const candidate = account as Partial<ChannelAccountInfo>;
  return typeof candidate.id === 'string' && typeof candidate.serverUrl === 'string' && 'login' in candidate
    ? (account as ChannelAccountInfo)
    : undefined;
}

/**
 * Which channel account: the node's, the id given, the only one, or the one picked. Says what to do
 * when there is none.
 */
export async function pickChannelAccount(
  accounts: ChannelAccountManager,
  placeHolder: string,
  arg?: unknown,
  accountId?: string,
): Promise<ChannelAccountInfo | undefined> {
  const fromNode = accountOfNode(arg);
  if (fromNode) return accounts.get(fromNode.id) ?? fromNode;
  const id = accountId ?? (typeof arg === 'string' ? arg : undefined);
  if (id !== undefined) {
    const account = accounts.get(id);
    if (!account) throw new Error(vscode.l10n.t('That channel account no longer exists.'));
    return account;
  }
  return chooseAccount(
    accounts.list(),
    placeHolder,
    vscode.l10n.t('No channel account yet. Run "Forge: Add Channel Account" first.'),
  );
}

/** Where save dialogs start: the first workspace folder, else the home folder. */
export function defaultSaveUri(fileName: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  return folder?.scheme === 'file'
    ? vscode.Uri.joinPath(folder, fileName)
    : vscode.Uri.file(join(homedir(), fileName));
}

/** A short name for the channel of an account, for messages. */
export function channelName(account: ChannelAccountInfo): string {
  return account.channel?.name ?? account.label;
}

/** Refreshes the streams of an account after something was written. */
export function reloadStreams(context: ChannelCommandContext, account: ChannelAccountInfo): void {
  const node = context.tree.accountNode(account.id);
  node?.stream.reload();
}
