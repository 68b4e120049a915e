import { ProjectArgumentSchema, type ProjectArgument, pathOf } from './projectTarget';
import { withNotificationProgress } from '../../platform/userMessages';
import * as vscode from 'vscode';
import * as z from 'zod';
import type { EditProjectInput, Project } from '../../api/hosting';
import {
  type ProjectUrlKind,
  confirmsPath,
  guessOwnNamespace,
  parseNamespace,
  projectUrls,
  validateProjectName,
} from '../../domain/projectActions';
import type { AccountInfo } from '../../platform/accounts';
import type { Services } from '../../services';
import { AccountNode } from './nodes/accountNode';
import { ProjectNode } from './nodes/projectNode';
import { AccountArgumentSchema, accountTarget, projectTarget } from './projectTarget';
import { type CommandDeclaration, defineCommand, rowOf } from '../../platform/commands/defineCommand';
import { registerCommands } from '../../platform/commands/registerCommand';
import {
  askText,
  pickOne,
  showInformation,
  showStatusMessage,
  showWarning,
} from '../../platform/userMessages';
import { openServerLink } from '../../platform/serverLinks';
import { listMembers } from './projectMembers';
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
const AccountOrProjectSchema = z.union([rowOf(ProjectNode, 'a project'), AccountArgumentSchema]);
type AccountOrProject = z.output<typeof AccountOrProjectSchema>;

