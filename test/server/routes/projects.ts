import type { Handler, RequestContext } from '../context';
import { alreadyDeleted, created, errors, ok, notModified, type ApiResponse, type Params } from '../http';
import type { Router } from '../router';
import {
  ACCESS,
  BOOLEAN_PROJECT_SETTINGS,
  VISIBILITIES,
  defaultProjectSettings,
  type ForgeState,
  type Namespace,
  type Project,
  type User,
  type Visibility,
} from '../state';

const PUBLIC = { public: true };
const ORDER_FIELDS = ['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at'] as const;
type OrderField = (typeof ORDER_FIELDS)[number];

export function registerProjectRoutes(router: Router<Handler>): void {
  router.get('/projects', listProjects, PUBLIC);
  router.get('/projects/:id', getProject, PUBLIC);
  router.get('/projects/:id/users', listProjectUsers, PUBLIC);
  router.get('/projects/:id/events', listProjectEvents, PUBLIC);
  router.post('/projects', createProject);
  router.post('/projects/user/:user_id', createProjectForUser);
  router.put('/projects/:id', updateProject);
  router.post('/projects/:id/fork', forkProject);
  router.post('/projects/:id/star', starProject);
  router.post('/projects/:id/unstar', unstarProject);
  router.post('/projects/:id/archive', archiveProject);
  router.post('/projects/:id/unarchive', unarchiveProject);
  router.delete('/projects/:id', deleteProject);
}

function listProjects(ctx: RequestContext): ApiResponse {
  const { state, params, caller } = ctx;
  let projects = [...state.projects.values()].filter((project) => state.canReadProject(project, caller));

  const archived = params.boolean('archived');
  if (archived !== undefined) projects = projects.filter((project) => project.archived === archived);
  const visibility = params.oneOf('visibility', VISIBILITIES);
  if (visibility) projects = projects.filter((project) => project.visibility === visibility);
  const search = params.string('search')?.toLowerCase();
  if (search) {
    projects = projects.filter(
      (project) =>
        project.name.toLowerCase().includes(search) ||
        project.path.toLowerCase().includes(search) ||
        (project.description ?? '').toLowerCase().includes(search),
    );
  }
  if (params.boolean('owned')) {
    projects = projects.filter(
      (project) => caller !== undefined && state.accessLevel(project, caller) >= ACCESS.owner,
    );
  }
  if (params.boolean('membership')) {
    projects = projects.filter((project) => state.accessLevel(project, caller) > ACCESS.none);
  }
  if (params.boolean('starred')) {
    projects = projects.filter((project) => caller !== undefined && project.starredBy.has(caller.id));
  }

  const orderBy: OrderField = params.oneOf('order_by', ORDER_FIELDS) ?? 'created_at';
  const direction = (params.oneOf('sort', ['asc', 'desc'] as const) ?? 'desc') === 'asc' ? 1 : -1;
  const key = (project: Project): string | number => {
    switch (orderBy) {
      case 'id':
        return project.id;
      case 'name':
        return project.name.toLowerCase();
      case 'path':
        return project.path.toLowerCase();
      case 'created_at':
        return project.createdAt;
      case 'updated_at':
      case 'last_activity_at':
        return project.lastActivityAt;
    }
  };
  projects.sort((a, b) => {
    const left = key(a);
    const right = key(b);
    const order = left < right ? -1 : left > right ? 1 : a.id - b.id;
    return order * direction;
  });

  const shape = params.boolean('simple') ? 'simple' : 'list';
  return ctx.list(projects, (project) => ctx.present.project(project, shape));
}

function getProject(ctx: RequestContext): ApiResponse {
  return ok(ctx.present.project(ctx.project(), 'full'));
}

function listProjectUsers(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const search = ctx.params.string('search')?.toLowerCase();
  const users = [...ctx.state.users.values()]
    .filter((user) => ctx.state.accessLevel(project, user) > ACCESS.none)
    .filter(
      (user) =>
        !search || user.username.toLowerCase().includes(search) || user.name.toLowerCase().includes(search),
    )
    .sort((a, b) => a.id - b.id);
  return ctx.list(users, (user) => ctx.present.projectMember(user));
}

function listProjectEvents(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const events = [...ctx.state.events.values()]
    .filter((event) => event.projectId === project.id)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
  return ctx.list(events, (event) => ctx.present.event(event));
}

// ---- creation ------------------------------------------------------------------------------------

function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9_.]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const PATH_PATTERN = /^[a-zA-Z0-9_.][a-zA-Z0-9_.-]*$/;

