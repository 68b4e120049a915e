/**
 * A file's bytes at a branch, tag or commit (`GET .../repository/files/:file_path/raw?ref=`), beyond
 * the seed spec. As GitLab: the path is one URL-encoded segment, `ref` is required (400 without it),
 * an unknown ref is "404 Commit Not Found" and a path not in that commit "404 File Not Found";
 * `HEAD` is the default branch's head, as in git (GitLab's documentation names it for that).
 */
import type { Handler, RequestContext } from '../context';
import { errors, type ApiResponse } from '../http';
import { treeAt } from '../repositoryFiles';
import type { Router } from '../router';

export function registerRepositoryFileRoutes(router: Router<Handler>): void {
  router.get('/projects/:id/repository/files/:file_path/raw', getRawFile, { public: true });
}

function getRawFile(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const ref = ctx.params.string('ref');
  if (ref === undefined || ref === '') throw errors.badRequest('ref is missing');
  const name = ref === 'HEAD' ? project.defaultBranch : ref;
  const sha = project.branches.get(name)?.commitSha ?? (ctx.state.commits.has(name) ? name : undefined);
  const tree = sha === undefined ? undefined : treeAt(ctx.state, sha);
  if (!tree) throw errors.notFound('Commit');
  const text = tree.get(ctx.pathString('file_path'));
  if (text === undefined) throw errors.notFound('File');
  return { status: 200, body: Buffer.from(text, 'utf8'), contentType: 'text/plain; charset=utf-8' };
}
