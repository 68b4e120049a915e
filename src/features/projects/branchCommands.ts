import * as vscode from 'vscode';
import * as z from 'zod';
import { MethodNotAllowedError } from '../../api/http';
import type { Branch, HostingClient, Project } from '../../api/hosting';
import {
  PROTECTION_OPTIONS,
  type ProtectionSettings,
  branchNameProblem,
  commitShaProblem,
  deleteMergedQuestion,
  describeProtection,
  isDefaultBranch,
  listNames,
  mergedBranchesToDelete,
  protectionFromPicks,
} from '../../domain/branchActions';
import { projectPath } from '../../domain/jobActions';
import type { AccountInfo } from '../../platform/accounts';
import type { Services } from '../../services';
import { BranchNode, BranchesFolder } from './nodes/branchNodes';
import { ProjectNode } from './nodes/projectNode';
import type { TreeNode } from '../../platform/tree/treeNode';
import { projectTarget } from './projectTarget';
import { type CommandDeclaration, defineCommand, rowOf } from '../../platform/commands/defineCommand';
import { registerCommands, valueOrThrow } from '../../platform/commands/registerCommand';
import { checkRefName } from '../../domain/inputValidation';
import {
  askText,
  pickMany,
  pickOne,
  showError,
  showInformation,
  showStatusMessage,
  showWarning,
  withProgress,
  type PickItem,
  withCancellableProgress,
} from '../../platform/userMessages';

/**
 * Answers to the questions a branch command would ask, for host tests and automation; menus never
 * pass them. Commands take them as their second argument: `(node, options)`.
 */
const BranchOptionsSchema = z
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
type BranchOptions = NonNullable<z.output<typeof BranchOptionsSchema>>;

/** A branch row, a project's Branches folder, a project row, or nothing (the palette: asked). */
const BranchArgumentSchema = z
  .union([
    rowOf(BranchNode, 'a branch'),
    rowOf(BranchesFolder, "a project's Branches folder"),
    rowOf(ProjectNode, 'a project'),
  ])
  .optional();
type BranchArgument = z.output<typeof BranchArgumentSchema>;

interface ProjectScope {
  account: AccountInfo;
  project: Project;
  /** What to refresh afterwards: the Branches folder, or undefined (everything) from the palette. */
  refreshNode: TreeNode | undefined;
  /** The branch row the command ran on, if any. */
  branchNode: BranchNode | undefined;
}

/** The project a command acts on: from a branch row, the Branches folder, a project row, or asked. */
async function projectScope(
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

async function recentBranches(client: HostingClient, project: Project): Promise<Branch[]> {
  return withProgress(
    { location: vscode.ProgressLocation.Window, title: `Loading the branches of ${projectPath(project)}` },
    async () => (await client.listBranches(project.id).page({ perPage: 100 })).items,
  );
}

interface BranchTarget extends ProjectScope {
  branch: Branch;
}

/** The branch a command acts on: the row it ran on, or a project and one of its branches that `fits`. */
async function branchTarget(
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
  const scope = await projectScope(services, arg, 'Project of the branch');
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
async function askStartingPoint(
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
        ? 'this branch'
        : isDefaultBranch(branch, project.default_branch)
          ? 'default branch'
          : undefined,
    detail: branch.commit?.title ? `${branch.commit.short_id ?? ''} ${branch.commit.title}` : undefined,
    ref: branch.name,
  }));
  items.push(
    { label: '', kind: vscode.QuickPickItemKind.Separator },
    { icon: 'git-commit', label: 'Enter a commit SHA…' },
  );
  const picked = await pickOne(items, {
    title: `New branch in ${projectPath(project)}`,
    placeHolder: 'Start the new branch from…',
    matchOnDetail: true,
  });
  if (!picked) return undefined;
  if (picked.ref) return picked.ref;
  const sha = await askText({
    title: `New branch in ${projectPath(project)}`,
    prompt: 'Commit SHA to start from (at least 7 hexadecimal digits)',
    validateInput: commitShaProblem,
  });
  return sha?.trim() || undefined;
}

