import * as vscode from 'vscode';
import type { Issue } from '../../api/hosting';
import type { AccountInfo } from '../../platform/accounts';

/** An issue as the panel and the commands know it: where it lives and what it was when picked. */
export interface IssueTarget {
  account: AccountInfo;
  projectId: number;
  /** `acme/web`, for the panel's header and links. */
  projectPath: string;
  issue: Issue;
}

/** `acme/web#4`, as GitLab writes a reference across projects. */
export function issueReference(target: IssueTarget): string {
  return target.issue.references?.full ?? `${target.projectPath}#${target.issue.iid}`;
}

export function projectPathOf(issue: Issue, fallback?: string): string {
  const full = issue.references?.full;
  const hash = full?.lastIndexOf('#') ?? -1;
  if (full && hash > 0) return full.slice(0, hash);
  return fallback ?? vscode.l10n.t('Project {0}', issue.project_id ?? '?');
}
