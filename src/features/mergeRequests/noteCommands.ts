import * as vscode from 'vscode';
import * as z from 'zod';
import { type CommandDeclaration, defineCommand } from '../../platform/commands/defineCommand';
import { type MergeRequestArgument, MergeRequestArgumentSchema } from './commandArguments';
import { type Note, type NoteParent, isAwardEmoji } from '../../api/hosting';
import { CancelledError } from '../../api/http';
import { checkNoteBody, problemOf } from '../../domain/inputValidation';
import { firstLine } from '../../domain/mergeRequestStatus';
import type { AccountInfo } from '../../platform/accounts';
import { NoteDrafts } from '../../state/noteDrafts';
import { NoteNode } from './mergeRequestsTreeProvider';
import { projectTarget } from '../projects';
import { MergeRequestNode } from './nodes/mergeRequestNodes';
import type { TreeNode } from '../../platform/tree/treeNode';
import {
  type MergeRequestCommandContext,
  askNumber,
  mergeRequestFromNode,
  pickMergeRequest,
  pickMergeRequestIn,
  projectPath,
} from './mergeRequestTargets';
import { draftKeptMessage, mayHaveActed } from '../../platform/commands/errorMessages';
import { valueOrThrow } from '../../platform/commands/registerCommand';
import {
  askText,
  pickOne,
  showError,
  showInformation,
  showWarning,
  withProgress,
} from '../../platform/userMessages';

/*
 * Comments (notes) on merge requests, and from the palette on issues and snippets too. A note is
 * saved as a draft before it is sent and dropped only once the server took it, so a failed post
 * loses nothing: the next "Add Comment" on the same thing offers it again.
 * Options (second argument, for tests and automation): add `{ body }` (without a body the saved
 * draft is sent), edit `{ body }`, delete `{ confirmed }`.
 */

export interface NoteTarget {
  account: AccountInfo;
  projectId: number;
  parent: NoteParent;
  /** "!3", "#12", "$5". */
  label: string;
  node?: TreeNode;
}

const NoteOptionsSchema = z.strictObject({
  body: z.string().optional(),
  confirmed: z.boolean().optional(),
});
type NoteOptions = z.output<typeof NoteOptionsSchema>;

function parentId(parent: NoteParent): number {
  return parent.kind === 'snippet' ? parent.snippetId : parent.iid;
}

export function parentLabel(parent: NoteParent): string {
  switch (parent.kind) {
    case 'mergeRequest':
      return `!${parent.iid}`;
    case 'issue':
      return `#${parent.iid}`;
    case 'snippet':
      return `$${parent.snippetId}`;
  }
}

function draftKey(target: NoteTarget): string {
  return NoteDrafts.keyFor(target.account.id, {
    kind: target.parent.kind,
    project: target.projectId,
    id: parentId(target.parent),
  });
}

/** What to comment on: a merge request node, or (palette) a project, a kind and a number. */
async function noteTarget(
  context: MergeRequestCommandContext,
  arg: unknown,
): Promise<NoteTarget | undefined> {
  const { services } = context;
  const fromNode = mergeRequestFromNode(arg);
  if (fromNode) {
    return {
      account: fromNode.account,
      projectId: fromNode.project.id,
      parent: { kind: 'mergeRequest', project: fromNode.project.id, iid: fromNode.mergeRequest.iid },
      label: `!${fromNode.mergeRequest.iid}`,
      node: fromNode.node,
    };
  }
  const target = await projectTarget(services, undefined, vscode.l10n.t('Comment in which project?'));
  if (!target) return undefined;
  const kind = await pickOne(
    [
      { label: vscode.l10n.t('Merge request'), what: 'mergeRequest' as const },
      { label: vscode.l10n.t('Issue'), what: 'issue' as const },
      { label: vscode.l10n.t('Snippet'), what: 'snippet' as const },
    ],
    { placeHolder: vscode.l10n.t('Comment on what in {0}?', projectPath(target.project)) },
  );
  if (!kind) return undefined;
  const base = { account: target.account, projectId: target.project.id };
  if (kind.what === 'mergeRequest') {
    const picked = await pickMergeRequestIn(
      services,
      target,
      vscode.l10n.t('Comment on which merge request?'),
    );
    if (!picked) return undefined;
    return {
      ...base,
      parent: { kind: 'mergeRequest', project: target.project.id, iid: picked.mergeRequest.iid },
      label: `!${picked.mergeRequest.iid}`,
    };
  }
  if (kind.what === 'issue') {
    const iid = await askNumber(vscode.l10n.t('Issue number (iid)'), '12');
    if (iid === undefined) return undefined;
    return { ...base, parent: { kind: 'issue', project: target.project.id, iid }, label: `#${iid}` };
  }
  const snippetId = await askNumber(vscode.l10n.t('Snippet id'), '5');
  if (snippetId === undefined) return undefined;
  return {
    ...base,
    parent: { kind: 'snippet', project: target.project.id, snippetId },
    label: `$${snippetId}`,
  };
}

