import type { Handler, RequestContext } from '../context';
import { alreadyDeleted, created, errors, noContent, ok, type ApiResponse } from '../http';
import type { Router } from '../router';
import { ACCESS, type Branch, type Project } from '../state';

const PUBLIC = { public: true };

export function registerBranchRoutes(router: Router<Handler>): void {
  router.get('/projects/:id/repository/branches', listBranches, PUBLIC);
  router.get('/projects/:id/repository/branches/:branch', getBranch, PUBLIC);
  router.put('/projects/:id/repository/branches/:branch/protect', protectBranch);
  router.put('/projects/:id/repository/branches/:branch/unprotect', unprotectBranch);
  router.post('/projects/:id/repository/branches', createBranch);
  router.delete('/projects/:id/repository/branches/:branch', deleteBranch);
  router.delete('/projects/:id/repository/merged_branches', deleteMergedBranches);
}

function findBranch(ctx: RequestContext, project: Project): Branch {
  const branch = project.branches.get(ctx.pathString('branch'));
  if (!branch) throw errors.notFound('Branch');
  return branch;
}

/** Sorted by name ascending. */
function listBranches(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const search = ctx.params.string('search')?.toLowerCase();
  const branches = [...project.branches.values()]
    .filter((branch) => !search || branch.name.toLowerCase().includes(search))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return ctx.list(branches, (branch) => ctx.present.branch(project, branch));
}

function getBranch(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  return ok(ctx.present.branch(project, findBranch(ctx, project)));
}

/** Idempotent: 200 whether or not it was protected; the flags come from the parameters (default false). */
function protectBranch(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  ctx.requireWrite(project, ACCESS.maintainer);
  const branch = findBranch(ctx, project);
  branch.protected = true;
  branch.developersCanPush = ctx.params.boolean('developers_can_push') ?? false;
  branch.developersCanMerge = ctx.params.boolean('developers_can_merge') ?? false;
  return ok(ctx.present.branch(project, branch));
}

function unprotectBranch(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  ctx.requireWrite(project, ACCESS.maintainer);
  const branch = findBranch(ctx, project);
  branch.protected = false;
  branch.developersCanPush = false;
  branch.developersCanMerge = false;
  return ok(ctx.present.branch(project, branch));
}

/** Git's rules for ref names, simplified. */
function isValidBranchName(name: string): boolean {
  if (name.length === 0 || name.startsWith('-') || name.startsWith('/') || name.endsWith('/')) return false;
  if (
    name.endsWith('.') ||
    name.endsWith('.lock') ||
    name.includes('..') ||
    name.includes('//') ||
    name.includes('@{')
  )
    return false;
  if ([...name].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) return false;
  return !/[\s~^:?*[\\]/.test(name);
}

/** A branch name, a full sha or an unambiguous sha prefix (at least 7 characters). */
function resolveRef(ctx: RequestContext, project: Project, ref: string): string | undefined {
  const branch = project.branches.get(ref);
  if (branch) return branch.commitSha;
  if (!/^[0-9a-f]{7,40}$/i.test(ref)) return undefined;
  const lower = ref.toLowerCase();
  const reachable = new Set<string>();
  for (const head of project.branches.values())
    for (const sha of ctx.state.ancestry(head.commitSha)) reachable.add(sha);
  const matches = [...reachable].filter((sha) => sha.startsWith(lower));
  return matches.length === 1 ? matches[0] : undefined;
}

/** An existing branch is 400 `{"message":"Branch already exists"}`, as real servers answer. */
function createBranch(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const caller = ctx.requireWrite(project);
  ctx.params.require('branch', 'ref');
  const name = ctx.params.string('branch') as string;
  const ref = ctx.params.string('ref') as string;
  if (!isValidBranchName(name)) throw errors.badRequest('Branch name is invalid');
  if (project.branches.has(name)) throw errors.badRequest('Branch already exists');
  const sha = resolveRef(ctx, project, ref);
  if (!sha) throw errors.badRequest(`Invalid reference name: ${ref}`);
  const branch: Branch = {
    name,
    commitSha: sha,
    protected: false,
    developersCanPush: false,
    developersCanMerge: false,
  };
  project.branches.set(name, branch);
  ctx.state.addEvent({
    projectId: project.id,
    actionName: 'pushed new',
    authorId: caller.id,
    targetType: null,
    targetId: null,
    targetTitle: null,
    push: { before: '0'.repeat(40), after: sha, ref: name, commitShas: [] },
  });
  return created(ctx.present.branch(project, branch));
}

/**
 * 204 when deleted; 200 when there was no such branch (idempotent DELETE). The default branch cannot be
 * deleted (405 with the real server's message); a protected one needs a maintainer.
 */
function deleteBranch(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const caller = ctx.requireWrite(project);
  const name = ctx.pathString('branch');
  const branch = project.branches.get(name);
  if (!branch) return alreadyDeleted();
  if (name === project.defaultBranch)
    throw errors.status(405, 'The default branch of a project cannot be deleted.');
  if (branch.protected && ctx.accessLevel(project) < ACCESS.maintainer) throw errors.forbidden();
  project.branches.delete(name);
  ctx.state.addEvent({
    projectId: project.id,
    actionName: 'deleted',
    authorId: caller.id,
    targetType: null,
    targetId: null,
    targetTitle: null,
    push: { before: branch.commitSha, after: '0'.repeat(40), ref: name, commitShas: [] },
  });
  return noContent();
}

/** Every unprotected branch merged into the default branch; 202 like real servers. */
function deleteMergedBranches(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  ctx.requireWrite(project);
  const head = project.branches.get(project.defaultBranch);
  const ancestry = head ? ctx.state.ancestry(head.commitSha) : new Set<string>();
  for (const branch of [...project.branches.values()]) {
    if (!branch.protected && ctx.state.isBranchMerged(project, branch, ancestry))
      project.branches.delete(branch.name);
  }
  return { status: 202, json: { message: '202 Accepted' } };
}
