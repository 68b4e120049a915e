import * as vscode from 'vscode';
import * as z from 'zod';
import type { Branch, HostingClient, Project } from '../../api/hosting';
import {
  PROTECTION_OPTIONS,
  type ProtectionSettings,
  commitShaProblem,
  isDefaultBranch,
  protectionFromPicks,
} from '../../domain/branchActions';
import { projectPath } from '../../domain/jobActions';
import type { AccountInfo } from '../../platform/accounts';
import type { Services } from '../../services';
import { BranchNode, BranchesFolder } from './nodes/branchNodes';
import { ProjectNode } from './nodes/projectNode';
import type { TreeNode } from '../../platform/tree/treeNode';
import { projectTarget } from './projectTarget';
import { rowOf } from '../../platform/commands/defineCommand';
import {
  askText,
  pickMany,
  pickOne,
  showInformation,
  withProgress,
  type PickItem,
} from '../../platform/userMessages';

/*
 * What a branch command acts on (a branch row, a project's Branches folder, a project row, or what
 * the user picks) and the questions it asks; the commands are in branchCommands.ts.
 */

/**
 * Answers to the questions a branch command would ask, for host tests and automation; menus never
 * pass them. Commands take them as their second argument: `(node, options)`.
 */
export const BranchOptionsSchema = z
  .strictObject({
    /** Delete without the modal confirmation. */
    confirmed: z.boolean().optional(),
    /** `create`: the new branch's name, instead of the input box. */
    name: z.string().max(1000).optional(),
    /** `create`: the branch or commit SHA to start from, instead of the quick pick. */
    from: z.string().max(1000).optional(),
    /** `protect`: the two options, instead of the quick pick (missing ones are false). */
    developersCanPush: z.boolean().optional(),
    developersCanMerge: z.boolean().optional(),
  })
  .optional();
export type BranchOptions = NonNullable<z.output<typeof BranchOptionsSchema>>;

/** A branch row, a project's Branches folder, a project row, or nothing (the palette: asked). */
export const BranchArgumentSchema = z
  .union([
    rowOf(BranchNode, vscode.l10n.t('a branch')),
    rowOf(BranchesFolder, vscode.l10n.t("a project's Branches folder")),
    rowOf(ProjectNode, vscode.l10n.t('a project')),
  ])
  .optional();
export type BranchArgument = z.output<typeof BranchArgumentSchema>;

export interface ProjectScope {
  account: AccountInfo;
  project: Project;
  /** What to refresh afterwards: the Branches folder, or undefined (everything) from the palette. */
  refreshNode: TreeNode | undefined;
  /** The branch row the command ran on, if any. */
  branchNode: BranchNode | undefined;
}

/** The project a command acts on: from a branch row, the Branches folder, a project row, or asked. */
export async function projectScope(
  services: Services,
  arg: BranchArgument,
  placeHolder: string,
): Promise<ProjectScope | undefined> {
  if (arg instanceof BranchNode) {
    return { account: arg.owner.account, project: arg.owner.project, refreshNode: arg, branchNode: arg };
  }
  if (arg instanceof BranchesFolder || arg instanceof ProjectNode) {
    const owner = arg instanceof BranchesFolder ? arg.owner : arg;
    return {
      account: owner.account,
      project: owner.project,
      refreshNode: owner.branches,
      branchNode: undefined,
    };
  }
  const target = await projectTarget(services, undefined, placeHolder);
  return target ? { ...target, refreshNode: undefined, branchNode: undefined } : undefined;
}

export async function recentBranches(client: HostingClient, project: Project): Promise<Branch[]> {
  return withProgress(
    {
      location: vscode.ProgressLocation.Window,
      title: vscode.l10n.t('Loading the branches of {0}', projectPath(project)),
    },
    async () => (await client.listBranches(project.id).page({ perPage: 100 })).items,
  );
}

export interface BranchTarget extends ProjectScope {
  branch: Branch;
}

/** The branch a command acts on: the row it ran on, or a project and one of its branches that `fits`. */
export async function branchTarget(
  services: Services,
  arg: BranchArgument,
  placeHolder: string,
  fits: (branch: Branch, project: Project) => boolean,
  noneMessage: (path: string) => string,
): Promise<BranchTarget | undefined> {
  if (arg instanceof BranchNode) {
    return {
      account: arg.owner.account,
      project: arg.owner.project,
      refreshNode: arg,
      branchNode: arg,
      branch: arg.branch,
    };
  }
  const scope = await projectScope(services, arg, vscode.l10n.t('Project of the branch'));
  if (!scope) return undefined;
  const client = await services.accounts.client(scope.account.id);
  const branches = (await recentBranches(client, scope.project)).filter((branch) =>
    fits(branch, scope.project),
  );
  if (branches.length === 0) {
    void showInformation(noneMessage(projectPath(scope.project)));
    return undefined;
  }
  const picked = await pickOne(
    branches.map((branch) => ({
      label: branch.name,
      description: branch.commit?.title ?? '',
      branch,
    })),
    { placeHolder, matchOnDescription: true },
  );
  return picked ? { ...scope, branch: picked.branch } : undefined;
}

/** "From" for a new branch: this branch row's branch first, then the default branch, the others, or a SHA. */
export async function askStartingPoint(
  client: HostingClient,
  project: Project,
  preferred: string | undefined,
): Promise<string | undefined> {
  const branches = await recentBranches(client, project);
  const rank = (branch: Branch): number =>
    branch.name === preferred ? 0 : isDefaultBranch(branch, project.default_branch) ? 1 : 2;
  const sorted = [...branches].sort((a, b) => rank(a) - rank(b));
  type Item = PickItem & { ref?: string };
  const items: Item[] = sorted.map((branch) => ({
    icon: 'git-branch',
    label: branch.name,
    description:
      branch.name === preferred
        ? vscode.l10n.t('this branch')
        : isDefaultBranch(branch, project.default_branch)
          ? vscode.l10n.t('default branch')
          : undefined,
    detail: branch.commit?.title ? `${branch.commit.short_id ?? ''} ${branch.commit.title}` : undefined,
    ref: branch.name,
  }));
  items.push(
    { label: '', kind: vscode.QuickPickItemKind.Separator },
    { icon: 'git-commit', label: vscode.l10n.t('Enter a commit SHA…') },
  );
  const picked = await pickOne(items, {
    title: vscode.l10n.t('New branch in {0}', projectPath(project)),
    placeHolder: vscode.l10n.t('Start the new branch from…'),
    matchOnDetail: true,
  });
  if (!picked) return undefined;
  if (picked.ref) return picked.ref;
  const sha = await askText({
    title: vscode.l10n.t('New branch in {0}', projectPath(project)),
    prompt: vscode.l10n.t('Commit SHA to start from (at least 7 hexadecimal digits)'),
    validateInput: commitShaProblem,
  });
  return sha?.trim() || undefined;
}

export async function askProtection(branch: Branch): Promise<ProtectionSettings | undefined> {
  const picked = await pickMany(
    PROTECTION_OPTIONS.map((option) => ({
      label: option.label,
      key: option.key,
      picked: branch[option.key] === true,
    })),
    {
      title: vscode.l10n.t('Protect {0}', branch.name),
      placeHolder: vscode.l10n.t(
        'Tick what developers may still do (maintainers always can); none ticked: maintainers only',
      ),
    },
  );
  return picked ? protectionFromPicks(picked) : undefined;
}
