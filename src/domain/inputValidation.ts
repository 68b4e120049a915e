import { normalizeServerUrl } from './serverUrl';
import { trimBothOf } from '../text/linearText';
import * as l10n from '@vscode/l10n';

/*
 * Checks on what a person types, made before any request is sent, each answering with the value to use
 * or one sentence saying what is wrong. Pure (no vscode): commands call them in `validateInput` of their
 * input boxes and again on options passed by tests and automation, which skip the boxes.
 */

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

/** Real servers refuse notes longer than this ("Note is too long (maximum is 1000000 characters)"). */
export const MAX_NOTE_LENGTH = 1_000_000;

/** GitLab's limit for one path segment (a group or project path). */
const MAX_PATH_SEGMENT = 255;
const MAX_REF_LENGTH = 255;

function ok<T>(value: T): Checked<T> {
  return { ok: true, value };
}

function problem<T>(text: string): Checked<T> {
  return { ok: false, problem: text };
}

/** For `showInputBox({ validateInput })`: the problem, or undefined when the input is fine. */
export function problemOf(checked: Checked<unknown>): string | undefined {
  return checked.ok ? undefined : checked.problem;
}

/** Characters shown in a message: printable as themselves, the rest as \uXXXX. */
function showCharacters(characters: Iterable<string>): string {
  const unique = [...new Set(characters)].slice(0, 8);
  return unique
    .map((character) =>
      /^[\x21-\x7e]$/.test(character)
        ? `"${character}"`
        : character === ' '
          ? 'a space'
          : `\\u${(character.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`,
    )
    .join(', ');
}

// eslint-disable-next-line no-control-regex
const CONTROL_OR_SPACE = /[\s\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\ufeff]/u;
const HOST_LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/i;

/**
 * The address of a server as typed (`gitlab.example.com`, `https://host:8443/gitlab/`), normalised
 * to `https://host[:port][/path]` without a trailing slash or `/api/v4`. Refuses other schemes,
 * user names and passwords in the address, queries, fragments, spaces and control characters, and
 * host names that cannot exist.
 */
export function checkServerUrl(input: string): Checked<string> {
  const trimmed = input.trim();
  if (trimmed !== '' && CONTROL_OR_SPACE.test(trimmed)) {
    return problem(l10n.t('The address cannot contain spaces or invisible characters'));
  }
  const normalized = normalizeServerUrl(trimmed);
  if ('problem' in normalized) return problem(normalized.problem);
  const url = new URL(normalized.url);
  const host = url.hostname;
  if (host.startsWith('[')) return ok(normalized.url);
  if (/^\d+(\.\d+){3}$/.test(host)) return ok(normalized.url);
  const labels = host.replace(/\.$/, '').split('.');
  if (host.length > 253 || labels.some((label) => !HOST_LABEL.test(label))) {
    return problem(l10n.t('"{0}" is not a valid host name', host));
  }
  return ok(normalized.url);
}

/**
 * A project as a person names it: its numeric id, or its full path (`group/subgroup/project`) as in
 * its address. Leading and trailing slashes and a trailing `.git` are dropped. Every segment must be
 * a valid path (letters, digits, `_`, `-`, `.`; not starting with `-` or `.`), so `..`, spaces, `?`,
 * `#` and `%` never reach a request. The client sends the whole path as one encoded segment
 * (`group%2Fproject`).
 */
export function checkProjectPath(input: string): Checked<string> {
  let path = trimBothOf(input.trim(), '/');
  if (path === '') return problem(l10n.t('Enter the project path, e.g. acme/web, or its numeric id'));
  if (/^\d+$/.test(path)) {
    return Number(path) > 0 && Number.isSafeInteger(Number(path))
      ? ok(String(Number(path)))
      : problem(l10n.t('A project id is a positive whole number'));
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path) || /^[^/@]+@[^/]+:/.test(path)) {
    return problem(l10n.t('Enter the project path (e.g. acme/web), not the whole address'));
  }
  path = path.replace(/\.git$/i, '');
  const bad = [...path].filter((character) => !/[A-Za-z0-9_.\-/]/.test(character));
  if (bad.length > 0) {
    return problem(
      l10n.t(
        'A project path can contain only letters, digits, "_", "-", "." and "/"; this one has {0}',
        showCharacters(bad),
      ),
    );
  }
  const segments = path.split('/');
  if (segments.length < 2)
    return problem(l10n.t('"{0}" has no namespace: enter it as group/project, e.g. acme/web', path));
  for (const segment of segments) {
    if (segment === '') return problem(l10n.t('A project path cannot contain "//"'));
    if (segment === '.' || segment === '..')
      return problem(l10n.t('A project path cannot contain "." or ".." as a part'));
    if (/^[-.]/.test(segment)) return problem(l10n.t('"{0}" cannot start with "-" or "."', segment));
    if (segment.length > MAX_PATH_SEGMENT)
      return problem(l10n.t('"{0}…" is longer than 255 characters', segment.slice(0, 20)));
  }
  return ok(path);
}

/** Characters as servers count them (Unicode code points, not UTF-16 units). */
export function characterCount(text: string): number {
  let count = 0;
  for (const _character of text) count++;
  return count;
}

/** A note (comment) body: not blank, at most 1,000,000 characters. Sent as typed. */
export function checkNoteBody(body: string, limit = MAX_NOTE_LENGTH): Checked<string> {
  if (body.trim() === '') return problem(l10n.t('Write something first: the comment is empty'));
  // UTF-16 units are never fewer than code points: count only when it could matter.
  if (body.length > limit) {
    const count = characterCount(body);
    if (count > limit) {
      return problem(
        l10n.t(
          'The comment has {0} characters; servers accept at most {1}. Shorten it, or put the long part in a snippet or file and link to it.',
          count.toLocaleString('en-US'),
          limit.toLocaleString('en-US'),
        ),
      );
    }
  }
  return ok(body);
}

/**
 * A branch or tag name as git allows it (`git check-ref-format --branch`): no `..`, `@{`, `//`,
 * spaces, control characters or `~^:?*[\`, not starting with `-` or `/`, not ending with `/`, `.` or
 * `.lock`.
 */
export function checkRefName(input: string): Checked<string> {
  const ref = input.trim();
  if (ref === '') return problem(l10n.t('Enter a branch or tag name'));
  if (ref.length > MAX_REF_LENGTH) return problem(l10n.t('A branch or tag name is at most 255 characters'));
  // eslint-disable-next-line no-control-regex
  const bad = [...ref].filter((character) => /[\s\u0000-\u001f\u007f~^:?*[\\]/.test(character));
  if (bad.length > 0) return problem(l10n.t('A branch or tag name cannot contain {0}', showCharacters(bad)));
  if (ref === '@') return problem(l10n.t('"@" alone is not a branch or tag name'));
  if (ref.includes('..') || ref.includes('@{') || ref.includes('//')) {
    return problem(l10n.t('A branch or tag name cannot contain "..", "@{" or "//"'));
  }
  if (/^[-/]|[/.]$|\.lock$/.test(ref) || ref.split('/').some((part) => part.startsWith('.'))) {
    return problem(
      l10n.t('A branch or tag name cannot start with "-", "/" or ".", nor end with "/", "." or ".lock"'),
    );
  }
  return ok(ref);
}
