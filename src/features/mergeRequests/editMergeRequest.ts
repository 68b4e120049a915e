/** "Edit Merge Request": one field at a time (or the fields given as options). */
import { CANCELLED } from './mergeRequestTargets';
import type { HostingClient, UpdateMergeRequestInput } from '../../api/hosting';
import { normalizeLabels } from '../../domain/mergeRequestStatus';
import {
  type MergeRequestCommandContext,
  type MergeRequestTarget,
  afterMergeRequestChange,
  pickMergeRequest,
} from './mergeRequestTargets';
import { type EditMergeRequestOptions } from './commandArguments';
import { valueOrThrow } from '../../platform/commands/registerCommand';
import { checkRefName } from '../../domain/inputValidation';
import { askText, pickOne, showInformation } from '../../platform/userMessages';
import * as l10n from '@vscode/l10n';

async function askAssignee(
  client: HostingClient,
  { mergeRequest: mr, project }: MergeRequestTarget,
): Promise<UpdateMergeRequestInput | undefined> {
  const members = client
    .listProjectUsers(project.id)
    .page({ perPage: 100 })
    .then((page) => [
      { label: l10n.t('Unassigned'), description: '', id: 0 },
      ...page.items.map((member) => ({
        label: member.name,
        description: `@${member.username}`,
        id: member.id,
      })),
    ]);
  const picked = await pickOne(members, {
    placeHolder: l10n.t('Assign !{0} to', mr.iid),
    matchOnDescription: true,
  });
  return picked ? { assignee_id: picked.id } : undefined;
}

async function askTargetBranch(
  client: HostingClient,
  { mergeRequest: mr, project }: MergeRequestTarget,
): Promise<UpdateMergeRequestInput | undefined> {
  const branches = client
    .listBranches(project.id)
    .page({ perPage: 100 })
    .then((page) =>
      page.items
        .filter((branch) => branch.name !== mr.source_branch)
        .map((branch) => ({
          label: branch.name,
          description: branch.name === project.default_branch ? l10n.t('default branch') : undefined,
          name: branch.name,
        })),
    );
  const picked = await pickOne(branches, {
    placeHolder: l10n.t('Merge {0} into…', mr.source_branch),
  });
  return picked ? { target_branch: picked.name } : undefined;
}

/** Asks which field to change, then its new value. */
async function askEdit(
  target: MergeRequestTarget,
  client: HostingClient,
): Promise<UpdateMergeRequestInput | undefined> {
  const { mergeRequest: mr } = target;
  const field = await pickOne(
    [
      { label: l10n.t('Title'), description: mr.title, field: 'title' as const },
      { label: l10n.t('Description'), description: mr.description ?? '', field: 'description' as const },
      { label: l10n.t('Labels'), description: (mr.labels ?? []).join(', '), field: 'labels' as const },
      {
        label: l10n.t('Assignee'),
        description: mr.assignee?.name ?? l10n.t('unassigned'),
        field: 'assignee' as const,
      },
      {
        label: l10n.t('Milestone'),
        description: mr.milestone?.title ?? l10n.t('none'),
        field: 'milestone' as const,
      },
      { label: l10n.t('Target branch'), description: mr.target_branch, field: 'target' as const },
    ].map((item) => ({ ...item, description: item.description })),
    { title: l10n.t('Edit !{0} {1}', mr.iid, mr.title), placeHolder: l10n.t('What to change') },
  );
  if (!field) return undefined;
  switch (field.field) {
    case 'title': {
      const title = await askText({
        prompt: l10n.t('Title'),
        value: mr.title,
        validateInput: (value) => (value.trim() === '' ? l10n.t('A merge request needs a title') : undefined),
      });
      return title === undefined ? undefined : { title: title.trim() };
    }
    case 'description': {
      const description = await askText({
        prompt: l10n.t('Description'),
        value: mr.description ?? '',
      });
      return description === undefined ? undefined : { description };
    }
    case 'labels': {
      const labels = await askText({
        prompt: l10n.t('Labels, comma-separated (empty removes all)'),
        value: (mr.labels ?? []).join(', '),
      });
      return labels === undefined ? undefined : { labels: normalizeLabels(labels) };
    }
    case 'assignee':
      return askAssignee(client, target);
    case 'milestone': {
      const value = await askText({
        prompt: l10n.t('Milestone id (empty removes the milestone)'),
        value: mr.milestone ? String(mr.milestone.id) : '',
        validateInput: (text) => (text.trim() === '' || /^\d+$/.test(text.trim()) ? undefined : 'A number'),
      });
      return value === undefined
        ? undefined
        : { milestone_id: value.trim() === '' ? 0 : Number(value.trim()) };
    }
    case 'target':
      return askTargetBranch(client, target);
  }
}

export async function editMergeRequest(
  context: MergeRequestCommandContext,
  arg: unknown,
  options: EditMergeRequestOptions | undefined,
) {
  const target = await pickMergeRequest(context.services, arg, l10n.t('Edit which merge request?'));
  if (!target) return { updated: false, ...CANCELLED };
  const client = await context.services.accounts.client(target.account.id);
  let input: UpdateMergeRequestInput | undefined;
  if (options) {
    input = {
      title: options.title,
      description: options.description,
      labels: options.labels === undefined ? undefined : normalizeLabels(options.labels),
      assignee_id: options.assigneeId === undefined ? undefined : (options.assigneeId ?? 0),
      milestone_id: options.milestoneId === undefined ? undefined : (options.milestoneId ?? 0),
      target_branch:
        options.targetBranch === undefined ? undefined : valueOrThrow(checkRefName(options.targetBranch)),
    };
  } else {
    input = await askEdit(target, client);
  }
  if (!input) return { updated: false, ...CANCELLED };
  const updated = await client.updateMergeRequest(target.project.id, target.mergeRequest.iid, input);
  afterMergeRequestChange(context, target);
  void showInformation(l10n.t('Updated !{0} {1}', updated.iid, updated.title));
  return { updated: true, mergeRequest: updated };
}