async function askProtection(branch: Branch): Promise<ProtectionSettings | undefined> {
  const picked = await pickMany(
    PROTECTION_OPTIONS.map((option) => ({
      label: option.label,
      key: option.key,
      picked: branch[option.key] === true,
    })),
    {
      title: `Protect ${branch.name}`,
      placeHolder:
        'Tick what developers may still do (maintainers always can); none ticked: maintainers only',
    },
  );
  return picked ? protectionFromPicks(picked) : undefined;
}

function inform(message: string): string {
  void showInformation(message);
  return message;
}

/** `forge.branch.create`: a new branch, from the row's branch, the default branch, another or a SHA. */
async function createBranch(
  services: Services,
  arg: BranchArgument,
  options: BranchOptions,
): Promise<string | undefined> {
  const scope = await projectScope(services, arg, 'Project to create a branch in');
  if (!scope) return undefined;
  const path = projectPath(scope.project);
  const typed =
    options.name ??
    (await askText({
      title: `New branch in ${path}`,
      prompt: 'Name of the new branch',
      placeHolder: 'feature/my-change',
      validateInput: branchNameProblem,
    }));
  if (typed === undefined) return undefined;
  const name = valueOrThrow(checkRefName(typed));
  const client = await services.accounts.client(scope.account.id);
  const startingPoint =
    options.from ?? (await askStartingPoint(client, scope.project, scope.branchNode?.branch.name));
  if (!startingPoint) return undefined;
  const from = valueOrThrow(checkRefName(startingPoint));
  const created = await inView(() => client.createBranch(scope.project.id, name, from));
  services.afterAction(scope.refreshNode);
  return inform(`Created branch ${created.name} in ${path} from ${from}.`);
}

/** `forge.branch.protect`: protect a branch, asking what developers may still do. */
async function protectBranch(
  services: Services,
  arg: BranchArgument,
  options: BranchOptions,
): Promise<string | undefined> {
  const target = await branchTarget(
    services,
    arg,
    'Branch to protect',
    (branch) => branch.protected !== true,
    (path) => `Every branch of ${path} is protected already.`,
  );
  if (!target) return undefined;
  const settings =
    options.developersCanPush !== undefined || options.developersCanMerge !== undefined
      ? {
          developers_can_push: options.developersCanPush ?? false,
          developers_can_merge: options.developersCanMerge ?? false,
        }
      : await askProtection(target.branch);
  if (!settings) return undefined;
  const client = await services.accounts.client(target.account.id);
  const protectedBranch = await inView(() =>
    client.protectBranch(target.project.id, target.branch.name, settings),
  );
  services.afterAction(target.refreshNode);
  return inform(
    `Protected ${protectedBranch.name} in ${projectPath(target.project)}: ${describeProtection(protectedBranch)}.`,
  );
}

/** `forge.branch.unprotect`. */
async function unprotectBranch(services: Services, arg: BranchArgument): Promise<string | undefined> {
  const target = await branchTarget(
    services,
    arg,
    'Branch to unprotect',
    (branch) => branch.protected === true,
    (path) => `No branch of ${path} is protected.`,
  );
  if (!target) return undefined;
  const client = await services.accounts.client(target.account.id);
  await inView(() => client.unprotectBranch(target.project.id, target.branch.name));
  services.afterAction(target.refreshNode);
  return inform(`Unprotected ${target.branch.name} in ${projectPath(target.project)}.`);
}

