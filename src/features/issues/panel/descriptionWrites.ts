/**
 * Changes to an issue's description from its panel: a task ticked or cleared, or the text edited.
 * Each reads the issue again first and compares its description with the one the panel showed: when
 * someone changed it in between, the user is asked before anything is written, and a write nobody
 * agreed to is never made (GitLab's REST API has no version check for issues).
 */
import * as vscode from 'vscode';
import type { HostingClient, Issue } from '../../../api/hosting';
import { setTask, tasksOf } from '../../../domain/taskLists';
import { showWarning } from '../../../platform/userMessages';

export type WriteOutcome =
  { written: true; issue: Issue } | { written: false; reason: 'cancelled' | 'changed' | 'noTask' };

export async function writeTask(
  client: HostingClient,
  where: { projectId: number; iid: number; reference: string },
  shown: string,
  index: number,
  checked: boolean,
): Promise<WriteOutcome> {
  const fresh = (await client.getIssue(where.projectId, where.iid)).description ?? '';
  const task = tasksOf(shown)[index];
  if (!task) return { written: false, reason: 'noTask' };
  if (fresh !== shown) {
    const there = tasksOf(fresh)[index];
    if (there?.text !== task.text) {
      void showWarning(
        vscode.l10n.t(
          'The description of {0} was changed since it was shown, and its task list with it: the panel shows it again; tick the task there.',
          where.reference,
        ),
      );
      return { written: false, reason: 'changed' };
    }
    const tick = checked ? vscode.l10n.t('Tick It') : vscode.l10n.t('Clear It');
    const question = checked
      ? vscode.l10n.t(
          'The description of {0} was changed since it was shown. Tick "{1}" in the new description?',
          where.reference,
          task.text,
        )
      : vscode.l10n.t(
          'The description of {0} was changed since it was shown. Clear "{1}" in the new description?',
          where.reference,
          task.text,
        );
    const answer = await showWarning(question, { modal: true }, tick);
    if (answer !== tick) return { written: false, reason: 'cancelled' };
  }
  const text = setTask(fresh, index, checked);
  if (text === undefined) return { written: false, reason: 'noTask' };
  const issue = await client.updateIssue(where.projectId, where.iid, { description: text });
  return { written: true, issue };
}

export async function writeDescription(
  client: HostingClient,
  where: { projectId: number; iid: number; reference: string },
  shown: string,
  text: string,
): Promise<WriteOutcome> {
  const fresh = (await client.getIssue(where.projectId, where.iid)).description ?? '';
  if (fresh !== shown) {
    const save = vscode.l10n.t('Save Mine');
    const answer = await showWarning(
      vscode.l10n.t(
        'The description of {0} was changed by someone else while you edited it. Save yours over it (theirs is replaced)?',
        where.reference,
      ),
      { modal: true },
      save,
    );
    if (answer !== save) return { written: false, reason: 'cancelled' };
  }
  const issue = await client.updateIssue(where.projectId, where.iid, { description: text });
  return { written: true, issue };
}
