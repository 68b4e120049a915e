/** "Create Merge Request": four questions (or options from automation), then one request. */
import { CANCELLED } from './mergeRequestTargets';
import * as vscode from 'vscode';
import {
  type Branch,
  type DescriptionTemplate,
  type HostingClient,
  type Project,
  readDescriptionTemplates,
} from '../../api/hosting';
import { describeError } from '../../platform/commands/errorMessages';
import { findLocalClone } from '../../platform/localGit';
import { ProjectNode, projectTarget } from '../projects';
import { type MergeRequestCommandContext, openLink, projectPath } from './mergeRequestTargets';
import { type CreateMergeRequestOptions } from './commandArguments';
import { valueOrThrow } from '../../platform/commands/registerCommand';
import { checkRefName } from '../../domain/inputValidation';
import { askText, pickOne, showInformation, withProgress } from '../../platform/userMessages';

export async function lastCommitTitle(
  client: HostingClient,
  project: Project,
  branch: string,
  known: readonly Branch[],
): Promise<string | undefined> {
  const listed = known.find((candidate) => candidate.name === branch);
  if (listed?.commit?.title) return listed.commit.title;
  try {
    return (await client.getBranch(project.id, branch)).commit?.title ?? undefined;
  } catch {
    return undefined;
  }
}

/** The project's branches, loaded once and only when a question needs them. */
function branchLoader(client: HostingClient, project: Project) {
  let branches: Branch[] = [];
  return {
    get known(): readonly Branch[] {
      return branches;
    },
    async load(): Promise<Branch[]> {
      if (branches.length === 0)
        branches = (await client.listBranches(project.id).page({ perPage: 100 })).items;
      return branches;
    },
  };
}
type BranchLoader = ReturnType<typeof branchLoader>;

