import { ProjectArgumentSchema, type ProjectArgument, pathOf } from './projectTarget';
import { withNotificationProgress } from '../../platform/userMessages';
import * as vscode from 'vscode';
import * as z from 'zod';
import type { EditProjectInput, Project } from '../../api/hosting';
import {
  confirmsPath,
  guessOwnNamespace,
  parseNamespace,
  validateProjectName,
} from '../../domain/projectActions';
import type { AccountInfo } from '../../platform/accounts';
import type { Services } from '../../services';
import { AccountNode } from './nodes/accountNode';
import { ProjectNode } from './nodes/projectNode';
import { AccountArgumentSchema, accountTarget, projectTarget } from './projectTarget';
import { type CommandDeclaration, defineCommand, rowOf } from '../../platform/commands/defineCommand';
import { registerCommands } from '../../platform/commands/registerCommand';
import { askText, showInformation, showWarning } from '../../platform/userMessages';
import { openServerLink } from '../../platform/serverLinks';
import { listMembers } from './projectMembers';
import { copyUrl, openInBrowser } from './projectUrls';
import { insertCiTemplate, CiTemplateOptionsSchema } from './ciTemplate';
import { askCreateOptions, askEdit } from './projectForms';
import {
  CreateOptionsSchema,
  CreateProjectOptions,
  EditOptionsSchema,
  EditProjectOptions,
} from './projectForms';

const ConfirmOptionsSchema = z
  .strictObject({
    /** Skips the modal question. */
    confirmed: z.boolean().optional(),
    /** Delete only: the typed project path; when it matches, no question is asked. */
    confirmedPath: z.string().max(1000).optional(),
  })
  .optional();
type ConfirmOptions = NonNullable<z.output<typeof ConfirmOptionsSchema>>;

/** An account row, a project row (its account), an account id, or nothing (asked). */
const AccountOrProjectSchema = z.union([
  rowOf(ProjectNode, vscode.l10n.t('a project')),
  AccountArgumentSchema,
]);
type AccountOrProject = z.output<typeof AccountOrProjectSchema>;

function openInBrowserLater(message: string, url: string | undefined): void {
  const actions = url ? [vscode.l10n.t('Open in Browser')] : [];
  void showInformation(message, ...actions).then((choice) => {
    if (choice === vscode.l10n.t('Open in Browser')) void openServerLink(url, vscode.l10n.t('the web page'));
  });
}

/** The account a command acts for: a tree node's, a given id, or the one the user picks. */
async function accountFor(
  services: Services,
  arg: AccountOrProject,
  placeHolder: string,
): Promise<AccountInfo | undefined> {
  if (arg instanceof ProjectNode) return arg.account;
  return accountTarget(services.accounts, arg, placeHolder);
}

async function createProject(
  services: Services,
  arg: AccountOrProject,
  preset: CreateProjectOptions,
): Promise<Project | undefined> {
  const account = await accountFor(services, arg, vscode.l10n.t('Create a project on which account?'));
  if (!account) return undefined;
  const options = preset.name ? preset : await askCreateOptions(account);
  if (!options?.name) return undefined;
  const problem = validateProjectName(options.name);
  if (problem) throw new Error(vscode.l10n.t('Project not created: {0}.', problem));
  const { name, visibility, description, forUserId } = options;
  const client = await services.accounts.client(account.id);
  const project = await withNotificationProgress(vscode.l10n.t('Creating {0}…', name), (signal) =>
    forUserId !== undefined
      ? client.createProjectForUser(forUserId, { name, visibility, description }, { signal })
      : client.createProject({ name, visibility, description }, { signal }),
  );
  services.afterAction(arg instanceof AccountNode ? arg : undefined);
  openInBrowserLater(vscode.l10n.t('Created {0}.', pathOf(project)), project.web_url);
  return project;
}

async function editProject(
  services: Services,
  arg: ProjectArgument,
  preset: EditProjectOptions,
): Promise<Project | undefined> {
  const target = await projectTarget(services, arg, vscode.l10n.t('Project to edit'));
  if (!target) return undefined;
  const client = await services.accounts.client(target.account.id);
  // The listed shape may be trimmed; PUT needs the current name, so read the project first.
  const current = await withNotificationProgress(
    vscode.l10n.t('Reading {0}…', pathOf(target.project)),
    (signal) => client.getProject(target.project.id, { signal }),
    true,
  );
  const changes = Object.keys(preset).length > 0 ? preset : await askEdit(client, current);
  if (!changes) return undefined;
  const name = changes.name ?? current.name ?? target.project.name;
  if (!name)
    throw new Error(
      vscode.l10n.t('The server did not say the name of {0}; refresh and try again.', pathOf(current)),
    );
  const input: EditProjectInput = { name };
  if (changes.description !== undefined) input.description = changes.description;
  if (changes.defaultBranch !== undefined) input.default_branch = changes.defaultBranch;
  if (changes.visibility !== undefined) input.visibility = changes.visibility;
  const updated = await withNotificationProgress(vscode.l10n.t('Updating {0}…', pathOf(current)), (signal) =>
    client.editProject(current.id, input, { signal }),
  );
  const node = arg;
  if (node) node.project = updated;
  services.afterAction(node);
  void showInformation(vscode.l10n.t('Updated {0}.', pathOf(updated)));
  return updated;
}

