import type * as vscode from 'vscode';
import * as z from 'zod';
import * as l10n from '@vscode/l10n';

/** Which projects the Projects view lists for an account. */
export const ProjectFilterSchema = z.strictObject({
  scope: z.enum(['membership', 'starred', 'owned', 'all']),
  search: z.string().max(255).optional(),
});
export type ProjectFilter = z.output<typeof ProjectFilterSchema>;

export const DEFAULT_PROJECT_FILTER: ProjectFilter = { scope: 'membership' };

const SCOPE_LABELS: Record<ProjectFilter['scope'], string> = {
  membership: 'my projects',
  starred: 'starred',
  owned: l10n.t('owned by me'),
  all: 'all visible',
};

export function describeProjectFilter(filter: ProjectFilter): string {
  return filter.search ? `${SCOPE_LABELS[filter.scope]}, "${filter.search}"` : SCOPE_LABELS[filter.scope];
}

/** Remembers each account's filter across restarts. */
export class ProjectFilterStore {
  constructor(private readonly memento: vscode.Memento) {}

  get(accountId: string): ProjectFilter {
    return this.memento.get<ProjectFilter>(`forge.projectFilter.${accountId}`, DEFAULT_PROJECT_FILTER);
  }

  set(accountId: string, filter: ProjectFilter): Thenable<void> {
    return this.memento.update(`forge.projectFilter.${accountId}`, filter);
  }
}
