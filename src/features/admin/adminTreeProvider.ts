import * as vscode from 'vscode';
import { tooltipMarkdown } from '../../platform/serverMarkdown';
import type { BroadcastMessage, HostingClient, SystemHook } from '../../api/hosting';
import type { ListRequest } from '../../api/http';
import { describeBroadcastWindow, isBroadcastActive, plainBroadcastText } from '../../domain/broadcasts';
import { formatAge } from '../../domain/time';
import type { AccountInfo, AccountManager } from '../../platform/accounts';
import { PagedList } from '../../state/pagedList';
import { listLoader } from '../projects';
import { AccountsTreeProvider } from '../../platform/tree/accountsTreeProvider';
import { type TreeNode, pagedChildren } from '../../platform/tree/treeNode';
import type { z } from 'zod';

/** One administrator account: its broadcast messages, system hooks, and the SSH key lookup. */
export class AdminAccountNode implements TreeNode {
  readonly broadcastMessages: BroadcastMessagesFolder;
  readonly systemHooks: SystemHooksFolder;
  readonly sshKeyLookup: SshKeyLookupNode;

  constructor(
    readonly account: AccountInfo,
    accounts: AccountManager,
    changed: (node?: TreeNode) => void,
  ) {
    this.broadcastMessages = new BroadcastMessagesFolder(account, accounts, changed);
    this.systemHooks = new SystemHooksFolder(account, accounts, changed);
    this.sshKeyLookup = new SshKeyLookupNode(account);
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.account.label, vscode.TreeItemCollapsibleState.Expanded);
    item.id = `admin/account/${this.account.id}`;
    item.description = this.account.serverUrl;
    item.iconPath = new vscode.ThemeIcon('shield');
    item.contextValue = 'adminAccount';
    return item;
  }

  getChildren(): Promise<TreeNode[]> {
    return Promise.resolve([this.broadcastMessages, this.systemHooks, this.sshKeyLookup]);
  }
}

/** A folder over one admin list endpoint. */
abstract class AdminFolder<T> implements TreeNode {
  abstract readonly label: string;
  abstract readonly icon: string;
  abstract readonly kind: string;
  abstract readonly emptyMessage: string;
  readonly list: PagedList<T>;

  constructor(
    readonly account: AccountInfo,
    accounts: AccountManager,
    protected readonly changed: (node?: TreeNode) => void,
  ) {
    this.list = new PagedList(listLoader(accounts, account.id, (client) => this.request(client)));
  }

  protected abstract request(client: HostingClient): ListRequest<z.ZodType<T>>;
  protected abstract toNodes(items: readonly T[]): TreeNode[];

  get nodeId(): string {
    return `admin/account/${this.account.id}/${this.kind}`;
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.label, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.nodeId;
    item.iconPath = new vscode.ThemeIcon(this.icon);
    item.contextValue = `adminFolder ${this.kind}`;
    return item;
  }

  getChildren(): Promise<TreeNode[]> {
    return pagedChildren(
      this.list,
      (items) => this.toNodes(items),
      () => this.changed(this),
      { emptyMessage: this.emptyMessage, accountId: this.account.id },
    );
  }

  reload(): void {
    this.list.reset();
    this.changed(this);
  }
}

export class BroadcastMessagesFolder extends AdminFolder<BroadcastMessage> {
  readonly label = vscode.l10n.t('Broadcast Messages');
  readonly icon = 'broadcast';
  readonly kind = 'broadcastMessages';
  readonly emptyMessage = vscode.l10n.t('No broadcast messages');

  protected request(client: HostingClient): ListRequest<z.ZodType<BroadcastMessage>> {
    return client.listBroadcastMessages();
  }

  protected toNodes(items: readonly BroadcastMessage[]): TreeNode[] {
    return items.map((message) => new BroadcastMessageNode(this, message));
  }
}

export class BroadcastMessageNode implements TreeNode {
  constructor(
    readonly folder: BroadcastMessagesFolder,
    readonly message: BroadcastMessage,
  ) {}

  get account(): AccountInfo {
    return this.folder.account;
  }

  getTreeItem(): vscode.TreeItem {
    const { message } = this;
    const text = plainBroadcastText(message.message, 80);
    const active = isBroadcastActive(message);
    const item = new vscode.TreeItem(text || vscode.l10n.t('Message {0}', message.id));
    item.id = `${this.folder.nodeId}/${message.id}`;
    item.description = [describeBroadcastWindow(message), message.color].filter(Boolean).join(' · ');
    const tooltip = tooltipMarkdown();
    tooltip.appendText(plainBroadcastText(message.message, 2000)).appendMarkdown('\n\n');
    tooltip.appendText(
      [
        vscode.l10n.t('Starts {0}', message.starts_at ?? 'now'),
        vscode.l10n.t('ends {0}', message.ends_at ?? 'never'),
        message.color ? vscode.l10n.t('background {0}', message.color) : undefined,
        message.font ? vscode.l10n.t('text {0}', message.font) : undefined,
      ]
        .filter(Boolean)
        .join(' · '),
    );
    item.tooltip = tooltip;
    item.iconPath = new vscode.ThemeIcon(
      'broadcast',
      new vscode.ThemeColor(active ? 'charts.green' : 'disabledForeground'),
    );
    item.contextValue = `broadcastMessage ${active ? 'active' : 'inactive'}`;
    return item;
  }
}