function openInBrowserLater(message: string, url: string | undefined): void {
  const actions = url ? ['Open in Browser'] : [];
  void showInformation(message, ...actions).then((choice) => {
    if (choice === 'Open in Browser') void openServerLink(url, 'the web page');
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
  const account = await accountFor(services, arg, 'Create a project on which account?');
  if (!account) return undefined;
  const options = preset.name ? preset : await askCreateOptions(account);
  if (!options?.name) return undefined;
  const problem = validateProjectName(options.name);
  if (problem) throw new Error(`Project not created: ${problem}.`);
  const { name, visibility, description, forUserId } = options;
  const client = await services.accounts.client(account.id);
  const project = await withNotificationProgress(`Creating ${name}…`, (signal) =>
    forUserId !== undefined
      ? client.createProjectForUser(forUserId, { name, visibility, description }, { signal })
      : client.createProject({ name, visibility, description }, { signal }),
  );
  services.afterAction(arg instanceof AccountNode ? arg : undefined);
  openInBrowserLater(`Created ${pathOf(project)}.`, project.web_url);
  return project;
}

async function editProject(
  services: Services,
  arg: ProjectArgument,
  preset: EditProjectOptions,
): Promise<Project | undefined> {
  const target = await projectTarget(services, arg, 'Project to edit');
  if (!target) return undefined;
  const client = await services.accounts.client(target.account.id);
  // The listed shape may be trimmed; PUT needs the current name, so read the project first.
  const current = await withNotificationProgress(
    `Reading ${pathOf(target.project)}…`,
    (signal) => client.getProject(target.project.id, { signal }),
    true,
  );
  const changes = Object.keys(preset).length > 0 ? preset : await askEdit(client, current);
  if (!changes) return undefined;
  const name = changes.name ?? current.name ?? target.project.name;
  if (!name) throw new Error(`The server did not say the name of ${pathOf(current)}; refresh and try again.`);
  const input: EditProjectInput = { name };
  if (changes.description !== undefined) input.description = changes.description;
  if (changes.defaultBranch !== undefined) input.default_branch = changes.defaultBranch;
  if (changes.visibility !== undefined) input.visibility = changes.visibility;
  const updated = await withNotificationProgress(`Updating ${pathOf(current)}…`, (signal) =>
    client.editProject(current.id, input, { signal }),
  );
  const node = arg;
  if (node) node.project = updated;
  services.afterAction(node);
  void showInformation(`Updated ${pathOf(updated)}.`);
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
  const target = await projectTarget(services, arg, 'Project to fork');
  if (!target) return undefined;
  const path = pathOf(target.project);
  const preset = options.namespace;
  let namespace: string | number | undefined =
    typeof preset === 'number' ? preset : typeof preset === 'string' ? parseNamespace(preset) : undefined;
  if (namespace === undefined) {
    const guess = await defaultForkNamespace(services, target.account);
    const typed = await askText({
      title: `Fork ${path}`,
      prompt: 'Namespace to fork into: your user name, a group path, or a numeric namespace id',
      value: guess ?? '',
      ignoreFocusOut: true,
      validateInput: (value) =>
        parseNamespace(value) === undefined
          ? 'A namespace path (e.g. alice or acme/tools) or an id'
          : undefined,
    });
    if (typed === undefined) return undefined;
    namespace = parseNamespace(typed);
    if (namespace === undefined) return undefined;
  }
  const client = await services.accounts.client(target.account.id);
  const into = namespace;
  const fork = await withNotificationProgress(`Forking ${path} into ${String(into)}…`, (signal) =>
    client.forkProject(target.project.id, into, { signal }),
  );
  services.afterAction(arg);
  openInBrowserLater(`Forked ${path} to ${pathOf(fork)}.`, fork.web_url);
  return fork;
}

// ---- star, archive --------------------------------------------------------------------------------------

async function setStar(
  services: Services,
  arg: ProjectArgument,
  star: boolean,
): Promise<boolean | undefined> {
  const target = await projectTarget(services, arg, star ? 'Project to star' : 'Project to unstar');
  if (!target) return undefined;
  const client = await services.accounts.client(target.account.id);
  const path = pathOf(target.project);
  const result = star
    ? await client.starProject(target.project.id)
    : await client.unstarProject(target.project.id);
  if (!result.changed) {
    void showInformation(star ? `Already starred: ${path}.` : `Not starred: ${path}.`);
    return false;
  }
  const node = arg;
  if (node) node.project = { ...node.project, star_count: result.value.star_count };
  services.afterAction(node);
  const count = result.value.star_count;
  void showInformation(
    `${star ? 'Starred' : 'Unstarred'} ${path}${count !== undefined ? ` (★ ${count})` : ''}.`,
  );
  return true;
}

async function setArchived(
  services: Services,
  arg: ProjectArgument,
  options: ConfirmOptions,
  archive: boolean,
): Promise<Project | undefined> {
  const target = await projectTarget(services, arg, archive ? 'Project to archive' : 'Project to unarchive');
  if (!target) return undefined;
  const path = pathOf(target.project);
  if (archive && !options.confirmed) {
    const answer = await showWarning(
      `Archive ${path}?`,
      {
        modal: true,
        detail:
          'An archived project is read-only: no pushes, issues, merge requests or pipelines until it is unarchived.',
      },
      'Archive',
    );
    if (answer !== 'Archive') return undefined;
  }
  const client = await services.accounts.client(target.account.id);
  const updated = await withNotificationProgress(
    `${archive ? 'Archiving' : 'Unarchiving'} ${path}…`,
    (signal) =>
      archive
        ? client.archiveProject(target.project.id, { signal })
        : client.unarchiveProject(target.project.id, { signal }),
  );
  const node = arg;
  if (node) node.project = updated;
  services.afterAction(node);
  void showInformation(`${archive ? 'Archived' : 'Unarchived'} ${path}.`);
  return updated;
}

// ---- delete -----------------------------------------------------------------------------------------------

async function deleteProject(
  services: Services,
  arg: ProjectArgument,
  options: ConfirmOptions,
): Promise<boolean> {
  const target = await projectTarget(services, arg, 'Project to delete');
  if (!target) return false;
  const path = pathOf(target.project);
  if (options.confirmedPath !== undefined) {
    if (!confirmsPath(options.confirmedPath, path)) {
      throw new Error(`Not deleted: "${options.confirmedPath}" is not the path of ${path}.`);
    }
  } else {
    if (!options.confirmed) {
      const answer = await showWarning(
        `Delete ${path} and everything in it?`,
        {
          modal: true,
          detail:
            'Its repository, issues, merge requests, pipelines and wiki are deleted. This cannot be undone.',
        },
        'Delete…',
      );
      if (answer !== 'Delete…') return false;
    }
    const typed = await askText({
      title: `Delete ${path} and everything in it?`,
      prompt: `Type ${path} to confirm. This cannot be undone.`,
      placeHolder: path,
      ignoreFocusOut: true,
      validateInput: (value) => (confirmsPath(value, path) ? undefined : `Type ${path} exactly`),
    });
    if (!confirmsPath(typed, path)) return false;
  }
  const client = await services.accounts.client(target.account.id);
  await withNotificationProgress(`Deleting ${path}…`, (signal) =>
    client.deleteProject(target.project.id, { signal }),
  );
  services.afterAction(arg);
  void showInformation(`Deleted ${path}. The server may take a moment to remove everything.`);
  return true;
}

// ---- URLs ---------------------------------------------------------------------------------------------------

/** The project with its URLs: the listed shape normally has them; otherwise read it. */
async function withUrls(services: Services, account: AccountInfo, project: Project): Promise<Project> {
  if (project.web_url) return project;
  const client = await services.accounts.client(account.id);
  return client.getProject(project.id);
}

async function openInBrowser(services: Services, arg: ProjectArgument): Promise<string | undefined> {
  const target = await projectTarget(services, arg, 'Project to open');
  if (!target) return undefined;
  const project = await withUrls(services, target.account, target.project);
  if (!project.web_url) throw new Error(`The server did not give a web address for ${pathOf(project)}.`);
  await openServerLink(project.web_url, `the web page of ${pathOf(project)}`);
  return project.web_url;
}

async function copyUrl(
  services: Services,
  arg: ProjectArgument,
  options: { kind?: ProjectUrlKind },
): Promise<string | undefined> {
  const target = await projectTarget(services, arg, 'Project whose URL to copy');
  if (!target) return undefined;
  const project = await withUrls(services, target.account, target.project);
  const urls = projectUrls(project);
  if (urls.length === 0) throw new Error(`The server did not give any URL for ${pathOf(project)}.`);
  const { kind } = options;
  const chosen = kind
    ? urls.find((url) => url.kind === kind)
    : (
        await pickOne(
          urls.map((url) => ({ label: url.label, description: url.url, url })),
          { title: `Copy a URL of ${pathOf(project)}` },
        )
      )?.url;
  if (!chosen) {
    if (kind) throw new Error(`${pathOf(project)} has no ${kind} URL.`);
    return undefined;
  }
  await vscode.env.clipboard.writeText(chosen.url);
  showStatusMessage(`Copied ${chosen.url}`, 3000);
  return chosen.url;
}

// ---- registration -----------------------------------------------------------------------------------------

const ForkOptionsSchema = z
  .strictObject({ namespace: z.union([z.string().max(1000), z.int().positive()]).optional() })
  .optional();
const CopyUrlOptionsSchema = z.strictObject({ kind: z.enum(['https', 'ssh', 'web']).optional() }).optional();
const MembersOptionsSchema = z.strictObject({ search: z.string().max(255).optional() }).optional();
const CiTemplateArgumentSchema = z
  .union([rowOf(AccountNode, 'an account'), rowOf(ProjectNode, 'a project'), CiTemplateOptionsSchema])
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