// ---- fork ---------------------------------------------------------------------------------------------

async function defaultForkNamespace(services: Services, account: AccountInfo): Promise<string | undefined> {
  const sudo = services.accounts.sudoOf(account.id);
  if (sudo) return sudo;
  try {
    const client = await services.accounts.client(account.id);
    const owned = await client.listProjects({ owned: true, simple: true }).page({ perPage: 20 });
    return guessOwnNamespace(owned.items);
  } catch (error) {
    services.log.warn(
      `Could not guess the personal namespace: ${error instanceof Error ? error.message : String(error)}`,
    );
    return undefined;
  }
}

async function forkProject(
  services: Services,
  arg: ProjectArgument,
  options: { namespace?: string | number },
): Promise<Project | undefined> {
  const target = await projectTarget(services, arg, vscode.l10n.t('Project to fork'));
  if (!target) return undefined;
  const path = pathOf(target.project);
  const preset = options.namespace;
  let namespace: string | number | undefined =
    typeof preset === 'number' ? preset : typeof preset === 'string' ? parseNamespace(preset) : undefined;
  if (namespace === undefined) {
    const guess = await defaultForkNamespace(services, target.account);
    const typed = await askText({
      title: vscode.l10n.t('Fork {0}', path),
      prompt: vscode.l10n.t(
        'Namespace to fork into: your user name, a group path, or a numeric namespace id',
      ),
      value: guess ?? '',
      ignoreFocusOut: true,
      validateInput: (value) =>
        parseNamespace(value) === undefined
          ? vscode.l10n.t('A namespace path (e.g. alice or acme/tools) or an id')
          : undefined,
    });
    if (typed === undefined) return undefined;
    namespace = parseNamespace(typed);
    if (namespace === undefined) return undefined;
  }
  const client = await services.accounts.client(target.account.id);
  const into = namespace;
  const fork = await withNotificationProgress(
    vscode.l10n.t('Forking {0} into {1}…', path, String(into)),
    (signal) => client.forkProject(target.project.id, into, { signal }),
  );
  services.afterAction(arg);
  openInBrowserLater(vscode.l10n.t('Forked {0} to {1}.', path, pathOf(fork)), fork.web_url);
  return fork;
}

// ---- star, archive --------------------------------------------------------------------------------------

async function setStar(
  services: Services,
  arg: ProjectArgument,
  star: boolean,
): Promise<boolean | undefined> {
  const target = await projectTarget(
    services,
    arg,
    star ? vscode.l10n.t('Project to star') : vscode.l10n.t('Project to unstar'),
  );
  if (!target) return undefined;
  const client = await services.accounts.client(target.account.id);
  const path = pathOf(target.project);
  const result = star
    ? await client.starProject(target.project.id)
    : await client.unstarProject(target.project.id);
  if (!result.changed) {
    void showInformation(
      star ? vscode.l10n.t('Already starred: {0}.', path) : vscode.l10n.t('Not starred: {0}.', path),
    );
    return false;
  }
  const node = arg;
  if (node) node.project = { ...node.project, star_count: result.value.star_count };
  services.afterAction(node);
  const count = result.value.star_count;
  void showInformation(
    count === undefined
      ? star
        ? vscode.l10n.t('Starred {0}.', path)
        : vscode.l10n.t('Unstarred {0}.', path)
      : star
        ? vscode.l10n.t('Starred {0} (★ {1}).', path, count)
        : vscode.l10n.t('Unstarred {0} (★ {1}).', path, count),
  );
  return true;
}

async function setArchived(
  services: Services,
  arg: ProjectArgument,
  options: ConfirmOptions,
  archive: boolean,
): Promise<Project | undefined> {
  const target = await projectTarget(
    services,
    arg,
    archive ? vscode.l10n.t('Project to archive') : vscode.l10n.t('Project to unarchive'),
  );
  if (!target) return undefined;
  const path = pathOf(target.project);
  if (archive && !options.confirmed) {
    const answer = await showWarning(
      vscode.l10n.t('Archive {0}?', path),
      {
        modal: true,
        detail: vscode.l10n.t(
          'An archived project is read-only: no pushes, issues, merge requests or pipelines until it is unarchived.',
        ),
      },
      vscode.l10n.t('Archive'),
    );
    if (answer !== vscode.l10n.t('Archive')) return undefined;
  }
  const client = await services.accounts.client(target.account.id);
  const updated = await withNotificationProgress(
    archive ? vscode.l10n.t('Archiving {0}…', path) : vscode.l10n.t('Unarchiving {0}…', path),
    (signal) =>
      archive
        ? client.archiveProject(target.project.id, { signal })
        : client.unarchiveProject(target.project.id, { signal }),
  );
  const node = arg;
  if (node) node.project = updated;
  services.afterAction(node);
  void showInformation(
    archive ? vscode.l10n.t('Archived {0}.', path) : vscode.l10n.t('Unarchived {0}.', path),
  );
  return updated;
}

