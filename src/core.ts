import './l10nSetup';
import * as vscode from 'vscode';
import { registerAccountCommands } from './features/accounts';
import { defineCommand } from './platform/commands/defineCommand';
import { commandHandlers, registerCommands } from './platform/commands/registerCommand';
import { type AdminTreeProvider, createAdminFeature } from './features/admin';
import { createBoardsFeature } from './features/boards';
import { type PipelineGraphPanel, registerPipelineCommands } from './features/pipelines';
import { type ChannelPostPanel, type ChannelTreeProvider, createChannelFeature } from './features/channel';
import {
  type JobTracePanel,
  registerJobCommands,
  registerTraceCommands,
  type TraceTails,
} from './features/jobs';
import {
  type MergeRequestPanel,
  type MergeRequestsTreeProvider,
  createMergeRequestsFeature,
} from './features/mergeRequests';
import type { PanelRegistry } from './webviews/shared/panelHost';
import { AccountManager } from './platform/accounts';
import type { ChannelAccountManager } from './platform/channelAccounts';
import { createLog } from './platform/log';
import {
  type ProjectFilterStore,
  type ProjectsTreeProvider,
  createProjectsView,
  registerProjectsCommands,
} from './features/projects';
import type { ChangedFolder, Services } from './services';
import type { CommandHandler, Shell } from './shell';
import { AutoRefresh } from './state/autoRefresh';
import { RefreshBurst } from './state/refreshBurst';
import type { TreeNode } from './platform/tree/treeNode';
import { type ReviewFeature, createReviewFeature } from './features/review';
import { type StatusBarController, createStatusBarFeature } from './features/statusBar';
import { type CiLintChecks, createCiConfigFeature } from './features/ciConfig';
import { type TodosTreeProvider, createTodosFeature } from './features/todos';
import { type IssuePanel, type IssuesTreeProvider, createIssuesFeature } from './features/issues';
import {
  type ShownMessage,
  answerInputs,
  answerModals,
  answerPicks,
  logShownMessages,
  observeMessages,
} from './platform/userMessages';
import { restorePanel } from './webviews/shared/panelRestore';

/** What the extension hands to its tests (host suites drive it through this). */
export interface ForgeWorkbenchApi {
  readonly log: vscode.LogOutputChannel;
  readonly accounts: AccountManager;
  /** Channel server accounts (the Channel view's provider is in `treeProviders` under 'forge.channel'). */
  readonly channelAccounts: ChannelAccountManager;
  readonly projects: ProjectsTreeProvider;
  readonly projectFilters: ProjectFilterStore;
  readonly todos: TodosTreeProvider;
  /** Every tree view the extension created, by view id. */
  readonly treeViews: ForgeTreeViews;
  /** The provider behind each tree view (tree views do not expose theirs), by view id. */
  readonly treeProviders: ForgeTreeProviders;
  /** The open webview panels of each kind. */
  readonly panels: ForgePanels;
  readonly services: Services;
  /** Job traces followed in the output panel. */
  readonly traceTails: TraceTails;
  /** Changed files in the diff editor and their comment threads. */
  readonly review: ReviewFeature;
  /** The CI file's checks by the server (`onDidCheck`: each answer on its lines, with timings). */
  readonly ciChecks: Pick<CiLintChecks, 'onDidCheck'>;
  /** How long `activate()` took (the entry: views and command stand-ins). */
  readonly activatedInMs: number;
  /** How long loading and starting the core took, on first use; undefined before. */
  readonly coreLoadedInMs: number | undefined;
  /** Ids of the commands the core registered (the contract test matches them with package.json). */
  readonly coreCommandIds: readonly string[];
  /** Every message the message door shows, as VS Code gets it (host tests assert it is inert). */
  readonly messages: {
    observe(observer: (message: ShownMessage) => void): vscode.Disposable;
    /** Answers modal questions (a button label, or undefined for Cancel) instead of a person. */
    answerModals(
      answerer: (message: ShownMessage, buttons: readonly string[]) => string | undefined,
    ): vscode.Disposable;
    /** Picks a quick pick row (its index among the labels shown, undefined to dismiss) instead of a person. */
    answerPicks(
      answerer: (labels: readonly string[], placeHolder: string | undefined) => number | undefined,
    ): vscode.Disposable;
    /** Types into input boxes (by their prompt) instead of a person; undefined dismisses. */
    answerInputs(
      answerer: (prompt: string | undefined, value: string | undefined) => string | undefined,
    ): vscode.Disposable;
  };
}

/** The provider of each tree view, by view id. */
export interface ForgeTreeProviders {
  readonly 'forge.projects': ProjectsTreeProvider;
  readonly 'forge.todos': TodosTreeProvider;
  readonly 'forge.mergeRequests': MergeRequestsTreeProvider;
  readonly 'forge.issues': IssuesTreeProvider;
  readonly 'forge.admin': AdminTreeProvider;
  readonly 'forge.channel': ChannelTreeProvider;
}

export type ForgeTreeViews = { readonly [id in keyof ForgeTreeProviders]: vscode.TreeView<TreeNode> };

