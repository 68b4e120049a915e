/**
 * What the Issues view and the issue panel show of an issue: its state's icon and colour, a label's
 * colour taken from the server only when it is a plain hex colour, the panel's key and title, and
 * the user's own lists ("queries") read from the settings with every problem named.
 */
import * as l10n from '@vscode/l10n';

export interface IssueAppearance {
  codicon: string;
  /** A theme colour id. */
  color: string;
  label: string;
}

export function issueAppearance(issue: { state: string; confidential?: boolean | null }): IssueAppearance {
  if (issue.state === 'closed')
    return { codicon: 'issue-closed', color: 'charts.purple', label: l10n.t('closed') };
  return {
    codicon: issue.confidential ? 'lock' : 'issues',
    color: 'charts.green',
    label: issue.confidential ? l10n.t('opened, confidential') : l10n.t('opened'),
  };
}

/** A label colour the page may use: `#rgb` or `#rrggbb` only (a server could send anything). */
export function safeLabelColor(color: unknown): string | undefined {
  return typeof color === 'string' && /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(color) ? color : undefined;
}

/** Black or white text, whichever reads better on a label's colour (WCAG relative luminance). */
export function labelTextColor(background: string): '#000000' | '#ffffff' {
  const hex =
    background.length === 4
      ? [...background.slice(1)].map((digit) => digit + digit).join('')
      : background.slice(1);
  const channel = (offset: number): number => {
    const value = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
  return luminance > 0.179 ? '#000000' : '#ffffff';
}

export function issuePanelKey(accountId: string, projectId: number, iid: number): string {
  return `issue|${accountId}|${projectId}|${iid}`;
}

const TITLE_CHARS = 60;

export function issuePanelTitle(issue: { iid: number; title: string }): string {
  const title = issue.title.length > TITLE_CHARS ? `${issue.title.slice(0, TITLE_CHARS - 1)}…` : issue.title;
  return `#${issue.iid} ${title}`;
}

/** A list of issues the user defined in the settings (`forge.issues.queries`). */
export interface IssueQuery {
  name: string;
  /** A project's id or path; across the user's projects when absent. */
  project?: number | string;
  scope: 'assigned_to_me' | 'created_by_me' | 'all';
  state: 'opened' | 'closed' | 'all';
  labels: string[];
  milestone?: string;
  search?: string;
}

const SCOPES = ['assigned_to_me', 'created_by_me', 'all'] as const;
const STATES = ['opened', 'closed', 'all'] as const;
const MAX_QUERIES = 20;

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T | undefined {
  if (value === undefined) return fallback;
  return allowed.find((each) => each === value);
}

function text(value: unknown, max: number): string | undefined {
  return typeof value === 'string' && value.trim() !== '' && value.length <= max ? value.trim() : undefined;
}

function projectOf(value: unknown): number | string | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  return text(value, 255);
}

/** One entry of the setting, or why it is left out. */
function readQuery(raw: unknown, position: number): IssueQuery | string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return l10n.t('entry {0}: not an object', position);
  const entry = raw as Record<string, unknown>;
  const name = text(entry['name'], 100);
  if (!name) return l10n.t('entry {0}: "name" is missing', position);
  const project = entry['project'] === undefined ? undefined : projectOf(entry['project']);
  if (entry['project'] !== undefined && project === undefined)
    return l10n.t('"{0}": "project" is not a project id or path', name);
  // Across projects, GitLab lists only the caller's issues (`scope` defaults to created_by_me).
  const scope = oneOf(entry['scope'], SCOPES, project === undefined ? 'assigned_to_me' : 'all');
  if (!scope) return l10n.t('"{0}": "scope" must be one of {1}', name, SCOPES.join(', '));
  const state = oneOf(entry['state'], STATES, 'opened');
  if (!state) return l10n.t('"{0}": "state" must be one of {1}', name, STATES.join(', '));
  const rawLabels = entry['labels'] ?? [];
  const labels = Array.isArray(rawLabels) ? rawLabels.map((label) => text(label, 255)) : [undefined];
  if (labels.some((label) => label === undefined))
    return l10n.t('"{0}": "labels" must be a list of names', name);
  const milestone = text(entry['milestone'], 255);
  const search = text(entry['search'], 255);
  return {
    name,
    ...(project === undefined ? {} : { project }),
    scope,
    state,
    labels: labels.filter((label): label is string => label !== undefined),
    ...(milestone ? { milestone } : {}),
    ...(search ? { search } : {}),
  };
}

/** The queries the setting holds, and a line for each entry left out. */
export function readIssueQueries(raw: unknown): { queries: IssueQuery[]; problems: string[] } {
  if (raw === undefined || raw === null) return { queries: [], problems: [] };
  if (!Array.isArray(raw)) return { queries: [], problems: [l10n.t('the setting is not a list')] };
  const queries: IssueQuery[] = [];
  const problems: string[] = [];
  raw.slice(0, MAX_QUERIES).forEach((entry, index) => {
    const read = readQuery(entry, index + 1);
    if (typeof read === 'string') problems.push(read);
    else queries.push(read);
  });
  if (raw.length > MAX_QUERIES) problems.push(l10n.t('only the first {0} entries are used', MAX_QUERIES));
  return { queries, problems };
}
