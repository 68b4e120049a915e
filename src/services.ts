import type * as vscode from 'vscode';
import type { AccountManager } from './platform/accounts';
import type { Shell } from './shell';
import type { FolderKind, ProjectFilterStore, ProjectsTreeProvider } from './features/projects';
import type { TreeNode } from './platform/tree/treeNode';
import type { TodosTreeProvider } from './features/todos';

/** What the composition root builds once and hands to every command and view module. */
export interface Services {
  readonly context: vscode.ExtensionContext;
  /** The tree views the entry created at activation; a view module attaches its provider here. */
  readonly shell: Shell;
  readonly log: vscode.LogOutputChannel;
  readonly accounts: AccountManager;
  readonly projects: ProjectsTreeProvider;
  readonly projectFilters: ProjectFilterStore;
  readonly todos: TodosTreeProvider;
  /**
   * After an action changed something on the server: redraw now, then refresh a few more times
   * until the affected job or merge request settles. `node` is the tree node acted on, if any;
   * without one (an action from a panel or the palette), `changed` says which project's folder
   * shows the object, and every view showing it refreshes.
   */
  afterAction(node?: TreeNode, changed?: ChangedFolder): void;
  /** Fires after every action, for views outside the trees (the status bar). */
  readonly onDidAct: vscode.Event<ChangedFolder | undefined>;
}

/** The folder of a project that shows an object an action changed. */
export interface ChangedFolder {
  accountId: string;
  projectId: number;
  folder: FolderKind;
  /** The merge request the action changed, if one: its open panel reads it again. */
  mergeRequestIid?: number;
}
