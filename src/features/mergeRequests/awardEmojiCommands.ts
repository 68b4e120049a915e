import type { Awardable } from '../../api/hosting';
import { HttpError } from '../../api/http';
import { COMMON_EMOJI, firstLine, normalizeEmojiName } from '../../domain/mergeRequestStatus';
import type { AccountInfo } from '../../platform/accounts';
import { NoteNode } from './mergeRequestsTreeProvider';
import { type ProjectTarget, projectTarget } from '../projects';
import type { Services } from '../../services';
import { MergeRequestNode } from './nodes/mergeRequestNodes';
import type { TreeNode } from '../../platform/tree/treeNode';
import {
  type MergeRequestCommandContext,
  afterMergeRequestChange,
  askNumber,
  mergeRequestFromNode,
  pickMergeRequestIn,
  projectPath,
} from './mergeRequestTargets';
import { type CommandDeclaration, defineCommand } from '../../platform/commands/defineCommand';
import { type MergeRequestArgument, MergeRequestArgumentSchema } from './commandArguments';
import * as z from 'zod';
import { askText, pickOne, showInformation, type PickItem } from '../../platform/userMessages';
import * as l10n from '@vscode/l10n';

/*
 * Reactions (award emoji) on merge requests and their comments, and from the palette on issues
 * and snippets. Options (second argument, for tests and automation): `{ emoji: 'tada' }`.
 */

export interface AwardTarget {
  account: AccountInfo;
  projectId: number;
  awardable: Awardable;
  /** "!3", "a comment on !3", "#12", "$5". */
  label: string;
  node?: TreeNode;
}

const AwardOptionsSchema = z.strictObject({
  /** Emoji name, with or without colons. */
  emoji: z.string().optional(),
});
type AwardOptions = z.output<typeof AwardOptionsSchema>;

const glyphOf = (name: string): string => COMMON_EMOJI.find((emoji) => emoji.name === name)?.glyph ?? '';

/** A merge request, or one of its comments, picked from the project. */
async function askMergeRequestOrNote(
  services: Services,
  target: ProjectTarget,
  note: boolean,
): Promise<AwardTarget | undefined> {
  const project = target.project.id;
  const base = { account: target.account, projectId: project };
  const picked = await pickMergeRequestIn(services, target);
  if (!picked) return undefined;
  const { iid } = picked.mergeRequest;
  if (!note) return { ...base, awardable: { kind: 'mergeRequest', project, iid }, label: `!${iid}` };
  const client = await services.accounts.client(target.account.id);
  const notes = await client.listNotes({ kind: 'mergeRequest', project, iid }).page({ perPage: 100 });
  const choice = await pickOne(
    notes.items.flatMap((each) =>
      'body' in each && typeof each.body === 'string' && each.system !== true
        ? [
            {
              label: firstLine(each.body) || l10n.t('(empty)'),
              description: each.author?.name ?? '',
              noteId: each.id,
            },
          ]
        : [],
    ),
    { placeHolder: l10n.t('Which comment on !{0}?', iid) },
  );
  if (!choice) return undefined;
  return {
    ...base,
    awardable: { kind: 'mergeRequestNote', project, iid, noteId: choice.noteId },
    label: l10n.t('a comment on !{0}', iid),
  };
}

async function awardTarget(
  context: MergeRequestCommandContext,
  arg: unknown,
): Promise<AwardTarget | undefined> {
  if (arg instanceof NoteNode) {
    const { owner, note } = arg;
    return {
      account: owner.account,
      projectId: owner.project.id,
      awardable: {
        kind: 'mergeRequestNote',
        project: owner.project.id,
        iid: owner.mergeRequest.iid,
        noteId: note.id,
      },
      label: l10n.t('the comment by {0} on !{1}', note.author?.name ?? 'unknown', owner.mergeRequest.iid),
      node: arg,
    };
  }
  const fromNode = mergeRequestFromNode(arg);
  if (fromNode) {
    return {
      account: fromNode.account,
      projectId: fromNode.project.id,
      awardable: { kind: 'mergeRequest', project: fromNode.project.id, iid: fromNode.mergeRequest.iid },
      label: `!${fromNode.mergeRequest.iid}`,
      node: fromNode.node,
    };
  }
  const { services } = context;
  const target = await projectTarget(services, undefined, l10n.t('React to something in which project?'));
  if (!target) return undefined;
  const kind = await pickOne(
    [
      { label: l10n.t('Merge request'), what: 'mergeRequest' as const },
      { label: l10n.t('Comment on a merge request'), what: 'mergeRequestNote' as const },
      { label: l10n.t('Issue'), what: 'issue' as const },
      { label: l10n.t('Snippet'), what: 'snippet' as const },
    ],
    { placeHolder: l10n.t('React to what in {0}?', projectPath(target.project)) },
  );
  if (!kind) return undefined;
  const project = target.project.id;
  const base = { account: target.account, projectId: project };
  if (kind.what === 'mergeRequest' || kind.what === 'mergeRequestNote')
    return askMergeRequestOrNote(services, target, kind.what === 'mergeRequestNote');
  if (kind.what === 'issue') {
    const iid = await askNumber(l10n.t('Issue number (iid)'), '12');
    if (iid === undefined) return undefined;
    return { ...base, awardable: { kind: 'issue', project, iid }, label: `#${iid}` };
  }
  const snippetId = await askNumber(l10n.t('Snippet id'), '5');
  if (snippetId === undefined) return undefined;
  return { ...base, awardable: { kind: 'snippet', project, snippetId }, label: `$${snippetId}` };
}

