/** The questions "Create Project" and "Edit Project" ask, and their options for tests and automation. */
import { pathOf } from './projectTarget';
import * as z from 'zod';
import type { HostingClient, Project } from '../../api/hosting';
import { VISIBILITIES, isVisibility, parseId, validateProjectName } from '../../domain/projectActions';
import type { AccountInfo } from '../../platform/accounts';
import { askText, pickOne } from '../../platform/userMessages';
import * as l10n from '@vscode/l10n';

export async function askCreateOptions(account: AccountInfo): Promise<CreateProjectOptions | undefined> {
  // Name, visibility and description; administrators first choose whose project it is.
  let total = account.isAdmin ? 4 : 3;
  let step = 1;
  const title = (): string => l10n.t('Create Project ({0}/{1})', step++, total);
  let forUserId: number | undefined;
  if (account.isAdmin) {
    const whose = await pickOne(
      [
        { label: l10n.t('Create for myself'), forOther: false },
        {
          label: l10n.t('Create for another user…'),
          description: l10n.t('asks for the numeric user id'),
          forOther: true,
        },
      ],
      { title: title(), placeHolder: l10n.t('Whose project, on {0}?', account.label) },
    );
    if (!whose) return undefined;
    if (whose.forOther) {
      total += 1;
      const typed = await askText({
        title: title(),
        prompt: l10n.t('Numeric id of the user who will own the project (the API has no user search)'),
        ignoreFocusOut: true,
        validateInput: (value) =>
          parseId(value) === undefined ? l10n.t('A numeric user id, e.g. 42') : undefined,
      });
      if (typed === undefined) return undefined;
      forUserId = parseId(typed);
    }
  }
  const name = await askText({
    title: title(),
    prompt: l10n.t('Name of the new project on {0}', account.label),
    ignoreFocusOut: true,
    validateInput: validateProjectName,
  });
  if (name === undefined) return undefined;
  const visibility = await pickOne(
    [
      {
        label: l10n.t('private'),
        description: l10n.t('only members see it'),
        visibility: 'private' as const,
      },
      {
        label: l10n.t('internal'),
        description: l10n.t('every signed-in user sees it'),
        visibility: 'internal' as const,
      },
      { label: l10n.t('public'), description: l10n.t('everyone sees it'), visibility: 'public' as const },
    ],
    { title: title(), placeHolder: l10n.t('Who can see the project?') },
  );
  if (!visibility) return undefined;
  const description = await askText({
    title: title(),
    prompt: l10n.t('Description (optional)'),
    ignoreFocusOut: true,
  });
  if (description === undefined) return undefined;
  return {
    name: name.trim(),
    visibility: visibility.visibility,
    description: description.trim() || undefined,
    forUserId,
  };
}

export async function askEdit(
  client: HostingClient,
  project: Project,
): Promise<EditProjectOptions | undefined> {
  const path = pathOf(project);
  const field = await pickOne(
    [
      { label: l10n.t('Name'), description: project.name ?? '', field: 'name' as const },
      {
        label: l10n.t('Description'),
        description: project.description || l10n.t('(none)'),
        field: 'description' as const,
      },
      {
        label: l10n.t('Default branch'),
        description: project.default_branch ?? l10n.t('(none)'),
        field: 'defaultBranch' as const,
      },
      { label: l10n.t('Visibility'), description: project.visibility ?? '', field: 'visibility' as const },
    ],
    { title: l10n.t('Edit {0}', path), placeHolder: l10n.t('What to change') },
  );
  if (!field) return undefined;
  switch (field.field) {
    case 'name': {
      const name = await askText({
        title: l10n.t('Rename {0}', path),
        prompt: l10n.t('New name (the path in URLs stays the same)'),
        value: project.name ?? '',
        validateInput: validateProjectName,
      });
      return name === undefined ? undefined : { name: name.trim() };
    }
    case 'description': {
      const description = await askText({
        title: l10n.t('Description of {0}', path),
        prompt: l10n.t('Leave empty to remove the description'),
        value: project.description ?? '',
      });
      return description === undefined ? undefined : { description: description.trim() };
    }
    case 'defaultBranch': {
      const branches = client
        .listBranches(project.id)
        .page({ perPage: 100 })
        .then((page) =>
          page.items.map((branch) => ({
            label: branch.name,
            description: branch.name === project.default_branch ? l10n.t('current default') : undefined,
            name: branch.name,
          })),
        );
      const branch = await pickOne(branches, {
        title: l10n.t('Default branch of {0}', path),
        placeHolder: l10n.t('The branch merge requests target and clones check out'),
      });
      return branch ? { defaultBranch: branch.name } : undefined;
    }
    case 'visibility': {
      const visibility = await pickOne(
        VISIBILITIES.map((value) => ({
          label: value,
          description: value === project.visibility ? l10n.t('current') : undefined,
        })),
        { title: l10n.t('Visibility of {0}', path) },
      );
      return visibility && isVisibility(visibility.label) ? { visibility: visibility.label } : undefined;
    }
  }
}

/*
 * Project actions and CI templates. Every command works from a project row (the node is the first
 * argument) and from the palette (it asks which project). An optional second argument carries the
 * answers the command would otherwise ask for; tests and automation use it to skip the prompts.
 */

export const CreateOptionsSchema = z
  .strictObject({
    name: z.string().max(255).optional(),
    visibility: z.enum(VISIBILITIES).optional(),
    description: z.string().max(2000).optional(),
    /** Administrators: create the project for this user id (POST /projects/user/:user_id). */
    forUserId: z.int().positive().optional(),
  })
  .optional();

export type CreateProjectOptions = NonNullable<z.output<typeof CreateOptionsSchema>>;

export const EditOptionsSchema = z
  .strictObject({
    name: z.string().max(255).optional(),
    description: z.string().max(2000).optional(),
    defaultBranch: z.string().max(1000).optional(),
    visibility: z.enum(VISIBILITIES).optional(),
  })
  .optional();

export type EditProjectOptions = NonNullable<z.output<typeof EditOptionsSchema>>;
