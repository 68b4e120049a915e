import * as vscode from 'vscode';
import * as z from 'zod';
import type { EditProjectInput, HostingClient, Project, ProjectMember } from '../../api/hosting';
import {
  CI_FILE_NAME,
  type ProjectUrlKind,
  VISIBILITIES,
  confirmsPath,
  guessOwnNamespace,
  isVisibility,
  memberLabel,
  parseId,
  parseNamespace,
  projectUrls,
  templateKey,
  validateProjectName,
} from '../../domain/projectActions';
import type { AccountInfo } from '../../platform/accounts';
import type { Services } from '../../services';
import { AccountNode } from './nodes/accountNode';
import { ProjectNode } from './nodes/projectNode';
import { AccountArgumentSchema, accountTarget, projectTarget } from './projectTarget';
import { pickAccount } from '../../platform/accountPicker';
import { type CommandDeclaration, defineCommand, rowOf } from '../../platform/commands/defineCommand';
import { registerCommands } from '../../platform/commands/registerCommand';
import {
  askText,
  pickOne,
  showInformation,
  showStatusMessage,
  showWarning,
  withCancellableProgress,
  withProgress as withVscodeProgress,
  createSearchPick,
  type PickItem,
} from '../../platform/userMessages';
import { openServerLink } from '../../platform/serverLinks';

/*
 * Project actions and CI templates. Every command works from a project row (the node is the first
 * argument) and from the palette (it asks which project). An optional second argument carries the
 * answers the command would otherwise ask for; tests and automation use it to skip the prompts.
 */

const CreateOptionsSchema = z
  .strictObject({
    name: z.string().max(255).optional(),
    visibility: z.enum(VISIBILITIES).optional(),
    description: z.string().max(2000).optional(),
    /** Administrators: create the project for this user id (POST /projects/user/:user_id). */
    forUserId: z.int().positive().optional(),
  })
  .optional();
export type CreateProjectOptions = NonNullable<z.output<typeof CreateOptionsSchema>>;

const EditOptionsSchema = z
  .strictObject({
    name: z.string().max(255).optional(),
    description: z.string().max(2000).optional(),
    defaultBranch: z.string().max(1000).optional(),
    visibility: z.enum(VISIBILITIES).optional(),
  })
  .optional();
export type EditProjectOptions = NonNullable<z.output<typeof EditOptionsSchema>>;

const ConfirmOptionsSchema = z
  .strictObject({
    /** Skips the modal question. */
    confirmed: z.boolean().optional(),
    /** Delete only: the typed project path; when it matches, no question is asked. */
    confirmedPath: z.string().max(1000).optional(),
  })
  .optional();
type ConfirmOptions = NonNullable<z.output<typeof ConfirmOptionsSchema>>;

const CiTemplateOptionsSchema = z.strictObject({
  /** Account id; asked when there are several accounts. */
  accountId: z.string().min(1).max(200).optional(),
  /** Template key or name. */
  template: z.string().max(255).optional(),
  /** What to do when the file exists: true replaces it, false keeps it (and opens it). */
  replace: z.boolean().optional(),
  /** Workspace folder name; asked when there are several folders. */
  folder: z.string().max(1000).optional(),
});
type CiTemplateOptions = z.output<typeof CiTemplateOptionsSchema>;

/** A project row, or nothing (the palette: asked). */
const ProjectArgumentSchema = rowOf(ProjectNode, 'a project').optional();
type ProjectArgument = z.output<typeof ProjectArgumentSchema>;

/** An account row, a project row (its account), an account id, or nothing (asked). */
const AccountOrProjectSchema = z.union([rowOf(ProjectNode, 'a project'), AccountArgumentSchema]);
type AccountOrProject = z.output<typeof AccountOrProjectSchema>;

function pathOf(project: Project): string {
  return project.path_with_namespace ?? project.name ?? `project ${project.id}`;
}

function openInBrowserLater(message: string, url: string | undefined): void {
  const actions = url ? ['Open in Browser'] : [];
  void showInformation(message, ...actions).then((choice) => {
    if (choice === 'Open in Browser') void openServerLink(url, 'the web page');
  });
}

