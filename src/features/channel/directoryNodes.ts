import * as vscode from 'vscode';
import { tooltipMarkdown } from '../../platform/serverMarkdown';
import type { Album, ChannelClient, GroupMember, PrivacyGroup } from '../../api/channel';
import { formatBytes } from '../../domain/jobActions';
import type { ChannelAccountInfo } from '../../platform/channelAccounts';
import { PagedList } from '../../state/pagedList';
import { type TreeNode, pagedChildren } from '../../platform/tree/treeNode';
import { type ChannelTreeContext, field, flag, wholeList } from './channelContext';

/*
 * Photo albums (albums → photos), privacy groups (groups → members) and connections: lists the
 * server sends whole.
 */

/** A folder over one list. */
abstract class ListFolder<T> implements TreeNode {
  readonly list: PagedList<T>;

  constructor(
    readonly account: ChannelAccountInfo,
    protected readonly context: ChannelTreeContext,
  ) {
    this.list = new PagedList(wholeList(context, account, (client, signal) => this.fetch(client, signal)));
  }

  abstract readonly nodeId: string;
  protected abstract fetch(client: ChannelClient, signal: AbortSignal): Promise<T[]>;
  protected abstract toNodes(items: readonly T[]): TreeNode[];
  protected abstract readonly emptyMessage: string;
  abstract getTreeItem(): vscode.TreeItem;

  getChildren(): Promise<TreeNode[]> {
    return pagedChildren(
      this.list,
      (items) => this.toNodes(items),
      () => this.context.changed(this),
      { emptyMessage: this.emptyMessage, accountId: undefined },
    );
  }

  reload(): void {
    this.list.reset();
    this.context.changed(this);
  }

  protected folderItem(label: string, icon: string, kind: string): vscode.TreeItem {
    const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.nodeId;
    item.iconPath = new vscode.ThemeIcon(icon);
    item.contextValue = `channelFolder ${kind}`;
    if (this.list.status === 'loaded') item.description = String(this.list.items.length);
    return item;
  }
}

// ---- photo albums ---------------------------------------------------------------------------------

export class AlbumsFolder extends ListFolder<Album> {
  protected readonly emptyMessage = vscode.l10n.t('No photo albums');

  get nodeId(): string {
    return `channel/${this.account.id}/albums`;
  }

  protected fetch(client: ChannelClient, signal: AbortSignal): Promise<Album[]> {
    return client.listAlbums({ signal });
  }

  protected toNodes(items: readonly Album[]): TreeNode[] {
    return items.map((album) => new AlbumNode(this, album, this.context));
  }

  getTreeItem(): vscode.TreeItem {
    return this.folderItem(vscode.l10n.t('Photo albums'), 'device-camera', 'albums');
  }
}

/** The album name the `photos` endpoint takes: `/` is the list's name for photos outside any album. */
function albumParameter(album: Album): string {
  return album.text === '/' ? '' : album.text;
}

export class AlbumNode extends ListFolder<Record<string, unknown>> {
  protected readonly emptyMessage = vscode.l10n.t('No photos in this album');

  constructor(
    readonly albums: AlbumsFolder,
    readonly album: Album,
    context: ChannelTreeContext,
  ) {
    super(albums.account, context);
  }

  get nodeId(): string {
    return `${this.albums.nodeId}/${this.album.bin2hex || 'none'}`;
  }

  protected fetch(client: ChannelClient, signal: AbortSignal): Promise<Record<string, unknown>[]> {
    return client.listPhotos({ album: albumParameter(this.album), signal });
  }

  /** One node per photo: the server lists every scale of it, the original (scale 0) describes it. */
  protected toNodes(items: readonly Record<string, unknown>[]): TreeNode[] {
    const byPhoto = new Map<string, Record<string, unknown>>();
    for (const row of items) {
      const id = field(row, 'resource_id');
      if (id === '') continue;
      const known = byPhoto.get(id);
      const scale = Number(field(row, 'imgscale') || '0');
      if (!known || scale < Number(field(known, 'imgscale') || '0')) byPhoto.set(id, row);
    }
    return [...byPhoto.values()].map((row) => new PhotoNode(this, row));
  }

