import * as vscode from 'vscode';
import { ChannelAccountManager } from '../../platform/channelAccounts';
import { registerCommands } from '../../platform/commands/registerCommand';
import type { Services } from '../../services';
import { ChannelDrafts, ChannelItemIds } from '../../state/channelDrafts';
import type { TreeNode } from '../../platform/tree/treeNode';
import type { ChannelCommandContext } from './channelTargets';
import { ChannelTreeProvider } from './channelTreeProvider';
import { channelCommands } from './commands';
import { type ChannelPostPanel, registerChannelPostPanel } from './panel/channelPostPanel';
import type { PanelRegistry } from '../../webviews/shared/panelHost';
import { channelPostCommands } from './postCommands';
import { comment } from './commentCommands';

/*
 * The Channel feature: the channel accounts, the Channel view (stream, files, albums, connections,
 * privacy groups) and its commands (accounts, files, identities, permissions, export, posting).
 * This file is its only public face.
 */

export type { ChannelTreeProvider } from './channelTreeProvider';
export { StreamItemNode } from './streamNodes';
export type { ChannelPostPanel } from './panel/channelPostPanel';

/** What the extension and its tests get back. */
export interface ChannelFeature {
  readonly accounts: ChannelAccountManager;
  readonly tree: ChannelTreeProvider;
  readonly view: vscode.TreeView<TreeNode>;
  readonly drafts: ChannelDrafts;
  /** The open conversation panels. */
  readonly panels: PanelRegistry<ChannelPostPanel>;
}

/** Builds the feature; the view's context key `forge.hasChannelAccounts` follows the accounts. */
export function createChannelFeature(services: Services): ChannelFeature {
  const { context: extensionContext, log } = services;
  const accounts = new ChannelAccountManager(extensionContext, log);
  const tree = new ChannelTreeProvider(accounts);
  const view = services.shell.treeView('forge.channel', tree);
  const drafts = new ChannelDrafts(extensionContext.globalState);
  const itemIds = new ChannelItemIds(extensionContext.globalState);
  extensionContext.subscriptions.push(accounts, tree, view);

  const updateContext = (): void => {
    void vscode.commands.executeCommand('setContext', 'forge.hasChannelAccounts', accounts.list().length > 0);
  };
  updateContext();
  extensionContext.subscriptions.push(accounts.onDidChange(updateContext));

  const context: ChannelCommandContext = { services, accounts, tree, drafts, itemIds };
  registerCommands(extensionContext, log, [...channelCommands(context), ...channelPostCommands(context)]);
  const panels = registerChannelPostPanel(services, (item, body) => comment(context, item, { body }));
  return { accounts, tree, view, drafts, panels };
}
