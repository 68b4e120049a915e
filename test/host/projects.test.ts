// Project actions and CI templates, run inside a real VS Code against a fake forge started in this
// extension host: each command is run from its tree node (the options argument stands in for the
// prompts), and the suite asserts on what the server received and on the tree afterwards.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ForgeWorkbenchApi } from '../../src/extension';
import type { AccountInfo } from '../../src/platform/accounts';
import type { TreeNode } from '../../src/platform/tree/treeNode';
import { type FakeForge, type RecordedRequest } from '../server';
import { clipboardHolds, iconId, type Row, shownTooltip as tooltipText, useForgeSession } from './support';

/**
 * Whether the context menu of the Projects view offers `command` on a row with this contextValue:
 * every `viewItem =~ /…/` clause of the command's package.json entry must match.
 */
function menuOffers(command: string, contextValue: string | undefined): boolean {
  const extension = vscode.extensions.getExtension('forge-workbench.forge-workbench');
  const manifest = extension?.packageJSON as {
    contributes: { menus: Record<string, { command: string; when?: string; group?: string }[]> };
  };
  const entry = (manifest.contributes.menus['view/item/context'] ?? []).find(
    (candidate) =>
      candidate.command === command &&
      candidate.group !== 'inline' &&
      (candidate.when ?? '').includes('viewItem =~ /^project'),
  );
  assert.ok(entry?.when, `no context menu entry for ${command} on projects`);
  const clauses = [...entry.when.matchAll(/viewItem =~ \/(.*?)\/(?= |$)/g)].map((match) => match[1] ?? '');
  return clauses.every((source) => new RegExp(source).test(contextValue ?? ''));
}

