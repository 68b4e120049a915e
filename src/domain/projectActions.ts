import { trimBothOf } from '../text/linearText';
import * as l10n from '@vscode/l10n';
/**
 * Pure helpers behind the project commands: access tokens for menus, the URLs a project can be
 * copied as, input checks, and the name of the CI file. No `vscode` here.
 */

/** The access levels of the API (guest 10 … owner 50). */
export const ACCESS_LEVEL = {
  guest: 10,
  reporter: 20,
  developer: 30,
  maintainer: 40,
  owner: 50,
} as const;

/** The file a CI template is written to, at the root of the repository. */
export const CI_FILE_NAME = '.gitlab-ci.yml';

export const VISIBILITIES = ['private', 'internal', 'public'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export function isVisibility(value: unknown): value is Visibility {
  return typeof value === 'string' && (VISIBILITIES as readonly string[]).includes(value);
}

interface AccessShape {
  access_level: number;
}

export interface ProjectAccessShape {
  permissions?: {
    project_access?: AccessShape | null;
    group_access?: AccessShape | null;
  } | null;
  archived?: boolean;
}

/**
 * The caller's access level from `permissions`: the higher of project and group access, 0 when
 * both are null (not a member), `undefined` when the reply did not say (trimmed shapes).
 */
export function accessLevelOf(project: ProjectAccessShape): number | undefined {
  const permissions = project.permissions;
  if (permissions === undefined || permissions === null) return undefined;
  return Math.max(permissions.project_access?.access_level ?? 0, permissions.group_access?.access_level ?? 0);
}

/**
 * Capability tokens of a project row for `viewItem =~ /\bowner\b/` menus. When the server did not
 * say what access the caller has, both tokens are given and the server decides (403 is reported).
 * Administrators may do everything.
 */
export function projectCapabilities(project: ProjectAccessShape, isAdmin: boolean): string[] {
  const level = accessLevelOf(project);
  const tokens: string[] = [];
  if (isAdmin) tokens.push('admin');
  if (isAdmin || level === undefined || level >= ACCESS_LEVEL.maintainer) tokens.push('maintainer');
  if (isAdmin || level === undefined || level >= ACCESS_LEVEL.owner) tokens.push('owner');
  return tokens;
}

export interface ProjectUrlShape {
  web_url?: string;
  http_url_to_repo?: string;
  ssh_url_to_repo?: string;
}

export type ProjectUrlKind = 'https' | 'ssh' | 'web';

export interface ProjectUrl {
  kind: ProjectUrlKind;
  label: string;
  url: string;
}

/** The URLs a project can be copied as, in the order offered; those the server did not send are left out. */
export function projectUrls(project: ProjectUrlShape): ProjectUrl[] {
  const urls: ProjectUrl[] = [];
  const https = project.http_url_to_repo ?? (project.web_url ? `${project.web_url}.git` : undefined);
  if (https) urls.push({ kind: 'https', label: l10n.t('HTTPS clone URL'), url: https });
  if (project.ssh_url_to_repo)
    urls.push({ kind: 'ssh', label: l10n.t('SSH clone URL'), url: project.ssh_url_to_repo });
  if (project.web_url) urls.push({ kind: 'web', label: l10n.t('Web URL'), url: project.web_url });
  return urls;
}

/** "Name (@username)" for a member row; the state is added when the user is not active. */
export function memberLabel(member: { name: string; username: string; state?: string }): string {
  const base = `${member.name} (@${member.username})`;
  return member.state && member.state !== 'active' ? `${base} · ${member.state}` : base;
}

/** A message for an input box, or undefined when the project name is acceptable. */
export function validateProjectName(value: string): string | undefined {
  const name = value.trim();
  if (name === '') return l10n.t('Give the project a name');
  if (name.length > 255) return l10n.t('At most 255 characters');
  if (!/^[\p{L}\p{N}_][\p{L}\p{N}_. +-]*$/u.test(name)) {
    return l10n.t('Letters, digits, spaces, "_", ".", "-" and "+"; start with a letter, digit or "_"');
  }
  return undefined;
}

/** A positive whole number typed as an id, or undefined. */
export function parseId(value: string): number | undefined {
  const trimmed = value.trim();
  if (!/^\d+$/.test(trimmed)) return undefined;
  const id = Number(trimmed);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/** A fork target typed by the user: a numeric namespace id, or a namespace path. */
export function parseNamespace(value: string): number | string | undefined {
  const trimmed = trimBothOf(value.trim(), '/');
  if (trimmed === '') return undefined;
  const id = parseId(trimmed);
  if (id !== undefined) return id;
  return /^[\w.-]+(\/[\w.-]+)*$/.test(trimmed) ? trimmed : undefined;
}

/**
 * The caller's own user namespace, guessed from projects they own: the spec has no "current
 * user" endpoint, but a project in a personal namespace the caller owns names it.
 */
export function guessOwnNamespace(
  ownedProjects: readonly { namespace?: { path: string; kind?: string } }[],
): string | undefined {
  return ownedProjects.find((project) => project.namespace?.kind === 'user')?.namespace?.path;
}

/** True when what the user typed is exactly the project path (surrounding spaces ignored). */
export function confirmsPath(typed: string | undefined, path: string): boolean {
  return typed !== undefined && typed.trim() === path;
}

/** The key to fetch a template by: servers that leave out `key` use the name. */
export function templateKey(template: { name: string; key?: string }): string {
  return template.key ?? template.name;
}
