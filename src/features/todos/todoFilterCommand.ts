import * as z from 'zod';
import type { AccountManager } from '../../platform/accounts';
import { pickAccount } from '../../platform/accountPicker';
import { type CommandDeclaration, defineCommand, rowOf } from '../../platform/commands/defineCommand';
import { pickOne, type PickItem } from '../../platform/userMessages';
import {
  ACTION_LABELS,
  TODO_ACTIONS,
  TODO_STATES,
  TODO_TYPES,
  type TodoAction,
  type TodoFilterStore,
  type TodoState,
  type TodoType,
  type TodoViewFilter,
} from '../../state/todoFilters';
import { TodoAccountNode } from './todosTreeProvider';
import * as l10n from '@vscode/l10n';

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
      label: l10n.t('Action'),
      description: current.action ? ACTION_LABELS[current.action] : l10n.t('any'),
      choice: 'action',
    },
    { label: l10n.t('Type'), description: current.type ?? l10n.t('any'), choice: 'type' },
    {
      label: l10n.t('Project'),
      description:
        current.projectId !== undefined
          ? (current.projectName ?? l10n.t('project {0}', current.projectId))
          : l10n.t('any'),
      choice: 'project',
    },
    { label: l10n.t('State'), description: current.state ?? l10n.t('pending'), choice: 'state' },
    { label: l10n.t('Clear filters'), description: l10n.t('pending todos, no filter'), choice: 'clear' },
  ];
  const picked = await pickOne(items, {
    title: l10n.t('Todos of {0}', accountLabel),
    placeHolder: l10n.t('What to filter by'),
  });
  if (!picked) return undefined;
  switch (picked.choice) {
    case 'clear':
      return {};
    case 'action': {
      const action = await pickOne(
        [
          { label: l10n.t('Any action'), action: undefined as TodoAction | undefined },
          ...TODO_ACTIONS.map((value) => ({
            label: ACTION_LABELS[value],
            description: value,
            action: value,
          })),
        ],
        { placeHolder: l10n.t('Show todos created because…') },
      );
      return action ? { ...current, action: action.action } : undefined;
    }
    case 'type': {
      const type = await pickOne(
        [
          { label: l10n.t('Any type'), type: undefined as TodoType | undefined },
          ...TODO_TYPES.map((value) => ({ label: value, type: value })),
        ],
        { placeHolder: l10n.t('Show todos on…') },
      );
      return type ? { ...current, type: type.type } : undefined;
    }
    case 'state': {
      const state = await pickOne(
        (['pending', 'done'] as TodoState[]).map((value) => ({ label: value, state: value })),
        { placeHolder: l10n.t('Show todos that are…') },
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

const TodoViewFilterSchema = z.strictObject({
  action: z.enum(TODO_ACTIONS).optional(),
  type: z.enum(TODO_TYPES).optional(),
  projectId: z.number().int().positive().optional(),
  projectName: z.string().max(500).optional(),
  state: z.enum(TODO_STATES).optional(),
});

/** Whose todos: an account id (tests, automation), an account's row, or nothing (ask). */
const AccountArgumentSchema = z
  .union([z.string(), rowOf(TodoAccountNode, l10n.t("an account's row"))])
  .optional();

/**
 * "Forge: Filter Todos". Trailing options, for tests and automation: `filter` replaces the account's
 * filter without any prompt; `clear` resets it to pending, unfiltered. Returns the filter now in force.
 */
export function todoFilterCommand(
  accounts: AccountManager,
  store: TodoFilterStore,
  onChanged: () => void,
): CommandDeclaration {
  return defineCommand({
    id: 'forge.todos.filter',
    args: [
      AccountArgumentSchema,
      z.strictObject({ filter: TodoViewFilterSchema.optional(), clear: z.boolean().optional() }).optional(),
    ],
    run: async (given, options = {}): Promise<TodoViewFilter | undefined> => {
      const account = await pickAccount(
        accounts,
        l10n.t('Filter the todos of which account?'),
        () => true,
        given instanceof TodoAccountNode ? given.account.id : given,
      );
      if (!account) return undefined;
      const current = store.get(account.id);
      let next: TodoViewFilter | undefined;
      if (options.clear) next = {};
      else if (options.filter) next = options.filter;
      else next = await askChange(current, account.label, () => pickProject(accounts, account.id));
      if (next === undefined) return undefined;
      await store.set(account.id, next);
      onChanged();
      return store.get(account.id);
    },
  });
}

/** One of the account's projects, `null` for any project, undefined when the pick was cancelled. */
async function pickProject(
  accounts: AccountManager,
  accountId: string,
): Promise<{ id: number; name: string } | null | undefined> {
  const client = await accounts.client(accountId);
  const projects = client
    .listProjects({ membership: true, orderBy: 'last_activity_at' })
    .page({ perPage: 100 })
    .then((page) => [
      { label: l10n.t('Any project'), project: null },
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
    placeHolder: l10n.t('Show todos of the project…'),
    matchOnDescription: true,
  });
  return picked ? picked.project : undefined;
}