/** Step 1/4: the branch with the changes; the clone's current branch first. */
async function askSourceBranch(
  project: Project,
  branches: BranchLoader,
  clone: { root: string; currentBranch?: string } | undefined,
): Promise<string | undefined> {
  const localBranch = clone?.currentBranch;
  const all = await withProgress(
    { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Loading branches…') },
    () => branches.load(),
  );
  const items = all
    .filter((branch) => branch.name !== project.default_branch || all.length === 1)
    .map((branch) => ({
      label: branch.name,
      description: branch.commit?.title ? branch.commit.title : undefined,
      name: branch.name,
    }));
  if (localBranch) {
    const index = items.findIndex((item) => item.name === localBranch);
    const [current] = index >= 0 ? items.splice(index, 1) : [];
    items.unshift({
      label: localBranch,
      description: currentBranchNote(clone?.root, index >= 0),
      name: localBranch,
      ...(current?.description ? { detail: current.description } : {}),
    });
  }
  const picked = await pickOne(items, {
    title: vscode.l10n.t('New merge request in {0} (1/4)', projectPath(project)),
    placeHolder: vscode.l10n.t('Source branch (the changes to merge)'),
    matchOnDescription: true,
  });
  return picked?.name;
}

/** Step 2/4: the branch to merge into; the default branch first. */
async function askTargetBranch(
  project: Project,
  branches: BranchLoader,
  sourceBranch: string,
): Promise<string | undefined> {
  const names = (await branches.load()).map((branch) => branch.name).filter((name) => name !== sourceBranch);
  const defaultBranch = project.default_branch ?? undefined;
  const ordered = defaultBranch ? [defaultBranch, ...names.filter((name) => name !== defaultBranch)] : names;
  const picked = await pickOne(
    ordered.map((name) => ({
      label: name,
      description: name === defaultBranch ? vscode.l10n.t('default branch') : undefined,
      name,
    })),
    {
      title: vscode.l10n.t('New merge request in {0} (2/4)', projectPath(project)),
      placeHolder: vscode.l10n.t('Merge {0} into…', sourceBranch),
    },
  );
  return picked?.name;
}

/** Steps 3/4 and 4/4: title (the last commit's by default) and description. */
async function askTitleAndDescription(
  project: Project,
  branches: { source: string; target: string },
  suggested: string,
  templates: Promise<readonly DescriptionTemplate[]>,
): Promise<{ title: string; description: string } | undefined> {
  const title = await askText({
    title: vscode.l10n.t('New merge request in {0} (3/4)', projectPath(project)),
    prompt: vscode.l10n.t('Title ({0} → {1})', branches.source, branches.target),
    value: suggested,
    ignoreFocusOut: true,
    validateInput: (value) =>
      value.trim() === '' ? vscode.l10n.t('A merge request needs a title') : undefined,
  });
  if (title === undefined) return undefined;
  const description = await askDescription(project, await templates);
  return description === undefined ? undefined : { title, description };
}

/**
 * Step 4/4: the description. With templates (`.gitlab/merge_request_templates/`, the project's
 * default) a choice of them, as GitLab's form offers, besides writing one or none.
 */
async function askDescription(
  project: Project,
  templates: readonly DescriptionTemplate[],
): Promise<string | undefined> {
  const title = vscode.l10n.t('New merge request in {0} (4/4)', projectPath(project));
  const write = () =>
    askText({
      title,
      prompt: vscode.l10n.t('Description (optional; "Closes #12" closes that issue on merge)'),
      ignoreFocusOut: true,
    });
  if (templates.length === 0) return write();
  const items: { label: string; description?: string; detail?: string; icon: string; text?: string }[] = [
    ...templates.map((template) => ({
      label: template.isProjectDefault ? vscode.l10n.t("The project's default description") : template.name,
      description: template.isProjectDefault ? undefined : vscode.l10n.t('template'),
      detail: firstLine(template.text),
      icon: 'file-text',
      text: template.text,
    })),
    { label: vscode.l10n.t('Write a description…'), icon: 'edit' },
    { label: vscode.l10n.t('No description'), icon: 'circle-slash', text: '' },
  ];
  const picked = await pickOne(items, {
    title,
    placeHolder: vscode.l10n.t('Description: a template of {0}, or your own', projectPath(project)),
    matchOnDetail: true,
  });
  if (!picked) return undefined;
  return picked.text ?? write();
}

/** A template's first line with words in it, to tell templates apart in the list. */
function firstLine(text: string): string | undefined {
  return text
    .split('\n')
    .map((line) => line.replace(/^#+\s*/, '').trim())
    .find((line) => line !== '');
}

/** The templates of the project, read while the first questions are asked; none when they cannot be read. */
function templatesOf(client: HostingClient, project: Project, log: { warn(line: string): void }) {
  return readDescriptionTemplates(client, project, 'merge_request').catch((error: unknown) => {
    log.warn(`Merge request templates of ${projectPath(project)}: ${describeError(error)}`);
    return [];
  });
}

function noSourceBranch(project: Project): Error {
  return new Error(
    vscode.l10n.t(
      'No source branch: give one, or open a clone of {0} with the branch checked out.',
      projectPath(project),
    ),
  );
}

/** The text of the template automation named; an unknown name is refused with the names there are. */
async function templateNamed(
  templates: Promise<readonly DescriptionTemplate[]>,
  name: string | undefined,
): Promise<string | undefined> {
  if (name === undefined) return undefined;
  const all = await templates;
  const found = all.find((template) => template.name === name);
  if (!found)
    throw new Error(
      vscode.l10n.t(
        'No merge request template "{0}": the project has {1}.',
        name,
        all.map((template) => template.name).join(', ') || vscode.l10n.t('none'),
      ),
    );
  return found.text;
}

/** The open clone of the project, if there is one; a clone git cannot read is logged and left out. */
function readLocalClone(project: Project, serverUrl: string, log: { warn(line: string): void }) {
  return findLocalClone(project, serverUrl).catch((error: unknown) => {
    log.warn(`Could not read the local clone: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  });
}

/** How the source branch question describes the branch checked out in the clone. */
function currentBranchNote(root: string | undefined, pushed: boolean): string {
  if (root === undefined)
    return pushed ? vscode.l10n.t('current branch') : vscode.l10n.t('current branch (not pushed?)');
  return pushed
    ? vscode.l10n.t('current branch in {0}', root)
    : vscode.l10n.t('current branch in {0} (not pushed?)', root);
}

/**
 * Creates a merge request: with options (tests, automation) from them and the clone's branch,
 * without asking; otherwise asking source, target, title and description.
 */
export async function createMergeRequest(
  context: MergeRequestCommandContext,
  arg: unknown,
  options: CreateMergeRequestOptions | undefined,
) {
  const { services } = context;
  // Branch names from automation are checked before anything is sent.
  if (options?.sourceBranch !== undefined) valueOrThrow(checkRefName(options.sourceBranch));
  if (options?.targetBranch !== undefined) valueOrThrow(checkRefName(options.targetBranch));
  const target = await projectTarget(
    services,
    arg,
    vscode.l10n.t('Create a merge request in which project?'),
  );
  if (!target) return { created: false, ...CANCELLED };
  const { project } = target;
  const client = await services.accounts.client(target.account.id);
  const clone = await readLocalClone(project, target.account.serverUrl, services.log);
  const localBranch = clone?.currentBranch;
  const branches = branchLoader(client, project);
  const templates =
    options && options.template === undefined
      ? Promise.resolve([])
      : templatesOf(client, project, services.log);
  if (options && !(options.sourceBranch ?? localBranch)) throw noSourceBranch(project);
  const sourceBranch = options
    ? (options.sourceBranch ?? localBranch)
    : await askSourceBranch(project, branches, clone);
  if (!sourceBranch) return { created: false, ...CANCELLED };
  const targetBranch =
    (options ? (options.targetBranch ?? project.default_branch ?? undefined) : undefined) ??
    (await askTargetBranch(project, branches, sourceBranch));
  if (!targetBranch) return { created: false, ...CANCELLED };
  let title = options?.title;
  let description = options?.description ?? (await templateNamed(templates, options?.template));
  if (!options) {
    const suggested = (await lastCommitTitle(client, project, sourceBranch, branches.known)) ?? sourceBranch;
    const answers = await askTitleAndDescription(
      project,
      { source: sourceBranch, target: targetBranch },
      suggested,
      templates,
    );
    if (!answers) return { created: false, ...CANCELLED };
    ({ title, description } = answers);
  } else if (!title) {
    title = (await lastCommitTitle(client, project, sourceBranch, branches.known)) ?? sourceBranch;
  }
  const created = await withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Creating the merge request in {0}…', projectPath(project)),
    },
    () =>
      client.createMergeRequest(project.id, {
        source_branch: sourceBranch,
        target_branch: targetBranch,
        title: title.trim(),
        description: description?.trim() ? description : undefined,
      }),
  );
  context.view.refresh();
  if (arg instanceof ProjectNode) services.afterAction(arg.folderOfKind('mergeRequests'));
  void showInformation(
    vscode.l10n.t('Created !{0} {1}', created.iid, created.title),
    vscode.l10n.t('Open in Browser'),
  ).then((choice) => (choice ? openLink(created.web_url, services.log) : undefined));
  return {
    created: true,
    iid: created.iid,
    webUrl: created.web_url,
    sourceBranch,
    targetBranch,
    title: created.title,
    localBranch,
  };
}
