import * as vscode from 'vscode';
import { tooltipMarkdown } from '../../platform/serverMarkdown';
import type { FileRecord } from '../../api/channel';
import { channelDateToIso, describeFileFilter, fileIcon } from '../../domain/channel';
import { formatBytes } from '../../domain/jobActions';
import { formatAge } from '../../domain/time';
import type { ChannelAccountInfo } from '../../platform/channelAccounts';
import { type LoadedPage, PagedList } from '../../state/pagedList';
import { MessageNode, type TreeNode, pagedChildren } from '../../platform/tree/treeNode';
import type { ChannelFileFilter, ChannelTreeContext } from './channelContext';

/** Files listed per request: the whole tree is read this many at a time; a filtered list pages by it. */
export const FILES_PAGE_SIZE = 100;

/**
 * The channel's files. Without a filter the whole listing is read (the `files` endpoint has no
 * folder parameter) and shown as folders; with a filter (name and type substrings) the matches are
 * listed flat, a page at a time.
 */
export class FilesFolder implements TreeNode {
  readonly files: PagedList<FileRecord>;
  readonly filter: ChannelFileFilter;

  constructor(
    readonly account: ChannelAccountInfo,
    private readonly context: ChannelTreeContext,
  ) {
    this.filter = context.fileFilter(account.id);
    this.files = new PagedList((cursor, signal) => this.load(cursor, signal));
  }

  get filtered(): boolean {
    return Boolean(this.filter.filename || this.filter.filetype);
  }

  get nodeId(): string {
    return `channel/${this.account.id}/files`;
  }

  private async load(cursor: string | undefined, signal: AbortSignal): Promise<LoadedPage<FileRecord>> {
    const client = await this.context.accounts.client(this.account.id);
    if (!this.filtered) {
      const items = await client.listFiles({}, FILES_PAGE_SIZE).toArray({ signal });
      return { items, nextUrl: undefined, total: items.length };
    }
    const page = await client.fetchFilesPage(
      { filename: this.filter.filename, filetype: this.filter.filetype },
      { start: cursor === undefined ? 0 : Number(cursor), records: FILES_PAGE_SIZE },
      { signal },
    );
    return {
      items: page.items,
      nextUrl: page.nextStart === undefined ? undefined : String(page.nextStart),
      total: undefined,
    };
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('Files'), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.nodeId;
    item.iconPath = new vscode.ThemeIcon(this.filtered ? 'filter' : 'files');
    const filter = describeFileFilter(this.filter);
    item.description = filter;
    item.tooltip = filter
      ? vscode.l10n.t('Files whose {0}', filter)
      : vscode.l10n.t('Your channel’s files and folders');
    item.contextValue = `channelFolder files${this.filtered ? ' filtered' : ''}`;
    return item;
  }

  /** Files directly in the folder `hash` ('' for the top), folders first, then by name. */
  childrenOf(hash: string): FileRecord[] {
    const loaded = this.files.items;
    const folders = new Set(loaded.filter((file) => file.is_dir === true).map((file) => file.hash));
    return loaded
      .filter((file) => {
        const parent = file.folder ?? '';
        // A file whose folder is not listed is shown at the top rather than lost.
        return hash === '' ? parent === '' || !folders.has(parent) : parent === hash;
      })
      .sort(
        (a, b) =>
          Number(b.is_dir === true) - Number(a.is_dir === true) ||
          a.filename.localeCompare(b.filename, undefined, { sensitivity: 'base' }),
      );
  }

  getChildren(): Promise<TreeNode[]> {
    return pagedChildren(
      this.files,
      (files) =>
        this.filtered
          ? files.map((file) => new ChannelFileNode(this, file, true))
          : this.childrenOf('').map((file) => new ChannelFileNode(this, file, false)),
      () => this.context.changed(this),
      {
        emptyMessage: this.filtered ? vscode.l10n.t('No file matches the filter') : vscode.l10n.t('No files'),
        accountId: undefined,
      },
    );
  }

  reload(): void {
    this.files.reset();
    this.context.changed(this);
  }
}

/** A file or a folder of the channel's storage. */
export class ChannelFileNode implements TreeNode {
  constructor(
    readonly folder: FilesFolder,
    readonly file: FileRecord,
    /** Listed flat (a filter is on): folders do not expand. */
    readonly flat: boolean,
  ) {}

  get account(): ChannelAccountInfo {
    return this.folder.account;
  }

  get isDirectory(): boolean {
    return this.file.is_dir === true;
  }

  getTreeItem(): vscode.TreeItem {
    const { file } = this;
    const expandable = this.isDirectory && !this.flat;
    const item = new vscode.TreeItem(
      file.filename,
      expandable ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    item.id = `${this.folder.nodeId}/${this.flat ? 'match' : 'tree'}/${file.hash}`;
    const path = typeof file['display_path'] === 'string' ? file['display_path'] : undefined;
    item.description = this.isDirectory
      ? this.flat
        ? vscode.l10n.t('folder')
        : undefined
      : [formatBytes(file.filesize), file.filetype].join(' · ');
    const tooltip = tooltipMarkdown();
    tooltip.appendText(path ?? file.filename).appendMarkdown('\n\n');
    tooltip.appendText(
      [
        this.isDirectory ? vscode.l10n.t('Folder') : `${file.filetype}, ${formatBytes(file.filesize)}`,
        file.edited
          ? vscode.l10n.t('changed {0}', formatAge(channelDateToIso(file.edited)) || file.edited)
          : undefined,
        file.allow_cid || file.allow_gid || file.deny_cid || file.deny_gid ? 'restricted' : 'public',
      ]
        .filter(Boolean)
        .join(' · '),
    );
    item.tooltip = tooltip;
    item.iconPath = new vscode.ThemeIcon(fileIcon(file.filetype, this.isDirectory));
    item.contextValue = this.isDirectory ? 'channelFile folder' : 'channelFile file';
    if (!this.isDirectory) {
      item.command = { command: 'forge.channel.openFile', title: vscode.l10n.t('Open'), arguments: [this] };
    }
    return item;
  }

  getChildren(): Promise<TreeNode[]> {
    if (!this.isDirectory || this.flat) return Promise.resolve([]);
    const children = this.folder.childrenOf(this.file.hash);
    if (children.length === 0) return Promise.resolve([new MessageNode(vscode.l10n.t('Empty folder'))]);
    return Promise.resolve(children.map((file) => new ChannelFileNode(this.folder, file, false)));
  }
}