  getTreeItem(): vscode.TreeItem {
    const name = albumParameter(this.album);
    const item = new vscode.TreeItem(
      name === '' ? vscode.l10n.t('Not in an album') : name,
      vscode.TreeItemCollapsibleState.Collapsed,
    );
    item.id = this.nodeId;
    const total = this.album.total;
    item.description = total === 1 ? vscode.l10n.t('1 photo') : vscode.l10n.t('{0} photos', total);
    item.iconPath = new vscode.ThemeIcon('folder-library');
    item.contextValue = 'channelAlbum';
    return item;
  }
}

/** A photo; it is also a file of the channel (its resource id is the file's hash). */
export class PhotoNode implements TreeNode {
  constructor(
    readonly albumNode: AlbumNode,
    readonly photo: Record<string, unknown>,
  ) {}

  get account(): ChannelAccountInfo {
    return this.albumNode.account;
  }

  get hash(): string {
    return field(this.photo, 'resource_id');
  }

  get filename(): string {
    return field(this.photo, 'filename') || `${this.hash.slice(0, 12)}.jpg`;
  }

  getTreeItem(): vscode.TreeItem {
    const title = field(this.photo, 'title');
    const item = new vscode.TreeItem(title || this.filename);
    item.id = `${this.albumNode.nodeId}/${this.hash}`;
    const width = field(this.photo, 'width');
    const height = field(this.photo, 'height');
    const size = Number(field(this.photo, 'filesize'));
    item.description = [
      width && height ? `${width}×${height}` : undefined,
      Number.isFinite(size) && size > 0 ? formatBytes(size) : undefined,
    ]
      .filter(Boolean)
      .join(' · ');
    const tooltip = tooltipMarkdown();
    tooltip.appendText(this.filename);
    const description = field(this.photo, 'description');
    if (description) tooltip.appendMarkdown('\n\n').appendText(description);
    item.tooltip = tooltip;
    item.iconPath = new vscode.ThemeIcon('file-media');
    item.contextValue = 'channelPhoto';
    item.command = { command: 'forge.channel.openFile', title: vscode.l10n.t('Open'), arguments: [this] };
    return item;
  }
}

// ---- privacy groups ---------------------------------------------------------------------------------

export class GroupsFolder extends ListFolder<PrivacyGroup> {
  protected readonly emptyMessage = vscode.l10n.t('No privacy groups');

  get nodeId(): string {
    return `channel/${this.account.id}/groups`;
  }

  protected async fetch(client: ChannelClient, signal: AbortSignal): Promise<PrivacyGroup[]> {
    const groups = await client.listGroups({ signal });
    return groups.filter((group) => group.deleted !== true);
  }

  protected toNodes(items: readonly PrivacyGroup[]): TreeNode[] {
    return items.map((group) => new GroupNode(this, group, this.context));
  }

  getTreeItem(): vscode.TreeItem {
    return this.folderItem(vscode.l10n.t('Privacy groups'), 'organization', 'groups');
  }
}

export class GroupNode extends ListFolder<GroupMember> {
  protected readonly emptyMessage = vscode.l10n.t('No members');

  constructor(
    readonly groups: GroupsFolder,
    readonly group: PrivacyGroup,
    context: ChannelTreeContext,
  ) {
    super(groups.account, context);
  }

  get nodeId(): string {
    return `${this.groups.nodeId}/${this.group.id}`;
  }

  protected fetch(client: ChannelClient, signal: AbortSignal): Promise<GroupMember[]> {
    return client.listGroupMembers({ id: this.group.id }, { signal });
  }

  protected toNodes(items: readonly GroupMember[]): TreeNode[] {
    return items.map((member) => new GroupMemberNode(this, member));
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.group.gname, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.nodeId;
    item.iconPath = new vscode.ThemeIcon('organization');
    item.description =
      this.list.status === 'loaded' ? vscode.l10n.t('{0} members', this.list.items.length) : undefined;
    item.tooltip = tooltipMarkdown()
      .appendText(this.group.gname)
      .appendMarkdown('\n\n')
      .appendText(
        this.group.visible === true
          ? vscode.l10n.t('Members can see the group')
          : vscode.l10n.t('Only you see the group'),
      );
    item.contextValue = 'channelGroup';
    return item;
  }
}

