/**
 * "Suggest Changes from My Edits": on the checked-out branch of a merge request, the uncommitted
 * edits to its files (saved or not) become ```suggestion comments on the head's lines they change,
 * held as pending comments of the review (draft notes) until it is submitted; nothing is committed.
 * GitLab takes a comment only on lines the diff shows: an edit elsewhere is left out and said.
 */
import * as vscode from 'vscode';
import { NotFoundError } from '../../api/http';
import type { DiffPosition, MergeRequestDiff } from '../../api/hosting';
import { commentableRanges, linePosition } from '../../domain/diffPositions';
import { type LineSuggestion, editsToSuggestions } from '../../domain/workingFiles';
import type { AccountManager } from '../../platform/accounts';
import { runGit } from '../../platform/localGit';
import { showInformation, withProgress } from '../../platform/userMessages';
import { type BranchThreads, fileInClone, pathInClone, targetOf } from './branchThreads';
import type { Prepare } from './commitReview';
import { type ReviewComments, diffPosition, lineRange } from './reviewComments';
import type { ReviewSession } from './reviewSession';

export interface SuggestedEdits {
  /** Suggestions held for the review. */
  held: number;
  /** Each edit left out, in a sentence. */
  leftOut: string[];
}

/** Whether lines `first`..`last` all lie in one run of lines the diff shows on the head side. */
function onShownLines(change: MergeRequestDiff, suggestion: LineSuggestion): boolean {
  return commentableRanges(change.diff, 'head').some(
    ([first, last]) => suggestion.first >= first && suggestion.last <= last,
  );
}

function positionOf(
  session: ReviewSession,
  change: MergeRequestDiff,
  suggestion: LineSuggestion,
): DiffPosition | undefined {
  const line = linePosition(change.diff, 'head', suggestion.last);
  if (!line) return undefined;
  const range =
    suggestion.last > suggestion.first
      ? lineRange(change, 'head', suggestion.first, suggestion.last)
      : undefined;
  return diffPosition(session.refs, change, line, range);
}

/** Files of the clone with uncommitted edits: changed on disk against HEAD, or unsaved in an editor. */
async function editedFiles(root: string): Promise<Set<string>> {
  const listed = await runGit(root, ['diff', '--name-only', 'HEAD', '--']).catch(() => '');
  const edited = new Set(listed.split('\n').filter((line) => line !== ''));
  for (const document of vscode.workspace.textDocuments) {
    if (!document.isDirty || document.uri.scheme !== 'file') continue;
    const inClone = pathInClone(root, document.uri.fsPath);
    if (inClone !== undefined) edited.add(inClone);
  }
  return edited;
}

export class EditSuggestions {
  constructor(
    private readonly branch: BranchThreads,
    private readonly accounts: AccountManager,
    private readonly comments: ReviewComments,
    private readonly prepare: Prepare,
    private readonly log: { info(line: string): void },
  ) {}

  async suggest(): Promise<SuggestedEdits> {
    const checkedOut = this.branch.current;
    if (!checkedOut)
      throw new Error(
        vscode.l10n.t(
          'Check out the source branch of a merge request first (its row or panel: "Check Out"); the status bar shows it once the branch is found.',
        ),
      );
    const target = targetOf(checkedOut);
    const { iid } = target.mergeRequest;
    const result = await withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Suggesting your edits on !{0}…', iid),
      },
      async () => {
        this.log.info(`Suggest from edits: reading !${iid} for review`);
        await this.prepare(target);
        const session = this.comments.sessionFor(target);
        await session?.loading;
        this.log.info(`Suggest from edits: !${iid} read, ${session?.changes.length ?? 0} files`);
        if (!session) throw new Error(vscode.l10n.t('!{0} could not be read for review.', iid));
        return this.hold(session, checkedOut.root);
      },
    );
    const said =
      result.held === 0
        ? vscode.l10n.t('No edit of yours could be suggested on !{0}.', iid)
        : result.held === 1
          ? vscode.l10n.t('1 suggestion held for your review of !{0}: submit the review to publish it.', iid)
          : vscode.l10n.t(
              '{0} suggestions held for your review of !{1}: submit the review to publish them.',
              result.held,
              iid,
            );
    void showInformation(
      result.leftOut.length > 0 ? vscode.l10n.t('{0} Left out: {1}', said, result.leftOut.join('; ')) : said,
    );
    return result;
  }

  private async hold(session: ReviewSession, root: string): Promise<SuggestedEdits> {
    const { project, mergeRequest } = session.target;
    const client = await this.accounts.client(session.target.accountId);
    const edited = await editedFiles(root);
    this.log.info(`Suggest from edits: ${edited.size} files edited in the clone`);
    const touched = new Set(session.changes.map((change) => change.new_path));
    const leftOut = [...edited]
      .filter((file) => !touched.has(file))
      .map((file) => vscode.l10n.t('{0} is not a file !{1} changes', file, mergeRequest.iid));
    let held = 0;
    for (const change of session.changes) {
      if (change.deleted_file) continue;
      // Edited means: not as at the head (saved or not, whatever git says of the clone).
      const uri = fileInClone(root, change.new_path);
      const texts = uri && (await this.branch.texts(session, uri, change.new_path));
      if (!texts ? !edited.has(change.new_path) : texts.head === texts.working) continue;
      const suggestions = texts && editsToSuggestions(texts.head, texts.working);
      if (!suggestions) {
        leftOut.push(vscode.l10n.t('{0} could not be compared with the head', change.new_path));
        continue;
      }
      for (const suggestion of suggestions) {
        const position = onShownLines(change, suggestion)
          ? positionOf(session, change, suggestion)
          : undefined;
        if (!position) {
          leftOut.push(
            vscode.l10n.t(
              '{0} lines {1}-{2} are not in the diff',
              change.new_path,
              suggestion.first,
              suggestion.last,
            ),
          );
          continue;
        }
        try {
          await client.createDraftNote(project.id, mergeRequest.iid, { note: suggestion.body, position });
        } catch (error) {
          if (error instanceof NotFoundError)
            throw new Error(
              vscode.l10n.t(
                'This server does not hold comments for a review (no draft notes): nothing was suggested.',
              ),
              { cause: error },
            );
          throw error;
        }
        held += 1;
      }
    }
    // The pending suggestions go on their lines, and the status bar counts them.
    if (held > 0) await this.comments.reload(session);
    return { held, leftOut };
  }
}
