/**
 * Editing an issue from the palette, a row or its panel: which field first (title, labels, milestone,
 * due date, confidential), then its value, each checked before anything is sent. The description is
 * edited in the panel, where a change made by someone else in between is caught.
 */
import * as vscode from 'vscode';
import type { HostingClient, IssueInput } from '../../api/hosting';
import { askText, pickMany, pickOne } from '../../platform/userMessages';
import type { IssueTarget } from './issueTarget';
import { issueReference } from './issueTarget';

type Field = 'title' | 'labels' | 'assignees' | 'milestone' | 'dueDate' | 'confidential';

/** Members offered as assignees (the first page of the project's users). */
const ASSIGNEE_CHOICES = 100;

async function askTitle(target: IssueTarget): Promise<IssueInput | undefined> {
  const title = await askText({
    title: vscode.l10n.t('Edit {0}', issueReference(target)),
    prompt: vscode.l10n.t('Title'),
    value: target.issue.title,
    validateInput: (value) => (value.trim() === '' ? vscode.l10n.t('An issue needs a title.') : undefined),
  });
  return title === undefined ? undefined : { title: title.trim() };
}

async function askLabels(client: HostingClient, target: IssueTarget): Promise<IssueInput | undefined> {
  const labels = await client.listLabels(target.projectId).toArray();
  const current = new Set(target.issue.labels ?? []);
  const names = [...new Set([...labels.map((label) => label.name), ...current])];
  const picked = await pickMany(
    names.map((name) => ({ label: name, picked: current.has(name), icon: 'tag' })),
    { title: vscode.l10n.t('Labels of {0}', issueReference(target)) },
  );
  return picked ? { labels: picked.map((item) => item.label) } : undefined;
}

async function askAssignees(client: HostingClient, target: IssueTarget): Promise<IssueInput | undefined> {
  const users = (await client.listProjectUsers(target.projectId).page({ perPage: ASSIGNEE_CHOICES })).items;
  const current = target.issue.assignees ?? (target.issue.assignee ? [target.issue.assignee] : []);
  const assigned = new Set(current.map((user) => user.id));
  // Someone assigned who is no longer among the users is kept on offer, ticked.
  const offered = [...users, ...current.filter((user) => !users.some((each) => each.id === user.id))];
  const picked = await pickMany(
    offered.map((user) => ({
      label: user.name,
      description: `@${user.username}`,
      picked: assigned.has(user.id),
      icon: 'account',
      id: user.id,
    })),
    { title: vscode.l10n.t('Assignees of {0}', issueReference(target)), matchOnDescription: true },
  );
  return picked ? { assigneeIds: picked.map((item) => item.id) } : undefined;
}

async function askMilestone(client: HostingClient, target: IssueTarget): Promise<IssueInput | undefined> {
  const milestones = await client.listMilestones(target.projectId, 'active').toArray();
  const picked = await pickOne(
    [
      { label: vscode.l10n.t('No milestone'), icon: 'circle-slash', id: null },
      ...milestones.map((milestone) => ({
        label: milestone.title,
        ...(milestone.due_date ? { description: vscode.l10n.t('due {0}', milestone.due_date) } : {}),
        icon: 'milestone',
        id: milestone.id,
      })),
    ],
    { title: vscode.l10n.t('Milestone of {0}', issueReference(target)) },
  );
  return picked ? { milestoneId: picked.id } : undefined;
}

async function askDueDate(target: IssueTarget): Promise<IssueInput | undefined> {
  const value = await askText({
    title: vscode.l10n.t('Due date of {0}', issueReference(target)),
    prompt: vscode.l10n.t('YYYY-MM-DD, or empty for none'),
    value: target.issue.due_date ?? '',
    validateInput: (text) =>
      text.trim() === '' ||
      (/^\d{4}-\d{2}-\d{2}$/.test(text.trim()) && !Number.isNaN(Date.parse(`${text.trim()}T00:00:00Z`)))
        ? undefined
        : vscode.l10n.t('A date as YYYY-MM-DD, e.g. 2026-12-31.'),
  });
  return value === undefined ? undefined : { dueDate: value.trim() === '' ? null : value.trim() };
}

/** The fields the user changes, or undefined when dismissed. */
export async function askIssueEdit(
  client: HostingClient,
  target: IssueTarget,
): Promise<IssueInput | undefined> {
  const confidential = target.issue.confidential === true;
  const field = await pickOne<{ label: string; icon: string; field: Field }>(
    [
      { label: vscode.l10n.t('Title'), icon: 'symbol-text', field: 'title' },
      { label: vscode.l10n.t('Labels'), icon: 'tag', field: 'labels' },
      { label: vscode.l10n.t('Assignees'), icon: 'account', field: 'assignees' },
      { label: vscode.l10n.t('Milestone'), icon: 'milestone', field: 'milestone' },
      { label: vscode.l10n.t('Due date'), icon: 'calendar', field: 'dueDate' },
      {
        label: confidential ? vscode.l10n.t('Make Public') : vscode.l10n.t('Make Confidential'),
        icon: confidential ? 'unlock' : 'lock',
        field: 'confidential',
      },
    ],
    {
      title: vscode.l10n.t('Edit {0}', issueReference(target)),
      placeHolder: vscode.l10n.t('What to change?'),
    },
  );
  switch (field?.field) {
    case undefined:
      return undefined;
    case 'title':
      return askTitle(target);
    case 'labels':
      return askLabels(client, target);
    case 'assignees':
      return askAssignees(client, target);
    case 'milestone':
      return askMilestone(client, target);
    case 'dueDate':
      return askDueDate(target);
    case 'confidential':
      return { confidential: !confidential };
  }
}
