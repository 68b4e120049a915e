import { readFile, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import * as vscode from 'vscode';
import type { ChannelClient, ItemMedia, ItemUpdateInput, PrivacyGroup } from '../../api/channel';
import { CancelledError } from '../../api/http';
import {
  type StreamEntry,
  type StreamThread,
  bbcodeToText,
  buildThreads,
  describeAudience,
  firstTextLine,
  isOwnEntry,
  looksLikeText,
} from '../../domain/channel';
import { checkNoteBody, problemOf } from '../../domain/inputValidation';
import type { ChannelAccountInfo } from '../../platform/channelAccounts';
import { type ChannelDraft, ChannelDrafts, type DraftAudience } from '../../state/channelDrafts';
import { StreamItemNode } from './streamNodes';
import { type ChannelCommandContext, channelName, pickChannelAccount } from './channelTargets';
import {
  type AudienceOption,
  type ChannelArgument,
  ChannelArgumentSchema,
  type CommentOptions,
  CommentOptionsSchema,
  type EditOptions,
  EditOptionsSchema,
  type PostArgument,
  PostArgumentSchema,
  type PostOptions,
  PostOptionsOrSelectionSchema,
} from './commandArguments';
import { isTreeNode } from '../../platform/tree/treeNode';
import { type CommandDeclaration, defineCommand } from '../../platform/commands/defineCommand';
import { draftKeptMessage, mayHaveActed } from '../../platform/commands/errorMessages';
import { valueOrThrow } from '../../platform/commands/registerCommand';
import {
  askText,
  pickMany,
  pickOne,
  showError,
  showInformation,
  withProgress,
  withCancellableProgress,
} from '../../platform/userMessages';

/*
 * Writing to the channel: post (from the editor selection, a file or an input box; title,
 * categories, audience, comments on or off), comment on an item, edit your own item. A post or
 * comment is saved as a draft before it is sent and dropped only once the server took it: one that
 * fails is offered again the next time. The trailing options object answers the prompts (tests and
 * automation); without it every choice is asked.
 */

export interface PostResult {
  posted: boolean;
  reason?: 'cancelled' | 'failed';
  itemId?: number;
  mid?: string;
  /** Who will see it, in words. */
  audience?: string;
  restoredDraft?: boolean;
  draftKept?: boolean;
  /** The server may have taken it (the connection broke after sending): look before sending again. */
  uncertain?: boolean;
  message?: string;
}

/** Text files up to this size become the post's body; larger or binary ones are attached. */
const MAX_TEXT_FILE_BYTES = 256 * 1024;

const MEDIA_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.mp3': 'audio/mpeg',
  '.mp4': 'video/mp4',
  '.txt': 'text/plain',
};

interface PostContent {
  body: string;
  media?: ItemMedia;
  mimetype?: string;
  /** "the selection in notes.md", for messages and the draft. */
  source: string;
}

/** The privacy groups and connections of a channel, to name audiences and resolve names. */
interface Directory {
  groups: PrivacyGroup[];
  connections: { hash: string; name: string; address: string }[];
}

async function loadDirectory(client: ChannelClient): Promise<Directory> {
  const [groups, rows] = await Promise.all([
    client.listGroups().catch(() => [] as PrivacyGroup[]),
    client.listConnections().catch(() => [] as Record<string, unknown>[]),
  ]);
  const text = (row: Record<string, unknown>, key: string): string =>
    typeof row[key] === 'string' ? row[key] : '';
  return {
    groups: groups.filter((group) => group.deleted !== true),
    connections: rows
      .filter((row) => !(row['abook_self'] === 1 || row['abook_self'] === '1' || row['abook_self'] === true))
      .map((row) => ({
        hash: text(row, 'xchan_hash') || text(row, 'abook_xchan'),
        name: text(row, 'xchan_name'),
        address: text(row, 'xchan_addr'),
      }))
      .filter((connection) => connection.hash !== ''),
  };
}

function nameOf(directory: Directory): (hash: string) => string | undefined {
  return (hash) =>
    directory.groups.find((group) => group.hash === hash)?.gname ??
    directory.connections.find((connection) => connection.hash === hash)?.name;
}