/** `forge.branch.delete`, after a modal question that says whether the branch is merged. */
async function deleteBranch(
  services: Services,
  arg: BranchArgument,
  options: BranchOptions,
): Promise<string | undefined> {
  const target = await branchTarget(
    services,
    arg,
    'Branch to delete',
    (branch, project) => !isDefaultBranch(branch, project.default_branch),
    (path) => `${path} has no branch besides its default branch.`,
  );
  if (!target) return undefined;
  const { branch, project } = target;
  const path = projectPath(project);
  if (!options.confirmed) {
    const answer = await showWarning(
      `Delete the branch ${branch.name} of ${path}?`,
      {
        modal: true,
        detail: branch.merged
          ? 'It is merged into the default branch.'
          : 'It is not merged: commits only on this branch may be lost.',
      },
      'Delete',
    );
    if (answer !== 'Delete') return undefined;
  }
  const client = await services.accounts.client(target.account.id);
  try {
    await inView(() => client.deleteBranch(project.id, branch.name));
  } catch (error) {
    // The server refuses to delete the default branch: say so in its words.
    if (!(error instanceof MethodNotAllowedError)) throw error;
    const message = `${branch.name} was not deleted: ${error.serverMessage}`;
    void showError(message);
    return message;
  }
  services.afterAction(target.refreshNode);
  return inform(`Deleted the branch ${branch.name} of ${path}.`);
}

/** `forge.branch.deleteMerged`: the merged branches (protected ones and the default kept). */
async function deleteMergedBranches(
  services: Services,
  arg: BranchArgument,
  options: BranchOptions,
): Promise<string | undefined> {
  const scope = await projectScope(services, arg, 'Project whose merged branches to delete');
  if (!scope) return undefined;
  const { project } = scope;
  const path = projectPath(project);
  const client = await services.accounts.client(scope.account.id);
  const branches = await withCancellableProgress(`Counting the merged branches of ${path}…`, (signal) =>
    client.listBranches(project.id).toArray({ signal }),
  );
  const names = mergedBranchesToDelete(branches, project.default_branch).map((branch) => branch.name);
  if (names.length === 0)
    return inform(`${path} has no merged branches to delete (protected ones are kept).`);
  if (!options.confirmed) {
    const answer = await showWarning(
      deleteMergedQuestion(path, names),
      { modal: true, detail: 'Protected branches and the default branch are kept.' },
      'Delete',
    );
    if (answer !== 'Delete') return undefined;
  }
  await inView(() => client.deleteMergedBranches(project.id));
  // Real servers delete them in the background (202): the refresh burst picks up the result.
  services.afterAction(scope.refreshNode);
  return inform(
    `Deleting ${names.length === 1 ? '1 merged branch' : `${names.length} merged branches`} of ${path}: ${listNames(names)}.`,
  );
}

/** `forge.branch.copyName`. */
async function copyBranchName(services: Services, arg: BranchArgument): Promise<string | undefined> {
  const target = await branchTarget(
    services,
    arg,
    'Branch whose name to copy',
    () => true,
    (path) => `${path} has no branches.`,
  );
  if (!target) return undefined;
  await vscode.env.clipboard.writeText(target.branch.name);
  showStatusMessage(`Copied "${target.branch.name}"`, 3_000);
  return target.branch.name;
}

/** Shows the work as progress on the Projects view. */
function inView<T>(work: () => Promise<T>): Thenable<T> {
  return withProgress({ location: { viewId: 'forge.projects' } }, work);
}

/** Branch actions: create, protect, unprotect, delete, delete merged, copy the name. */
export function registerBranchCommands(services: Services): void {
  const declare = (
    id: string,
    run: (services: Services, arg: BranchArgument, options: BranchOptions) => Promise<string | undefined>,
  ): CommandDeclaration =>
    defineCommand({
      id,
      args: [BranchArgumentSchema, BranchOptionsSchema],
      run: (arg, options) => run(services, arg, options ?? {}),
    });
  registerCommands(services.context, services.log, [
    declare('forge.branch.create', createBranch),
    declare('forge.branch.protect', protectBranch),
    declare('forge.branch.unprotect', unprotectBranch),
    declare('forge.branch.delete', deleteBranch),
    declare('forge.branch.deleteMerged', deleteMergedBranches),
    declare('forge.branch.copyName', copyBranchName),
  ]);
}
