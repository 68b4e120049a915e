/** Comment on an item of the stream, and edit your own items. */
import { type PostResult } from './postContent';
import * as vscode from 'vscode';
import type { ChannelClient } from '../../api/channel';
import { CancelledError } from '../../api/http';
import { type StreamEntry, bbcodeToText, firstTextLine, isOwnEntry } from '../../domain/channel';
import { buildThreads, walkThread } from '../../domain/channelThreads';
import { checkNoteBody } from '../../domain/inputValidation';
import type { ChannelAccountInfo } from '../../platform/channelAccounts';
import { ChannelDrafts } from '../../state/channelDrafts';
import { StreamItemNode } from './streamNodes';
import { type ChannelCommandContext, channelName, pickChannelAccount } from './channelTargets';
import { type ChannelArgument, type CommentOptions, type EditOptions } from './commandArguments';
import { draftKeptMessage, mayHaveActed } from '../../platform/commands/errorMessages';
import { valueOrThrow } from '../../platform/commands/registerCommand';
import {
  askText,
  pickOne,
  showError,
  showInformation,
  withProgress,
  withCancellableProgress,
} from '../../platform/userMessages';
import { reloadStreams } from './channelTargets';
import { askBody } from './postContent';

interface ItemTarget {
  account: ChannelAccountInfo;
  entry: StreamEntry;
  /** Whether comments are closed on its thread. */
  commentsClosed: boolean;
  own: boolean;
  label: string;
  node?: StreamItemNode;
}

function targetOfNode(node: StreamItemNode): ItemTarget {
  return {
    account: node.account,
    entry: node.entry,
    commentsClosed: node.top.commentsClosed,
    own: node.own,
    label: `"${node.headline}"`,
    node,
  };
}

/** Every item of the threads, each with whether comments are closed on its thread. */
function flatten(
  account: ChannelAccountInfo,
  items: readonly Record<string, unknown>[],
  identity: { guid?: string; address?: string } | undefined,
  newestFirst: boolean,
): ItemTarget[] {
  const targets: ItemTarget[] = [];
  for (const thread of buildThreads(items, { newestFirst })) {
    walkThread(thread.top, ({ entry }) => {
      targets.push({
        account,
        entry,
        commentsClosed: thread.top.entry.commentsClosed,
        own: isOwnEntry(entry, identity),
        label: `"${firstTextLine(entry.title || bbcodeToText(entry.body), 60) || vscode.l10n.t('(no text)')}"`,
      });
    });
  }
  return targets;
}

/**
 * Palette: the item with message id `mid`, or one picked from the newest threads of the network
 * stream (to comment) or of the channel's own stream (to edit).
 */
/** The item a comment or an edit is for: its row, or (palette) an account and then one of its items. */
async function itemTarget(
  context: ChannelCommandContext,
  arg: ChannelArgument,
  options: { account?: string | undefined; mid?: string | undefined } | undefined,
  purpose: 'comment' | 'edit',
  placeHolder: string,
): Promise<ItemTarget | undefined> {
  if (arg instanceof StreamItemNode) return targetOfNode(arg);
  const account = await pickChannelAccount(context.accounts, placeHolder, arg, options?.account);
  return account ? pickItem(context, account, purpose, options?.mid) : undefined;
}

