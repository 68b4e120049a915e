import type { Services } from '../services';
import {
  ACTION_LABELS,
  TODO_ACTIONS,
  TODO_TYPES,
  type TodoAction,
  TodoFilterStore,
  type TodoState,
  type TodoType,
  type TodoViewFilter,
  describeTodoFilter,
} from '../state/todoFilters';
import { pickAccount } from './accounts';
import { registerCommand } from '../platform/commands/registerCommand';
import { pickOne, type PickItem } from '../platform/userMessages';

/**
 * Trailing options of forge.todos.filter, for tests and automation: `filter` replaces the
 * account's filter without any prompt; `clear` resets it to pending, unfiltered.
 */
export interface TodoFilterCommandOptions {
  filter?: TodoViewFilter;
  clear?: boolean;
}

type Choice = 'action' | 'type' | 'project' | 'state' | 'clear';

/** A project to filter by: `null` for any project, undefined when the pick was cancelled. */
type ProjectPicker = () => Promise<{ id: number; name: string } | null | undefined>;

async function askChange(
  current: TodoViewFilter,
  accountLabel: string,
  pickProject: ProjectPicker,
): Promise<TodoViewFilter | undefined> {
  const items: (PickItem & { choice: Choice })[] = [
    {
      label: 'Action',
      description: current.action ? ACTION_LABELS[current.action] : 'any',
      choice: 'action',
    },
    { label: 'Type', description: current.type ?? 'any', choice: 'type' },
    {
      label: 'Project',
      description:
        current.projectId !== undefined ? (current.projectName ?? `project ${current.projectId}`) : 'any',
      choice: 'project',
    },
    { label: 'State', description: current.state ?? 'pending', choice: 'state' },
    { label: 'Clear filters', description: 'pending todos, no filter', choice: 'clear' },
  ];
  const picked = await pickOne(items, {
    title: `Todos of ${accountLabel}`,
    placeHolder: 'What to filter by',
  });
  if (!picked) return undefined;
  switch (picked.choice) {
    case 'clear':
      return {};
    case 'action': {
      const action = await pickOne(
        [
          { label: 'Any action', action: undefined as TodoAction | undefined },
          ...TODO_ACTIONS.map((value) => ({
            label: ACTION_LABELS[value],
            description: value,
            action: value,
          })),
        ],
        { placeHolder: 'Show todos created because…' },
      );
      return action ? { ...current, action: action.action } : undefined;
    }
    case 'type': {
      const type = await pickOne(
        [
          { label: 'Any type', type: undefined as TodoType | undefined },
          ...TODO_TYPES.map((value) => ({ label: value, type: value })),
        ],
        { placeHolder: 'Show todos on…' },
      );
      return type ? { ...current, type: type.type } : undefined;
    }
    case 'state': {
      const state = await pickOne(
        (['pending', 'done'] as TodoState[]).map((value) => ({ label: value, state: value })),
        { placeHolder: 'Show todos that are…' },
      );
      return state ? { ...current, state: state.state === 'pending' ? undefined : state.state } : undefined;
    }
    case 'project': {
      const project = await pickProject();
      if (project === undefined) return undefined;
      return project === null
        ? { ...current, projectId: undefined, projectName: undefined }
        : { ...current, projectId: project.id, projectName: project.name };
    }
  }
}

export function registerTodoFilterCommands(services: Services): void {
  const { context, log, accounts, todos } = services;
  const store = new TodoFilterStore(context.globalState);
  todos.useFilters((accountId) => store.get(accountId));

  /** The view's description names the active filters. */
  const describeView = (): void => {
    const view = services.treeViews.get('forge.todos');
    if (!view) return;
    const list = accounts.list();
    const described = list
      .map((account) => ({ account, text: describeTodoFilter(store.get(account.id)) }))
      .filter((entry) => entry.text !== undefined);
    const [only] = described;
    if (list.length === 1 && only) view.description = only.text;
    else if (described.length > 0)
      view.description = described.map((entry) => `${entry.account.label}: ${entry.text}`).join('; ');
    else view.description = undefined;
  };
  describeView();
  context.subscriptions.push(accounts.onDidChange(describeView));

  registerCommand(
    context,
    log,
    'forge.todos.filter',
    async (given?: unknown, options: TodoFilterCommandOptions = {}): Promise<TodoViewFilter | undefined> => {
      const accountId =
        typeof given === 'string'
          ? given
          : given && typeof given === 'object' && 'account' in given
            ? (given as { account?: { id?: unknown } }).account?.id
            : undefined;
      const account = await pickAccount(
        accounts,
        'Filter the todos of which account?',
        () => true,
        typeof accountId === 'string' ? accountId : undefined,
      );
      if (!account) return undefined;
      const current = store.get(account.id);
      let next: TodoViewFilter | undefined;
      if (options.clear) next = {};
      else if (options.filter) next = options.filter;
      else {
        next = await askChange(current, account.label, async () => {
          const client = await accounts.client(account.id);
          const projects = client
            .listProjects({ membership: true, orderBy: 'last_activity_at' })
            .page({ perPage: 100 })
            .then((page) => [
              { label: 'Any project', project: null },
              ...page.items.map((project) => ({
                label: project.name ?? String(project.id),
                description: project.path_with_namespace ?? '',
                project: {
                  id: project.id,
                  name: project.path_with_namespace ?? project.name ?? String(project.id),
                },
              })),
            ]);
          const picked = await pickOne(projects, {
            placeHolder: 'Show todos of the project…',
            matchOnDescription: true,
          });
          return picked ? picked.project : undefined;
        });
      }
      if (next === undefined) return undefined;
      await store.set(account.id, next);
      todos.refresh();
      describeView();
      return store.get(account.id);
    },
  );
}