/** Resolves `allow`/`deny` names (group name or hash; connection name, address or hash). */
function resolveAudience(option: AudienceOption, directory: Directory): DraftAudience {
  if (option === 'default' || option === 'public') return { kind: option };
  const audience = {
    kind: 'custom' as const,
    allowGroups: [] as string[],
    allowConnections: [] as string[],
    denyGroups: [] as string[],
    denyConnections: [] as string[],
  };
  const place = (name: string, groups: string[], connections: string[]): void => {
    const wanted = name.trim().toLowerCase();
    const group = directory.groups.find(
      (each) => each.gname.toLowerCase() === wanted || each.hash.toLowerCase() === wanted,
    );
    if (group) {
      groups.push(group.hash);
      return;
    }
    const connection = directory.connections.find(
      (each) =>
        each.name.toLowerCase() === wanted ||
        each.address.toLowerCase() === wanted ||
        each.hash.toLowerCase() === wanted,
    );
    if (!connection) throw new Error(`No privacy group or connection is called "${name}".`);
    connections.push(connection.hash);
  };
  for (const name of option.allow ?? []) place(name, audience.allowGroups, audience.allowConnections);
  for (const name of option.deny ?? []) place(name, audience.denyGroups, audience.denyConnections);
  return audience;
}

/** The access fields of `item/update` for an audience. */
function accessFields(audience: DraftAudience): Partial<ItemUpdateInput> {
  if (audience.kind === 'default') return {};
  if (audience.kind === 'public') return { contact_allow: [] };
  const fields: Partial<ItemUpdateInput> = {};
  if (audience.allowGroups.length > 0) fields.group_allow = audience.allowGroups;
  if (audience.allowConnections.length > 0) fields.contact_allow = audience.allowConnections;
  if (audience.denyGroups.length > 0) fields.group_deny = audience.denyGroups;
  if (audience.denyConnections.length > 0) fields.contact_deny = audience.denyConnections;
  // Nobody named on either side: that is a public post.
  return Object.keys(fields).length > 0 ? fields : { contact_allow: [] };
}

async function describePostAudience(
  context: ChannelCommandContext,
  account: ChannelAccountInfo,
  audience: DraftAudience,
  directory: Directory,
): Promise<string> {
  const names = nameOf(directory);
  if (audience.kind === 'public') return 'everyone (public)';
  if (audience.kind === 'custom') {
    return describeAudience(
      {
        allowCid: audience.allowConnections.map((hash) => `<${hash}>`).join(''),
        allowGid: audience.allowGroups.map((hash) => `<${hash}>`).join(''),
        denyCid: audience.denyConnections.map((hash) => `<${hash}>`).join(''),
        denyGid: audience.denyGroups.map((hash) => `<${hash}>`).join(''),
      },
      names,
    );
  }
  try {
    const profile = await context.accounts.profile(account.id);
    return `${describeAudience(profile.defaultAudience, names)} (the channel's default audience)`;
  } catch {
    return "the channel's default audience";
  }
}

function mediaType(path: string): string {
  return MEDIA_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/** A file as a post: its text as the body, or (binary or large) attached as media. */
async function contentFromFile(path: string, body: string | undefined): Promise<PostContent> {
  const name = basename(path);
  const size = (await stat(path)).size;
  if (size <= MAX_TEXT_FILE_BYTES) {
    const bytes = await readFile(path);
    if (looksLikeText(bytes) && body === undefined) {
      const markdown = /\.(md|markdown)$/i.test(name);
      return {
        body: bytes.toString('utf8'),
        mimetype: markdown ? 'text/markdown' : undefined,
        source: `the file ${name}`,
      };
    }
  }
  return {
    body: body ?? name,
    media: { path, filename: name, contentType: mediaType(path) },
    source: `the file ${name} (attached)`,
  };
}

function contentFromSelection(): PostContent | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return undefined;
  const text = editor.selections
    .map((selection) => editor.document.getText(selection))
    .filter((each) => each.trim() !== '')
    .join('\n\n');
  if (text.trim() === '') return undefined;
  return {
    body: text,
    mimetype: editor.document.languageId === 'markdown' ? 'text/markdown' : undefined,
    source: `the selection in ${basename(editor.document.fileName)}`,
  };
}