describe('project actions', function () {
  this.timeout(30_000);
  const session = useForgeSession();
  let forge: FakeForge;
  let api: ForgeWorkbenchApi;
  let account: AccountInfo;
  let ciFile: vscode.Uri | undefined;

  async function childrenOf(node?: TreeNode): Promise<Row[]> {
    const children = (await api.projects.getChildren(node)) ?? [];
    return children.map((child) => ({ node: child, item: api.projects.getTreeItem(child) }));
  }

  /** Our account's row, or undefined when the view lists projects at the top (a single account). */
  async function accountRoot(): Promise<TreeNode | undefined> {
    if (api.accounts.list().length === 1) return undefined;
    const rows = await childrenOf();
    const found = rows.find(({ item }) => item.id === `account/${account.id}`);
    assert.ok(found, 'our account is in the Projects view');
    return found.node;
  }

  async function projectRows(): Promise<Row[]> {
    api.projects.refresh();
    return childrenOf(await accountRoot());
  }

  /** The project row whose description is the path, freshly loaded from the server. */
  async function projectRow(path: string): Promise<Row> {
    const rows = await projectRows();
    const found = rows.find(({ item }) => item.description === path);
    assert.ok(
      found,
      `no project ${path} among ${rows.map(({ item }) => String(item.description)).join(', ')}`,
    );
    return found;
  }

  function requestsTo(method: string, pattern: RegExp): RecordedRequest[] {
    return forge.requests.filter((request) => request.method === method && pattern.test(request.path));
  }

  before(() => {
    ({ forge, api, account } = session);
  });

  before(() => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (folder) ciFile = vscode.Uri.joinPath(folder.uri, '.gitlab-ci.yml');
  });

  session.cleanUps.push(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (ciFile) await vscode.workspace.fs.delete(ciFile).then(undefined, () => undefined);
  });

  it('marks what the caller may do on each project row', async () => {
    const web = await projectRow('acme/web');
    // alice maintains acme/web but does not own it: edit yes, archive and delete no.
    assert.match(String(web.item.contextValue), /^project active\b/);
    assert.match(String(web.item.contextValue), /\bmaintainer\b/);
    assert.doesNotMatch(String(web.item.contextValue), /\bowner\b/);
    const dotfiles = await projectRow('alice/dotfiles');
    assert.match(String(dotfiles.item.contextValue), /\bowner\b/);
    const offered = (row: Row): string[] =>
      [
        'forge.project.openInBrowser',
        'forge.project.copyUrl',
        'forge.project.members',
        'forge.project.star',
        'forge.project.unstar',
        'forge.project.fork',
        'forge.project.edit',
        'forge.project.archive',
        'forge.project.unarchive',
        'forge.project.delete',
      ].filter((command) => menuOffers(command, row.item.contextValue));
    const common = [
      'forge.project.openInBrowser',
      'forge.project.copyUrl',
      'forge.project.members',
      'forge.project.star',
      'forge.project.unstar',
      'forge.project.fork',
    ];
    assert.deepEqual(offered(web), [...common, 'forge.project.edit']);
    assert.deepEqual(offered(dotfiles), [
      ...common,
      'forge.project.edit',
      'forge.project.archive',
      'forge.project.delete',
    ]);
  });

  it('creates a project from the account row', async () => {
    forge.clearRequests();
    const root = await accountRoot();
    const project = await vscode.commands.executeCommand<{ path_with_namespace?: string } | undefined>(
      'forge.project.create',
      root ?? account.id,
      { name: 'Scratch', visibility: 'internal', description: 'Made by a test' },
    );
    assert.equal(project?.path_with_namespace, 'alice/scratch');
    const [post] = requestsTo('POST', /^\/api\/v4\/projects$/);
    assert.ok(post, 'POST /projects sent');
    assert.deepEqual(post.body, { name: 'Scratch', visibility: 'internal', description: 'Made by a test' });
    assert.equal(post.status, 201);
    const row = await projectRow('alice/scratch');
    assert.equal(row.item.label, 'Scratch');
    assert.match(tooltipText(row.item), /Made by a test/);
  });

  it('creates a project for another user as an administrator', async () => {
    const admin = await api.accounts.add({
      serverUrl: forge.url,
      token: forge.adminToken,
      tokenKind: 'private-token',
    });
    try {
      forge.clearRequests();
      const bob = forge.users.bob;
      const project = await vscode.commands.executeCommand<{ path_with_namespace?: string } | undefined>(
        'forge.project.create',
        admin.id,
        { name: 'For Bob', visibility: 'private', forUserId: bob.id },
      );
      assert.equal(project?.path_with_namespace, 'bob/for-bob');
      const [post] = requestsTo('POST', new RegExp(`^/api/v4/projects/user/${bob.id}$`));
      assert.ok(post, 'POST /projects/user/:user_id sent');
      assert.equal(post.headers['private-token'], forge.adminToken);
      assert.deepEqual(post.body, { name: 'For Bob', visibility: 'private' });
      assert.ok(forge.state.findProject('bob/for-bob'), 'the forge has bob/for-bob');
    } finally {
      await api.accounts.remove(admin.id);
    }
  });

  it('edits the description and visibility, always sending the name', async () => {
    const row = await projectRow('alice/scratch');
    forge.clearRequests();
    await vscode.commands.executeCommand('forge.project.edit', row.node, {
      description: 'Edited by a test',
      visibility: 'private',
    });
    const [put] = requestsTo('PUT', /^\/api\/v4\/projects\/\d+$/);
    assert.ok(put, 'PUT /projects/:id sent');
    assert.deepEqual(put.body, { name: 'Scratch', description: 'Edited by a test', visibility: 'private' });
    assert.equal(put.status, 200);
    const after = await projectRow('alice/scratch');
    assert.match(tooltipText(after.item), /Edited by a test/);
    assert.equal(iconId(after.item), 'lock');
  });

  it('forks a project into a namespace', async () => {
    const web = await projectRow('acme/web');
    forge.clearRequests();
    const fork = await vscode.commands.executeCommand<{ path_with_namespace?: string } | undefined>(
      'forge.project.fork',
      web.node,
      { namespace: 'alice' },
    );
    assert.equal(fork?.path_with_namespace, 'alice/web');
    const [post] = requestsTo('POST', new RegExp(`^/api/v4/projects/${forge.fixtures.projects.web}/fork$`));
    assert.ok(post, 'POST /projects/:id/fork sent');
    assert.deepEqual(post.body, { namespace: 'alice' });
    await projectRow('alice/web');
  });

  it('stars a project once; starring again is the 304 path, not an error', async () => {
    const row = await projectRow('alice/scratch');
    forge.clearRequests();
    assert.equal(await vscode.commands.executeCommand('forge.project.star', row.node), true);
    assert.equal(await vscode.commands.executeCommand('forge.project.star', row.node), false);
    const stars = requestsTo('POST', /^\/api\/v4\/projects\/\d+\/star$/);
    assert.equal(stars.length, 2);
    assert.deepEqual(
      stars.map((request) => request.status),
      [200, 304],
    );
    const starred = await projectRow('alice/scratch');
    assert.match(tooltipText(starred.item), /★ 1/);

    forge.clearRequests();
    assert.equal(await vscode.commands.executeCommand('forge.project.unstar', starred.node), true);
    assert.equal(await vscode.commands.executeCommand('forge.project.unstar', starred.node), false);
    assert.deepEqual(
      requestsTo('POST', /^\/api\/v4\/projects\/\d+\/unstar$/).map((request) => request.status),
      [200, 304],
    );
    assert.match(tooltipText((await projectRow('alice/scratch')).item), /★ 0/);
  });

  it('archives and unarchives a project', async () => {
    const row = await projectRow('alice/scratch');
    forge.clearRequests();
    await vscode.commands.executeCommand('forge.project.archive', row.node, { confirmed: true });
    assert.equal(requestsTo('POST', /^\/api\/v4\/projects\/\d+\/archive$/).length, 1);
    const archived = await projectRow('alice/scratch');
    assert.match(String(archived.item.contextValue), /^project archived\b/);
    assert.equal(iconId(archived.item), 'archive');

    await vscode.commands.executeCommand('forge.project.unarchive', archived.node);
    assert.equal(requestsTo('POST', /^\/api\/v4\/projects\/\d+\/unarchive$/).length, 1);
    const active = await projectRow('alice/scratch');
    assert.match(String(active.item.contextValue), /^project active\b/);
  });

  it('copies the clone and web URLs', async () => {
    const web = await projectRow('acme/web');
    const expected = {
      ssh: 'git@127.0.0.1:acme/web.git',
      https: `${forge.url}/acme/web.git`,
      web: `${forge.url}/acme/web`,
    };
    let clipboardReadable = true;
    for (const [kind, url] of Object.entries(expected)) {
      const copied = await vscode.commands.executeCommand('forge.project.copyUrl', web.node, { kind });
      assert.equal(copied, url, `the ${kind} URL`);
      if (clipboardReadable) clipboardReadable = await clipboardHolds(url);
    }
  });

  it('opens a project in the browser', async () => {
    const web = await projectRow('acme/web');
    forge.clearRequests();
    const opened = await vscode.commands.executeCommand('forge.project.openInBrowser', web.node);
    assert.equal(opened, `${forge.url}/acme/web`);
    assert.equal(
      requestsTo('GET', new RegExp(`^/api/v4/projects/${forge.fixtures.projects.web}$`)).length,
      0,
      'the listed project had its URL; nothing was fetched',
    );
  });

  it('lists members, searching on the server', async () => {
    const web = await projectRow('acme/web');
    forge.clearRequests();
    const labels = await vscode.commands.executeCommand<string[]>('forge.project.members', web.node, {
      search: 'bo',
    });
    const [request] = requestsTo(
      'GET',
      new RegExp(`^/api/v4/projects/${forge.fixtures.projects.web}/users$`),
    );
    assert.ok(request, 'GET /projects/:id/users sent');
    assert.equal(request.query['search'], 'bo');
    const bob = forge.state.users.get(forge.users.bob.id);
    assert.ok(bob);
    assert.deepEqual(labels, [`${bob.name} (@bob)`]);
  });

  it('deletes a project only when the typed path matches', async () => {
    const row = await projectRow('alice/scratch');
    forge.clearRequests();
    const refused = await vscode.commands.executeCommand('forge.project.delete', row.node, {
      confirmedPath: 'alice/scratc',
    });
    assert.notEqual(refused, true);
    assert.equal(requestsTo('DELETE', /^\/api\/v4\/projects\//).length, 0, 'nothing deleted on a mismatch');

    const deleted = await vscode.commands.executeCommand('forge.project.delete', row.node, {
      confirmedPath: 'alice/scratch',
    });
    assert.equal(deleted, true);
    const [request] = requestsTo('DELETE', /^\/api\/v4\/projects\/\d+$/);
    assert.ok(request, 'DELETE /projects/:id sent');
    assert.equal(request.status, 202);
    assert.equal(forge.state.findProject('alice/scratch'), undefined);
    const rows = await projectRows();
    assert.ok(!rows.some(({ item }) => item.description === 'alice/scratch'), 'the row is gone');
  });

  it('writes a CI template to the workspace folder, and keeps an existing file when asked', async () => {
    assert.ok(ciFile, 'the test VS Code has a workspace folder');
    const file = ciFile;
    await vscode.workspace.fs.delete(file).then(undefined, () => undefined);
    const nodejs = forge.state.ciTemplates.find((template) => template.key === 'Nodejs');
    assert.ok(nodejs);
    forge.clearRequests();
    const result = await vscode.commands.executeCommand<{ written: boolean } | undefined>(
      'forge.ciTemplate.insert',
      { accountId: account.id, template: 'Nodejs', replace: true },
    );
    assert.equal(result?.written, true);
    assert.equal(requestsTo('GET', /^\/api\/v4\/templates\/gitlab_ci_ymls\/Nodejs$/).length, 1);
    assert.equal(new TextDecoder().decode(await vscode.workspace.fs.readFile(file)), nodejs.content);

    forge.clearRequests();
    const kept = await vscode.commands.executeCommand<{ written: boolean } | undefined>(
      'forge.ciTemplate.insert',
      { accountId: account.id, template: 'Bash', replace: false },
    );
    assert.equal(kept?.written, false);
    assert.equal(requestsTo('GET', /^\/api\/v4\/templates\//).length, 0, 'the template was not fetched');
    assert.equal(new TextDecoder().decode(await vscode.workspace.fs.readFile(file)), nodejs.content);

    const replaced = await vscode.commands.executeCommand<{ written: boolean } | undefined>(
      'forge.ciTemplate.insert',
      { accountId: account.id, template: 'Bash', replace: true },
    );
    assert.equal(replaced?.written, true);
    const bash = forge.state.ciTemplates.find((template) => template.key === 'Bash');
    assert.equal(new TextDecoder().decode(await vscode.workspace.fs.readFile(file)), bash?.content);
  });
});