export interface ForgePanels {
  readonly jobTrace: PanelRegistry<JobTracePanel>;
  readonly mergeRequest: PanelRegistry<MergeRequestPanel>;
  readonly channelPost: PanelRegistry<ChannelPostPanel>;
  readonly pipelineGraph: PanelRegistry<PipelineGraphPanel>;
  readonly issue: PanelRegistry<IssuePanel>;
}

export interface Core {
  api: Omit<ForgeWorkbenchApi, 'activatedInMs' | 'coreLoadedInMs'>;
  commands: ReadonlyMap<string, CommandHandler>;
  /** Fills a panel VS Code restored after a window reload (the entry's serializers call it). */
  restorePanel(viewType: string, panel: vscode.WebviewPanel, state: unknown): Promise<void>;
  /** The review's diff sides (`forge-review:`), which the entry registers. */
  reviewSides: vscode.TextDocumentContentProvider;
}

/** The context keys the menus and welcome views read: any account, any acting as administrator. */
function followAccountContext(context: vscode.ExtensionContext, accounts: AccountManager): void {
  const updateContext = (): void => {
    const list = accounts.list();
    void vscode.commands.executeCommand('setContext', 'forge.hasAccounts', list.length > 0);
    void vscode.commands.executeCommand(
      'setContext',
      'forge.hasAdminAccount',
      list.some((account) => accounts.actsAsAdmin(account)),
    );
  };
  updateContext();
  context.subscriptions.push(accounts.onDidChange(updateContext));
}

/** The shared services, with `afterAction`: the folder a change lives in reloads a few times after. */
function createServices(parts: Omit<Services, 'afterAction' | 'onDidAct'>): Services {
  const { context, projects } = parts;
  const burst = new RefreshBurst();
  const acted = new vscode.EventEmitter<ChangedFolder | undefined>();
  context.subscriptions.push(acted, { dispose: () => burst.dispose() });
  return {
    ...parts,
    afterAction: (node, changed) => {
      const key = node
        ? String(node.getTreeItem().id ?? 'node')
        : changed
          ? `${changed.accountId}/${changed.projectId}/${changed.folder}`
          : 'all';
      burst.trigger(key, () => {
        if (node || !changed) projects.refreshAround(node);
        else projects.refreshProjectFolder(changed);
      });
      acted.fire(changed);
    },
    onDidAct: acted.event,
  };
}

/** Refreshes everything every `forge.autoRefreshSeconds` while the window has focus. */
function startAutoRefresh(context: vscode.ExtensionContext, refresh: () => void): void {
  const autoRefreshSeconds = (): number =>
    vscode.workspace.getConfiguration('forge').get<number>('autoRefreshSeconds', 60);
  const autoRefresh = new AutoRefresh(autoRefreshSeconds() * 1000, refresh, vscode.window.state.focused);
  context.subscriptions.push(
    autoRefresh,
    vscode.window.onDidChangeWindowState((state) => autoRefresh.setFocused(state.focused)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('forge.autoRefreshSeconds'))
        autoRefresh.setInterval(autoRefreshSeconds() * 1000);
    }),
  );
}

/**
 * Nothing goes to the network at activation: an account from the environment is checked (is it an
 * admin?) in the background once a Forge view is first shown.
 */
function checkEnvironmentAccountsWhenShown(
  context: vscode.ExtensionContext,
  accounts: AccountManager,
  log: vscode.LogOutputChannel,
  views: readonly vscode.TreeView<TreeNode>[],
): void {
  context.subscriptions.push(
    onFirstVisible(views, () => {
      for (const account of accounts.list().filter((candidate) => candidate.fromEnvironment)) {
        accounts.refreshIdentity(account.id).catch((error: unknown) => {
          log.warn(
            `Could not check ${account.label}: ${error instanceof Error ? error.message : String(error)}`,
          );
        });
      }
    }),
  );
}

/**
 * Composition root, run when the extension is first used (a view draws or a command runs): builds
 * every piece and registers it with the entry's views and command table. Owns nothing global.
 */
/** On the source branch of a merge request (the status bar finds it), its threads go on the working files. */
function followCheckedOutBranch(
  statusBar: StatusBarController,
  review: ReviewFeature,
  log: vscode.LogOutputChannel,
): vscode.Disposable {
  return statusBar.onDidChangeStatus((status) => {
    const { mergeRequest } = status ?? {};
    void review
      .followCheckedOut(
        status && mergeRequest
          ? { accountId: status.account.id, project: status.project, mergeRequest, root: status.root }
          : undefined,
      )
      .catch((error: unknown) => log.warn(`Threads on the checked-out branch: ${String(error)}`));
  });
}

/** What the automatic refresh reads again (the channel only redraws: a hub answers slowly). */
function refreshOnTimer(
  context: vscode.ExtensionContext,
  parts: {
    projects: ProjectsTreeProvider;
    todos: TodosTreeProvider;
    statusBar: StatusBarController;
    mergeRequests: { provider: MergeRequestsTreeProvider };
    issues: { provider: IssuesTreeProvider };
    channel: { tree: ChannelTreeProvider };
  },
): void {
  startAutoRefresh(context, () => {
    parts.projects.refreshActive();
    // Lists with "Load more" are read again as far as the reader had gone, not folded back.
    void parts.todos.reloadInPlace();
    void parts.statusBar.refresh();
    parts.mergeRequests.provider.refresh();
    void parts.issues.provider.reloadInPlace();
    parts.channel.tree.redrawAges();
  });
}

