/**
 * Suggestions, beyond the seed spec, as GitLab documents them: a diff comment on the new side whose
 * body holds a ```suggestion block (```suggestion:-2+1 takes two lines above and one below too)
 * proposes those lines of the file at the comment's head; `PUT /suggestions/:id/apply` commits the
 * change on the source branch. One applied, outdated (the branch moved) or on a merge request that
 * is not open is not appliable, and applying it answers 400.
 */
import { createHash } from 'node:crypto';
import type { Handler, RequestContext } from '../context';
import { errors, ok, type ApiResponse } from '../http';
import { hunksBetween, treeAt } from '../repositoryFiles';
import type { Router } from '../router';
import { ACCESS, type ForgeState, type MergeRequest, type Note } from '../state';

// A fence of three backticks or more, closed by the same fence (Markdown's rule; GitLab follows it).
const BLOCK = /^(`{3,})suggestion(?::-(\d+)\+(\d+))?[ \t]*\n([\s\S]*?)^\1[ \t]*$/gm;

interface Block {
  index: number;
  above: number;
  below: number;
  text: string;
}

function blocksOf(body: string): Block[] {
  return [...body.matchAll(BLOCK)].map((match, index) => ({
    index,
    above: Number(match[2] ?? 0),
    below: Number(match[3] ?? 0),
    text: match[4] ?? '',
  }));
}

/** A suggestion's id: its note's and its place in the note (GitLab's are global, like these). */
function suggestionId(note: Note, index: number): number {
  return note.id * 100 + index;
}

/** The file's lines, each with its line break. */
function linesOf(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

interface Suggestion {
  id: number;
  note: Note;
  block: Block;
  path: string;
  fromLine: number;
  toLine: number;
  applied: boolean;
}

function suggestionsOfNote(note: Note): Suggestion[] {
  const line = note.position?.new_line;
  if (!note.position || !line) return [];
  const path = note.position.new_path;
  return blocksOf(note.body).map((block) => ({
    id: suggestionId(note, block.index),
    note,
    block,
    path,
    fromLine: line - block.above,
    toLine: line + block.below,
    applied: note.appliedSuggestions?.includes(block.index) === true,
  }));
}

function appliable(state: ForgeState, mergeRequest: MergeRequest, suggestion: Suggestion): boolean {
  return (
    mergeRequest.state === 'opened' &&
    !suggestion.applied &&
    suggestion.note.position?.head_sha === state.mergeRequestHeadSha(mergeRequest)
  );
}

function suggestionJson(state: ForgeState, mergeRequest: MergeRequest, suggestion: Suggestion): unknown {
  const headSha = suggestion.note.position?.head_sha ?? '';
  const lines = linesOf(treeAt(state, headSha)?.get(suggestion.path) ?? '');
  return {
    id: suggestion.id,
    from_line: suggestion.fromLine,
    to_line: suggestion.toLine,
    appliable: appliable(state, mergeRequest, suggestion),
    applied: suggestion.applied,
    from_content: lines.slice(suggestion.fromLine - 1, suggestion.toLine).join(''),
    to_content: suggestion.block.text,
  };
}

/** The `suggestions` of a note as GitLab lists them (empty for a note without any). */
export function noteSuggestions(state: ForgeState, mergeRequest: MergeRequest, note: Note): unknown[] {
  return suggestionsOfNote(note).map((suggestion) => suggestionJson(state, mergeRequest, suggestion));
}

export function registerSuggestionRoutes(router: Router<Handler>): void {
  router.put('/suggestions/:id/apply', applySuggestion);
}

/**
 * As GitLab does on a push, diff notes on lines the new commit did not change move to the new head
 * (lines below the change shift by `delta`); those on the changed lines stay on their version.
 */
function carryPositions(
  state: ForgeState,
  mergeRequest: MergeRequest,
  heads: { from: string; to: string },
  changed: { path: string; fromLine: number; toLine: number },
  delta: number,
): void {
  for (const note of state.notes.values()) {
    const position = note.position;
    if (note.noteableType !== 'MergeRequest' || note.noteableId !== mergeRequest.id) continue;
    if (!position || position.head_sha !== heads.from) continue;
    const line = position.new_line;
    const samePath = position.new_path === changed.path;
    if (samePath && line !== null && line >= changed.fromLine && line <= changed.toLine) continue;
    if (!samePath || line === null || line < changed.fromLine) {
      note.position = { ...position, head_sha: heads.to };
      continue;
    }
    // Below the change: shifted (a range is dropped rather than guessed).
    const { line_range: _range, ...rest } = position;
    note.position = { ...rest, head_sha: heads.to, new_line: line + delta };
  }
}

function applySuggestion(ctx: RequestContext): ApiResponse {
  const id = ctx.pathInt('id');
  const note = ctx.state.notes.get(Math.floor(id / 100));
  const mergeRequest = note && ctx.state.mergeRequests.get(note.noteableId);
  const suggestion = note && suggestionsOfNote(note).find((each) => each.id === id);
  if (!note || note.noteableType !== 'MergeRequest' || !mergeRequest || !suggestion)
    throw errors.notFound('Suggestion');
  const project = ctx.state.projects.get(mergeRequest.projectId);
  const caller = ctx.requireCaller();
  if (!project || ctx.accessLevel(project) < ACCESS.developer) throw errors.forbidden();
  if (!appliable(ctx.state, mergeRequest, suggestion))
    throw errors.badRequest(
      suggestion.applied
        ? 'A suggestion is not applicable. This suggestion has already been applied.'
        : 'A suggestion is not applicable. This suggestion is outdated or its merge request is not open.',
    );
  const branch = project.branches.get(mergeRequest.sourceBranch);
  if (!branch) throw errors.badRequest('A suggestion is not applicable. The source branch was deleted.');
  const before = treeAt(ctx.state, branch.commitSha)?.get(suggestion.path) ?? '';
  const lines = linesOf(before);
  const after = [
    ...lines.slice(0, suggestion.fromLine - 1),
    ...linesOf(suggestion.block.text),
    ...lines.slice(suggestion.toLine),
  ].join('');
  const now = ctx.state.now();
  // GitLab's default message, or the caller's `commit_message`.
  const message = ctx.params.string('commit_message') || 'Apply 1 suggestion(s) to 1 file(s)';
  const commitId = ctx.state.addCommit({
    id: createHash('sha1').update(`suggestion-${id}-${branch.commitSha}`).digest('hex'),
    parentIds: [branch.commitSha],
    title: message.split('\n')[0] ?? message,
    message,
    by: caller,
    at: now,
    changes: [
      {
        oldPath: suggestion.path,
        newPath: suggestion.path,
        aMode: '100644',
        bMode: '100644',
        diff: hunksBetween(before, after),
        newFile: false,
        renamedFile: false,
        deletedFile: false,
      },
    ],
  });
  const delta = linesOf(suggestion.block.text).length - (suggestion.toLine - suggestion.fromLine + 1);
  carryPositions(ctx.state, mergeRequest, { from: branch.commitSha, to: commitId }, suggestion, delta);
  branch.commitSha = commitId;
  mergeRequest.updatedAt = now;
  note.appliedSuggestions = [...(note.appliedSuggestions ?? []), suggestion.block.index];
  return ok(suggestionJson(ctx.state, mergeRequest, { ...suggestion, applied: true }));
}
