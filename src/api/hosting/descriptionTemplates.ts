/**
 * The description templates of a project, as GitLab's forms offer them: the Markdown files of
 * `.gitlab/merge_request_templates/` (or `issue_templates/`) on the default branch, read through the
 * repository API, and a project's own default description where the server has one
 * (`merge_requests_template` / `issues_template`, Premium). A server or project without them has none.
 */
import { NotFoundError } from '../http';
import type { HostingClient } from './client';
import type { Project } from './schemas';

export type TemplateKind = 'merge_request' | 'issue';

export interface DescriptionTemplate {
  /** The file's name without `.md`; the project's default has `isProjectDefault`. */
  name: string;
  text: string;
  isProjectDefault?: true;
}

/** Templates read at most: a folder of hundreds is not a list to pick from. */
export const MAX_TEMPLATES = 50;

const FOLDER: Record<TemplateKind, string> = {
  merge_request: '.gitlab/merge_request_templates',
  issue: '.gitlab/issue_templates',
};

/** GitLab's web form puts "Default" first; then by name. */
function byName(a: DescriptionTemplate, b: DescriptionTemplate): number {
  if (a.name === 'Default' || b.name === 'Default') return a.name === 'Default' ? -1 : 1;
  return a.name.localeCompare(b.name);
}

export async function readDescriptionTemplates(
  client: HostingClient,
  project: Project,
  kind: TemplateKind,
  signal?: AbortSignal,
): Promise<DescriptionTemplate[]> {
  const ref = project.default_branch ?? undefined;
  const entries = await client
    .listRepositoryTree(project.id, FOLDER[kind], ref)
    .toArray({ signal })
    .catch((error: unknown) => {
      if (error instanceof NotFoundError) return [];
      throw error;
    });
  const files = entries
    .filter((entry) => entry.type === 'blob' && entry.name.toLowerCase().endsWith('.md'))
    .slice(0, MAX_TEMPLATES);
  const decoder = new TextDecoder('utf-8');
  const templates: DescriptionTemplate[] = [];
  // One after the other: a handful of small files, and no burst against the server.
  for (const file of files) {
    const bytes = await client.getRawFile(project.id, file.path, ref ?? 'HEAD', { signal });
    templates.push({ name: file.name.slice(0, -'.md'.length), text: decoder.decode(bytes) });
  }
  templates.sort(byName);
  const own = (project as Record<string, unknown>)[
    kind === 'issue' ? 'issues_template' : 'merge_requests_template'
  ];
  if (typeof own === 'string' && own.trim() !== '')
    templates.unshift({ name: own.split('\n')[0]?.slice(0, 60) ?? '', text: own, isProjectDefault: true });
  return templates;
}