async function pickItem(
  context: ChannelCommandContext,
  account: ChannelAccountInfo,
  purpose: 'comment' | 'edit',
  mid: string | undefined,
): Promise<ItemTarget | undefined> {
  const client = await context.accounts.client(account.id);
  const identity = await context.accounts.profile(account.id).catch(() => account.channel);
  if (mid !== undefined) {
    const thread = await client.getItem({ mid });
    const found = flatten(account, thread.items, identity, false).find((target) => target.entry.mid === mid);
    if (!found)
      throw new Error(
        vscode.l10n.t('No item with the message id {0} is visible to {1}.', mid, channelName(account)),
      );
    return found;
  }
  const items =
    purpose === 'edit'
      ? await withCancellableProgress(vscode.l10n.t('Loading your channel stream…'), (signal) =>
          client.channelStream({ mindate: '1970-01-01 00:00:00' }).toArray({ signal }),
        )
      : (await client.fetchNetworkStreamPage({}, { start: 0, records: 20 })).items;
  const candidates = flatten(account, items, identity, purpose === 'edit').filter((target) =>
    purpose === 'edit' ? target.own : !target.commentsClosed,
  );
  if (candidates.length === 0) {
    void showInformation(
      purpose === 'edit'
        ? vscode.l10n.t('You have no posts or comments to edit.')
        : vscode.l10n.t('Nothing to comment on.'),
    );
    return undefined;
  }
  const picked = await pickOne(
    candidates.map((target) => ({
      label: target.label.slice(1, -1),
      description: [target.entry.author.name, target.entry.mid === target.entry.top ? undefined : 'comment']
        .filter(Boolean)
        .join(' · '),
      target,
    })),
    {
      placeHolder:
        purpose === 'edit' ? vscode.l10n.t('Edit which item?') : vscode.l10n.t('Comment on which item?'),
      matchOnDescription: true,
    },
  );
  return picked?.target;
}

export async function comment(
  context: ChannelCommandContext,
  arg: ChannelArgument,
  options: CommentOptions | undefined,
): Promise<PostResult> {
  // A given text is checked before the item is looked up (that lookup is already a request).
  if (options?.body !== undefined) valueOrThrow(checkNoteBody(options.body));
  const target = await itemTarget(
    context,
    arg,
    options,
    'comment',
    vscode.l10n.t('Comment on which channel?'),
  );
  if (!target) return { posted: false, reason: 'cancelled' };
  if (target.commentsClosed) {
    const message = vscode.l10n.t('Comments are turned off on {0}.', target.label);
    void showInformation(message);
    return { posted: false, reason: 'cancelled', message };
  }
  const { account } = target;
  const key = ChannelDrafts.commentKey(account.id, target.entry.mid);
  const draft = context.drafts.get(key);
  let body = options ? (options.body ?? draft?.body) : undefined;
  if (options && body === undefined)
    throw new Error(vscode.l10n.t('No comment text given and no unsent comment to send.'));
  const restoredDraft = draft !== undefined && (options?.body === undefined || options.body === draft.body);
  if (draft && options?.body === undefined)
    void showInformation(vscode.l10n.t('Your unsent comment was restored.'));
  if (body === undefined) {
    body = await askBody(vscode.l10n.t('Comment on {0}', target.label), draft?.body ?? '');
    if (body === undefined) return { posted: false, reason: 'cancelled' };
  }
  const text = valueOrThrow(checkNoteBody(body));
  const client = await context.accounts.client(account.id);
  let result;
  try {
    result = await withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Commenting on {0}…', target.label) },
      () =>
        context.drafts.sendWithDraft(key, { body: text }, () =>
          client.updateItem({ body: text, parent_mid: target.entry.mid }),
        ),
    );
  } catch (error) {
    if (error instanceof CancelledError) return { posted: false, reason: 'cancelled', draftKept: true };
    context.services.log.error(
      `forge.channel.comment: ${error instanceof Error ? error.message : String(error)}`,
    );
    const message = draftKeptMessage(error, {
      kept: vscode.l10n.t('Your comment was kept as a draft'),
      where: vscode.l10n.t('the comments on {0}', target.label),
      resend: vscode.l10n.t('comment on {0} again', target.label),
    });
    void showError(message);
    return { posted: false, reason: 'failed', uncertain: mayHaveActed(error), draftKept: true, message };
  }
  await context.itemIds.remember(account.id, result.item.mid, result.itemId);
  if (target.node) target.node.folder.reload();
  else reloadStreams(context, account);
  void showInformation(vscode.l10n.t('Commented on {0}.', target.label));
  return { posted: true, itemId: result.itemId, mid: result.item.mid, restoredDraft };
}