/** The note a command acts on: a note node, or (palette) one of the user's notes on a merge request. */
async function existingNote(
  context: MergeRequestCommandContext,
  arg: unknown,
  verb: string,
): Promise<{ target: NoteTarget; note: Note } | undefined> {
  if (arg instanceof NoteNode) {
    const { owner } = arg;
    return {
      target: {
        account: owner.account,
        projectId: owner.project.id,
        parent: owner.noteParent,
        label: `!${owner.mergeRequest.iid}`,
        node: owner,
      },
      note: arg.note,
    };
  }
  const picked = await pickMergeRequest(
    context.services,
    arg,
    vscode.l10n.t('{0} a comment on which merge request?', verb),
  );
  if (!picked) return undefined;
  const parent: NoteParent = {
    kind: 'mergeRequest',
    project: picked.project.id,
    iid: picked.mergeRequest.iid,
  };
  const client = await context.services.accounts.client(picked.account.id);
  const username = await context.currentUsers.username(picked.account.id);
  const page = await client.listNotes(parent).page({ perPage: 100 });
  const notes = page.items.filter(
    (item): item is Note =>
      typeof (item as Note).body === 'string' &&
      (item as Note).system !== true &&
      (username === undefined || (item as Note).author?.username === username),
  );
  if (notes.length === 0) {
    void showInformation(vscode.l10n.t('You have no comments on !{0}.', picked.mergeRequest.iid));
    return undefined;
  }
  const choice = await pickOne(
    notes.map((note) => ({
      label: firstLine(note.body) || vscode.l10n.t('(empty)'),
      description: note.author?.name ?? '',
      note,
    })),
    { placeHolder: vscode.l10n.t('{0} which comment?', verb) },
  );
  if (!choice) return undefined;
  return {
    target: {
      account: picked.account,
      projectId: picked.project.id,
      parent,
      label: `!${picked.mergeRequest.iid}`,
      node: picked.node,
    },
    note: choice.note,
  };
}

function afterNoteChange(context: MergeRequestCommandContext, target: NoteTarget): void {
  if (target.parent.kind !== 'mergeRequest') return;
  context.view.refreshNotes(target.account.id, target.projectId, target.parent.iid);
  if (target.node instanceof MergeRequestNode) context.services.afterAction(target.node);
}

/** Add, edit and delete comments. */
export function noteCommands(context: MergeRequestCommandContext): CommandDeclaration[] {
  const args = [MergeRequestArgumentSchema, NoteOptionsSchema.optional()] as const;
  return [
    defineCommand({ id: 'forge.note.add', args, run: (arg, options) => addNote(context, arg, options) }),
    defineCommand({ id: 'forge.note.edit', args, run: (arg, options) => editNote(context, arg, options) }),
    defineCommand({
      id: 'forge.note.delete',
      args,
      run: (arg, options) => deleteNote(context, arg, options),
    }),
  ];
}

