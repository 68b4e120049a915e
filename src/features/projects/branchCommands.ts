import * as vscode from 'vscode';
import { MethodNotAllowedError } from '../../api/http';
import {
  branchNameProblem,
  deleteMergedQuestion,
  describeProtection,
  isDefaultBranch,
  listNames,
  mergedBranchesToDelete,
} from '../../domain/branchActions';
import { projectPath } from '../../domain/jobActions';
import type { Services } from '../../services';
import { type CommandDeclaration, defineCommand } from '../../platform/commands/defineCommand';
import { registerCommands, valueOrThrow } from '../../platform/commands/registerCommand';
import { checkRefName } from '../../domain/inputValidation';
import {
  askText,
  showError,
  showInformation,
  showStatusMessage,
  showWarning,
  withProgress,
  withCancellableProgress,
} from '../../platform/userMessages';

import {
  type BranchArgument,
  BranchArgumentSchema,
  type BranchOptions,
  BranchOptionsSchema,
  askProtection,
  askStartingPoint,
  branchTarget,
  projectScope,
} from './branchTargets';

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
  const scope = await projectScope(services, arg, vscode.l10n.t('Project to create a branch in'));
  if (!scope) return undefined;
  const path = projectPath(scope.project);
  const typed =
    options.name ??
    (await askText({
      title: vscode.l10n.t('New branch in {0}', path),
      prompt: vscode.l10n.t('Name of the new branch'),
      placeHolder: vscode.l10n.t('feature/my-change'),
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
  return inform(vscode.l10n.t('Created branch {0} in {1} from {2}.', created.name, path, from));
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
    vscode.l10n.t('Branch to protect'),
    (branch) => branch.protected !== true,
    (path) => vscode.l10n.t('Every branch of {0} is protected already.', path),
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
    vscode.l10n.t(
      'Protected {0} in {1}: {2}.',
      protectedBranch.name,
      projectPath(target.project),
      describeProtection(protectedBranch),
    ),
  );
}

/** `forge.branch.unprotect`. */
async function unprotectBranch(services: Services, arg: BranchArgument): Promise<string | undefined> {
  const target = await branchTarget(
    services,
    arg,
    vscode.l10n.t('Branch to unprotect'),
    (branch) => branch.protected === true,
    (path) => vscode.l10n.t('No branch of {0} is protected.', path),
  );
  if (!target) return undefined;
  const client = await services.accounts.client(target.account.id);
  await inView(() => client.unprotectBranch(target.project.id, target.branch.name));
  services.afterAction(target.refreshNode);
  return inform(vscode.l10n.t('Unprotected {0} in {1}.', target.branch.name, projectPath(target.project)));
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
    vscode.l10n.t('Branch to delete'),
    (branch, project) => !isDefaultBranch(branch, project.default_branch),
    (path) => vscode.l10n.t('{0} has no branch besides its default branch.', path),
  );
  if (!target) return undefined;
  const { branch, project } = target;
  const path = projectPath(project);
  if (!options.confirmed) {
    const answer = await showWarning(
      vscode.l10n.t('Delete the branch {0} of {1}?', branch.name, path),
      {
        modal: true,
        detail: branch.merged
          ? vscode.l10n.t('It is merged into the default branch.')
          : vscode.l10n.t('It is not merged: commits only on this branch may be lost.'),
      },
      vscode.l10n.t('Delete'),
    );
    if (answer !== vscode.l10n.t('Delete')) return undefined;
  }
  const client = await services.accounts.client(target.account.id);
  try {
    await inView(() => client.deleteBranch(project.id, branch.name));
  } catch (error) {
    // The server refuses to delete the default branch: say so in its words.
    if (!(error instanceof MethodNotAllowedError)) throw error;
    const message = vscode.l10n.t('{0} was not deleted: {1}', branch.name, error.serverMessage);
    void showError(message);
    return message;
  }
  services.afterAction(target.refreshNode);
  return inform(vscode.l10n.t('Deleted the branch {0} of {1}.', branch.name, path));
}

/** `forge.branch.deleteMerged`: the merged branches (protected ones and the default kept). */
async function deleteMergedBranches(
  services: Services,
  arg: BranchArgument,
  options: BranchOptions,
): Promise<string | undefined> {
  const scope = await projectScope(services, arg, vscode.l10n.t('Project whose merged branches to delete'));
  if (!scope) return undefined;
  const { project } = scope;
  const path = projectPath(project);
  const client = await services.accounts.client(scope.account.id);
  const branches = await withCancellableProgress(
    vscode.l10n.t('Counting the merged branches of {0}…', path),
    (signal) => client.listBranches(project.id).toArray({ signal }),
  );
  const names = mergedBranchesToDelete(branches, project.default_branch).map((branch) => branch.name);
  if (names.length === 0)
    return inform(vscode.l10n.t('{0} has no merged branches to delete (protected ones are kept).', path));
  if (!options.confirmed) {
    const answer = await showWarning(
      deleteMergedQuestion(path, names),
      { modal: true, detail: vscode.l10n.t('Protected branches and the default branch are kept.') },
      vscode.l10n.t('Delete'),
    );
    if (answer !== vscode.l10n.t('Delete')) return undefined;
  }
  await inView(() => client.deleteMergedBranches(project.id));
  // Real servers delete them in the background (202): the refresh burst picks up the result.
  services.afterAction(scope.refreshNode);
  return inform(
    names.length === 1
      ? vscode.l10n.t('Deleting 1 merged branch of {0}: {1}.', path, listNames(names))
      : vscode.l10n.t('Deleting {0} merged branches of {1}: {2}.', names.length, path, listNames(names)),
  );
}

/** `forge.branch.copyName`. */
async function copyBranchName(services: Services, arg: BranchArgument): Promise<string | undefined> {
  const target = await branchTarget(
    services,
    arg,
    vscode.l10n.t('Branch whose name to copy'),
    () => true,
    (path) => vscode.l10n.t('{0} has no branches.', path),
  );
  if (!target) return undefined;
  await vscode.env.clipboard.writeText(target.branch.name);
  showStatusMessage(vscode.l10n.t('Copied "{0}"', target.branch.name), 3_000);
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
