/*
 * The entry VS Code loads at activation, kept small on purpose: it creates the tree views and one
 * stand-in per command in package.json, and loads the rest of the extension (core.ts, built as
 * dist/core.js) the first time a view asks for its items or a command runs. Loading that core takes
 * tens of milliseconds; activation, which holds up VS Code's start-up, does not pay for it.
 */
import './l10nSetup';
import * as vscode from 'vscode';
import type * as CoreModule from './core';
import type { ForgeWorkbenchApi } from './core';
import { REVIEW_SCHEME, STORED_ACCOUNTS_KEY, type Shell } from './shell';
import { reviewFileSystem } from './reviewFileSystem';
import { RESTORABLE_PANEL_TYPES } from './webviews/shared/restoreKey';
import type { TreeNode } from './platform/tree/treeNode';
import { withAccessibleLabel } from './platform/tree/accessibleLabel';

export type { ForgeWorkbenchApi } from './core';

type Core = CoreModule.Core;

/** How long after activation the core loads for a folder that may be a clone. */
const CLONE_CORE_DELAY_MS = 1_500;

/** The contributed tree views and the options they are created with. */
const TREE_VIEWS: readonly [string, { showCollapseAll?: boolean }][] = [
  ['forge.projects', { showCollapseAll: true }],
  ['forge.todos', {}],
  ['forge.mergeRequests', { showCollapseAll: true }],
  ['forge.issues', { showCollapseAll: true }],
  ['forge.admin', {}],
  ['forge.channel', { showCollapseAll: true }],
];

type TreeChange = TreeNode | TreeNode[] | undefined | null | void;

/** A tree view whose provider is the core's, attached when the core loads (on the first question). */
class LazyTreeView implements vscode.TreeDataProvider<TreeNode> {
  private readonly changes = new vscode.EventEmitter<TreeChange>();
  private provider: vscode.TreeDataProvider<TreeNode> | undefined;
  private forwarding: vscode.Disposable | undefined;
  readonly onDidChangeTreeData = this.changes.event;
  readonly view: vscode.TreeView<TreeNode>;

  constructor(
    viewId: string,
    options: { showCollapseAll?: boolean },
    private readonly loadCore: () => unknown,
  ) {
    this.view = vscode.window.createTreeView(viewId, {
      treeDataProvider: this,
      // A ticked row (a changed file "Viewed") stands for itself, not for its folder's rows.
      manageCheckboxStateManually: true,
      ...options,
    });
    this.view.onDidChangeCheckboxState((event) => {
      for (const [node, state] of event.items) {
        node.checkboxChanged?.(state === vscode.TreeItemCheckboxState.Checked);
      }
    });
  }

  attach(provider: vscode.TreeDataProvider<TreeNode>): vscode.TreeView<TreeNode> {
    this.provider = provider;
    this.forwarding = provider.onDidChangeTreeData?.((change) => this.changes.fire(change));
    return this.view;
  }

  private real(): vscode.TreeDataProvider<TreeNode> {
    if (!this.provider) this.loadCore();
    if (!this.provider)
      throw new Error(vscode.l10n.t('The extension did not attach a provider to this view.'));
    return this.provider;
  }

  getTreeItem(node: TreeNode): vscode.TreeItem | Thenable<vscode.TreeItem> {
    const item = this.real().getTreeItem(node);
    return 'then' in item ? item.then(withAccessibleLabel) : withAccessibleLabel(item);
  }

  getChildren(node?: TreeNode): vscode.ProviderResult<TreeNode[]> {
    return this.real().getChildren(node);
  }

  getParent(node: TreeNode): vscode.ProviderResult<TreeNode> {
    return this.real().getParent?.(node);
  }

  resolveTreeItem(
    item: vscode.TreeItem,
    node: TreeNode,
    token: vscode.CancellationToken,
  ): vscode.ProviderResult<vscode.TreeItem> {
    const provider = this.real();
    return provider.resolveTreeItem ? provider.resolveTreeItem(item, node, token) : item;
  }

  dispose(): void {
    this.forwarding?.dispose();
    this.changes.dispose();
    this.view.dispose();
  }
}

/**
 * The entry's command table and panel serializers: each contributed command, and each panel VS Code
 * restores after a window reload (webviews/shared/panelRestore.ts), loads the core on first use.
 */