/** The numeric id `item/update` needs to edit: from the item, what this editor remembers, or `item/full`. */
async function knownItemId(
  context: ChannelCommandContext,
  client: ChannelClient,
  target: ItemTarget,
): Promise<number | undefined> {
  if (target.entry.itemId !== undefined) return target.entry.itemId;
  const remembered = context.itemIds.get(target.account.id, target.entry.mid);
  if (remembered !== undefined) return remembered;
  try {
    const { reply, items } = await client.getItem({ mid: target.entry.mid });
    // Some servers send the ids next to the items (`item_id: [...]`, in the same order).
    const ids =
      reply && typeof reply === 'object' ? (reply as Record<string, unknown>)['item_id'] : undefined;
    const index = items.findIndex(
      (item) => item['message_id'] === target.entry.mid || item['mid'] === target.entry.mid,
    );
    const value: unknown = Array.isArray(ids) ? (ids as unknown[])[index] : undefined;
    const id = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
    return Number.isSafeInteger(id) && id > 0 ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Edits a longer text in an editor tab: resolves with the text when the person presses "Send". */
async function editInEditor(text: string, what: string): Promise<string | undefined> {
  const document = await vscode.workspace.openTextDocument({ content: text, language: 'plaintext' });
  await vscode.window.showTextDocument(document, { preview: false });
  const choice = await showInformation(
    vscode.l10n.t('Edit {0} in the editor, then press Send.', what),
    vscode.l10n.t('Send'),
    vscode.l10n.t('Cancel'),
  );
  if (choice !== vscode.l10n.t('Send')) return undefined;
  return document.getText();
}

export async function editItem(
  context: ChannelCommandContext,
  arg: ChannelArgument,
  options: EditOptions | undefined,
): Promise<{
  edited: boolean;
  reason?: string;
  itemId?: number;
}> {
  if (options?.body !== undefined) valueOrThrow(checkNoteBody(options.body));
  const target = await itemTarget(context, arg, options, 'edit', vscode.l10n.t('Edit in which channel?'));
  if (!target) return { edited: false, reason: 'cancelled' };
  if (!target.own)
    throw new Error(
      vscode.l10n.t('Only your own posts and comments can be edited; {0} is not yours.', target.label),
    );
  const client = await context.accounts.client(target.account.id);
  let itemId = options?.itemId ?? (await knownItemId(context, client, target));
  if (itemId === undefined) {
    if (options)
      throw new Error(
        vscode.l10n.t('The server does not say the number of {0}; pass it as itemId.', target.label),
      );
    const answer = await askText({
      title: vscode.l10n.t('Edit {0}', target.label),
      prompt: vscode.l10n.t(
        'The server does not tell the number of this item (it is in the item’s address on the web, e.g. …/item/1234). Its number:',
      ),
      validateInput: (value) => (/^\d+$/.test(value.trim()) ? undefined : vscode.l10n.t('A whole number')),
    });
    if (answer === undefined) return { edited: false, reason: 'cancelled' };
    itemId = Number(answer.trim());
  }
  const isTop = target.entry.mid === target.entry.top;
  let body = options?.body;
  let title = options?.title;
  if (!options) {
    const current = target.entry.body;
    body = current.includes('\n')
      ? await editInEditor(current, target.label)
      : await askBody(vscode.l10n.t('Edit {0}', target.label), current);
    if (body === undefined) return { edited: false, reason: 'cancelled' };
    if (isTop) {
      title = await askText({
        title: vscode.l10n.t('Edit {0}: title', target.label),
        value: target.entry.title,
        ignoreFocusOut: true,
      });
      if (title === undefined) return { edited: false, reason: 'cancelled' };
    }
  }
  if (body !== undefined) body = valueOrThrow(checkNoteBody(body));
  if (body === undefined && title === undefined) return { edited: false, reason: 'unchanged' };
  if (body === target.entry.body && (title === undefined || title === target.entry.title)) {
    return { edited: false, reason: 'unchanged' };
  }
  const result = await withProgress(
    { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Saving {0}…', target.label) },
    () =>
      client.updateItem({
        body: body ?? target.entry.body,
        title: title !== undefined && isTop ? title : undefined,
        post_id: itemId,
      }),
  );
  await context.itemIds.remember(target.account.id, result.item.mid, result.itemId);
  if (target.node) target.node.folder.reload();
  else reloadStreams(context, target.account);
  void showInformation(vscode.l10n.t('Saved your changes to {0}.', target.label));
  return { edited: true, itemId: result.itemId };
}