/** The log (with every message shown), the accounts and the context keys that follow them. */
function createPlatform(context: vscode.ExtensionContext) {
  const log = createLog();
  logShownMessages(log);
  const accounts = new AccountManager(context, log);
  context.subscriptions.push(log, accounts);
  followAccountContext(context, accounts);
  registerCommands(context, log, [
    defineCommand({ id: 'forge.log.show', args: [], run: () => log.show(true) }),
  ]);
  return { log, accounts };
}

export function activateCore(context: vscode.ExtensionContext, shell: Shell): Core {
  const { log, accounts } = createPlatform(context);
  const { provider: projects, view: projectsView, filters } = createProjectsView(context, shell, accounts);
  const { provider: todos, view: todosView } = createTodosFeature({ context, shell, log, accounts });
  const services = createServices({
    context,
    shell,
    log,
    accounts,
    projects,
    projectFilters: filters,
    todos,
  });
  registerAccountCommands(context, log, accounts);
  registerProjectsCommands(services);
  const jobs = registerJobCommands(services);
  const review = createReviewFeature(services);
  const traces = registerTraceCommands(services);
  const mergeRequests = createMergeRequestsFeature(services, {
    review,
    showJobTrace: (ref) => traces.show(ref),
    openIssue: (where) => issues.openPanel(where),
  });
  const pipelines = registerPipelineCommands(services, { traces, jobs });
  const statusBar = createStatusBarFeature(services, {
    createMergeRequest: () => mergeRequests.createMergeRequest(),
    retryJob: (ref) => jobs.retry(ref),
    pipelines,
  });
  context.subscriptions.push(followCheckedOutBranch(statusBar, review, log));
  createBoardsFeature(services);
  const issues = createIssuesFeature(services, {
    openMergeRequest: (where) => mergeRequests.openPanel(where),
  });
  const ciChecks = createCiConfigFeature(services);
  const admin = createAdminFeature({ context, shell, log, accounts });
  const channel = createChannelFeature(services);
  refreshOnTimer(context, { projects, todos, statusBar, mergeRequests, issues, channel });
  const { treeViews, treeProviders } = splitViews({
    'forge.projects': { view: projectsView, provider: projects },
    'forge.todos': { view: todosView, provider: todos },
    'forge.mergeRequests': mergeRequests,
    'forge.issues': issues,
    'forge.admin': admin,
    'forge.channel': { view: channel.view, provider: channel.tree },
  });
  checkEnvironmentAccountsWhenShown(context, accounts, log, Object.values(treeViews));

  return {
    api: {
      log,
      accounts,
      channelAccounts: channel.accounts,
      projects,
      projectFilters: filters,
      todos,
      treeViews,
      treeProviders,
      panels: {
        jobTrace: traces.panels,
        mergeRequest: mergeRequests.panels,
        channelPost: channel.panels,
        pipelineGraph: pipelines.graphs.registry,
        issue: issues.panels,
      },
      services,
      traceTails: traces.tails,
      review,
      ciChecks,
      coreCommandIds: [...commandHandlers.keys()],
      messages: { observe: observeMessages, answerModals, answerPicks, answerInputs },
    },
    commands: commandHandlers,
    restorePanel: (viewType, panel, state) => restorePanel(viewType, panel, state, log),
    reviewSides: review.sides,
  };
}

type ViewPairs = {
  readonly [id in keyof ForgeTreeProviders]: {
    view: vscode.TreeView<TreeNode>;
    provider: ForgeTreeProviders[id];
  };
};

/** Each tree view and its provider, as the API hands them to tests. */
function splitViews(pairs: ViewPairs): { treeViews: ForgeTreeViews; treeProviders: ForgeTreeProviders } {
  const ids = Object.keys(pairs) as (keyof ViewPairs)[];
  return {
    treeViews: Object.fromEntries(ids.map((id) => [id, pairs[id].view])) as ForgeTreeViews,
    treeProviders: Object.fromEntries(
      ids.map((id) => [id, pairs[id].provider]),
    ) as unknown as ForgeTreeProviders,
  };
}

/** Runs `action` once, when the first of `views` is shown (at once if one already is). */
function onFirstVisible(views: readonly vscode.TreeView<TreeNode>[], action: () => void): vscode.Disposable {
  let done = false;
  const subscriptions: vscode.Disposable[] = [];
  const run = (): void => {
    if (done) return;
    done = true;
    for (const subscription of subscriptions) subscription.dispose();
    action();
  };
  if (views.some((view) => view.visible)) run();
  else
    for (const view of views)
      subscriptions.push(view.onDidChangeVisibility((event) => (event.visible ? run() : undefined)));
  return {
    dispose: () => {
      for (const subscription of subscriptions) subscription.dispose();
    },
  };
}
