// Accounts, the Projects view and the Todos view, driven inside a real VS Code against a fake
// forge started in this extension host, asserting on what the user sees (tree items) and on what
// the server received.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ForgeWorkbenchApi } from '../../src/extension';
import type { AccountInfo } from '../../src/platform/accounts';
import type { TreeNode } from '../../src/platform/tree/treeNode';
import { type FakeForge, startFakeForge } from '../server';
import {
  assertRefused,
  childByLabel,
  childrenOf,
  eventually,
  iconId,
  label,
  workbenchApi,
  jobRowsOf,
} from './support';

/** Runs a command; 'asked which account' when it is still waiting after 5 s (for a question no one answers). */
function runWithoutAsking(command: string, ...args: unknown[]): Promise<unknown> {
  return Promise.race([
    vscode.commands.executeCommand(command, ...args).then(() => 'done'),
    new Promise((resolve) => setTimeout(() => resolve('asked which account'), 5_000)),
  ]);
}

describe('accounts and views', function () {
  this.timeout(30_000);
  let forge: FakeForge;
  let api: ForgeWorkbenchApi;
  let account: AccountInfo;

  before(async () => {
    forge = await startFakeForge({ seed: 'small' });
    api = await workbenchApi();
    // Every test has alice's account, also one run alone (`--grep`).
    account = await api.accounts.add({
      serverUrl: forge.url,
      token: forge.userToken,
      tokenKind: 'private-token',
    });
  });

  after(async () => {
    for (const added of api.accounts.list().filter((candidate) => candidate.serverUrl === forge.url)) {
      await api.accounts.remove(added.id);
    }
    await forge.close();
  });

  /** The tree node of our account, whether the view shows accounts or (single account) projects. */
  async function accountRoot(provider: vscode.TreeDataProvider<TreeNode>): Promise<TreeNode | undefined> {
    if (api.accounts.list().length === 1) return undefined;
    return (await childByLabel(provider, undefined, account.label)).node;
  }

  it('checks a token with the server before saving the account', async () => {
    // The suite's account, removed and added again as a person adds one.
    await api.accounts.remove(account.id);
    const before = api.accounts.list().length;
    forge.clearRequests();
    account = await api.accounts.add({
      serverUrl: `${forge.url}/`,
      token: forge.userToken,
      tokenKind: 'private-token',
    });
    assert.equal(api.accounts.list().length, before + 1);
    assert.equal(account.serverUrl, forge.url);
    assert.equal(account.isAdmin, false);
    const check = forge.requests.find((request) => request.path === '/api/v4/todos');
    assert.ok(check, 'the token was checked');
    assert.equal(check.headers['private-token'], forge.userToken);
    assert.ok(!JSON.stringify(account).includes(forge.userToken), 'the token is not in the account metadata');
  });

  it('refuses a rejected token and saves nothing', async () => {
    const before = api.accounts.list().length;
    await assert.rejects(
      api.accounts.add({
        serverUrl: forge.url,
        token: 'glpat-wrong-token-000000',
        tokenKind: 'private-token',
      }),
      (error: Error) => error.name === 'UnauthorizedError' && !error.message.includes('glpat-wrong-token'),
    );
    assert.equal(api.accounts.list().length, before);
  });

  it('says what to do when "Add Account" fails: no "Update Token" (there is no account), no internal check', async () => {
    const rejected = await vscode.commands.executeCommand<{ added: boolean; message?: string }>(
      'forge.account.add',
      {
        serverUrl: forge.url,
        token: 'glpat-wrong-token-000000',
      },
    );
    assert.equal(rejected?.added, false);
    assert.match(rejected.message ?? '', /rejected the token/);
    assert.match(rejected.message ?? '', /add the account again/);
    assert.doesNotMatch(rejected.message ?? '', /Update Token/);
    // A port nothing listens on (the forge's own, once closed, would do; 9 is discard and refused here).
    const unreachable = await vscode.commands.executeCommand<{ added: boolean; message?: string }>(
      'forge.account.add',
      {
        serverUrl: 'http://127.0.0.1:9',
        token: forge.userToken,
      },
    );
    assert.equal(unreachable?.added, false);
    assert.match(unreachable.message ?? '', /127\.0\.0\.1:9 could not be reached/);
    assert.doesNotMatch(unreachable.message ?? '', /\/todos|GET /);
  });

  it('recognises an administrator, and removing the account removes its token', async () => {
    const admin = await api.accounts.add({
      serverUrl: forge.url,
      token: forge.adminToken,
      tokenKind: 'private-token',
    });
    assert.equal(admin.isAdmin, true);
    // A second account on the same server says whose it is.
    const host = new URL(forge.url).host;
    assert.equal(admin.label, `root@${host}`);
    const second = await api.accounts.add({
      serverUrl: forge.url,
      token: forge.userToken,
      tokenKind: 'private-token',
    });
    // Named after its user; the session's account is alice's too, so this one is told apart.
    assert.equal(api.accounts.list().filter((each) => each.label === `alice@${host}`).length, 1);
    assert.equal(second.label, `alice@${host} (2)`);
    await api.accounts.remove(second.id);
    await api.accounts.remove(admin.id);
    assert.equal(api.accounts.get(admin.id), undefined);
    await assert.rejects(api.accounts.client(admin.id), /no longer exists/);
  });

  it('acts on the account whose row a command ran on, and refuses wrong arguments, before any request', async () => {
    const second = await api.accounts.add({
      serverUrl: forge.url,
      token: forge.userToken,
      tokenKind: 'private-token',
    });
    try {
      // Found by its account: another account of the same user on this server has the same label.
      const row = (await childrenOf(api.projects, undefined)).find(
        ({ node }) => (node as { account?: AccountInfo }).account?.id === second.id,
      )?.node;
      assert.ok(row, 'the row of the second account');
      forge.clearRequests();
      const refusals: [string, unknown[], RegExp][] = [
        [
          'forge.account.add',
          [{ serverUrl: forge.url, token: 'x', tokenKind: 'pat' }],
          /argument 1 \(tokenKind\): /,
        ],
        ['forge.account.remove', [second.id, { confirm: true }], /argument 2: .*confirm/],
        ['forge.account.sudo', [42], /argument 1: expected an account or expected an account id/],
      ];
      await assertRefused(refusals);
      assert.deepEqual(forge.requests, []);
      // Several accounts: run from the row, a command must not ask which one (a question would never end here).
      assert.ok(api.accounts.list().length > 1);
      assert.equal(await runWithoutAsking('forge.projects.filter', row, { scope: 'owned' }), 'done');
      assert.deepEqual(api.projectFilters.get(second.id), { scope: 'owned' });
      assert.deepEqual(
        api.projectFilters.get(account.id).scope,
        'membership',
        'the other account keeps its filter',
      );
      assert.equal(await runWithoutAsking('forge.account.remove', row, { confirmed: true }), 'done');
      assert.equal(api.accounts.get(second.id), undefined, 'the account of the row was removed');
    } finally {
      if (api.accounts.get(second.id)) await api.accounts.remove(second.id);
    }
  });

  it("moves an account to its server's new address, checking the token there first", async () => {
    const moving = await api.accounts.add({
      serverUrl: forge.url,
      token: forge.userToken,
      tokenKind: 'private-token',
    });
    const newUrl = forge.url.replace('127.0.0.1', 'localhost');
    try {
      const shown: string[] = [];
      const observing = api.messages.observe((message) => shown.push(message.text));
      try {
        // Nothing answers there: the account stays where it was.
        const refused = await vscode.commands.executeCommand('forge.account.changeServerUrl', moving.id, {
          serverUrl: 'http://127.0.0.1:9',
        });
        assert.equal(refused, undefined);
        assert.equal(api.accounts.get(moving.id)?.serverUrl, forge.url);
        assert.match(shown.join('\n'), /still connects to http:\/\/127\.0\.0\.1:\d+.*could not be reached/);
      } finally {
        observing.dispose();
      }
      // "Forge: Show Log" opens the extension's log in the Output panel …
      await vscode.commands.executeCommand('forge.log.show');
      await eventually(() =>
        assert.ok(
          vscode.workspace.textDocuments.some(
            (document) => document.uri.scheme === 'output' && document.uri.path.includes('Forge Workbench'),
          ),
          vscode.workspace.textDocuments.map((document) => document.uri.toString()).join(', '),
        ),
      );
      // … which has the action, the failed request and what the user was told; no token.
      const logFile = join(api.services.context.logUri.fsPath, 'Forge Workbench.log');
      await eventually(() => {
        const logged = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
        assert.match(logged, /\[info\] forge\.account\.changeServerUrl/);
        assert.match(logged, /\[warning\] 127\.0\.0\.1:9: GET \/todos could not reach the server/);
        assert.match(logged, /\[error\] Shown: .* still connects to/);
        assert.ok(!logged.includes(forge.userToken), 'no token in the log');
      }, 10_000);
      forge.clearRequests();
      await vscode.commands.executeCommand('forge.account.changeServerUrl', moving.id, { serverUrl: newUrl });
      const moved = api.accounts.get(moving.id);
      assert.equal(moved?.serverUrl, newUrl);
      // Named after its user and host (told apart with " (2)" when another account of alice's is
      // there): the label follows the host, and keeps its suffix.
      const oldHost = new URL(forge.url).host;
      assert.match(moving.label, new RegExp(`^alice@${oldHost.replace(/\./g, '\\.')}( \\(\\d+\\))?$`));
      assert.equal(moved?.label, moving.label.replace(oldHost, new URL(newUrl).host));
      forge.clearRequests();
      await (await api.accounts.client(moving.id)).listTodos().page({ perPage: 1 });
      assert.equal(
        forge.requests.find((request) => request.path === '/api/v4/todos')?.headers['host'],
        new URL(newUrl).host,
      );
    } finally {
      await api.accounts.remove(moving.id);
    }
  });

  it('lets an administrator act as another user for the session', async () => {
    const admin = await api.accounts.add({
      serverUrl: forge.url,
      token: forge.adminToken,
      tokenKind: 'private-token',
    });
    try {
      await vscode.commands.executeCommand('forge.account.sudo', admin.id, { username: 'alice' });
      forge.clearRequests();
      const client = await api.accounts.client(admin.id);
      await client.listTodos().page({ perPage: 1 });
      const sent = forge.requests.find((request) => request.path === '/api/v4/todos');
      assert.equal(sent?.headers['sudo'], 'alice');
      assert.equal(sent?.headers['private-token'], forge.adminToken);
      // alice is no administrator: the Admin view no longer offers this account.
      const adminView = api.treeProviders['forge.admin'];
      const adminRows = async (): Promise<string[]> =>
        ((await adminView.getChildren()) ?? []).map((node) => String(node.getTreeItem().id ?? ''));
      assert.ok(
        !(await adminRows()).some((id) => id.includes(admin.id)),
        'no admin rows while acting as alice',
      );
      // An unknown user is refused, and the account keeps acting as alice.
      const shown: string[] = [];
      const observing = api.messages.observe((message) => shown.push(message.text));
      try {
        await vscode.commands.executeCommand('forge.account.sudo', admin.id, { username: 'nobody-here' });
      } finally {
        observing.dispose();
      }
      assert.equal(api.accounts.sudoOf(admin.id), 'alice');
      assert.match(shown.join('\n'), /Could not act as nobody-here .*you still act as alice/);
      await vscode.commands.executeCommand('forge.account.sudo', admin.id, { username: '' });
      assert.ok((await adminRows()).length > 0, 'the Admin view is back');
      forge.clearRequests();
      await (await api.accounts.client(admin.id)).listTodos().page({ perPage: 1 });
      assert.equal(
        forge.requests.find((request) => request.path === '/api/v4/todos')?.headers['sudo'],
        undefined,
      );
    } finally {
      await vscode.commands.executeCommand('forge.account.remove', admin.id, { confirmed: true });
    }
    assert.equal(api.accounts.get(admin.id), undefined, 'removed through the command');
  });

  it('lists the projects alice is a member of, with their folders', async () => {
    forge.clearRequests();
    api.projects.refresh();
    const root = await accountRoot(api.projects);
    const projects = await childrenOf(api.projects, root);
    const names = projects.map(({ item }) => label(item));
    assert.ok(names.includes('web') || names.includes('Web'), `projects: ${names.join(', ')}`);
    assert.ok(!names.some((name) => /secret/i.test(name)), 'a private project alice is not in is not listed');
    const listRequest = forge.requests.find((request) => request.path === '/api/v4/projects');
    assert.equal(listRequest?.query['membership'], 'true');
    const web = projects.find(({ item }) => /^web$/i.test(label(item)));
    assert.ok(web);
    const folders = await childrenOf(api.projects, web.node);
    const folderLabels = folders.map(({ item }) => label(item));
    for (const folder of ['Branches', 'Jobs', 'Merge Requests', 'Events']) {
      assert.ok(folderLabels.includes(folder), `${folder} in ${folderLabels.join(', ')}`);
    }
  });

  it('filters projects: starred, and a search', async () => {
    forge.clearRequests();
    await vscode.commands.executeCommand('forge.projects.filter', account.id, { scope: 'starred' });
    await childrenOf(api.projects, await accountRoot(api.projects));
    let listRequest = forge.requests.find((request) => request.path === '/api/v4/projects');
    assert.equal(listRequest?.query['starred'], 'true');
    assert.equal(listRequest?.query['membership'], undefined);

    await api.projectFilters.set(account.id, { scope: 'membership', search: 'infra' });
    forge.clearRequests();
    api.projects.refresh();
    const found = await childrenOf(api.projects, await accountRoot(api.projects));
    listRequest = forge.requests.find((request) => request.path === '/api/v4/projects');
    assert.equal(listRequest?.query['search'], 'infra');
    assert.deepEqual(
      found.map(({ item }) => item.description),
      ['acme/infra'],
    );
    await api.projectFilters.set(account.id, { scope: 'membership' });
    api.projects.refresh();
  });

  it('groups jobs by pipeline, newest first, with status icons', async () => {
    const root = await accountRoot(api.projects);
    const web = await childByLabel(api.projects, root, /^web$/i);
    const jobsFolder = await childByLabel(api.projects, web.node, 'Jobs');
    const pipelines = await childrenOf(api.projects, jobsFolder.node);
    const ids = pipelines
      .map(({ item }) => /^Pipeline #(\d+)$/.exec(label(item))?.[1])
      .filter((id): id is string => id !== undefined)
      .map(Number);
    assert.ok(ids.length >= 2, `pipelines: ${pipelines.map(({ item }) => label(item)).join(', ')}`);
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => b - a),
      'newest pipeline first',
    );
    const [first] = pipelines;
    assert.ok(first);
    const jobs = await jobRowsOf(api.projects, first.node);
    assert.ok(jobs.length > 0);
    for (const { item } of jobs) {
      assert.ok(iconId(item), 'every job has a status icon');
      assert.match(String(item.contextValue), /^job \w+ (active|finished)\b/);
    }
  });

  it('refreshes on demand, and automatically only the folders with running jobs', async () => {
    forge.clearRequests();
    await vscode.commands.executeCommand('forge.projects.refresh');
    assert.ok(
      forge.requests.some((request) => request.path === '/api/v4/projects'),
      'refresh reloads projects',
    );
    const root = await accountRoot(api.projects);
    const web = await childByLabel(api.projects, root, /^web$/i);
    const jobsFolder = await childByLabel(api.projects, web.node, 'Jobs');
    await childrenOf(api.projects, jobsFolder.node);
    forge.clearRequests();
    api.projects.refreshActive();
    await childrenOf(api.projects, jobsFolder.node);
    // The Jobs folder lists the project's pipelines (one is running).
    const jobLists = forge.requests.filter((request) =>
      /^\/api\/v4\/projects\/\d+\/(jobs|pipelines)$/.test(request.path),
    );
    assert.deepEqual(
      jobLists.map((request) => request.path),
      [`/api/v4/projects/${forge.fixtures.projects.web}/pipelines`],
      'the Jobs folder with a running pipeline was reloaded once',
    );
    assert.ok(
      !forge.requests.some((request) => request.path === '/api/v4/projects'),
      'the project list was left alone',
    );
  });

  it('shows opened merge requests by default and other states on request', async () => {
    forge.clearRequests();
    const root = await accountRoot(api.projects);
    const web = await childByLabel(api.projects, root, /^web$/i);
    const folder = await childByLabel(api.projects, web.node, 'Merge Requests');
    assert.equal(folder.item.description, 'opened');
    const opened = await childrenOf(api.projects, folder.node);
    assert.ok(opened.length > 0 && opened.every(({ item }) => label(item).startsWith('!')));
    assert.equal(
      forge.requests.find((request) => request.path.endsWith('/merge_requests'))?.query['state'],
      'opened',
    );
    forge.clearRequests();
    await vscode.commands.executeCommand('forge.mergeRequests.selectState', folder.node, { state: 'merged' });
    const merged = await childrenOf(api.projects, folder.node);
    assert.ok(merged.length > 0);
    assert.equal(
      forge.requests.find((request) => request.path.endsWith('/merge_requests'))?.query['state'],
      'merged',
    );
  });

  it('shows an error item with retry instead of a blank view, and recovers', async () => {
    forge.onRequest((request, response) => {
      if (request.url?.startsWith('/api/v4/projects?') && request.method === 'GET') {
        response
          .writeHead(500, { 'content-type': 'application/json' })
          .end('{"message":"500 Internal Server Error"}');
        return true;
      }
      return false;
    });
    api.projects.refresh();
    const root = await accountRoot(api.projects);
    const [errorChild] = await childrenOf(api.projects, root);
    assert.ok(errorChild);
    assert.match(label(errorChild.item), /^Could not load: .*500 Internal Server Error/);
    assert.equal(errorChild.item.command?.command, 'forge.tree.retry');
    forge.onRequest(undefined);
    await vscode.commands.executeCommand('forge.tree.retry', errorChild.node);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const projects = await childrenOf(api.projects, root);
    assert.ok(projects.some(({ item }) => /^web$/i.test(label(item))));
  });

  it('offers to update the token when the server rejects it', async () => {
    forge.onRequest((request, response) => {
      if (request.url?.startsWith('/api/v4/projects?')) {
        response.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"401 Unauthorized"}');
        return true;
      }
      return false;
    });
    api.projects.refresh();
    const root = await accountRoot(api.projects);
    const [errorChild] = await childrenOf(api.projects, root);
    forge.onRequest(undefined);
    assert.ok(errorChild);
    assert.match(label(errorChild.item), /rejected the token/);
    assert.equal(errorChild.item.command?.command, 'forge.account.updateToken');
    assert.deepEqual(errorChild.item.command?.arguments, [account.id]);
  });

  it('the automatic refresh reads Todos again as far as "Load more" had gone', async () => {
    const before = new Set(forge.state.todos.keys());
    forge.state.bulkAddTodos(forge.users.user.id, 60);
    try {
      api.todos.refresh();
      await childrenOf(api.todos);
      const group = api.todos.accountGroups().find((candidate) => candidate.account.id === account.id);
      assert.ok(group);
      const rows = await childrenOf(api.todos, group);
      assert.equal(label(rows.at(-1)?.item ?? {}), 'Load more…');
      await vscode.commands.executeCommand('forge.tree.loadMore', rows.at(-1)?.node);
      const more = await eventually(async () => {
        const now = await childrenOf(api.todos, group);
        assert.ok(now.length > rows.length, 'the second page is shown');
        return now;
      });
      const target = [...forge.state.mergeRequests.values()][0];
      assert.ok(target);
      const arrived = forge.state.addTodo({
        userId: forge.users.user.id,
        projectId: target.projectId,
        authorId: forge.users.admin.id,
        actionName: 'mentioned',
        targetType: 'MergeRequest',
        targetId: target.id,
        body: 'Arrived while shown',
      });
      await api.todos.reloadInPlace();
      const after = await childrenOf(api.todos, group);
      assert.ok(after.length >= more.length, `not folded back to the first page (${after.length} rows)`);
      assert.ok(
        after.some(({ item }) => item.id === `account/${account.id}/todo/${arrived.id}`),
        'the todo that arrived is shown',
      );
    } finally {
      for (const id of forge.state.todos.keys()) if (!before.has(id)) forge.state.todos.delete(id);
      api.todos.refresh();
    }
  });

  it('redraws after "Load more" when the only account’s row is hidden (Projects and Todos)', async () => {
    // One account, so that its row is not shown: the account the runner gives every suite through the
    // environment goes (no later suite needs it; this file runs last).
    for (const other of api.accounts.list().filter((candidate) => candidate.id !== account.id)) {
      await api.accounts.remove(other.id);
    }
    assert.equal(api.accounts.list().length, 1, 'one account: its row is not shown');
    const web = forge.state.projects.get(forge.fixtures.projects.web);
    assert.ok(web);
    const added: number[] = [];
    for (let index = 0; index < 60; index++) {
      const id = forge.state.nextId('project');
      forge.state.projects.set(id, {
        ...web,
        id,
        name: `Extra ${index}`,
        path: `extra-${index}`,
        starredBy: new Set(),
        members: new Map([[forge.users.user.id, 30]]),
        branches: new Map(web.branches),
      });
      added.push(id);
    }
    forge.state.bulkAddTodos(forge.users.user.id, 60);
    try {
      for (const provider of [api.projects, api.todos]) {
        provider.refresh();
        const first = await childrenOf(provider);
        const loadMore = first.at(-1);
        assert.equal(label(loadMore?.item ?? {}), 'Load more…');
        const changes: (TreeNode | TreeNode[] | undefined | null | void)[] = [];
        const listening = provider.onDidChangeTreeData((change) => changes.push(change));
        try {
          await vscode.commands.executeCommand('forge.tree.loadMore', loadMore?.node);
          await eventually(() => assert.ok(changes.length > 0, 'the view was told to redraw'));
          // VS Code redraws only what it shows: with one account, that is the root (undefined).
          const shown = new Set(first.map((row) => row.node));
          for (const change of changes) {
            const nodes = Array.isArray(change) ? change : [change];
            for (const node of nodes) {
              assert.ok(
                node === undefined || node === null || shown.has(node),
                'a change names a shown node',
              );
            }
          }
        } finally {
          listening.dispose();
        }
        assert.ok((await childrenOf(provider)).length > first.length, 'more rows');
      }
    } finally {
      for (const id of added) forge.state.projects.delete(id);
      api.projects.refresh();
      api.todos.refresh();
    }
  });

  it('lists pending todos a page at a time with a count badge', async () => {
    const alice = forge.users.user;
    forge.state.bulkAddTodos(alice.id, 120);
    api.todos.refresh();
    const group = await accountRoot(api.todos);
    const first = await childrenOf(api.todos, group);
    const loadMore = first.at(-1);
    assert.ok(loadMore);
    assert.equal(label(loadMore.item), 'Load more…');
    assert.equal(first.length, 51, '50 todos and "Load more"');
    // Each row says what happened first, where a narrow sidebar does not cut it off.
    for (const { item } of first.slice(0, -1)) {
      assert.match(
        label(item),
        /^(.+ (assigned you|mentioned you|addressed you|asks your approval|asks your review)|pipeline failed|cannot merge|your todo): [!#]\d+ /,
      );
    }
    const total = api.todos.pendingCount();
    assert.ok(total >= 120);
    assert.equal(api.treeViews['forge.todos'].badge?.value, total);
    await vscode.commands.executeCommand('forge.tree.loadMore', loadMore.node);
    const second = await childrenOf(api.todos, group);
    assert.equal(second.length, 101);
  });

  it('marks a todo as done from the tree', async () => {
    const group = await accountRoot(api.todos);
    const [todo] = await childrenOf(api.todos, group);
    assert.ok(todo);
    assert.equal(todo.item.contextValue, 'todo pending');
    const before = api.todos.pendingCount();
    forge.clearRequests();
    await vscode.commands.executeCommand('forge.todo.markDone', todo.node);
    const done = forge.requests.find((request) => /^\/api\/v4\/todos\/\d+\/mark_as_done$/.test(request.path));
    assert.ok(done, 'POST mark_as_done sent');
    assert.equal(done.method, 'POST');
    assert.equal(api.todos.pendingCount(), before - 1);
    const after = await childrenOf(api.todos, group);
    assert.ok(!after.some(({ item }) => item.id === todo.item.id));
  });

  it('refuses a declared command given the wrong argument, saying so, before any request', async () => {
    forge.clearRequests();
    const refused = await vscode.commands.executeCommand('forge.todo.markDone', { todo: { id: 1 } });
    assert.deepEqual(refused, {
      invalidInput: true,
      message:
        'The command forge.todo.markDone cannot take its argument 1: expected a todo of the Todos view.',
    });
    const options = await vscode.commands.executeCommand('forge.todo.markAllDone', { confirmd: true });
    assert.match((options as { message?: string } | undefined)?.message ?? '', /argument 1: .*confirmd/);
    assert.deepEqual(forge.requests, []);
  });

  it('marks all todos as done after confirmation, and refreshes on demand', async () => {
    forge.clearRequests();
    await vscode.commands.executeCommand('forge.todo.markAllDone', { confirmed: true });
    const sent = forge.requests.find((request) => request.path === '/api/v4/todos/mark_as_done');
    assert.equal(sent?.method, 'POST');
    await vscode.commands.executeCommand('forge.todos.refresh');
    const group = await accountRoot(api.todos);
    const rows = await childrenOf(api.todos, group);
    assert.deepEqual(
      rows.map(({ item }) => label(item)),
      ['Nothing to do'],
    );
  });
});