/** 400 validation errors for a bad path or a name/path already used in the namespace. */
function validateNameAndPath(
  state: ForgeState,
  namespace: Namespace,
  name: string,
  path: string,
  except?: Project,
): void {
  const problems: Record<string, string[]> = {};
  if (!PATH_PATTERN.test(path) || path.endsWith('.git') || path.endsWith('.atom')) {
    problems['path'] = [
      "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'",
    ];
  }
  for (const other of state.projects.values()) {
    if (other === except || other.namespaceId !== namespace.id) continue;
    if (other.name.toLowerCase() === name.toLowerCase()) problems['name'] = ['has already been taken'];
    if (other.path.toLowerCase() === path.toLowerCase()) problems['path'] = ['has already been taken'];
  }
  if (Object.keys(problems).length > 0) throw errors.validation(problems);
}

/** Common settings of create and edit. */
function applySettings(project: Project, params: Params): void {
  for (const name of BOOLEAN_PROJECT_SETTINGS) {
    const value = params.boolean(name);
    if (value !== undefined) project.settings[name] = value;
  }
  const visibility = params.oneOf('visibility', VISIBILITIES);
  if (visibility) project.visibility = visibility;
  if (params.has('description')) project.description = params.string('description') ?? null;
  if (params.has('import_url')) project.importUrl = params.string('import_url') ?? null;
  const tags = params.stringArray('tag_list') ?? params.stringArray('topics');
  if (tags)
    project.tagList = tags
      .flatMap((tag) => tag.split(','))
      .map((tag) => tag.trim())
      .filter(Boolean);
}

interface NewProjectInput {
  name: string;
  path: string;
  namespace: Namespace;
  creator: User;
  defaultBranch: string;
  visibility: Visibility;
}

/** A project with one commit (a README) on its default branch. */
export function newProject(state: ForgeState, input: NewProjectInput): Project {
  const now = state.now();
  const sha = state.addCommit({
    parentIds: [],
    title: 'Initial commit',
    message: 'Initial commit\n',
    by: input.creator,
    at: now,
    changes: [
      {
        oldPath: 'README.md',
        newPath: 'README.md',
        aMode: '0',
        bMode: '100644',
        diff: `--- /dev/null\n+++ b/README.md\n@@ -0,0 +1 @@\n+# ${input.name}\n`,
        newFile: true,
        renamedFile: false,
        deletedFile: false,
      },
    ],
  });
  const project: Project = {
    id: state.nextId('project'),
    name: input.name,
    path: input.path,
    namespaceId: input.namespace.id,
    description: null,
    defaultBranch: input.defaultBranch,
    visibility: input.visibility,
    tagList: [],
    creatorId: input.creator.id,
    createdAt: now,
    lastActivityAt: now,
    archived: false,
    settings: defaultProjectSettings(),
    importUrl: null,
    runnersToken: `GR1348941${state.random.alphanumeric(20)}`,
    avatarUrl: null,
    starredBy: new Set(),
    members: new Map(),
    forkedFromId: null,
    forksCount: 0,
    sharedWithGroups: [],
    branches: new Map([
      [
        input.defaultBranch,
        {
          name: input.defaultBranch,
          commitSha: sha,
          protected: true,
          developersCanPush: false,
          developersCanMerge: false,
        },
      ],
    ]),
  };
  if (input.namespace.kind === 'group' && state.accessLevel(project, input.creator) < ACCESS.maintainer) {
    project.members.set(input.creator.id, ACCESS.maintainer);
  }
  state.projects.set(project.id, project);
  state.addEvent({
    projectId: project.id,
    actionName: 'created',
    authorId: input.creator.id,
    targetType: null,
    targetId: null,
    targetTitle: null,
  });
  return project;
}

function namespaceForCreation(ctx: RequestContext, owner: User): Namespace {
  const namespaceId = ctx.params.integer('namespace_id');
  const namespace = ctx.state.namespaces.get(namespaceId ?? owner.namespaceId);
  if (!namespace) throw errors.notFound('Namespace');
  if (!ctx.state.canCreateIn(namespace, ctx.requireCaller()))
    throw errors.validation({ namespace: ['is not valid'] });
  return namespace;
}

function createFromParams(ctx: RequestContext, owner: User, defaultBranch: string): Project {
  const { params } = ctx;
  // The callers have checked that name or path is present.
  const name = params.string('name') ?? params.string('path') ?? '';
  const path = params.string('path') ?? slugify(name);
  const namespace = namespaceForCreation(ctx, owner);
  validateNameAndPath(ctx.state, namespace, name, path);
  const project = newProject(ctx.state, {
    name,
    path,
    namespace,
    creator: ctx.requireCaller(),
    defaultBranch,
    visibility: params.oneOf('visibility', VISIBILITIES) ?? 'private',
  });
  applySettings(project, params);
  return project;
}