/** An identity in a privacy group (not necessarily a connection). */
export class GroupMemberNode implements TreeNode {
  constructor(
    readonly groupNode: GroupNode,
    readonly member: GroupMember,
  ) {}

  get account(): ChannelAccountInfo {
    return this.groupNode.account;
  }

  get hash(): string {
    return this.member.xchan_hash ?? this.member.xchan;
  }

  get address(): string {
    return this.member.xchan_addr ?? '';
  }

  get name(): string {
    return this.member.xchan_name || this.address || this.hash.slice(0, 12);
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.name);
    item.id = `${this.groupNode.nodeId}/member/${this.member.id}`;
    const connected = this.member.abook_id !== null && this.member.abook_id !== undefined;
    item.description = [this.address, connected ? undefined : vscode.l10n.t('not a connection')]
      .filter(Boolean)
      .join(' · ');
    item.tooltip = tooltipMarkdown().appendText(
      [this.name, this.address, this.member.xchan_network ?? ''].filter(Boolean).join(' · '),
    );
    item.iconPath = new vscode.ThemeIcon('person');
    item.contextValue = `channelMember${connected ? ' connection' : ''}`;
    return item;
  }
}

// ---- connections ---------------------------------------------------------------------------------------

export class ConnectionsFolder extends ListFolder<Record<string, unknown>> {
  protected readonly emptyMessage = vscode.l10n.t('No connections');

  get nodeId(): string {
    return `channel/${this.account.id}/connections`;
  }

  protected async fetch(client: ChannelClient, signal: AbortSignal): Promise<Record<string, unknown>[]> {
    const rows = await client.listConnections({ signal });
    return rows
      .filter((row) => !flag(row, 'abook_self'))
      .sort((a, b) => field(a, 'xchan_name').localeCompare(field(b, 'xchan_name')));
  }

  protected toNodes(items: readonly Record<string, unknown>[]): TreeNode[] {
    return items.map((row) => new ConnectionNode(this, row));
  }

  getTreeItem(): vscode.TreeItem {
    return this.folderItem(vscode.l10n.t('Connections'), 'account', 'connections');
  }
}

export class ConnectionNode implements TreeNode {
  constructor(
    readonly folder: ConnectionsFolder,
    readonly row: Record<string, unknown>,
  ) {}

  get account(): ChannelAccountInfo {
    return this.folder.account;
  }

  get abookId(): number {
    return Number(field(this.row, 'abook_id'));
  }

  get hash(): string {
    return field(this.row, 'xchan_hash') || field(this.row, 'abook_xchan');
  }

  get address(): string {
    return field(this.row, 'xchan_addr');
  }

  get name(): string {
    return field(this.row, 'xchan_name') || this.address || this.hash.slice(0, 12);
  }

  getTreeItem(): vscode.TreeItem {
    const blocked = flag(this.row, 'abook_blocked');
    const pending = flag(this.row, 'abook_pending');
    const feed = flag(this.row, 'abook_feed');
    const item = new vscode.TreeItem(this.name);
    item.id = `${this.folder.nodeId}/${field(this.row, 'abook_id')}`;
    item.description = [
      this.address,
      field(this.row, 'xchan_network'),
      blocked ? 'blocked' : undefined,
      pending ? 'pending' : undefined,
      feed ? 'feed' : undefined,
    ]
      .filter(Boolean)
      .join(' · ');
    const tooltip = tooltipMarkdown();
    tooltip.appendText([this.name, this.address].filter(Boolean).join(' · '));
    const url = field(this.row, 'xchan_url');
    if (url) tooltip.appendMarkdown('\n\n').appendText(url);
    item.tooltip = tooltip;
    item.iconPath = new vscode.ThemeIcon(
      blocked ? 'circle-slash' : feed ? 'rss' : pending ? 'watch' : 'person',
    );
    item.contextValue = ['channelConnection', blocked ? 'blocked' : '', pending ? 'pending' : '']
      .filter(Boolean)
      .join(' ');
    return item;
  }
}