// ---- delete -----------------------------------------------------------------------------------------------

async function deleteProject(
  services: Services,
  arg: ProjectArgument,
  options: ConfirmOptions,
): Promise<boolean> {
  const target = await projectTarget(services, arg, vscode.l10n.t('Project to delete'));
  if (!target) return false;
  const path = pathOf(target.project);
  if (options.confirmedPath !== undefined) {
    if (!confirmsPath(options.confirmedPath, path)) {
      throw new Error(
        vscode.l10n.t('Not deleted: "{0}" is not the path of {1}.', options.confirmedPath, path),
      );
    }
  } else {
    if (!options.confirmed) {
      const answer = await showWarning(
        vscode.l10n.t('Delete {0} and everything in it?', path),
        {
          modal: true,
          detail: vscode.l10n.t(
            'Its repository, issues, merge requests, pipelines and wiki are deleted. This cannot be undone.',
          ),
        },
        vscode.l10n.t('Delete…'),
      );
      if (answer !== vscode.l10n.t('Delete…')) return false;
    }
    const typed = await askText({
      title: vscode.l10n.t('Delete {0} and everything in it?', path),
      prompt: vscode.l10n.t('Type {0} to confirm. This cannot be undone.', path),
      placeHolder: path,
      ignoreFocusOut: true,
      validateInput: (value) =>
        confirmsPath(value, path) ? undefined : vscode.l10n.t('Type {0} exactly', path),
    });
    if (!confirmsPath(typed, path)) return false;
  }
  const client = await services.accounts.client(target.account.id);
  await withNotificationProgress(vscode.l10n.t('Deleting {0}…', path), (signal) =>
    client.deleteProject(target.project.id, { signal }),
  );
  services.afterAction(arg);
  void showInformation(
    vscode.l10n.t('Deleted {0}. The server may take a moment to remove everything.', path),
  );
  return true;
}

// ---- registration -----------------------------------------------------------------------------------------

const ForkOptionsSchema = z
  .strictObject({ namespace: z.union([z.string().max(1000), z.int().positive()]).optional() })
  .optional();
const CopyUrlOptionsSchema = z.strictObject({ kind: z.enum(['https', 'ssh', 'web']).optional() }).optional();
const MembersOptionsSchema = z.strictObject({ search: z.string().max(255).optional() }).optional();
const CiTemplateArgumentSchema = z
  .union([
    rowOf(AccountNode, vscode.l10n.t('an account')),
    rowOf(ProjectNode, vscode.l10n.t('a project')),
    CiTemplateOptionsSchema,
  ])
  .optional();

/** Project actions: create, edit, fork, star, archive, delete, open, copy URL, members; CI templates. */
export function registerProjectCommands(services: Services): void {
  const onProject = (id: string, run: (arg: ProjectArgument) => unknown): CommandDeclaration =>
    defineCommand({ id, args: [ProjectArgumentSchema], run });
  const archiving = (id: string, archive: boolean): CommandDeclaration =>
    defineCommand({
      id,
      args: [ProjectArgumentSchema, ConfirmOptionsSchema],
      run: (arg, options) => setArchived(services, arg, options ?? {}, archive),
    });
  registerCommands(services.context, services.log, [
    defineCommand({
      id: 'forge.project.create',
      args: [AccountOrProjectSchema, CreateOptionsSchema],
      run: (arg, options) => createProject(services, arg, options ?? {}),
    }),
    defineCommand({
      id: 'forge.project.edit',
      args: [ProjectArgumentSchema, EditOptionsSchema],
      run: (arg, options) => editProject(services, arg, options ?? {}),
    }),
    defineCommand({
      id: 'forge.project.fork',
      args: [ProjectArgumentSchema, ForkOptionsSchema],
      run: (arg, options) => forkProject(services, arg, options ?? {}),
    }),
    onProject('forge.project.star', (arg) => setStar(services, arg, true)),
    onProject('forge.project.unstar', (arg) => setStar(services, arg, false)),
    archiving('forge.project.archive', true),
    archiving('forge.project.unarchive', false),
    defineCommand({
      id: 'forge.project.delete',
      args: [ProjectArgumentSchema, ConfirmOptionsSchema],
      run: (arg, options) => deleteProject(services, arg, options ?? {}),
    }),
    onProject('forge.project.openInBrowser', (arg) => openInBrowser(services, arg)),
    defineCommand({
      id: 'forge.project.copyUrl',
      args: [ProjectArgumentSchema, CopyUrlOptionsSchema],
      run: (arg, options) => copyUrl(services, arg, options ?? {}),
    }),
    defineCommand({
      id: 'forge.project.members',
      args: [ProjectArgumentSchema, MembersOptionsSchema],
      run: (arg, options) => listMembers(services, arg, options ?? {}),
    }),
    defineCommand({
      id: 'forge.ciTemplate.insert',
      args: [CiTemplateArgumentSchema, CiTemplateOptionsSchema.optional()],
      run: (arg, options) => insertCiTemplate(services, arg, options),
    }),
  ]);
}
