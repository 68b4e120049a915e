/**
 * "Apply Suggestion": commits a suggested change of a review comment on the source branch
 * (`PUT /suggestions/:id/apply`); the comment then shows it applied.
 */
import * as vscode from 'vscode';
import type { Suggestion } from '../../api/hosting';
import type { AccountManager } from '../../platform/accounts';
import { pickOne, showInformation, withProgress } from '../../platform/userMessages';
import type { ReviewComments } from './reviewComments';
import { noteMarkdown } from './reviewSession';

function linesOf(suggestion: Suggestion): string {
  return suggestion.from_line === suggestion.to_line
    ? vscode.l10n.t('Line {0}', suggestion.from_line)
    : vscode.l10n.t('Lines {0}–{1}', suggestion.from_line, suggestion.to_line);
}

async function chooseSuggestion(appliable: readonly Suggestion[]): Promise<Suggestion | undefined> {
  if (appliable.length <= 1) return appliable[0];
  const picked = await pickOne(
    appliable.map((suggestion) => ({
      label: linesOf(suggestion),
      detail: suggestion.to_content.trim(),
      suggestion,
    })),
    { title: vscode.l10n.t('Apply which suggestion?') },
  );
  return picked?.suggestion;
}

export async function applySuggestion(
  comments: ReviewComments,
  accounts: AccountManager,
  log: { info(line: string): void },
  comment: vscode.Comment,
): Promise<{ applied: number } | undefined> {
  const shown = comments.noteOf(comment);
  const info = shown && comments.threadInfo(shown.thread);
  const appliable = shown?.suggestions.filter((suggestion) => suggestion.appliable) ?? [];
  if (!shown || !info || appliable.length === 0)
    throw new Error(vscode.l10n.t('This comment has no suggestion left to apply.'));
  const chosen = await chooseSuggestion(appliable);
  if (!chosen) return undefined;
  const { accountId, project, mergeRequest } = info.session.target;
  const client = await accounts.client(accountId);
  const applied = await withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Applying the suggestion…') },
    () => client.applySuggestion(chosen.id),
  );
  shown.suggestions = shown.suggestions.map((each) => (each.id === applied.id ? applied : each));
  const left = shown.suggestions.some((each) => each.appliable);
  comment.body = noteMarkdown(shown.body, shown.suggestions);
  comment.contextValue = `${comment.contextValue?.startsWith('own') ? 'own' : 'other'}${left ? ' suggestion' : ''}`;
  shown.thread.comments = [...shown.thread.comments];
  const path = shown.thread.uri.path.replace(/^\/+/, '');
  log.info(`Applied suggestion ${applied.id} to ${path} of !${mergeRequest.iid} of ${project.id}`);
  void showInformation(
    vscode.l10n.t(
      'Applied the suggestion to {0} on {1}: the branch has a new commit.',
      path,
      mergeRequest.source_branch,
    ),
  );
  return { applied: applied.id };
}