async function askEmoji(label: string): Promise<string | undefined> {
  const picked = await pickOne(
    [
      ...COMMON_EMOJI.map((emoji): PickItem & { name?: string } => ({
        label: `${emoji.glyph} ${emoji.name}`,
        name: emoji.name,
      })),
      { label: l10n.t('Other…'), description: l10n.t('type an emoji name') },
    ],
    { placeHolder: l10n.t('React to {0} with', label) },
  );
  if (!picked) return undefined;
  if (picked.name) return picked.name;
  const typed = await askText({
    prompt: l10n.t('Emoji name, without colons (e.g. clap, fire, 100)'),
    validateInput: (value) => (normalizeEmojiName(value) ? undefined : l10n.t('Letters, digits, _ + - only')),
  });
  return typed === undefined ? undefined : normalizeEmojiName(typed);
}

function afterAwardChange(context: MergeRequestCommandContext, target: AwardTarget): void {
  // Votes show on merge request rows; reactions on comments are not shown in the tree.
  if (target.awardable.kind === 'mergeRequest') afterMergeRequestChange(context, target);
  else if (target.node instanceof MergeRequestNode) context.services.afterAction(target.node);
}

/** Add and remove a reaction. */
export function awardEmojiCommands(context: MergeRequestCommandContext): CommandDeclaration[] {
  const args = [MergeRequestArgumentSchema, AwardOptionsSchema.optional()] as const;
  return [
    defineCommand({
      id: 'forge.awardEmoji.add',
      args,
      run: (arg, options) => addAward(context, arg, options),
    }),
    defineCommand({
      id: 'forge.awardEmoji.remove',
      args,
      run: (arg, options) => removeAward(context, arg, options),
    }),
  ];
}

async function addAward(
  context: MergeRequestCommandContext,
  arg: MergeRequestArgument,
  options: AwardOptions | undefined,
) {
  const { services } = context;
  const target = await awardTarget(context, arg);
  if (!target) return { awarded: undefined, reason: 'cancelled' };
  const name = options ? normalizeEmojiName(options.emoji ?? '') : await askEmoji(target.label);
  if (options && !name) throw new Error(l10n.t('"{0}" is not an emoji name.', options.emoji ?? ''));
  if (!name) return { awarded: undefined, reason: 'cancelled' };
  const client = await services.accounts.client(target.account.id);
  try {
    const award = await client.awardEmoji(target.awardable, name);
    afterAwardChange(context, target);
    void showInformation(
      l10n.t('Reacted {0} on {1}', glyphOf(award.name) || `:${award.name}:`, target.label),
    );
    return { awarded: award.name, awardId: award.id };
  } catch (error) {
    if (
      error instanceof HttpError &&
      /already been taken/i.test(JSON.stringify([error.serverMessage, error.fieldErrors]))
    ) {
      void showInformation(l10n.t('You already reacted with :{0}: on {1}', name, target.label));
      return { awarded: undefined, reason: 'already-awarded' };
    }
    throw error;
  }
}

async function removeAward(
  context: MergeRequestCommandContext,
  arg: MergeRequestArgument,
  options: AwardOptions | undefined,
) {
  const { services } = context;
  const target = await awardTarget(context, arg);
  if (!target) return { removed: undefined, reason: 'cancelled' };
  const client = await services.accounts.client(target.account.id);
  const [username, page] = await Promise.all([
    context.currentUsers.username(target.account.id),
    client.listAwardEmoji(target.awardable).page({ perPage: 100 }),
  ]);
  const own = page.items.filter(
    (award) => username === undefined || award.user.username.toLowerCase() === username.toLowerCase(),
  );
  const wanted = options ? normalizeEmojiName(options.emoji ?? '') : undefined;
  const candidates = wanted ? own.filter((award) => award.name === wanted) : own;
  if (candidates.length === 0) {
    void showInformation(
      wanted
        ? l10n.t('You have not reacted with :{0}: on {1}', wanted, target.label)
        : l10n.t('You have no reactions on {0}', target.label),
    );
    return { removed: undefined, reason: 'none' };
  }
  let chosen = candidates[0];
  if (!options && candidates.length > 1) {
    const picked = await pickOne(
      candidates.map((award) => ({
        label: `${glyphOf(award.name)} ${award.name}`.trim(),
        description: username === undefined ? award.user.name : undefined,
        award,
      })),
      { placeHolder: l10n.t('Remove which reaction from {0}?', target.label) },
    );
    if (!picked) return { removed: undefined, reason: 'cancelled' };
    chosen = picked.award;
  }
  if (!chosen) return { removed: undefined, reason: 'none' };
  await client.deleteAwardEmoji(target.awardable, chosen.id);
  afterAwardChange(context, target);
  void showInformation(l10n.t('Removed :{0}: from {1}', chosen.name, target.label));
  return { removed: chosen.name, awardId: chosen.id };
}
