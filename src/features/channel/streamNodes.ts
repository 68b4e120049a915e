import * as vscode from 'vscode';
import { tooltipMarkdown } from '../../platform/serverMarkdown';
import { NETWORK_THREADS_PER_PAGE, type StreamItem } from '../../api/channel';
import { CancelledError } from '../../api/http';
import {
  type StreamEntry,
  bbcodeToText,
  channelDateToIso,
  firstTextLine,
  isOwnEntry,
} from '../../domain/channel';
import { type StreamThread, type StreamThreadNode, buildThreads } from '../../domain/channelThreads';
import { formatAge } from '../../domain/time';
import type { ChannelAccountInfo, ChannelIdentity } from '../../platform/channelAccounts';
import { type LoadedPage, PagedList } from '../../state/pagedList';
import { type TreeNode, pagedChildren } from '../../platform/tree/treeNode';
import type { ChannelTreeContext } from './channelContext';

/** Threads of the channel's own stream shown per "Load more". */
export const OWN_THREADS_PER_PAGE = 50;
/** `channel/stream` answers items created after `mindate`; this asks for all of them. */
const EARLIEST = '1970-01-01 00:00:00';

/** The Stream folder: the channel's own conversations and the network's. */
export class StreamFolder implements TreeNode {
  readonly own: StreamSourceFolder;
  readonly network: StreamSourceFolder;

  constructor(
    readonly account: ChannelAccountInfo,
    context: ChannelTreeContext,
  ) {
    this.own = new StreamSourceFolder(account, context, 'own');
    this.network = new StreamSourceFolder(account, context, 'network');
  }

  get nodeId(): string {
    return `channel/${this.account.id}/stream`;
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('Stream'), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.nodeId;
    item.iconPath = new vscode.ThemeIcon('comment-discussion');
    item.tooltip = vscode.l10n.t('Conversations of your channel and of your network, newest first');
    item.contextValue = 'channelFolder stream';
    return item;
  }

  getChildren(): Promise<TreeNode[]> {
    return Promise.resolve([this.own, this.network]);
  }

  reload(): void {
    this.own.reload();
    this.network.reload();
  }
}

/**
 * One stream as threads, newest first, a page at a time. The channel's own stream
 * (`channel/stream`) comes oldest first from a date, so it is read whole and shown newest first in
 * pages; the network stream (`network/stream`) is paged by the server, latest activity first.
 */
export class StreamSourceFolder implements TreeNode {
  readonly threads: PagedList<StreamThread>;
  private ownThreads: Promise<StreamThread[]> | undefined;
  private readonly seenTops = new Set<string>();
  /** The network stream being read, and threads read but not shown yet. */
  private network: { pages: AsyncGenerator<StreamItem[]>; buffer: StreamThread[]; done: boolean } | undefined;
  /** The channel's identity, to tell its own items (editable) from others'. */
  identity: ChannelIdentity | undefined;

  constructor(
    readonly account: ChannelAccountInfo,
    private readonly context: ChannelTreeContext,
    readonly kind: 'own' | 'network',
  ) {
    this.threads = new PagedList((cursor, signal) => this.load(cursor, signal));
  }

  get nodeId(): string {
    return `channel/${this.account.id}/stream/${this.kind}`;
  }

  private async load(cursor: string | undefined, signal: AbortSignal): Promise<LoadedPage<StreamThread>> {
    const client = await this.context.accounts.client(this.account.id);
    this.identity = await this.context.accounts.profile(this.account.id).catch(() => this.account.channel);
    const start = cursor === undefined ? 0 : Number(cursor);
    if (this.kind === 'own') {
      if (cursor === undefined || !this.ownThreads) {
        const loading = client
          .channelStream({ mindate: EARLIEST })
          .toArray({ signal })
          .then((items) => buildThreads(items, { newestFirst: true }));
        this.ownThreads = loading;
        loading.catch(() => {
          if (this.ownThreads === loading) this.ownThreads = undefined;
        });
      }
      const all = await this.ownThreads;
      const end = start + OWN_THREADS_PER_PAGE;
      return {
        items: all.slice(start, end),
        nextUrl: end < all.length ? String(end) : undefined,
        total: all.length,
      };
    }
    if (cursor === undefined || !this.network) {
      this.seenTops.clear();
      // Read in large pages that re-read the boundary (see NetworkStreamRequest); shown fifty at a time.
      this.network = { pages: client.networkStream({}).pages(), buffer: [], done: false };
    }
    const network = this.network;
    while (network.buffer.length < NETWORK_THREADS_PER_PAGE && !network.done) {
      if (signal.aborted) throw new CancelledError('GET', '/network/stream');
      const next = await network.pages.next();
      if (next.done === true) network.done = true;
      else {
        // A thread that moved to a later page (a new comment) is shown once.
        for (const thread of buildThreads(next.value)) {
          const mid = thread.top.entry.mid;
          if (this.seenTops.has(mid)) continue;
          this.seenTops.add(mid);
          network.buffer.push(thread);
        }
      }
    }
    const items = network.buffer.splice(0, NETWORK_THREADS_PER_PAGE);
    return {
      items,
      nextUrl: network.buffer.length > 0 || !network.done ? String(start + items.length) : undefined,
      total: undefined,
    };
  }

