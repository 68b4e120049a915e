import * as vscode from 'vscode';
import type { ItemUpdateInput } from '../../api/channel';
import { CancelledError } from '../../api/http';
import { checkNoteBody } from '../../domain/inputValidation';
import { type ChannelDraft, ChannelDrafts, type DraftAudience } from '../../state/channelDrafts';
import { type ChannelCommandContext, channelName, pickChannelAccount } from './channelTargets';
import {
  ChannelArgumentSchema,
  CommentOptionsSchema,
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
import { askText, pickOne, showError, showInformation, withProgress } from '../../platform/userMessages';
import { reloadStreams } from './channelTargets';
import { type PostContent, contentFromFile, contentFromSelection, askContent } from './postContent';
import {
  loadDirectory,
  resolveAudience,
  accessFields,
  describePostAudience,
  askAudience,
  type Directory,
} from './postAudience';
import { comment, editItem } from './commentCommands';
import type { PostResult } from './postContent';
import type { ChannelAccountInfo } from '../../platform/channelAccounts';

/*
 * Writing to the channel: post (from the editor selection, a file or an input box; title,
 * categories, audience, comments on or off), comment on an item, edit your own item. A post or
 * comment is saved as a draft before it is sent and dropped only once the server took it: one that
 * fails is offered again the next time. The trailing options object answers the prompts (tests and
 * automation); without it every choice is asked.
 */

function splitCategories(value: string[] | string | undefined): string[] {
  const list = typeof value === 'string' ? value.split(',') : (value ?? []);
  return list.map((each) => each.trim()).filter((each) => each !== '');
}

/** What to post: the selection, a file, the given text, the unsent draft, or what the user types. */
async function chooseContent(
  arg: Exclude<PostArgument, PostOptions>,
  options: PostOptions | undefined,
  draft: ChannelDraft | undefined,
): Promise<{ content: PostContent; fromDraft: boolean } | undefined> {
  // The editor's context menu passes the document: its selection is what to post.
  const editor = vscode.window.activeTextEditor;
  const selectionOfArg =
    arg instanceof vscode.Uri && editor?.document.uri.toString() === arg.toString()
      ? contentFromSelection()
      : undefined;
  const file = arg instanceof vscode.Uri && !selectionOfArg ? arg.fsPath : options?.file;
  if (selectionOfArg && options?.body === undefined) return { content: selectionOfArg, fromDraft: false };
  if (!options) {
    if (file !== undefined) return { content: await contentFromFile(file, undefined), fromDraft: false };
    return askContent(draft);
  }
  if (options.source === 'selection') {
    const content = contentFromSelection();
    if (!content) throw new Error(vscode.l10n.t('There is no selected text to post.'));
    return { content, fromDraft: false };
  }
  if (file !== undefined) return { content: await contentFromFile(file, options.body), fromDraft: false };
  if (options.body !== undefined)
    return { content: { body: options.body, source: 'text given' }, fromDraft: false };
  if (draft)
    return {
      content: { body: draft.body, source: draft.source ?? vscode.l10n.t('the unsent draft') },
      fromDraft: true,
    };
  throw new Error(vscode.l10n.t('No text given and no unsent post to send.'));
}

interface PostDetails {
  title: string | undefined;
  categories: string[];
  audience: DraftAudience;
  nocomment: boolean;
}

/** Title, categories, audience and comments: asked, or from the options (and a restored draft). */
async function chooseDetails(
  context: ChannelCommandContext,
  account: ChannelAccountInfo,
  directory: Directory,
  options: PostOptions | undefined,
  defaults: ChannelDraft | undefined,
): Promise<PostDetails | undefined> {
  if (options) {
    return {
      title: options.title ?? defaults?.title,
      categories:
        options.categories !== undefined ? splitCategories(options.categories) : (defaults?.categories ?? []),
      audience: (options.audience !== undefined
        ? resolveAudience(options.audience, directory)
        : defaults?.audience) ?? { kind: 'default' },
      nocomment: options.nocomment ?? defaults?.nocomment ?? false,
    };
  }
  const title = await askText({
    title: vscode.l10n.t('Post to Channel: title'),
    prompt: vscode.l10n.t('Optional'),
    value: defaults?.title ?? '',
    ignoreFocusOut: true,
  });
  if (title === undefined) return undefined;
  const categories = await askText({
    title: vscode.l10n.t('Post to Channel: categories'),
    prompt: vscode.l10n.t('Optional, separated by commas'),
    value: (defaults?.categories ?? []).join(', '),
    ignoreFocusOut: true,
  });
  if (categories === undefined) return undefined;
  const audience = await askAudience(context, account, directory, defaults?.audience);
  if (!audience) return undefined;
  const nocomment = defaults?.nocomment ?? false;
  const choice = await pickOne(
    [
      { icon: 'comment', label: vscode.l10n.t('Allow comments'), nocomment: false, picked: !nocomment },
      {
        icon: 'comment-unresolved',
        label: vscode.l10n.t('Turn comments off'),
        nocomment: true,
        picked: nocomment,
      },
    ],
    { title: vscode.l10n.t('Post to Channel: comments'), ignoreFocusOut: true },
  );
  if (!choice) return undefined;
  return { title, categories: splitCategories(categories), audience, nocomment: choice.nocomment };
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
  const account = await pickChannelAccount(
    context.accounts,
    vscode.l10n.t('Post to which channel?'),
    arg,
    options?.account,
  );
  if (!account) return { posted: false, reason: 'cancelled' };
  const key = ChannelDrafts.postKey(account.id);
  const draft = context.drafts.get(key);
  const client = await context.accounts.client(account.id);
  const chosen = await chooseContent(arg, options, draft);
  if (!chosen) return { posted: false, reason: 'cancelled' };
  const { content, fromDraft } = chosen;
  // Servers refuse texts above the note limit: say so before anything is saved or sent.
  if (!content.media) valueOrThrow(checkNoteBody(content.body));
  if (fromDraft) void showInformation(vscode.l10n.t('Your unsent post was restored.'));
  const directory = await loadDirectory(client);
  const details = await chooseDetails(context, account, directory, options, fromDraft ? draft : undefined);
  if (!details) return { posted: false, reason: 'cancelled' };
  const { title, categories, audience, nocomment } = details;
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
        title: vscode.l10n.t('Posting to {0} (visible to {1})…', channelName(account), audienceText),
      },
      () => context.drafts.sendWithDraft(key, draftData, () => client.updateItem(input)),
    );
  } catch (error) {
    if (error instanceof CancelledError) return { posted: false, reason: 'cancelled', draftKept: true };
    context.services.log.error(
      `forge.channel.post: ${error instanceof Error ? error.message : String(error)}`,
    );
    const message = draftKeptMessage(error, {
      kept: vscode.l10n.t('Your post was kept as a draft'),
      where: vscode.l10n.t('the stream of {0}', channelName(account)),
      resend: vscode.l10n.t('run "Forge: Post to Channel" again'),
    });
    void showError(message);
    return { posted: false, reason: 'failed', uncertain: mayHaveActed(error), draftKept: true, message };
  }
  await context.itemIds.remember(account.id, result.item.mid, result.itemId);
  reloadStreams(context, account);
  void showInformation(vscode.l10n.t('Posted to {0}, visible to {1}.', channelName(account), audienceText));
  return {
    posted: true,
    itemId: result.itemId,
    mid: result.item.mid,
    audience: audienceText,
    restoredDraft: fromDraft,
  };
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