/** Work behind a notification; cancellable reads pass the signal on. */
function withProgress<T>(
  title: string,
  work: (signal: AbortSignal) => Promise<T>,
  cancellable = false,
): Thenable<T> {
  return cancellable
    ? withCancellableProgress(title, work)
    : withVscodeProgress({ location: vscode.ProgressLocation.Notification, title }, () =>
        work(new AbortController().signal),
      );
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

// ---- create ---------------------------------------------------------------------------------------

async function askCreateOptions(account: AccountInfo): Promise<CreateProjectOptions | undefined> {
  // Name, visibility and description; administrators first choose whose project it is.
  let total = account.isAdmin ? 4 : 3;
  let step = 1;
  const title = (): string => `Create Project (${step++}/${total})`;
  let forUserId: number | undefined;
  if (account.isAdmin) {
    const whose = await pickOne(
      [
        { label: 'Create for myself', forOther: false },
        {
          label: 'Create for another user…',
          description: 'asks for the numeric user id',
          forOther: true,
        },
      ],
      { title: title(), placeHolder: `Whose project, on ${account.label}?` },
    );
    if (!whose) return undefined;
    if (whose.forOther) {
      total += 1;
      const typed = await askText({
        title: title(),
        prompt: 'Numeric id of the user who will own the project (the API has no user search)',
        ignoreFocusOut: true,
        validateInput: (value) => (parseId(value) === undefined ? 'A numeric user id, e.g. 42' : undefined),
      });
      if (typed === undefined) return undefined;
      forUserId = parseId(typed);
    }
  }
  const name = await askText({
    title: title(),
    prompt: `Name of the new project on ${account.label}`,
    ignoreFocusOut: true,
    validateInput: validateProjectName,
  });
  if (name === undefined) return undefined;
  const visibility = await pickOne(
    [
      { label: 'private', description: 'only members see it', visibility: 'private' as const },
      { label: 'internal', description: 'every signed-in user sees it', visibility: 'internal' as const },
      { label: 'public', description: 'everyone sees it', visibility: 'public' as const },
    ],
    { title: title(), placeHolder: 'Who can see the project?' },
  );
  if (!visibility) return undefined;
  const description = await askText({
    title: title(),
    prompt: 'Description (optional)',
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
  const project = await withProgress(`Creating ${name}…`, (signal) =>
    forUserId !== undefined
      ? client.createProjectForUser(forUserId, { name, visibility, description }, { signal })
      : client.createProject({ name, visibility, description }, { signal }),
  );
  services.afterAction(arg instanceof AccountNode ? arg : undefined);
  openInBrowserLater(`Created ${pathOf(project)}.`, project.web_url);
  return project;
}

// ---- edit -------------------------------------------------------------------------------------------

async function askEdit(client: HostingClient, project: Project): Promise<EditProjectOptions | undefined> {
  const path = pathOf(project);
  const field = await pickOne(
    [
      { label: 'Name', description: project.name ?? '', field: 'name' as const },
      {
        label: 'Description',
        description: project.description || '(none)',
        field: 'description' as const,
      },
      {
        label: 'Default branch',
        description: project.default_branch ?? '(none)',
        field: 'defaultBranch' as const,
      },
      { label: 'Visibility', description: project.visibility ?? '', field: 'visibility' as const },
    ],
    { title: `Edit ${path}`, placeHolder: 'What to change' },
  );
  if (!field) return undefined;
  switch (field.field) {
    case 'name': {
      const name = await askText({
        title: `Rename ${path}`,
        prompt: 'New name (the path in URLs stays the same)',
        value: project.name ?? '',
        validateInput: validateProjectName,
      });
      return name === undefined ? undefined : { name: name.trim() };
    }
    case 'description': {
      const description = await askText({
        title: `Description of ${path}`,
        prompt: 'Leave empty to remove the description',
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
            description: branch.name === project.default_branch ? 'current default' : undefined,
            name: branch.name,
          })),
        );
      const branch = await pickOne(branches, {
        title: `Default branch of ${path}`,
        placeHolder: 'The branch merge requests target and clones check out',
      });
      return branch ? { defaultBranch: branch.name } : undefined;
    }
    case 'visibility': {
      const visibility = await pickOne(
        VISIBILITIES.map((value) => ({
          label: value,
          description: value === project.visibility ? 'current' : undefined,
        })),
        { title: `Visibility of ${path}` },
      );
      return visibility && isVisibility(visibility.label) ? { visibility: visibility.label } : undefined;
    }
  }
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
  const current = await withProgress(
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
  const updated = await withProgress(`Updating ${pathOf(current)}…`, (signal) =>
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
  const fork = await withProgress(`Forking ${path} into ${String(into)}…`, (signal) =>
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
  const updated = await withProgress(`${archive ? 'Archiving' : 'Unarchiving'} ${path}…`, (signal) =>
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
  await withProgress(`Deleting ${path}…`, (signal) => client.deleteProject(target.project.id, { signal }));
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

// ---- members ------------------------------------------------------------------------------------------------

const MEMBER_PAGE = 50;
const SEARCH_DELAY_MS = 250;

async function fetchMembers(
  client: HostingClient,
  projectId: number,
  search: string | undefined,
  signal?: AbortSignal,
): Promise<ProjectMember[]> {
  const page = await client
    .listProjectUsers(projectId, search || undefined)
    .page({ perPage: MEMBER_PAGE, signal });
  return page.items;
}

interface MemberItem extends PickItem {
  member: ProjectMember;
}

function memberItems(members: readonly ProjectMember[]): MemberItem[] {
  return members.map((member) => ({
    label: memberLabel(member),
    detail: member.web_url === undefined || member.web_url === null ? undefined : member.web_url,
    member,
  }));
}

/** The members quick pick: the server searches as the user types; choosing one opens the profile. */
function showMembers(client: HostingClient, project: Project, log: vscode.LogOutputChannel): void {
  const pick = createSearchPick<MemberItem>({
    title: `Members of ${pathOf(project)}`,
    placeholder: 'Search by name or user name; choose one to open the profile',
  });
  let controller: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const load = (search: string): void => {
    controller?.abort();
    const current = new AbortController();
    controller = current;
    pick.setBusy(true);
    fetchMembers(client, project.id, search.trim(), current.signal).then(
      (members) => {
        if (controller !== current) return;
        pick.setItems(memberItems(members));
        pick.setBusy(false);
      },
      (error: unknown) => {
        if (controller !== current) return;
        pick.setBusy(false);
        if (current.signal.aborted) return;
        const message = error instanceof Error ? error.message : String(error);
        log.warn(`Members of ${pathOf(project)}: ${message}`);
        pick.setItems([]);
        pick.setPlaceholder(`Could not load the members: ${message}`);
      },
    );
  };
  pick.onDidChangeValue((value) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => load(value), SEARCH_DELAY_MS);
  });
  pick.onDidAccept((chosen) => {
    if (chosen) void openServerLink(chosen.member.web_url, `the profile of ${chosen.member.username}`);
    pick.hide();
  });
  pick.onDidHide(() => {
    if (timer) clearTimeout(timer);
    controller?.abort();
  });
  load('');
  pick.show();
}

async function listMembers(
  services: Services,
  arg: ProjectArgument,
  options: { search?: string },
): Promise<string[] | undefined> {
  const target = await projectTarget(services, arg, 'Project whose members to list');
  if (!target) return undefined;
  const client = await services.accounts.client(target.account.id);
  if (options.search !== undefined) {
    // Without a UI (tests, automation): the labels the quick pick would show.
    const members = await fetchMembers(client, target.project.id, options.search);
    return members.map(memberLabel);
  }
  showMembers(client, target.project, services.log);
  return undefined;
}

// ---- CI templates -----------------------------------------------------------------------------------------

async function workspaceFolderFor(
  folderName: string | undefined,
): Promise<vscode.WorkspaceFolder | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) {
    throw new Error(`Open a folder first: the template is written to ${CI_FILE_NAME} in a workspace folder.`);
  }
  if (folderName !== undefined) {
    const named = folders.find((folder) => folder.name === folderName);
    if (!named) throw new Error(`No workspace folder is named "${folderName}".`);
    return named;
  }
  const [only] = folders;
  if (folders.length === 1) return only;
  return vscode.window.showWorkspaceFolderPick({ placeHolder: `Where to write ${CI_FILE_NAME}?` });
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch (error) {
    if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') return false;
    throw error;
  }
}

type CiTemplateResult = { file: string; written: boolean };

async function insertCiTemplate(
  services: Services,
  arg: AccountNode | ProjectNode | CiTemplateOptions | undefined,
  given: CiTemplateOptions | undefined,
): Promise<CiTemplateResult | undefined> {
  // Options may come first (palette automation) or after a row.
  const row = arg instanceof AccountNode || arg instanceof ProjectNode ? arg : undefined;
  const options: CiTemplateOptions = { ...(row ? {} : arg), ...given };
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) {
    throw new Error(`Open a folder first: the template is written to ${CI_FILE_NAME} in a workspace folder.`);
  }
  const account = row
    ? row.account
    : await pickAccount(
        services.accounts,
        'Load templates from which account?',
        () => true,
        options.accountId,
      );
  if (!account) return undefined;
  const client = await services.accounts.client(account.id);

  let key = options.template;
  if (key === undefined) {
    const templates = client
      .listCiTemplates()
      .page({ perPage: 100 })
      .then((page) =>
        page.items.map((template) => ({
          label: template.name,
          description: template.key && template.key !== template.name ? template.key : undefined,
          key: templateKey(template),
        })),
      );
    const picked = await pickOne(templates, {
      title: 'Insert CI Template',
      placeHolder: `A template for ${CI_FILE_NAME}`,
      matchOnDescription: true,
    });
    if (!picked) return undefined;
    key = picked.key;
  }

  const folder = await workspaceFolderFor(options.folder);
  if (!folder) return undefined;
  const file = vscode.Uri.joinPath(folder.uri, CI_FILE_NAME);
  if (await exists(file)) {
    let choice: string | undefined;
    if (options.replace === true) choice = 'Replace';
    else if (options.replace === false) choice = 'Open Existing';
    else {
      choice = await showWarning(
        `Replace ${CI_FILE_NAME}?`,
        {
          modal: true,
          detail: `${folder.name} already has a ${CI_FILE_NAME}. Replacing it loses its content.`,
        },
        'Replace',
        'Open Existing',
      );
    }
    if (choice === 'Open Existing') {
      await vscode.window.showTextDocument(file, { preview: false });
      return { file: file.toString(), written: false };
    }
    if (choice !== 'Replace') return undefined;
  }

  const templateName = key;
  const template = await withProgress(
    `Fetching the ${templateName} template…`,
    (signal) => client.getCiTemplate(templateName, { signal }),
    true,
  );
  await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(template.content));
  await vscode.window.showTextDocument(file, { preview: false });
  showStatusMessage(`Wrote the ${template.name} template to ${CI_FILE_NAME}`, 4000);
  return { file: file.toString(), written: true };
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