function forwardToCore(context: vscode.ExtensionContext, loadCore: () => Core): void {
  const manifest = context.extension.packageJSON as { contributes?: { commands?: { command: string }[] } };
  for (const { command } of manifest.contributes?.commands ?? []) {
    context.subscriptions.push(
      vscode.commands.registerCommand(command, (...args: unknown[]) => {
        const handler = loadCore().commands.get(command);
        if (!handler) throw new Error(vscode.l10n.t('The command {0} has no handler.', command));
        return handler(...args);
      }),
    );
  }

  // A review diff VS Code restores after a reload asks for its sides first thing (onFileSystem:).
  context.subscriptions.push(
    vscode.workspace.registerFileSystemProvider(
      REVIEW_SCHEME,
      reviewFileSystem(() => loadCore().reviewSides),
      { isReadonly: true, isCaseSensitive: true },
    ),
  );

  for (const viewType of RESTORABLE_PANEL_TYPES) {
    context.subscriptions.push(
      vscode.window.registerWebviewPanelSerializer(viewType, {
        deserializeWebviewPanel: (panel, state: unknown) => loadCore().restorePanel(viewType, panel, state),
      }),
    );
  }
}

export function activate(context: vscode.ExtensionContext): ForgeWorkbenchApi {
  const started = performance.now();
  let core: Core | undefined;
  let coreLoadedInMs: number | undefined;
  const views = new Map<string, LazyTreeView>();
  const shell: Shell = {
    treeView(viewId, provider) {
      const view = views.get(viewId);
      if (!view) throw new Error(vscode.l10n.t('No tree view {0} is contributed.', viewId));
      return view.attach(provider);
    },
  };
  const loadCore = (): Core => {
    if (!core) {
      const loading = performance.now();
      // A lazy CommonJS load that esbuild.mjs leaves to run time (dist/core.js is its own bundle).
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const module = require('./core') as typeof CoreModule;
      core = module.activateCore(context, shell);
      coreLoadedInMs = performance.now() - loading;
    }
    return core;
  };

  for (const [viewId, options] of TREE_VIEWS) {
    const view = new LazyTreeView(viewId, options, loadCore);
    views.set(viewId, view);
    context.subscriptions.push(view);
  }
  forwardToCore(context, loadCore);
  loadCoreForClone(context, loadCore);

  const activatedInMs = performance.now() - started;
  // Host suites and automation read the core through this; reading any part of it loads the core.
  return lazyApi(
    () => loadCore().api,
    activatedInMs,
    () => coreLoadedInMs,
  );
}

/** The extension's API, each part read from the core (loading it) when first asked for. */
function lazyApi(
  api: () => Core['api'],
  activatedInMs: number,
  coreLoadedInMs: () => number | undefined,
): ForgeWorkbenchApi {
  return {
    get log() {
      return api().log;
    },
    get accounts() {
      return api().accounts;
    },
    get channelAccounts() {
      return api().channelAccounts;
    },
    get messages() {
      return api().messages;
    },
    get projects() {
      return api().projects;
    },
    get projectFilters() {
      return api().projectFilters;
    },
    get todos() {
      return api().todos;
    },
    get treeViews() {
      return api().treeViews;
    },
    get treeProviders() {
      return api().treeProviders;
    },
    get panels() {
      return api().panels;
    },
    get services() {
      return api().services;
    },
    get traceTails() {
      return api().traceTails;
    },
    get review() {
      return api().review;
    },
    get ciChecks() {
      return api().ciChecks;
    },
    get coreCommandIds() {
      return api().coreCommandIds;
    },
    activatedInMs,
    get coreLoadedInMs() {
      return coreLoadedInMs();
    },
  };
}

/**
 * VS Code activates the extension when the open folder is a git repository
 * (`workspaceContains:.git`), so that the status bar can show the branch's merge request and pipeline
 * without the Forge view being opened first. The core loads a moment after start-up, and only when
 * there is an account to ask: start-up itself pays nothing.
 */
function loadCoreForClone(context: vscode.ExtensionContext, loadCore: () => unknown): void {
  const hasFolder = vscode.workspace.workspaceFolders?.some((folder) => folder.uri.scheme === 'file');
  const hasAccount =
    context.globalState.get<unknown[]>(STORED_ACCOUNTS_KEY, []).length > 0 ||
    Boolean(process.env['FORGE_SERVER_URL']);
  if (!hasFolder || !hasAccount) return;
  const timer = setTimeout(() => loadCore(), CLONE_CORE_DELAY_MS);
  context.subscriptions.push({ dispose: () => clearTimeout(timer) });
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
