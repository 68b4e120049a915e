import type { Project } from '../../api/hosting';
import { checkProjectPath } from '../../domain/inputValidation';
import * as z from 'zod';
import type { AccountInfo, AccountManager } from '../../platform/accounts';
import type { Services } from '../../services';
import { AccountNode } from './nodes/accountNode';
import { ProjectNode } from './nodes/projectNode';
import { pickAccount } from '../../platform/accountPicker';
import { rowOf } from '../../platform/commands/defineCommand';
import { valueOrThrow } from '../../platform/commands/registerCommand';
import { pickOne, type PickItem } from '../../platform/userMessages';
import * as l10n from '@vscode/l10n';

/** The account a command acts on: its row in the Projects view, its id, or nothing (it asks). */
export const AccountArgumentSchema = z
  .union([
    rowOf(AccountNode, l10n.t('an account')),
    z
      .string({ error: l10n.t('expected an account id') })
      .min(1)
      .max(200),
  ])
  .optional();
export type AccountArgument = z.output<typeof AccountArgumentSchema>;

/** The account of a row or id (as stored now), or the one the user picks among those `filter` allows. */
export function accountTarget(
  accounts: AccountManager,
  given: AccountArgument,
  placeHolder: string,
  filter: (account: AccountInfo) => boolean = () => true,
): Promise<AccountInfo | undefined> {
  return pickAccount(accounts, placeHolder, filter, given instanceof AccountNode ? given.account.id : given);
}

export interface ProjectTarget {
  account: AccountInfo;
  project: Project;
}

/** A project named in a command's options (tests and automation) rather than picked. */
export interface ProjectOption {
  /** Default: the only account, or the one the user picks. */
  accountId?: string;
  /** The project's path (`acme/web`) or numeric id. */
  project?: string | number;
}

/**
 * The project a command acts on: the tree node it was run on, the project named in its options
 * (checked before any request: a path with `..`, spaces or `?#%` is refused), or one the user picks.
 */
export async function projectTarget(
  services: Services,
  arg: unknown,
  placeHolder = l10n.t('Project'),
  given: ProjectOption = {},
): Promise<ProjectTarget | undefined> {
  if (arg instanceof ProjectNode) return { account: arg.account, project: arg.project };
  const named =
    given.project === undefined ? undefined : valueOrThrow(checkProjectPath(String(given.project)));
  const account = await pickAccount(services.accounts, l10n.t('Which account?'), () => true, given.accountId);
  if (!account) return undefined;
  const client = await services.accounts.client(account.id);
  if (named !== undefined) {
    const project = await client.getProject(/^\d+$/.test(named) ? Number(named) : named);
    return { account, project };
  }
  const items: Promise<(PickItem & { project: Project })[]> = client
    .listProjects({ membership: true, orderBy: 'last_activity_at', simple: false })
    .page({ perPage: 100 })
    .then((page) =>
      page.items.map((project) => ({
        label: project.name ?? project.path_with_namespace ?? String(project.id),
        description: project.path_with_namespace ?? '',
        project,
      })),
    );
  const picked = await pickOne(items, { placeHolder, matchOnDescription: true });
  return picked ? { account, project: picked.project } : undefined;
}

/** A project row, or nothing (the command asks). */
export const ProjectArgumentSchema = rowOf(ProjectNode, l10n.t('a project')).optional();
export type ProjectArgument = z.output<typeof ProjectArgumentSchema>;

export function pathOf(project: Project): string {
  return project.path_with_namespace ?? project.name ?? l10n.t('project {0}', project.id);
}
