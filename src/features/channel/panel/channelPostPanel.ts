import { bbcodeToText, channelDateToIso, type StreamEntry } from '../../../domain/channel';
import { type StreamThreadNode, walkThread } from '../../../domain/channelThreads';
import { defineCommand, rowOf } from '../../../platform/commands/defineCommand';
import { registerCommands } from '../../../platform/commands/registerCommand';
import { openServerLink } from '../../../platform/serverLinks';
import type { Services } from '../../../services';
import { StreamItemNode } from '../streamNodes';
import { type OpenPanel, PanelHost, PanelRegistry } from '../../../webviews/shared/panelHost';
import {
  type ChannelEntryView,
  type ChannelPostHostMessage,
  type ChannelPostPageMessage,
  ChannelPostPageMessageSchema,
} from './protocol';
import * as l10n from '@vscode/l10n';

/** Posts a comment as "Comment" does (features/channel/commentCommands.ts): a comment that fails is kept as a draft. */
export type PostComment = (
  item: StreamItemNode,
  body: string,
) => Promise<{ posted: boolean; message?: string } | undefined>;

/** Who may see an item, in words (a comment has the audience of its post). */
function audienceOf(entry: StreamEntry): string {
  return entry.restricted ? 'restricted audience' : 'public';
}

function entryView(entry: StreamEntry, depth: number): ChannelEntryView {
  return {
    mid: entry.mid,
    author: entry.author.name,
    address: entry.author.address,
    created: entry.created ? (channelDateToIso(entry.created) ?? '') : '',
    title: entry.title.trim(),
    text: bbcodeToText(entry.body),
    audience: audienceOf(entry),
    categories: entry.categories,
    depth,
  };
}

/** Deeper comments are indented no further: the pane stays readable, the order says who answers whom. */
const DEEPEST_SHOWN = 8;

/** Every comment under `node`, in thread order, with how deep it is nested (up to `DEEPEST_SHOWN`). */
function commentsOf(node: StreamThreadNode): ChannelEntryView[] {
  const views: ChannelEntryView[] = [];
  walkThread(node, (each, depth) => {
    if (each !== node) views.push(entryView(each.entry, Math.min(depth - 1, DEEPEST_SHOWN)));
  });
  return views;
}

/**
 * A channel conversation in a reading pane: the post (title, author, audience, full text as plain
 * text), its comments, and a reply box that posts as "Comment" does (whose draft keeps a comment
 * that failed to post).
 */
export class ChannelPostPanel implements OpenPanel {
  readonly host: PanelHost<ChannelPostPageMessage, ChannelPostHostMessage>;
  /** Comments posted from this pane since the conversation was read. */
  private readonly posted: ChannelEntryView[] = [];

  constructor(
    services: Services,
    private readonly item: StreamItemNode,
    private readonly postComment: PostComment,
  ) {
    this.host = new PanelHost<ChannelPostPageMessage, ChannelPostHostMessage>({
      kind: 'channelPost',
      app: 'channel',
      title: item.headline,
      extensionUri: services.context.extensionUri,
      log: services.log,
      schema: ChannelPostPageMessageSchema,
    });
    this.host.onReady(() => this.sendSnapshot());
    this.host.handleMessages((message) => this.onMessage(message));
  }

  private sendSnapshot(): void {
    const { root } = this.item;
    this.host.post({
      type: 'snapshot',
      post: entryView(root.entry, 0),
      comments: [...commentsOf(root), ...this.posted],
      commentsClosed: this.item.top.commentsClosed,
      canOpenInBrowser: root.entry.permalink !== undefined,
    });
  }

  private async onMessage(message: ChannelPostPageMessage): Promise<unknown> {
    switch (message.type) {
      case 'reply': {
        const result = await this.postComment(this.item.topNode, message.body);
        if (result?.posted) {
          this.posted.push({
            mid: `posted-${this.posted.length}`,
            author: this.item.folder.identity?.name ?? this.item.account.channel?.name ?? 'you',
            address: '',
            created: new Date().toISOString(),
            title: '',
            text: message.body,
            audience: audienceOf(this.item.root.entry),
            categories: [],
            depth: 0,
          });
          this.sendSnapshot();
          this.host.post({ type: 'replyResult', ok: true, message: l10n.t('Your comment was posted.') });
        } else {
          this.host.post({
            type: 'replyResult',
            ok: false,
            message: result?.message ?? l10n.t('The comment was not posted; it is still in the box.'),
          });
        }
        return result;
      }
      case 'openInBrowser':
        return openServerLink(this.item.root.entry.permalink, l10n.t('the post on the hub'));
      default:
        return undefined;
    }
  }

  dispose(): void {
    this.host.dispose();
  }
}

/** `forge.channel.openPost`: a conversation's reading pane, one per conversation. */
export function registerChannelPostPanel(
  services: Services,
  postComment: PostComment,
): PanelRegistry<ChannelPostPanel> {
  const registry = new PanelRegistry<ChannelPostPanel>();
  services.context.subscriptions.push(registry);
  registerCommands(services.context, services.log, [
    defineCommand({
      id: 'forge.channel.openPost',
      args: [rowOf(StreamItemNode, l10n.t('a post of the stream'))],
      run: (item) => {
        const key = `${item.account.id}|${item.root.entry.mid}`;
        return registry.openOrReveal(key, () => new ChannelPostPanel(services, item, postComment)).panel;
      },
    }),
  ]);
  return registry;
}