function createProject(ctx: RequestContext): ApiResponse {
  const caller = ctx.requireCaller();
  ctx.params.requireOneOf('name', 'path');
  const project = createFromParams(ctx, caller, ctx.params.string('default_branch') ?? 'master');
  return created(ctx.present.project(project, 'full'));
}

function createProjectForUser(ctx: RequestContext): ApiResponse {
  ctx.requireAdmin();
  const owner = ctx.state.users.get(ctx.pathInt('user_id'));
  if (!owner) throw errors.notFound('User');
  ctx.params.require('name');
  const project = createFromParams(ctx, owner, ctx.params.string('default_branch') ?? 'master');
  return created(ctx.present.project(project, 'full'));
}

/** The spec makes `name` required here (real servers want at least one attribute). */
function updateProject(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  ctx.requireAccess(project, ACCESS.maintainer);
  ctx.params.require('name');
  const name = ctx.params.string('name') as string;
  const path = ctx.params.string('path') ?? project.path;
  validateNameAndPath(ctx.state, ctx.state.namespaceOf(project), name, path, project);
  const defaultBranch = ctx.params.string('default_branch');
  if (defaultBranch !== undefined && !project.branches.has(defaultBranch)) {
    throw errors.validation({
      default_branch: [`Could not change HEAD: branch '${defaultBranch}' does not exist`],
    });
  }
  project.name = name;
  project.path = path;
  if (defaultBranch !== undefined) project.defaultBranch = defaultBranch;
  applySettings(project, ctx.params);
  project.lastActivityAt = ctx.state.now();
  return ok(ctx.present.project(project, 'full'));
}

/** A name clash in the target namespace is 409 with the validation errors, as real servers answer. */
function forkProject(ctx: RequestContext): ApiResponse {
  const source = ctx.project();
  const caller = ctx.requireCaller();
  const reference =
    ctx.params.string('namespace') ??
    ctx.params.string('namespace_id') ??
    ctx.params.string('namespace_path');
  if (reference === undefined) throw errors.badParameter('namespace is missing');
  const namespace = ctx.state.findNamespace(reference);
  if (!namespace || !ctx.state.canCreateIn(namespace, caller)) throw errors.notFound('Target Namespace');
  try {
    validateNameAndPath(ctx.state, namespace, source.name, source.path);
  } catch {
    throw errors.conflict({ name: ['has already been taken'], path: ['has already been taken'] });
  }
  const fork = newProject(ctx.state, {
    name: source.name,
    path: source.path,
    namespace,
    creator: caller,
    defaultBranch: source.defaultBranch,
    visibility: source.visibility,
  });
  fork.description = source.description;
  fork.settings = { ...source.settings };
  fork.tagList = [...source.tagList];
  fork.forkedFromId = source.id;
  fork.branches = new Map([...source.branches].map(([name, branch]) => [name, { ...branch }]));
  source.forksCount += 1;
  return created(ctx.present.project(fork, 'full'));
}

function starProject(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const caller = ctx.requireCaller();
  if (project.starredBy.has(caller.id)) return notModified();
  project.starredBy.add(caller.id);
  return ok(ctx.present.project(project, 'starred'));
}

function unstarProject(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const caller = ctx.requireCaller();
  if (!project.starredBy.has(caller.id)) return notModified();
  project.starredBy.delete(caller.id);
  return ok(ctx.present.project(project, 'starred'));
}

function setArchived(ctx: RequestContext, archived: boolean): ApiResponse {
  const project = ctx.project();
  ctx.requireOwner(project);
  project.archived = archived;
  return ok(ctx.present.project(project, 'full'));
}

function archiveProject(ctx: RequestContext): ApiResponse {
  return setArchived(ctx, true);
}

function unarchiveProject(ctx: RequestContext): ApiResponse {
  return setArchived(ctx, false);
}

/**
 * 202 `{"message":"202 Accepted"}` like real servers. A project that does not exist, or that the caller
 * cannot see (so as not to reveal it), answers 200: DELETE is idempotent per the spec.
 */
function deleteProject(ctx: RequestContext): ApiResponse {
  const project = ctx.state.findProject(ctx.pathString('id'));
  if (!project || !ctx.state.canReadProject(project, ctx.caller)) return alreadyDeleted();
  ctx.requireOwner(project);
  ctx.state.deleteProject(project.id);
  return { status: 202, json: { message: '202 Accepted' } };
}