export class SystemHooksFolder extends AdminFolder<SystemHook> {
  readonly label = vscode.l10n.t('System Hooks');
  readonly icon = 'plug';
  readonly kind = 'systemHooks';
  readonly emptyMessage = vscode.l10n.t('No system hooks');

  protected request(client: HostingClient): ListRequest<z.ZodType<SystemHook>> {
    return client.listSystemHooks();
  }

  protected toNodes(items: readonly SystemHook[]): TreeNode[] {
    return items.map((hook) => new SystemHookNode(this, hook));
  }
}

/** "push, tag push" or "no push events", and a warning when certificates are not checked. */
export function describeHookEvents(hook: SystemHook): string {
  const events = [
    hook.push_events ? 'push' : undefined,
    hook.tag_push_events ? 'tag push' : undefined,
  ].filter(Boolean);
  return [
    events.length > 0 ? events.join(', ') : vscode.l10n.t('no push events'),
    hook.enable_ssl_verification === false ? vscode.l10n.t('SSL not verified') : undefined,
  ]
    .filter(Boolean)
    .join(' · ');
}

export class SystemHookNode implements TreeNode {
  constructor(
    readonly folder: SystemHooksFolder,
    readonly hook: SystemHook,
  ) {}

  get account(): AccountInfo {
    return this.folder.account;
  }

  getTreeItem(): vscode.TreeItem {
    const { hook } = this;
    const item = new vscode.TreeItem(hook.url);
    item.id = `${this.folder.nodeId}/${hook.id}`;
    item.description = describeHookEvents(hook);
    item.tooltip = [
      vscode.l10n.t('System hook {0}: {1}', hook.id, hook.url),
      describeHookEvents(hook),
      hook.created_at ? vscode.l10n.t('Added {0}', formatAge(hook.created_at)) : undefined,
    ]
      .filter(Boolean)
      .join('\n');
    item.iconPath = new vscode.ThemeIcon(
      'plug',
      hook.enable_ssl_verification === false ? new vscode.ThemeColor('list.warningForeground') : undefined,
    );
    item.contextValue = 'systemHook';
    return item;
  }
}

/** A row that runs "Look Up SSH Key by ID…" for its account. */
export class SshKeyLookupNode implements TreeNode {
  constructor(readonly account: AccountInfo) {}

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('Look up SSH key by id…'));
    item.id = `admin/account/${this.account.id}/sshKeyLookup`;
    item.iconPath = new vscode.ThemeIcon('key');
    item.contextValue = 'sshKeyLookup';
    item.command = {
      command: 'forge.sshKey.lookup',
      title: vscode.l10n.t('Look Up SSH Key by ID'),
      arguments: [this.account.id],
    };
    return item;
  }
}

/** The Admin view: for each administrator account (flat when there is one) its admin lists. */
export class AdminTreeProvider extends AccountsTreeProvider {
  private nodes = new Map<string, AdminAccountNode>();

  protected rootChildren(): Promise<TreeNode[]> {
    const nodes = this.accounts
      .list()
      .filter((account) => this.accounts.actsAsAdmin(account))
      .map((account) => this.accountNode(account));
    return this.roots.children(nodes);
  }

  /** The node of an administrator account (kept while the account is unchanged). */
  accountNode(account: AccountInfo): AdminAccountNode {
    const existing = this.nodes.get(account.id);
    if (existing && JSON.stringify(existing.account) === JSON.stringify(account)) return existing;
    const node = new AdminAccountNode(account, this.accounts, (changed) => this.fireChange(changed));
    this.nodes.set(account.id, node);
    return node;
  }

  /** Reloads one folder, or everything. */
  refresh(node?: TreeNode): void {
    if (node instanceof AdminFolder) {
      node.reload();
      return;
    }
    this.nodes = new Map();
    this.emitter.fire(undefined);
  }

  /** Reloads the folder a node lives in. */
  refreshAround(node: TreeNode | undefined): void {
    if (node instanceof BroadcastMessageNode || node instanceof SystemHookNode) this.refresh(node.folder);
    else this.refresh(node);
  }
}
