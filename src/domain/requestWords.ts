/**
 * A request in words ("creating the branch", "retrying the job"), for messages a person reads: a
 * method and a route (`POST /projects/1/repository/branches`) are for the log, not for them. Read
 * from the route's last resource (or action) segment; an unknown one is "the request".
 */
import * as l10n from '@vscode/l10n';
import { ownEntry } from './ownEntry';

type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Resources by the path segment that names them (read when asked: the language is set by then). */
const RESOURCES: Record<string, () => string> = {
  projects: () => l10n.t('the project'),
  branches: () => l10n.t('the branch'),
  tags: () => l10n.t('the tag'),
  merge_requests: () => l10n.t('the merge request'),
  notes: () => l10n.t('the comment'),
  discussions: () => l10n.t('the thread'),
  draft_notes: () => l10n.t('the pending comment'),
  award_emoji: () => l10n.t('the reaction'),
  jobs: () => l10n.t('the job'),
  trace: () => l10n.t('the trace'),
  artifacts: () => l10n.t('the artifacts'),
  pipelines: () => l10n.t('the pipeline'),
  pipeline: () => l10n.t('the pipeline'),
  boards: () => l10n.t('the board'),
  lists: () => l10n.t('the board list'),
  triggers: () => l10n.t('the pipeline trigger'),
  hooks: () => l10n.t('the system hook'),
  broadcast_messages: () => l10n.t('the broadcast message'),
  todos: () => l10n.t('the todo'),
  keys: () => l10n.t('the SSH key'),
  members: () => l10n.t('the members'),
  approvals: () => l10n.t('the approvals'),
  versions: () => l10n.t('the versions'),
  diffs: () => l10n.t('the changes'),
  changes: () => l10n.t('the changes'),
  commits: () => l10n.t('the commits'),
  files: () => l10n.t('the file'),
  templates: () => l10n.t('the template'),
  users: () => l10n.t('the user'),
  user: () => l10n.t('your account'),
  events: () => l10n.t('the activity'),
  issues: () => l10n.t('the issue'),
  labels: () => l10n.t('the labels'),
  milestones: () => l10n.t('the milestones'),
};

/** Actions by the path segment that names them (a POST or PUT to `…/retry`), on their resource. */
const ACTIONS: Record<string, (resource: string) => string> = {
  retry: (resource) => l10n.t('retrying {0}', resource),
  cancel: (resource) => l10n.t('cancelling {0}', resource),
  play: (resource) => l10n.t('running {0}', resource),
  erase: (resource) => l10n.t('erasing {0}', resource),
  merge: (resource) => l10n.t('merging {0}', resource),
  approve: (resource) => l10n.t('approving {0}', resource),
  unapprove: (resource) => l10n.t('taking back the approval of {0}', resource),
  rebase: (resource) => l10n.t('rebasing {0}', resource),
  subscribe: (resource) => l10n.t('subscribing to {0}', resource),
  unsubscribe: (resource) => l10n.t('unsubscribing from {0}', resource),
  mark_as_done: (resource) => l10n.t('marking {0} as done', resource),
  apply: () => l10n.t('applying the suggestion'),
  bulk_publish: () => l10n.t('submitting the review'),
  publish: () => l10n.t('publishing the pending comment'),
  todo: (resource) => l10n.t('adding {0} to your todos', resource),
  star: (resource) => l10n.t('starring {0}', resource),
  unstar: (resource) => l10n.t('unstarring {0}', resource),
  fork: (resource) => l10n.t('forking {0}', resource),
  lint: () => l10n.t('checking the CI configuration'),
};

/** What the request did, in words: "creating the branch", "reading the merge requests". */
export function requestInWords(method: Method, path: string): string {
  const segments = path
    .split('?')[0]!
    .split('/')
    .filter((segment) => segment !== '' && segment !== 'api' && segment !== 'v4')
    .map((segment) => decodeURIComponent(segment));
  const words = segments.filter((segment) => /^[a-z_]+$/.test(segment));
  const last = words.at(-1) ?? '';
  const resources = words.flatMap((word) => ownEntry(RESOURCES, word)?.() ?? []);
  // The last resource named: the one an action at the end of the route acts on.
  const resource = resources.at(-1);
  const action = ownEntry(ACTIONS, last);
  if (action && method !== 'GET' && method !== 'HEAD') return action(resource ?? l10n.t('it'));
  if (!resource) return l10n.t('the request');
  switch (method) {
    case 'POST':
      return l10n.t('creating {0}', resource);
    case 'PUT':
    case 'PATCH':
      return l10n.t('changing {0}', resource);
    case 'DELETE':
      return l10n.t('deleting {0}', resource);
    default:
      return l10n.t('reading {0}', resource);
  }
}

/** "Creating the branch": the same, as the start of a sentence. */
export function capitalised(words: string): string {
  return words.charAt(0).toLocaleUpperCase() + words.slice(1);
}