export async function addNote(
  context: MergeRequestCommandContext,
  arg: MergeRequestArgument,
  options: NoteOptions | undefined,
) {
  const { services, drafts } = context;
  const target = await noteTarget(context, arg);
  if (!target) return { posted: false, reason: 'cancelled' };
  const key = draftKey(target);
  const draft = drafts.get(key);
  let body = options ? (options.body ?? draft?.body) : undefined;
  if (options && body === undefined)
    throw new Error(vscode.l10n.t('No comment text given and no unsent draft to send.'));
  if (draft && (!options || options.body === undefined)) {
    void showInformation(vscode.l10n.t('Your unsent note was restored.'));
  }
  if (body === undefined) {
    body = await askText({
      title: vscode.l10n.t('Comment on {0}', target.label),
      prompt: vscode.l10n.t('Markdown. Kept as a draft until the server has it.'),
      value: draft?.body ?? '',
      ignoreFocusOut: true,
      validateInput: (value) => problemOf(checkNoteBody(value)),
    });
    if (body === undefined) return { posted: false, reason: 'cancelled' };
  }
  // Options skip the input box: the same check, before the draft is saved or anything is sent.
  const text = valueOrThrow(checkNoteBody(body));
  const restoredDraft = draft !== undefined && draft.body === text;
  const client = await services.accounts.client(target.account.id);
  let created;
  try {
    created = await withProgress(
      {
        location: vscode.ProgressLocation.Window,
        title: vscode.l10n.t('Posting a comment on {0}…', target.label),
      },
      () => drafts.sendWithDraft(key, text, () => client.createNote(target.parent, text)),
    );
  } catch (error) {
    if (error instanceof CancelledError) return { posted: false, reason: 'cancelled', draftKept: true };
    services.log.error(`forge.note.add: ${error instanceof Error ? error.message : String(error)}`);
    const message = draftKeptMessage(error, {
      kept: vscode.l10n.t('Your comment was kept as a draft'),
      where: vscode.l10n.t('the comments of {0}', target.label),
      resend: vscode.l10n.t('run "Add Comment" on {0} again', target.label),
    });
    void showError(message);
    return { posted: false, reason: 'failed', uncertain: mayHaveActed(error), draftKept: true, message };
  }
  afterNoteChange(context, target);
  if (isAwardEmoji(created)) {
    void showInformation(vscode.l10n.t('Reacted with :{0}: on {1}', created.name, target.label));
    return { posted: true, awardId: created.id, restoredDraft };
  }
  void showInformation(vscode.l10n.t('Commented on {0}', target.label));
  return { posted: true, noteId: created.id, restoredDraft };
}

async function editNote(
  context: MergeRequestCommandContext,
  arg: MergeRequestArgument,
  options: NoteOptions | undefined,
) {
  const { services } = context;
  const found = await existingNote(context, arg, vscode.l10n.t('Edit'));
  if (!found) return { edited: false, reason: 'cancelled' };
  const { target, note } = found;
  let body = options?.body;
  if (options && body === undefined) throw new Error(vscode.l10n.t('No comment text given.'));
  if (body === undefined) {
    body = await askText({
      title: vscode.l10n.t('Edit your comment on {0}', target.label),
      value: note.body,
      ignoreFocusOut: true,
      validateInput: (value) =>
        value.trim() === ''
          ? vscode.l10n.t('A comment cannot be empty; delete it instead')
          : problemOf(checkNoteBody(value)),
    });
    if (body === undefined) return { edited: false, reason: 'cancelled' };
  }
  body = valueOrThrow(checkNoteBody(body));
  if (body === note.body) return { edited: false, reason: 'unchanged' };
  const client = await services.accounts.client(target.account.id);
  await client.updateNote(target.parent, note.id, body);
  afterNoteChange(context, target);
  return { edited: true, noteId: note.id };
}

async function deleteNote(
  context: MergeRequestCommandContext,
  arg: MergeRequestArgument,
  options: NoteOptions | undefined,
) {
  const { services } = context;
  const found = await existingNote(context, arg, vscode.l10n.t('Delete'));
  if (!found) return { deleted: false, reason: 'cancelled' };
  const { target, note } = found;
  if (!options?.confirmed) {
    const answer = await showWarning(
      vscode.l10n.t('Delete the comment by {0} on {1}?', note.author?.name ?? 'unknown', target.label),
      { modal: true, detail: vscode.l10n.t('"{0}"\n\nThis cannot be undone.', firstLine(note.body, 120)) },
      vscode.l10n.t('Delete'),
    );
    if (answer !== vscode.l10n.t('Delete')) return { deleted: false, reason: 'cancelled' };
  }
  const client = await services.accounts.client(target.account.id);
  await client.deleteNote(target.parent, note.id);
  afterNoteChange(context, target);
  void showInformation(vscode.l10n.t('Deleted the comment on {0}', target.label));
  return { deleted: true, noteId: note.id };
}
