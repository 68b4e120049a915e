import type { TodoFilter } from '../api/hosting';
import * as l10n from '@vscode/l10n';

/** The key-value storage the stores need (VS Code's `Memento` fits). */
export interface KeyValueStorage {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

export const TODO_ACTIONS = ['assigned', 'mentioned', 'build_failed', 'marked', 'approval_required'] as const;
export type TodoAction = (typeof TODO_ACTIONS)[number];
export const TODO_TYPES = ['Issue', 'MergeRequest'] as const;
export type TodoType = (typeof TODO_TYPES)[number];
export const TODO_STATES = ['pending', 'done'] as const;
export type TodoState = (typeof TODO_STATES)[number];

/** What the Todos view shows for one account. Empty means the default: pending, no filter. */
export interface TodoViewFilter {
  action?: TodoAction;
  type?: TodoType;
  projectId?: number;
  /** For the description only. */
  projectName?: string;
  state?: TodoState;
}

export const ACTION_LABELS: Record<TodoAction, string> = {
  assigned: 'assigned',
  mentioned: 'mentioned',
  build_failed: 'build failed',
  marked: 'marked',
  approval_required: 'approval required',
};

const TYPE_LABELS: Record<TodoType, string> = { Issue: 'issues', MergeRequest: 'merge requests' };

function oneOf<T extends string>(values: readonly T[], value: unknown): T | undefined {
  return values.find((candidate) => candidate === value);
}

/** Reads a stored filter defensively: stored data may come from an older version, or be anything. */
export function sanitizeTodoFilter(raw: unknown): TodoViewFilter {
  if (!raw || typeof raw !== 'object') return {};
  const record = raw as Record<string, unknown>;
  const filter: TodoViewFilter = {};
  const action = oneOf(TODO_ACTIONS, record['action']);
  if (action) filter.action = action;
  const type = oneOf(TODO_TYPES, record['type']);
  if (type) filter.type = type;
  const state = oneOf(TODO_STATES, record['state']);
  if (state && state !== 'pending') filter.state = state;
  const projectId = record['projectId'];
  if (typeof projectId === 'number' && Number.isInteger(projectId) && projectId > 0) {
    filter.projectId = projectId;
    const name = record['projectName'];
    if (typeof name === 'string' && name !== '') filter.projectName = name;
  }
  return filter;
}

export function isDefaultTodoFilter(filter: TodoViewFilter): boolean {
  const clean = sanitizeTodoFilter(filter);
  return Object.keys(clean).length === 0;
}

/** The query for `GET /todos`: state is always sent (pending by default). */
export function todoQuery(filter: TodoViewFilter): TodoFilter {
  return {
    state: filter.state ?? 'pending',
    action: filter.action,
    type: filter.type,
    projectId: filter.projectId,
  };
}

/** "done · assigned · merge requests · acme/web", or undefined for the default. */
export function describeTodoFilter(filter: TodoViewFilter): string | undefined {
  const parts = [
    filter.state === 'done' ? 'done' : undefined,
    filter.action ? ACTION_LABELS[filter.action] : undefined,
    filter.type ? TYPE_LABELS[filter.type] : undefined,
    filter.projectId !== undefined
      ? (filter.projectName ?? l10n.t('project {0}', filter.projectId))
      : undefined,
  ].filter((part): part is string => part !== undefined);
  return parts.length > 0 ? parts.join(' · ') : undefined;
}

/** Each account's todo filter, kept across restarts. */
export class TodoFilterStore {
  constructor(private readonly storage: KeyValueStorage) {}

  private key(accountId: string): string {
    return `forge.todoFilter.${accountId}`;
  }

  get(accountId: string): TodoViewFilter {
    return sanitizeTodoFilter(this.storage.get(this.key(accountId)));
  }

  set(accountId: string, filter: TodoViewFilter): PromiseLike<void> {
    const clean = sanitizeTodoFilter(filter);
    return this.storage.update(this.key(accountId), Object.keys(clean).length > 0 ? clean : undefined);
  }
}
