// Boards and pipeline triggers in the Projects view, the Admin view (broadcast messages, system
// hooks, SSH key lookup), broadcast messages shown once, and the todo filters, driven inside a real
// VS Code against a fake forge started in this extension host.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ForgeWorkbenchApi } from '../../src/extension';
import type { AccountInfo } from '../../src/platform/accounts';
import type { TreeNode } from '../../src/platform/tree/treeNode';
import { type FakeForge, type RecordedRequest } from '../server';
import { childByLabel, childrenOf, iconId, label, type Row, useForgeSession } from './support';

type Provider = vscode.TreeDataProvider<TreeNode>;

describe('admin and boards', function () {
  this.timeout(30_000);
  const session = useForgeSession();
  let forge: FakeForge;
  let api: ForgeWorkbenchApi;
  let alice: AccountInfo;
  let root: AccountInfo;

  before(() => {
    ({ forge, api, account: alice } = session);
  });

  before(async () => {
    root = await api.accounts.add({
      serverUrl: forge.url,
      token: forge.adminToken,
      tokenKind: 'private-token',
    });
    assert.equal(root.isAdmin, true);
  });

  /** Requests of one method and path (the path as a regular expression over /api/v4/…). */
  function sent(method: string, path: RegExp): RecordedRequest[] {
    return forge.requests.filter((request) => request.method === method && path.test(request.path));
  }

  /** A folder of acme/web for an account, fresh from the server. */
  async function webFolder(account: AccountInfo, folder: string): Promise<Row> {
    api.projects.refresh();
    const accountNode = api.projects.accountNode(account);
    const web = await childByLabel(api.projects, accountNode, /^web$/i);
    return childByLabel(api.projects, web.node, folder);
  }

  function labelId(name: string): number {
    const found = [...forge.state.labels.values()].find(
      (candidate) => candidate.projectId === forge.fixtures.projects.web && candidate.name === name,
    );
    assert.ok(found, `label ${name}`);
    return found.id;
  }

  // ---- boards ---------------------------------------------------------------------------------

  describe('boards', () => {
    async function developmentBoard(
      account: AccountInfo,
    ): Promise<{ folder: Row; board: Row; lists: Row[] }> {
      const folder = await webFolder(account, 'Boards');
      const board = await childByLabel(api.projects, folder.node, 'Development');
      return { folder, board, lists: await childrenOf(api.projects, board.node) };
    }

    it('shows each board with its lists, their colour and position', async () => {
      const { folder, board, lists } = await developmentBoard(alice);
      assert.equal(iconId(folder.item), 'project');
      assert.match(String(board.item.contextValue), /^board\b.*\beditable\b/);
      assert.equal(board.item.description, '3 lists');
      assert.deepEqual(
        lists.map(({ item }) => label(item)),
        ['To Do', 'Doing', 'Review'],
      );
      assert.equal(lists[0]?.item.description, '#F0AD4E · position 0');
      assert.equal(iconId(lists[0].item), 'symbol-color');
      // alice maintains acme/web: she may move lists, but only owners and admins delete them.
      assert.match(String(lists[0]?.item.contextValue), /\bmovable\b/);
      assert.doesNotMatch(String(lists[0]?.item.contextValue), /\bdeletable\b/);
      const rootLists = (await developmentBoard(root)).lists;
      assert.match(String(rootLists[0]?.item.contextValue), /\bdeletable\b/);
    });

    it('adds a list for a label id, and names a label that does not exist', async () => {
      const { board } = await developmentBoard(alice);
      const done = labelId('Done');
      forge.clearRequests();
      const created = await vscode.commands.executeCommand<{ id: number } | undefined>(
        'forge.board.addList',
        board.node,
        { labelId: done },
      );
      assert.ok(created, 'the new list is returned');
      const [post] = sent('POST', /^\/api\/v4\/projects\/\d+\/boards\/\d+\/lists$/);
      assert.deepEqual(post?.body, { label_id: done });
      assert.equal(post?.status, 201);
      const lists = (await developmentBoard(alice)).lists;
      assert.deepEqual(
        lists.map(({ item }) => label(item)),
        ['To Do', 'Doing', 'Review', 'Done'],
      );

      forge.clearRequests();
      const missing = await vscode.commands.executeCommand('forge.board.addList', board.node, {
        labelId: 99_999,
      });
      assert.equal(missing, undefined);
      assert.equal(sent('POST', /\/boards\/\d+\/lists$/)[0]?.status, 404);
    });

    it('moves a list to a new position', async () => {
      const { lists } = await developmentBoard(alice);
      const doneList = lists.find(({ item }) => label(item) === 'Done');
      assert.ok(doneList);
      forge.clearRequests();
      await vscode.commands.executeCommand('forge.board.moveList', doneList.node, { position: 0 });
      const [put] = sent('PUT', /^\/api\/v4\/projects\/\d+\/boards\/\d+\/lists\/\d+$/);
      assert.deepEqual(put?.body, { position: 0 });
      const after = (await developmentBoard(alice)).lists;
      assert.deepEqual(
        after.map(({ item }) => label(item)),
        ['Done', 'To Do', 'Doing', 'Review'],
      );
      assert.equal(after[0]?.item.description, '#69D100 · position 0');
    });

    it('deletes a list after confirmation (owners and admins)', async () => {
      // alice is refused by the server, which the command reports instead of throwing.
      const aliceLists = (await developmentBoard(alice)).lists;
      forge.clearRequests();
      const refused = await vscode.commands.executeCommand('forge.board.deleteList', aliceLists[0]?.node, {
        confirmed: true,
      });
      assert.equal(refused, undefined);
      assert.equal(sent('DELETE', /\/boards\/\d+\/lists\/\d+$/)[0]?.status, 403);

      const { lists } = await developmentBoard(root);
      const doneList = lists.find(({ item }) => label(item) === 'Done');
      assert.ok(doneList);
      forge.clearRequests();
      const deleted = await vscode.commands.executeCommand('forge.board.deleteList', doneList.node, {
        confirmed: true,
      });
      assert.equal(deleted, true);
      assert.equal(sent('DELETE', /\/boards\/\d+\/lists\/\d+$/)[0]?.status, 204);
      assert.deepEqual(
        (await developmentBoard(root)).lists.map(({ item }) => label(item)),
        ['To Do', 'Doing', 'Review'],
      );
    });
  });

  // ---- pipeline triggers ----------------------------------------------------------------------

  describe('pipeline triggers', () => {
    async function triggers(account: AccountInfo = alice): Promise<{ folder: Row; rows: Row[] }> {
      const folder = await webFolder(account, 'Pipeline Triggers');
      return { folder, rows: await childrenOf(api.projects, folder.node) };
    }

    function row(rows: Row[], name: string): Row {
      const found = rows.find(({ item }) => label(item) === name);
      assert.ok(found, `no trigger "${name}" among ${rows.map(({ item }) => label(item)).join(', ')}`);
      return found;
    }

    it('lists triggers with owner and last use, and tells the ones alice owns', async () => {
      forge.clearRequests();
      const { rows } = await triggers();
      const nightly = row(rows, 'Nightly build');
      assert.match(String(nightly.item.description), /^Alice\b.* · used .* ago$/);
      assert.match(String(nightly.item.contextValue), /^trigger owned\b/);
      const chatops = row(rows, 'Deploy from chatops');
      assert.equal(chatops.item.description, 'no owner · never used');
      assert.match(String(chatops.item.contextValue), /^trigger notOwned\b/);
      const tooltip = nightly.item.tooltip instanceof vscode.MarkdownString ? nightly.item.tooltip.value : '';
      assert.ok(!tooltip.includes('glptt-'), 'the token is not in the tooltip');
      assert.ok(sent('GET', /^\/api\/v4\/projects\/\d+\/triggers$/).length > 0);
      assert.ok(
        sent('GET', /^\/api\/v4\/user$/).length > 0,
        'the caller is asked for once, to tell ownership',
      );
    });

    it('hides the folder where alice is no maintainer', async () => {
      api.projects.refresh();
      const project = await childByLabel(api.projects, api.projects.accountNode(alice), /^api$/i);
      const folders = (await childrenOf(api.projects, project.node)).map(({ item }) => label(item));
      assert.ok(!folders.includes('Pipeline Triggers'), folders.join(', '));
      assert.ok(folders.includes('Boards'), folders.join(', '));
    });

    it('creates a trigger from the folder and edits its description', async () => {
      const { folder } = await triggers();
      forge.clearRequests();
      const created = await vscode.commands.executeCommand<{ id: number } | undefined>(
        'forge.trigger.create',
        folder.node,
        { description: 'Release from CI' },
      );
      assert.ok(created);
      const [post] = sent('POST', /^\/api\/v4\/projects\/\d+\/triggers$/);
      assert.deepEqual(post?.body, { description: 'Release from CI' });
      let rows = (await triggers()).rows;
      assert.match(String(row(rows, 'Release from CI').item.contextValue), /^trigger owned\b/);

      forge.clearRequests();
      await vscode.commands.executeCommand('forge.trigger.edit', row(rows, 'Release from CI').node, {
        description: 'Release pipeline',
      });
      const [put] = sent('PUT', new RegExp(`^/api/v4/projects/\\d+/triggers/${created.id}$`));
      assert.deepEqual(put?.body, { description: 'Release pipeline' });
      rows = (await triggers()).rows;
      row(rows, 'Release pipeline');
    });

    it('takes ownership of a trigger', async () => {
      const { rows } = await triggers();
      forge.clearRequests();
      await vscode.commands.executeCommand(
        'forge.trigger.takeOwnership',
        row(rows, 'Deploy from chatops').node,
        {
          confirmed: true,
        },
      );
      assert.equal(sent('POST', /^\/api\/v4\/projects\/\d+\/triggers\/\d+\/take_ownership$/).length, 1);
      const after = row((await triggers()).rows, 'Deploy from chatops');
      assert.match(String(after.item.contextValue), /^trigger owned\b/);
      assert.match(String(after.item.description), /^Alice\b/);
    });

    it('copies a token to the clipboard without showing it', async () => {
      const { rows } = await triggers();
      const nightly = row(rows, 'Nightly build');
      const token = [...forge.state.triggers.values()].find(
        (trigger) => trigger.description === 'Nightly build',
      )?.token;
      assert.ok(token);
      await vscode.env.clipboard.writeText('');
      const copied = await vscode.commands.executeCommand('forge.trigger.copyToken', nightly.node);
      assert.equal(copied, true);
      assert.equal(await vscode.env.clipboard.readText(), token);
    });

    it('deletes a trigger after confirmation', async () => {
      const { rows } = await triggers();
      forge.clearRequests();
      const deleted = await vscode.commands.executeCommand(
        'forge.trigger.delete',
        row(rows, 'Release pipeline').node,
        { confirmed: true },
      );
      assert.equal(deleted, true);
      assert.equal(sent('DELETE', /^\/api\/v4\/projects\/\d+\/triggers\/\d+$/)[0]?.status, 204);
      const after = (await triggers()).rows.map(({ item }) => label(item));
      assert.ok(!after.includes('Release pipeline'), after.join(', '));
    });
  });

  // ---- the Admin view -------------------------------------------------------------------------

  describe('admin view', () => {
    function adminProvider(): Provider {
      const provider = api.treeProviders['forge.admin'];
      return provider;
    }

    /** root's admin rows: the view is flat when root is the only administrator. */
    async function adminRoot(): Promise<TreeNode | undefined> {
      const top = await childrenOf(adminProvider());
      const account = top.find(
        ({ item }) => item.contextValue === 'adminAccount' && label(item) === root.label,
      );
      return account?.node;
    }

    async function adminFolder(name: 'Broadcast Messages' | 'System Hooks'): Promise<Row> {
      return childByLabel(adminProvider(), await adminRoot(), name);
    }

    it('shows broadcast messages, system hooks and the SSH key lookup to root', async () => {
      const top = await childrenOf(adminProvider(), await adminRoot());
      assert.deepEqual(
        top.map(({ item }) => label(item)),
        ['Broadcast Messages', 'System Hooks', 'Look up SSH key by id…'],
      );
      const lookup = top[2]?.item;
      assert.equal(lookup?.command?.command, 'forge.sshKey.lookup');
      assert.deepEqual(lookup?.command?.arguments, [root.id]);

      const messages = await childrenOf(adminProvider(), (await adminFolder('Broadcast Messages')).node);
      assert.equal(messages.length, 3);
      assert.match(label(messages[0]!.item), /^Scheduled maintenance/);
      assert.match(String(messages[0]?.item.description), /^active · until 2099-12-31 23:59 · #E75E40$/);
      assert.equal(messages[0]?.item.contextValue, 'broadcastMessage active');
      assert.match(String(messages[1]?.item.description), /^ended /);
      assert.equal(messages[1]?.item.contextValue, 'broadcastMessage inactive');
      assert.match(String(messages[2]?.item.description), /^scheduled · from /);

      const hooks = await childrenOf(adminProvider(), (await adminFolder('System Hooks')).node);
      assert.deepEqual(
        hooks.map(({ item }) => [label(item), item.description]),
        [
          ['https://hooks.example.com/gitlab', 'push'],
          ['https://ci.example.com/tag-hook', 'tag push'],
        ],
      );
    });

    it('reloads a folder on request', async () => {
      const folder = await adminFolder('System Hooks');
      await childrenOf(adminProvider(), folder.node);
      forge.clearRequests();
      await vscode.commands.executeCommand('forge.admin.refresh', folder.node);
      await childrenOf(adminProvider(), folder.node);
      assert.equal(sent('GET', /^\/api\/v4\/hooks$/).length, 1);
      assert.equal(sent('GET', /^\/api\/v4\/broadcast_messages$/).length, 0, 'only that folder');
    });

    it('creates, edits and deletes a broadcast message', async () => {
      const folder = await adminFolder('Broadcast Messages');
      forge.clearRequests();
      const created = await vscode.commands.executeCommand<{ id: number } | undefined>(
        'forge.broadcastMessage.create',
        folder.node,
        { message: 'Deploy freeze', startsAt: 'now', endsAt: 'in 2 hours', color: '#1068BF' },
      );
      assert.ok(created);
      const [post] = sent('POST', /^\/api\/v4\/broadcast_messages$/);
      const body = post?.body as Record<string, string>;
      assert.equal(body['message'], 'Deploy freeze');
      assert.equal(body['color'], '#1068BF');
      const hours = (Date.parse(body['ends_at'] ?? '') - Date.parse(body['starts_at'] ?? '')) / 3_600_000;
      assert.ok(Math.abs(hours - 2) < 0.01, `ends two hours after the start (${hours})`);

      let messages = await childrenOf(adminProvider(), (await adminFolder('Broadcast Messages')).node);
      const row = messages.find(({ item }) => label(item) === 'Deploy freeze');
      assert.ok(row);
      assert.match(String(row.item.description), /^active · until .* · #1068BF$/);

      forge.clearRequests();
      await vscode.commands.executeCommand('forge.broadcastMessage.edit', row.node, {
        message: 'Deploy freeze, extended',
      });
      const [put] = sent('PUT', new RegExp(`^/api/v4/broadcast_messages/${created.id}$`));
      assert.deepEqual(put?.body, { message: 'Deploy freeze, extended' });
      messages = await childrenOf(adminProvider(), (await adminFolder('Broadcast Messages')).node);
      const edited = messages.find(({ item }) => label(item) === 'Deploy freeze, extended');
      assert.ok(edited);

      forge.clearRequests();
      const deleted = await vscode.commands.executeCommand('forge.broadcastMessage.delete', edited.node, {
        confirmed: true,
      });
      assert.equal(deleted, true);
      assert.equal(sent('DELETE', new RegExp(`^/api/v4/broadcast_messages/${created.id}$`))[0]?.status, 204);
      messages = await childrenOf(adminProvider(), (await adminFolder('Broadcast Messages')).node);
      assert.equal(messages.length, 3);
    });

    it('adds, tests and deletes a system hook; the secret is sent, not shown', async () => {
      const folder = await adminFolder('System Hooks');
      forge.clearRequests();
      const hook = await vscode.commands.executeCommand<{ id: number } | undefined>(
        'forge.systemHook.create',
        folder.node,
        {
          url: 'https://example.com/forge-hook',
          token: 'hook-secret-123',
          pushEvents: false,
          tagPushEvents: true,
        },
      );
      assert.ok(hook);
      const [post] = sent('POST', /^\/api\/v4\/hooks$/);
      assert.deepEqual(post?.body, {
        url: 'https://example.com/forge-hook',
        token: 'hook-secret-123',
        push_events: false,
        tag_push_events: true,
        enable_ssl_verification: true,
      });
      const hooks = await childrenOf(adminProvider(), (await adminFolder('System Hooks')).node);
      const row = hooks.find(({ item }) => label(item) === 'https://example.com/forge-hook');
      assert.ok(row);
      assert.equal(row.item.description, 'tag push');
      assert.ok(!JSON.stringify(row.item).includes('hook-secret-123'), 'the secret is not in the tree');

      forge.clearRequests();
      const sample = await vscode.commands.executeCommand<{ event_name: string } | undefined>(
        'forge.systemHook.test',
        row.node,
      );
      assert.equal(sample?.event_name, 'project_create');
      assert.equal(sent('GET', new RegExp(`^/api/v4/hooks/${hook.id}$`)).length, 1);

      forge.clearRequests();
      const deleted = await vscode.commands.executeCommand('forge.systemHook.delete', row.node, {
        confirmed: true,
      });
      assert.equal(deleted, true);
      assert.equal(sent('DELETE', new RegExp(`^/api/v4/hooks/${hook.id}$`))[0]?.status, 204);
      const after = await childrenOf(adminProvider(), (await adminFolder('System Hooks')).node);
      assert.equal(after.length, 2);
    });

    it('looks up an SSH key by id, and names an id that does not exist', async () => {
      const key = [...forge.state.sshKeys.values()].find((candidate) => candidate.title === 'alice@laptop');
      assert.ok(key);
      forge.clearRequests();
      const found = await vscode.commands.executeCommand<
        { id: number; title: string; owner?: string; keyStart: string } | undefined
      >('forge.sshKey.lookup', root.id, { id: key.id });
      assert.equal(found?.title, 'alice@laptop');
      assert.match(found?.owner ?? '', /\(@alice\)$/);
      assert.match(found?.keyStart ?? '', /^ssh-ed25519 AAAA\S{20}…$/);
      assert.equal(sent('GET', new RegExp(`^/api/v4/keys/${key.id}$`))[0]?.status, 200);

      forge.clearRequests();
      const missing = await vscode.commands.executeCommand('forge.sshKey.lookup', root.id, { id: 99_999 });
      assert.equal(missing, undefined);
      assert.equal(sent('GET', /^\/api\/v4\/keys\/99999$/)[0]?.status, 404);

      forge.clearRequests();
      const refused = await vscode.commands.executeCommand('forge.sshKey.lookup', root.id, { id: -1 });
      assert.match((refused as { message?: string } | undefined)?.message ?? '', /argument 2 \(id\)/);
      const mistyped = await vscode.commands.executeCommand('forge.systemHook.create', root.id, { url: 42 });
      assert.match((mistyped as { message?: string } | undefined)?.message ?? '', /argument 2 \(url\)/);
      assert.deepEqual(forge.requests, [], 'refused before any request');
    });
  });

  // ---- broadcast messages shown once ----------------------------------------------------------

  describe('broadcast messages shown once', () => {
    it('checks in the background after an account was added', async () => {
      const active = [...forge.state.broadcastMessages.values()].find((message) =>
        message.message.startsWith('Scheduled maintenance'),
      );
      assert.ok(active);
      const seen = (): unknown => api.services.context.globalState.get(`forge.broadcasts.seen.${root.id}`);
      const deadline = Date.now() + 10_000;
      while (!(Array.isArray(seen()) && (seen() as number[]).includes(active.id)) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.ok(Array.isArray(seen()) && (seen() as number[]).includes(active.id), 'shown and remembered');
      const inactive = [...forge.state.broadcastMessages.values()]
        .filter((message) => message.id !== active.id && message.message !== 'Deploy freeze, extended')
        .map((message) => message.id);
      for (const id of inactive)
        assert.ok(!(seen() as number[]).includes(id), `inactive message ${id} not shown`);
    });

    it('shows a new active message once, skips inactive ones and non-administrators quietly', async () => {
      // Whatever the background check found after the accounts were added is shown by now.
      await vscode.commands.executeCommand('forge.broadcastMessage.showActive');
      const client = await api.accounts.client(root.id);
      const message = await client.createBroadcastMessage({ message: 'Welcome to the host tests' });
      await client.createBroadcastMessage({
        message: 'Not yet',
        starts_at: '2099-01-01T00:00:00Z',
        ends_at: '2099-01-02T00:00:00Z',
      });
      forge.clearRequests();
      const first = await vscode.commands.executeCommand<number[]>('forge.broadcastMessage.showActive');
      assert.deepEqual(first, [message.id]);
      const lists = sent('GET', /^\/api\/v4\/broadcast_messages$/);
      const byToken = (token: string): RecordedRequest | undefined =>
        lists.find((request) => request.headers['private-token'] === token);
      assert.equal(byToken(forge.adminToken)?.status, 200);
      assert.equal(byToken(forge.userToken)?.status, 403, 'alice is asked too, and her 403 is silent');

      const second = await vscode.commands.executeCommand<number[]>('forge.broadcastMessage.showActive');
      assert.deepEqual(second, [], 'nothing is shown twice');
    });
  });

  // ---- todo filters ---------------------------------------------------------------------------

  describe('todo filters', () => {
    async function aliceTodos(): Promise<Row[]> {
      const groups = await childrenOf(api.todos);
      const group = groups.find(({ item }) => item.id === `todos/account/${alice.id}`);
      return group ? childrenOf(api.todos, group.node) : groups;
    }

    function todoQuery(): Record<string, string | string[]> | undefined {
      return forge.requests.find(
        (request) => request.path === '/api/v4/todos' && request.headers['private-token'] === forge.userToken,
      )?.query;
    }

    after(async () => {
      await vscode.commands.executeCommand('forge.todos.filter', alice.id, { clear: true });
    });

    it('sends action, type, project and state, and describes the filter on the view', async () => {
      const web = forge.fixtures.projects.web;
      forge.clearRequests();
      await vscode.commands.executeCommand('forge.todos.filter', alice.id, {
        filter: { action: 'assigned', type: 'MergeRequest', projectId: web, projectName: 'acme/web' },
      });
      const rows = await aliceTodos();
      assert.deepEqual(todoQuery(), {
        action: 'assigned',
        type: 'MergeRequest',
        project_id: String(web),
        state: 'pending',
        page: '1',
        per_page: '50',
      });
      assert.ok(rows.length > 0, 'alice has an assigned merge request todo on acme/web');
      assert.ok(rows.every(({ item }) => item.contextValue === 'todo pending'));
      assert.match(api.treeViews['forge.todos'].description ?? '', /assigned · merge requests · acme\/web/);
    });

    it('shows done todos without the "Mark as done" action', async () => {
      forge.clearRequests();
      await vscode.commands.executeCommand('forge.todos.filter', alice.id, { filter: { state: 'done' } });
      const rows = await aliceTodos();
      assert.deepEqual(todoQuery(), { state: 'done', page: '1', per_page: '50' });
      assert.ok(rows.length > 0);
      assert.ok(
        rows.every(({ item }) => item.contextValue === 'todo done'),
        'no pending capability',
      );
      assert.match(api.treeViews['forge.todos'].description ?? '', /\bdone\b/);
    });

    it('clears back to pending todos with no filter', async () => {
      forge.clearRequests();
      await vscode.commands.executeCommand('forge.todos.filter', alice.id, { clear: true });
      await aliceTodos();
      assert.deepEqual(todoQuery(), { state: 'pending', page: '1', per_page: '50' });
      assert.doesNotMatch(api.treeViews['forge.todos'].description ?? '', /alice|done|assigned/i);
    });
  });
});
