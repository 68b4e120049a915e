/**
 * A commit's diff, a comparison of two refs and a folder of the repository, beyond the seed spec,
 * as GitLab answers them: the diff of a commit is against its first parent (a page at a time); a
 * comparison goes through the merge base unless `straight=true`, lists the commits oldest first and
 * each file's hunks; the tree lists a folder's entries (404 "Tree Not Found" for a missing folder).
 */
import { createHash } from 'node:crypto';
import type { Handler, RequestContext } from '../context';
import { errors, type ApiResponse } from '../http';
import { hunksBetween, treeAt } from '../repositoryFiles';
import type { Router } from '../router';
import type { Project } from '../state';

export function registerRepositoryRoutes(router: Router<Handler>): void {
  router.get('/projects/:id/repository/commits/:sha/diff', commitDiff, { public: true });
  router.get('/projects/:id/repository/compare', compare, { public: true });
  router.get('/projects/:id/repository/tree', tree, { public: true });
}

function resolveRef(ctx: RequestContext, project: Project, ref: string | undefined): string {
  const name = ref === undefined || ref === '' ? project.defaultBranch : ref;
  const sha = project.branches.get(name)?.commitSha ?? (ctx.state.commits.has(name) ? name : undefined);
  if (sha === undefined) throw errors.notFound('Commit');
  return sha;
}

/** Every file that differs between two commits' trees, as GitLab's diff entries. */
export function diffsBetween(ctx: RequestContext, fromSha: string | undefined, toSha: string): unknown[] {
  const none: ReadonlyMap<string, string> = new Map();
  const before = (fromSha === undefined ? undefined : treeAt(ctx.state, fromSha)) ?? none;
  const after = treeAt(ctx.state, toSha) ?? none;
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
  return paths.flatMap((path) => {
    const old = before.get(path);
    const now = after.get(path);
    if (old === now) return [];
    return [
      {
        old_path: path,
        new_path: path,
        a_mode: old === undefined ? '0' : '100644',
        b_mode: now === undefined ? '0' : '100644',
        diff: hunksBetween(old ?? '', now ?? ''),
        new_file: old === undefined,
        renamed_file: false,
        deleted_file: now === undefined,
      },
    ];
  });
}

function commitDiff(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const sha = resolveRef(ctx, project, ctx.pathString('sha'));
  const commit = ctx.state.commits.get(sha);
  if (!commit) throw errors.notFound('Commit');
  return ctx.list(diffsBetween(ctx, commit.parentIds[0], sha), (each) => each);
}

/** The newest commit reachable from both (GitLab's merge base). */
function mergeBase(ctx: RequestContext, a: string, b: string): string | undefined {
  const fromA = ctx.state.ancestry(a);
  const queue = [b];
  const seen = new Set<string>();
  let best: { sha: string; at: string } | undefined;
  while (queue.length > 0) {
    const sha = queue.shift() as string;
    if (seen.has(sha)) continue;
    seen.add(sha);
    const commit = ctx.state.commits.get(sha);
    if (fromA.has(sha)) {
      const at = commit?.committedDate ?? '';
      if (!best || at > best.at) best = { sha, at };
      continue;
    }
    queue.push(...(commit?.parentIds ?? []));
  }
  return best?.sha;
}

function compare(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const from = ctx.params.string('from');
  const to = ctx.params.string('to');
  if (!from || !to) throw errors.badRequest('from, to are missing');
  const fromSha = resolveRef(ctx, project, from);
  const toSha = resolveRef(ctx, project, to);
  const straight = ctx.params.string('straight') === 'true';
  const base = straight ? fromSha : (mergeBase(ctx, fromSha, toSha) ?? fromSha);
  const commits = ctx.state
    .commitsBetween(fromSha, toSha)
    .reverse()
    .map((commit) => ctx.present.mergeRequestCommit(commit));
  return {
    status: 200,
    json: {
      commit: commits.at(-1) ?? null,
      commits,
      diffs: diffsBetween(ctx, base, toSha),
      compare_timeout: false,
      compare_same_ref: fromSha === toSha,
      web_url: `${ctx.state.webOrigin}/${ctx.state.pathWithNamespace(project)}/-/compare/${fromSha}...${toSha}`,
    },
  };
}

function tree(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const sha = resolveRef(ctx, project, ctx.params.string('ref'));
  const folder = (ctx.params.string('path') ?? '').replace(/^\/+|\/+$/g, '');
  const prefix = folder === '' ? '' : `${folder}/`;
  const entries = new Map<string, { type: 'tree' | 'blob'; path: string }>();
  for (const path of (treeAt(ctx.state, sha) ?? new Map<string, string>()).keys()) {
    if (!path.startsWith(prefix)) continue;
    const [name, ...rest] = path.slice(prefix.length).split('/');
    if (!name) continue;
    entries.set(name, { type: rest.length > 0 ? 'tree' : 'blob', path: `${prefix}${name}` });
  }
  if (entries.size === 0 && folder !== '') throw errors.notFound('Tree');
  const listed = [...entries].map(([name, entry]) => ({
    id: createHash('sha1').update(`${sha}:${entry.path}`).digest('hex'),
    name,
    type: entry.type,
    path: entry.path,
    mode: entry.type === 'tree' ? '040000' : '100644',
  }));
  return ctx.list(listed, (each) => each);
}