async function askBody(title: string, value: string): Promise<string | undefined> {
  return askText({
    title,
    prompt: 'bbcode or plain text. Kept as a draft until the server has it.',
    value,
    ignoreFocusOut: true,
    validateInput: (text) => problemOf(checkNoteBody(text)),
  });
}

/** Asks where the post's text comes from (interactive). */
async function askContent(
  draft: ChannelDraft | undefined,
): Promise<{ content: PostContent; fromDraft: boolean } | undefined> {
  const selection = contentFromSelection();
  type Choice = {
    icon?: string;
    label: string;
    description?: string;
    what: 'draft' | 'selection' | 'file' | 'input';
  };
  const choices: Choice[] = [];
  if (draft) {
    choices.push({
      icon: 'history',
      label: 'Unsent post',
      description: firstTextLine(draft.title || draft.body, 60),
      what: 'draft',
    });
  }
  if (selection)
    choices.push({
      icon: 'selection',
      label: 'Selection',
      description: selection.source,
      what: 'selection',
    });
  choices.push(
    {
      icon: 'file',
      label: 'A file…',
      description: 'text becomes the post; other files are attached',
      what: 'file',
    },
    { icon: 'edit', label: 'Type it…', what: 'input' },
  );
  const picked = await pickOne(choices, {
    title: 'Post to Channel',
    placeHolder: 'What to post',
    ignoreFocusOut: true,
  });
  if (!picked) return undefined;
  switch (picked.what) {
    case 'draft':
      return draft
        ? { content: { body: draft.body, source: draft.source ?? 'the unsent draft' }, fromDraft: true }
        : undefined;
    case 'selection':
      return selection ? { content: selection, fromDraft: false } : undefined;
    case 'file': {
      const files = await vscode.window.showOpenDialog({ canSelectMany: false, openLabel: 'Post' });
      const file = files?.[0];
      return file ? { content: await contentFromFile(file.fsPath, undefined), fromDraft: false } : undefined;
    }
    case 'input': {
      const body = await askBody('Post to Channel', '');
      return body === undefined
        ? undefined
        : { content: { body, source: 'text typed in' }, fromDraft: false };
    }
  }
}

async function askAudience(
  context: ChannelCommandContext,
  account: ChannelAccountInfo,
  directory: Directory,
  current: DraftAudience | undefined,
): Promise<DraftAudience | undefined> {
  const defaultText = await describePostAudience(context, account, { kind: 'default' }, directory);
  const picked = await pickOne(
    [
      { icon: 'globe', label: 'Everyone', description: 'public', choice: 'public' as const },
      { icon: 'home', label: 'Channel default', description: defaultText, choice: 'default' as const },
      {
        icon: 'lock',
        label: 'Only…',
        description: 'privacy groups and connections you choose',
        choice: 'only' as const,
      },
      {
        icon: 'circle-slash',
        label: 'Everyone except…',
        description: 'hidden from the ones you choose',
        choice: 'except' as const,
      },
    ].map((item) => ({ ...item, picked: current?.kind === item.choice })),
    { title: 'Post to Channel: who will see it?', placeHolder: 'Audience', ignoreFocusOut: true },
  );
  if (!picked) return undefined;
  if (picked.choice === 'public' || picked.choice === 'default') return { kind: picked.choice };
  const entries = [
    ...directory.groups.map((group) => ({
      icon: 'organization',
      label: group.gname,
      description: 'privacy group',
      hash: group.hash,
      group: true,
    })),
    ...directory.connections.map((connection) => ({
      icon: 'person',
      label: connection.name || connection.address,
      description: connection.address,
      hash: connection.hash,
      group: false,
    })),
  ];
  const chosen = await pickMany(entries, {
    title: picked.choice === 'only' ? 'Who may see the post?' : 'Who must not see the post?',
    ignoreFocusOut: true,
    matchOnDescription: true,
  });
  if (!chosen || chosen.length === 0) return undefined;
  const groups = chosen.filter((entry) => entry.group).map((entry) => entry.hash);
  const connections = chosen.filter((entry) => !entry.group).map((entry) => entry.hash);
  return picked.choice === 'only'
    ? {
        kind: 'custom',
        allowGroups: groups,
        allowConnections: connections,
        denyGroups: [],
        denyConnections: [],
      }
    : {
        kind: 'custom',
        allowGroups: [],
        allowConnections: [],
        denyGroups: groups,
        denyConnections: connections,
      };
}

