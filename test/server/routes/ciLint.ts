/**
 * Beyond the seed spec: GitLab's CI lint of a project (doc/api/lint.md, GitLab 13.5 and later). It
 * answers GitLab's sentences as the fake's pipelines do (`../ciConfig.ts`), a `Local file ... does
 * not exist!` for an `include: local` the project lacks, and `merged_yaml` with those includes
 * merged in. GUESSED (not in the documented answers): `includes` entries as GitLab 15+ lists them
 * (`type`, `location`, `blob`, `raw`, `context_project`, `context_sha`), and that a Guest is refused
 * (403) as for creating a pipeline.
 */
import { stringify } from 'yaml';
import { planPipeline, readCiYaml, scalar } from '../ciConfig';
import type { Handler, RequestContext } from '../context';
import { errors, ok, type ApiResponse } from '../http';
import { treeAt } from '../repositoryFiles';
import type { Router } from '../router';
import { ACCESS, type Project } from '../state';

type Json = Record<string, unknown>;
const CI_FILE = '.gitlab-ci.yml';

export function registerCiLintRoutes(router: Router<Handler>): void {
  router.post('/projects/:id/ci/lint', lintContent);
  router.get('/projects/:id/ci/lint', lintCommitted);
  router.get('/projects/:id/variables', listProjectVariables);
}

/**
 * A project's CI/CD variables (doc/api/project_level_variables.md): Maintainer and up, else 403; a
 * hidden variable's value is `null` (GitLab 17.4+).
 */
function listProjectVariables(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  ctx.requireAccess(project, ACCESS.maintainer);
  return ctx.list(project.ciVariables ?? [], (variable) => ({
    variable_type: 'env_var',
    key: variable.key,
    value: variable.hidden ? null : variable.value,
    protected: variable.protected,
    masked: variable.masked,
    hidden: variable.hidden,
    raw: false,
    environment_scope: variable.environmentScope,
    description: variable.description,
  }));
}

/** The local files `include:` names (a string, `local:`, or a list of either). */
function localIncludes(include: unknown): string[] {
  const entries = Array.isArray(include) ? include : include === undefined ? [] : [include];
  return entries.flatMap((entry: unknown) => {
    if (typeof entry === 'string') return /^https?:/.test(entry) ? [] : [entry.replace(/^\//, '')];
    if (typeof entry === 'object' && entry !== null && 'local' in entry)
      return [scalar(entry.local).replace(/^\//, '')];
    return [];
  });
}

function lint(ctx: RequestContext, project: Project, content: string, sha: string): Json {
  const files = treeAt(ctx.state, sha) ?? new Map<string, string>();
  const read = readCiYaml(content);
  const problems: string[] = [];
  let merged: Json = {};
  const includes: Json[] = [];
  if ('error' in read) problems.push(read.error);
  else if (typeof read.yaml === 'object' && read.yaml !== null && !Array.isArray(read.yaml)) {
    const config = read.yaml as Json;
    const web = String(ctx.present.project(project, 'simple')['web_url']);
    for (const path of localIncludes(config['include'])) {
      const text = files.get(path);
      if (text === undefined) {
        problems.push(`Local file \`${path}\` does not exist!`);
        continue;
      }
      const included = readCiYaml(text);
      if ('error' in included || typeof included.yaml !== 'object' || included.yaml === null) {
        problems.push(`Included file \`${path}\` does not have valid YAML syntax!`);
        continue;
      }
      merged = { ...merged, ...(included.yaml as Json) };
      includes.push({
        type: 'local',
        location: path,
        blob: `${web}/-/blob/${sha}/${path}`,
        raw: `${web}/-/raw/${sha}/${path}`,
        extra: {},
        context_project: ctx.state.pathWithNamespace(project),
        context_sha: sha,
      });
    }
    const { include: _include, ...own } = config;
    merged = { ...merged, ...own };
  }
  if (problems.length === 0) {
    const planned = planPipeline(stringify(merged), {
      CI_PIPELINE_SOURCE: 'push',
      CI_COMMIT_REF_NAME: project.defaultBranch,
      CI_COMMIT_BRANCH: project.defaultBranch,
      CI_DEFAULT_BRANCH: project.defaultBranch,
    });
    if ('errors' in planned) problems.push(...planned.errors);
  }
  return {
    valid: problems.length === 0,
    errors: problems,
    warnings: [],
    merged_yaml: problems.length === 0 || Object.keys(merged).length > 0 ? stringify(merged) : null,
    includes,
  };
}

function lintContent(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  ctx.requireWrite(project);
  ctx.params.require('content');
  const content = ctx.params.string('content') ?? '';
  const branch = project.branches.get(project.defaultBranch);
  return ok(lint(ctx, project, content, branch?.commitSha ?? ''));
}

function lintCommitted(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  ctx.requireWrite(project);
  const ref = ctx.params.string('content_ref') ?? ctx.params.string('ref') ?? project.defaultBranch;
  const sha = project.branches.get(ref)?.commitSha ?? ref;
  const content = treeAt(ctx.state, sha)?.get(CI_FILE);
  if (content === undefined) throw errors.notFound('File');
  return ok(lint(ctx, project, content, sha));
}