  getTreeItem(): vscode.TreeItem {
    const own = this.kind === 'own';
    const item = new vscode.TreeItem(
      own ? vscode.l10n.t('My channel') : vscode.l10n.t('Network'),
      vscode.TreeItemCollapsibleState.Collapsed,
    );
    item.id = this.nodeId;
    item.iconPath = new vscode.ThemeIcon(own ? 'home' : 'globe');
    item.tooltip = own
      ? vscode.l10n.t('Conversations on your channel, newest first')
      : vscode.l10n.t('Conversations in your network, latest activity first');
    if (this.threads.status === 'loaded') {
      const count = this.threads.total ?? this.threads.items.length;
      item.description = vscode.l10n.t(
        '{0}{1} conversation{2}',
        count,
        this.threads.hasMore && this.threads.total === undefined ? '+' : '',
        count === 1 ? '' : 's',
      );
    }
    item.contextValue = `channelFolder stream ${this.kind}`;
    return item;
  }

  getChildren(): Promise<TreeNode[]> {
    return pagedChildren(
      this.threads,
      (threads) => threads.map((thread) => new StreamItemNode(this, thread.top, thread.top.entry)),
      () => this.context.changed(this),
      {
        emptyMessage:
          this.kind === 'own'
            ? vscode.l10n.t('Nothing posted on your channel yet')
            : vscode.l10n.t('Nothing in your network'),
        accountId: undefined,
      },
    );
  }

  reload(): void {
    this.threads.reset();
    this.ownThreads = undefined;
    void this.network?.pages.return(undefined);
    this.network = undefined;
    this.seenTops.clear();
    this.context.changed(this);
  }
}

/** A post or a comment; its children are the comments answering it. */
export class StreamItemNode implements TreeNode {
  constructor(
    readonly folder: StreamSourceFolder,
    readonly node: StreamThreadNode,
    /** The thread's top item (comments inherit whether comments are closed). */
    readonly top: StreamEntry,
    /** The whole conversation this item belongs to. */
    readonly root: StreamThreadNode = node,
  ) {}

  /** The node of the conversation's post, which comments answer. */
  get topNode(): StreamItemNode {
    return this.node === this.root ? this : new StreamItemNode(this.folder, this.root, this.top, this.root);
  }

  get account(): ChannelAccountInfo {
    return this.folder.account;
  }

  get entry(): StreamEntry {
    return this.node.entry;
  }

  get isTop(): boolean {
    return this.entry.mid === this.entry.top;
  }

  get own(): boolean {
    return isOwnEntry(this.entry, this.folder.identity ?? this.account.channel);
  }

  get commentable(): boolean {
    return !this.top.commentsClosed;
  }

  /** The label: the title, or the first line of the text. */
  get headline(): string {
    const { entry } = this;
    const title = entry.title.trim();
    if (title !== '') return firstTextLine(title, 80);
    return firstTextLine(bbcodeToText(entry.body), 80) || vscode.l10n.t('(no text)');
  }

  getTreeItem(): vscode.TreeItem {
    const { entry } = this;
    const item = new vscode.TreeItem(
      this.headline,
      this.node.replies.length > 0
        ? vscode.TreeItemCollapsibleState.Collapsed
        : vscode.TreeItemCollapsibleState.None,
    );
    item.id = `${this.folder.nodeId}/item/${entry.mid}`;
    const author = entry.author.name || entry.author.address || 'someone';
    item.description = [
      author,
      formatAge(channelDateToIso(entry.created)),
      this.node.replies.length > 0
        ? this.node.replies.length === 1
          ? vscode.l10n.t('1 comment')
          : vscode.l10n.t('{0} comments', this.node.replies.length)
        : undefined,
    ]
      .filter(Boolean)
      .join(' · ');
    // Server text is untrusted: appendText escapes it, nothing is rendered as markup.
    const tooltip = tooltipMarkdown();
    tooltip.appendText(`${author}${entry.author.address ? ` (${entry.author.address})` : ''}`);
    tooltip.appendMarkdown('\n\n');
    if (entry.title.trim() !== '') tooltip.appendText(entry.title).appendMarkdown('\n\n');
    tooltip.appendText(bbcodeToText(entry.body).slice(0, 2000));
    tooltip.appendMarkdown('\n\n---\n\n');
    tooltip.appendText(
      [
        entry.created ? vscode.l10n.t('{0} UTC', entry.created) : undefined,
        entry.restricted ? 'restricted audience' : 'public',
        entry.categories.length > 0
          ? vscode.l10n.t('categories: {0}', entry.categories.join(', '))
          : undefined,
        this.isTop && this.top.commentsClosed ? 'comments off' : undefined,
      ]
        .filter(Boolean)
        .join(' · '),
    );
    item.tooltip = tooltip;
    const icon = this.isTop ? (entry.restricted ? 'lock' : this.own ? 'note' : 'megaphone') : 'comment';
    item.iconPath = new vscode.ThemeIcon(icon);
    item.command = {
      command: 'forge.channel.openPost',
      title: vscode.l10n.t('Read the Conversation'),
      arguments: [this],
    };
    item.contextValue = [
      'channelItem',
      this.isTop ? 'top' : 'comment',
      this.own ? 'own' : undefined,
      this.commentable ? 'commentable' : undefined,
    ]
      .filter(Boolean)
      .join(' ');
    return item;
  }

  getChildren(): Promise<TreeNode[]> {
    return Promise.resolve(
      this.node.replies.map((reply) => new StreamItemNode(this.folder, reply, this.top, this.root)),
    );
  }
}