function splitCategories(value: string[] | string | undefined): string[] {
  const list = typeof value === 'string' ? value.split(',') : (value ?? []);
  return list.map((each) => each.trim()).filter((each) => each !== '');
}

/** Refreshes the streams of an account after something was written. */
function reloadStreams(context: ChannelCommandContext, account: ChannelAccountInfo): void {
  const node = context.tree.accountNode(account.id);
  node?.stream.reload();
}

async function post(
  context: ChannelCommandContext,
  given: PostArgument,
  givenOptions: PostOptions | undefined,
): Promise<PostResult> {
  // Options may come first, where a row or a file would be.
  const firstIsOptions = isPostOptions(given);
  const options = givenOptions ?? (firstIsOptions ? given : undefined);
  const arg = firstIsOptions ? undefined : given;
  const account = await pickChannelAccount(context.accounts, 'Post to which channel?', arg, options?.account);
  if (!account) return { posted: false, reason: 'cancelled' };
  const key = ChannelDrafts.postKey(account.id);
  const draft = context.drafts.get(key);
  const client = await context.accounts.client(account.id);

  let content: PostContent | undefined;
  let fromDraft = false;
  // The editor's context menu passes the document: its selection is what to post.
  const editor = vscode.window.activeTextEditor;
  const selectionOfArg =
    arg instanceof vscode.Uri && editor?.document.uri.toString() === arg.toString()
      ? contentFromSelection()
      : undefined;
  const file = arg instanceof vscode.Uri && !selectionOfArg ? arg.fsPath : options?.file;
  if (selectionOfArg && options?.body === undefined) {
    content = selectionOfArg;
  } else if (options) {
    if (options.source === 'selection') {
      content = contentFromSelection();
      if (!content) throw new Error('There is no selected text to post.');
    } else if (file !== undefined) {
      content = await contentFromFile(file, options.body);
    } else if (options.body !== undefined) {
      content = { body: options.body, source: 'text given' };
    } else if (draft) {
      content = { body: draft.body, source: draft.source ?? 'the unsent draft' };
      fromDraft = true;
    } else {
      throw new Error('No text given and no unsent post to send.');
    }
  } else if (file !== undefined) {
    content = await contentFromFile(file, undefined);
  } else {
    const asked = await askContent(draft);
    if (!asked) return { posted: false, reason: 'cancelled' };
    ({ content, fromDraft } = asked);
  }
  // Servers refuse texts above the note limit: say so before anything is saved or sent.
  if (!content.media) valueOrThrow(checkNoteBody(content.body));
  if (fromDraft) void showInformation('Your unsent post was restored.');
  const defaults = fromDraft ? draft : undefined;

  let title = options?.title ?? (options ? defaults?.title : undefined);
  if (!options) {
    title = await askText({
      title: 'Post to Channel: title',
      prompt: 'Optional',
      value: defaults?.title ?? '',
      ignoreFocusOut: true,
    });
    if (title === undefined) return { posted: false, reason: 'cancelled' };
  }
  let categories =
    options?.categories !== undefined ? splitCategories(options.categories) : (defaults?.categories ?? []);
  if (!options) {
    const answer = await askText({
      title: 'Post to Channel: categories',
      prompt: 'Optional, separated by commas',
      value: (defaults?.categories ?? []).join(', '),
      ignoreFocusOut: true,
    });
    if (answer === undefined) return { posted: false, reason: 'cancelled' };
    categories = splitCategories(answer);
  }

  const directory = await loadDirectory(client);
  let audience: DraftAudience | undefined =
    options?.audience !== undefined ? resolveAudience(options.audience, directory) : defaults?.audience;
  if (!options) audience = await askAudience(context, account, directory, defaults?.audience);
  if (!audience) {
    if (!options) return { posted: false, reason: 'cancelled' };
    audience = { kind: 'default' };
  }
  let nocomment = options?.nocomment ?? defaults?.nocomment ?? false;
  if (!options) {
    const choice = await pickOne(
      [
        { icon: 'comment', label: 'Allow comments', nocomment: false, picked: !nocomment },
        { icon: 'comment-unresolved', label: 'Turn comments off', nocomment: true, picked: nocomment },
      ],
      { title: 'Post to Channel: comments', ignoreFocusOut: true },
    );
    if (!choice) return { posted: false, reason: 'cancelled' };
    nocomment = choice.nocomment;
  }

  const audienceText = await describePostAudience(context, account, audience, directory);
  const draftData: Omit<ChannelDraft, 'savedAt'> = {
    body: content.body,
    title: title?.trim() || undefined,
    categories: categories.length > 0 ? categories : undefined,
    audience,
    nocomment: nocomment || undefined,
    source: content.source,
  };
  const input: ItemUpdateInput = {
    body: content.body,
    title: title?.trim() || undefined,
    category: categories.length > 0 ? categories : undefined,
    mimetype: content.mimetype,
    media: content.media,
    nocomment: nocomment ? true : undefined,
    ...accessFields(audience),
  };
  let result;
  try {
    result = await withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Posting to ${channelName(account)} (visible to ${audienceText})…`,
      },
      () => context.drafts.sendWithDraft(key, draftData, () => client.updateItem(input)),
    );
  } catch (error) {
    if (error instanceof CancelledError) return { posted: false, reason: 'cancelled', draftKept: true };
    context.services.log.error(
      `forge.channel.post: ${error instanceof Error ? error.message : String(error)}`,
    );
    const message = draftKeptMessage(error, {
      kept: 'Your post was kept as a draft',
      where: `the stream of ${channelName(account)}`,
      resend: 'run "Forge: Post to Channel" again',
    });
    void showError(message);
    return { posted: false, reason: 'failed', uncertain: mayHaveActed(error), draftKept: true, message };
  }
  await context.itemIds.remember(account.id, result.item.mid, result.itemId);
  reloadStreams(context, account);
  void showInformation(`Posted to ${channelName(account)}, visible to ${audienceText}.`);
  return {
    posted: true,
    itemId: result.itemId,
    mid: result.item.mid,
    audience: audienceText,
    restoredDraft: fromDraft,
  };
}

// ---- comments and edits -------------------------------------------------------------------------

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
    const visit = (node: StreamThread['top']): void => {
      const { entry } = node;
      targets.push({
        account,
        entry,
        commentsClosed: thread.top.entry.commentsClosed,
        own: isOwnEntry(entry, identity),
        label: `"${firstTextLine(entry.title || bbcodeToText(entry.body), 60) || '(no text)'}"`,
      });
      node.replies.forEach(visit);
    };
    visit(thread.top);
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
    if (!found) throw new Error(`No item with the message id ${mid} is visible to ${channelName(account)}.`);
    return found;
  }
  const items =
    purpose === 'edit'
      ? await withCancellableProgress('Loading your channel stream…', (signal) =>
          client.channelStream({ mindate: '1970-01-01 00:00:00' }).toArray({ signal }),
        )
      : (await client.fetchNetworkStreamPage({}, { start: 0, records: 20 })).items;
  const candidates = flatten(account, items, identity, purpose === 'edit').filter((target) =>
    purpose === 'edit' ? target.own : !target.commentsClosed,
  );
  if (candidates.length === 0) {
    void showInformation(
      purpose === 'edit' ? 'You have no posts or comments to edit.' : 'Nothing to comment on.',
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
      placeHolder: purpose === 'edit' ? 'Edit which item?' : 'Comment on which item?',
      matchOnDescription: true,
    },
  );
  return picked?.target;
}

async function comment(
  context: ChannelCommandContext,
  arg: ChannelArgument,
  options: CommentOptions | undefined,
): Promise<PostResult> {
  // A given text is checked before the item is looked up (that lookup is already a request).
  if (options?.body !== undefined) valueOrThrow(checkNoteBody(options.body));
  const target = await itemTarget(context, arg, options, 'comment', 'Comment on which channel?');
  if (!target) return { posted: false, reason: 'cancelled' };
  if (target.commentsClosed) {
    const message = `Comments are turned off on ${target.label}.`;
    void showInformation(message);
    return { posted: false, reason: 'cancelled', message };
  }
  const { account } = target;
  const key = ChannelDrafts.commentKey(account.id, target.entry.mid);
  const draft = context.drafts.get(key);
  let body = options ? (options.body ?? draft?.body) : undefined;
  if (options && body === undefined) throw new Error('No comment text given and no unsent comment to send.');
  const restoredDraft = draft !== undefined && (options?.body === undefined || options.body === draft.body);
  if (draft && options?.body === undefined) void showInformation('Your unsent comment was restored.');
  if (body === undefined) {
    body = await askBody(`Comment on ${target.label}`, draft?.body ?? '');
    if (body === undefined) return { posted: false, reason: 'cancelled' };
  }
  const text = valueOrThrow(checkNoteBody(body));
  const client = await context.accounts.client(account.id);
  let result;
  try {
    result = await withProgress(
      { location: vscode.ProgressLocation.Window, title: `Commenting on ${target.label}…` },
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
      kept: 'Your comment was kept as a draft',
      where: `the comments on ${target.label}`,
      resend: `comment on ${target.label} again`,
    });
    void showError(message);
    return { posted: false, reason: 'failed', uncertain: mayHaveActed(error), draftKept: true, message };
  }
  await context.itemIds.remember(account.id, result.item.mid, result.itemId);
  if (target.node) target.node.folder.reload();
  else reloadStreams(context, account);
  void showInformation(`Commented on ${target.label}.`);
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
  const choice = await showInformation(`Edit ${what} in the editor, then press Send.`, 'Send', 'Cancel');
  if (choice !== 'Send') return undefined;
  return document.getText();
}

async function editItem(
  context: ChannelCommandContext,
  arg: ChannelArgument,
  options: EditOptions | undefined,
): Promise<{
  edited: boolean;
  reason?: string;
  itemId?: number;
}> {
  if (options?.body !== undefined) valueOrThrow(checkNoteBody(options.body));
  const target = await itemTarget(context, arg, options, 'edit', 'Edit in which channel?');
  if (!target) return { edited: false, reason: 'cancelled' };
  if (!target.own)
    throw new Error(`Only your own posts and comments can be edited; ${target.label} is not yours.`);
  const client = await context.accounts.client(target.account.id);
  let itemId = options?.itemId ?? (await knownItemId(context, client, target));
  if (itemId === undefined) {
    if (options) throw new Error(`The server does not say the number of ${target.label}; pass it as itemId.`);
    const answer = await askText({
      title: `Edit ${target.label}`,
      prompt:
        'The server does not tell the number of this item (it is in the item’s address on the web, e.g. …/item/1234). Its number:',
      validateInput: (value) => (/^\d+$/.test(value.trim()) ? undefined : 'A whole number'),
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
      : await askBody(`Edit ${target.label}`, current);
    if (body === undefined) return { edited: false, reason: 'cancelled' };
    if (isTop) {
      title = await askText({
        title: `Edit ${target.label}: title`,
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
    { location: vscode.ProgressLocation.Window, title: `Saving ${target.label}…` },
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
  void showInformation(`Saved your changes to ${target.label}.`);
  return { edited: true, itemId: result.itemId };
}

/** Posting, commenting and editing. */
export function channelPostCommands(context: ChannelCommandContext): CommandDeclaration[] {
  return [
    defineCommand({
      id: 'forge.channel.post',
      args: [PostArgumentSchema, PostOptionsOrSelectionSchema],
      run: (arg, options) => post(context, arg, options),
    }),
    defineCommand({
      id: 'forge.channel.comment',
      args: [ChannelArgumentSchema, CommentOptionsSchema.optional()],
      run: (arg, options) => comment(context, arg, options),
    }),
    defineCommand({
      id: 'forge.channel.editItem',
      args: [ChannelArgumentSchema, EditOptionsSchema.optional()],
      run: (arg, options) => editItem(context, arg, options),
    }),
  ];
}

function isPostOptions(value: PostArgument): value is PostOptions {
  return typeof value === 'object' && !(value instanceof vscode.Uri) && !isTreeNode(value);
}
