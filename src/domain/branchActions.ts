/**
 * Pure helpers behind the branch commands: which branches "delete merged" removes and the question
 * that lists them, branch-name and SHA checks for input boxes, and the protection options. No
 * `vscode`.
 */

import { checkRefName, problemOf } from './inputValidation';
import * as l10n from '@vscode/l10n';

export interface BranchShape {
  name: string;
  merged?: boolean;
  protected?: boolean;
  default?: boolean;
  developers_can_push?: boolean;
  developers_can_merge?: boolean;
}

/** True for the project's default branch, by the branch's own flag or the project's default_branch. */
export function isDefaultBranch(branch: BranchShape, defaultBranch: string | null | undefined): boolean {
  return branch.default === true || branch.name === defaultBranch;
}

/**
 * The branches "delete merged branches" removes: merged into the default branch, not protected
 * (the server keeps protected ones) and not the default branch itself.
 */
export function mergedBranchesToDelete<T extends BranchShape>(
  branches: readonly T[],
  defaultBranch: string | null | undefined,
): T[] {
  return branches.filter(
    (branch) =>
      branch.merged === true && branch.protected !== true && !isDefaultBranch(branch, defaultBranch),
  );
}

/** Up to this many names are listed in a question; the rest are counted. */
export const LISTED_NAMES = 10;

/** "a, b, c" — or "a, b, … and 5 more" past `max` names. */
export function listNames(names: readonly string[], max = LISTED_NAMES): string {
  if (names.length <= max) return names.join(', ');
  return l10n.t('{0} and {1} more', names.slice(0, max).join(', '), names.length - max);
}

/** The modal question: "Delete 3 merged branches of acme/web: a, b, c?" */
export function deleteMergedQuestion(projectPath: string, names: readonly string[]): string {
  const count = names.length === 1 ? l10n.t('1 merged branch') : l10n.t('{0} merged branches', names.length);
  return l10n.t('Delete {0} of {1}: {2}?', count, projectPath, listNames(names));
}

/**
 * Why a new branch name would be refused (git's rules for ref names), or undefined when it is
 * fine. The server has the last word; this only catches typos before a request.
 */
export function branchNameProblem(name: string): string | undefined {
  if (name.trim() === '') return l10n.t('Enter a name for the new branch');
  return problemOf(checkRefName(name));
}

/** Why text is not a commit SHA (7 to 40 hexadecimal digits), or undefined when it is one. */
export function commitShaProblem(text: string): string | undefined {
  return /^[0-9a-f]{7,40}$/i.test(text.trim())
    ? undefined
    : l10n.t('A commit SHA: 7 to 40 hexadecimal digits');
}

/** The checkable options of "Protect Branch", and what the server is sent. */
export const PROTECTION_OPTIONS = [
  { label: l10n.t('Developers can push'), key: 'developers_can_push' },
  { label: l10n.t('Developers can merge'), key: 'developers_can_merge' },
] as const;

export interface ProtectionSettings {
  developers_can_push: boolean;
  developers_can_merge: boolean;
}

/** Both booleans from the options ticked (by key); unticked ones are sent as false. */
export function protectionFromPicks(
  picked: readonly { key: keyof ProtectionSettings }[],
): ProtectionSettings {
  const keys = new Set(picked.map((option) => option.key));
  return {
    developers_can_push: keys.has('developers_can_push'),
    developers_can_merge: keys.has('developers_can_merge'),
  };
}

/** A one-line summary of a protected branch's settings, for tooltips and messages. */
export function describeProtection(settings: Partial<ProtectionSettings>): string {
  const who = [
    settings.developers_can_push ? 'push' : undefined,
    settings.developers_can_merge ? 'merge' : undefined,
  ].filter(Boolean);
  return who.length > 0 ? l10n.t('developers can {0}', who.join(' and ')) : 'maintainers only';
}
