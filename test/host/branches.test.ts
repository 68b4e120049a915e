// Branch actions run on rows of the Projects view inside a real VS Code, against a fake forge
// started in this extension host: what the server received, and what the tree shows afterwards.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ForgeWorkbenchApi } from '../../src/extension';
import type { AccountInfo } from '../../src/platform/accounts';
import { type FakeForge, type RecordedRequest } from '../server';
import {
  childrenOf,
  childWhere,
  eventually,
  iconId,
  label,
  type Row,
  useForgeSession,
  receivedRequest,
} from './support';

/** `viewItem =~ /…/` of the package.json context-menu entry for `command` whose pattern starts with `prefix`. */
function menuPattern(command: string, prefix: string, inline = false): RegExp {
  const extension = vscode.extensions.getExtension('forge-workbench.forge-workbench');
  const manifest = extension?.packageJSON as {
    contributes: { menus: Record<string, { command: string; when?: string; group?: string }[]> };
  };
  const patterns = (manifest.contributes.menus['view/item/context'] ?? [])
    .filter(
      (entry) =>
        entry.command === command && (entry.group ?? '').startsWith('inline') === inline && entry.when,
    )
    .map((entry) => /viewItem =~ \/(.*)\//.exec(entry.when ?? '')?.[1])
    .filter((source): source is string => source !== undefined && source.startsWith(prefix));
  assert.ok(patterns[0], `no ${inline ? 'inline' : 'context'} menu entry for ${command} on ${prefix}…`);
  return new RegExp(patterns[0]);
}

describe('branch actions', function () {
  this.timeout(30_000);
  const session = useForgeSession();
  let forge: FakeForge;
  let api: ForgeWorkbenchApi;
  let account: AccountInfo;

  before(() => {
    ({ forge, api, account } = session);
  });

  async function webProject(): Promise<Row> {
    const accountRow = (await childrenOf(api.projects)).find(
      ({ item }) => item.id === `account/${account.id}`,
    );
    return childWhere(api.projects, accountRow?.node, (item) => item.description === 'acme/web', 'acme/web');
  }

  async function branchesFolder(): Promise<Row> {
    return childWhere(
      api.projects,
      (await webProject()).node,
      (item) => label(item) === 'Branches',
      'Branches folder',
    );
  }

  async function branchRows(): Promise<Row[]> {
    return childrenOf(api.projects, (await branchesFolder()).node);
  }

  async function branchRow(name: string): Promise<Row> {
    return childWhere(
      api.projects,
      (await branchesFolder()).node,
      (item) => label(item) === name,
      `branch ${name}`,
    );
  }

  const branchesPath = (): string => `/api/v4/projects/${forge.fixtures.projects.web}/repository/branches`;

  const received = (method: string, path: string): RecordedRequest => receivedRequest(forge, method, path);

  it('creates a branch from a branch row', async () => {
    const login = await branchRow('feature/login');
    assert.match(String(login.item.contextValue), menuPattern('forge.branch.create', '^branch'));
    forge.clearRequests();
    const message = await vscode.commands.executeCommand<string>('forge.branch.create', login.node, {
      name: 'feature/login-v2',
      from: 'feature/login',
    });
    const request = received('POST', branchesPath());
    assert.deepEqual(request.body, { branch: 'feature/login-v2', ref: 'feature/login' });
    assert.equal(message, 'Created branch feature/login-v2 in acme/web from feature/login.');
    await eventually(async () => {
      const created = await branchRow('feature/login-v2');
      assert.match(String(created.item.contextValue), /^branch unprotected\b.*\bdeletable\b/);
    });
  });

  it('creates a branch from a commit SHA on the Branches folder', async () => {
    const folder = await branchesFolder();
    assert.match(
      String(folder.item.contextValue),
      menuPattern('forge.branch.create', '^folder branches', true),
    );
    const sha =
      forge.state.projects.get(forge.fixtures.projects.web)?.branches.get('master')?.commitSha ?? '';
    forge.clearRequests();
    await vscode.commands.executeCommand('forge.branch.create', folder.node, {
      name: 'hotfix/from-sha',
      from: sha.slice(0, 8),
    });
    assert.deepEqual(received('POST', branchesPath()).body, {
      branch: 'hotfix/from-sha',
      ref: sha.slice(0, 8),
    });
    await eventually(async () => {
      await branchRow('hotfix/from-sha');
    });
  });

  it('protects a branch with the developers’ options, and the row shows the lock', async () => {
    const login = await branchRow('feature/login');
    assert.match(String(login.item.contextValue), menuPattern('forge.branch.protect', '^branch'));
    assert.doesNotMatch(String(login.item.contextValue), menuPattern('forge.branch.unprotect', '^branch'));
    forge.clearRequests();
    const message = await vscode.commands.executeCommand<string>('forge.branch.protect', login.node, {
      developersCanPush: true,
      developersCanMerge: false,
    });
    const request = received('PUT', `${branchesPath()}/feature%2Flogin/protect`);
    assert.deepEqual(request.body, { developers_can_push: true, developers_can_merge: false });
    assert.equal(message, 'Protected feature/login in acme/web: developers can push.');
    await eventually(async () => {
      const after = await branchRow('feature/login');
      assert.equal(iconId(after.item), 'lock');
      assert.match(String(after.item.contextValue), /^branch protected\b/);
      assert.match(String(after.item.contextValue), menuPattern('forge.branch.unprotect', '^branch'));
      const tooltip = after.item.tooltip;
      assert.match(
        typeof tooltip === 'string' ? tooltip : (tooltip?.value ?? ''),
        /Protected: developers can push/,
      );
    });
  });

  it('unprotects a protected branch', async () => {
    const release = await branchRow('release/1.0');
    assert.match(String(release.item.contextValue), menuPattern('forge.branch.unprotect', '^branch'));
    forge.clearRequests();
    const message = await vscode.commands.executeCommand<string>('forge.branch.unprotect', release.node);
    received('PUT', `${branchesPath()}/release%2F1.0/unprotect`);
    assert.equal(message, 'Unprotected release/1.0 in acme/web.');
    await eventually(async () => {
      const after = await branchRow('release/1.0');
      assert.equal(iconId(after.item), 'git-branch');
      assert.match(String(after.item.contextValue), /^branch unprotected\b/);
    });
  });

  it('deletes a branch once confirmed', async () => {
    const readme = await branchRow('docs/readme');
    assert.match(String(readme.item.contextValue), menuPattern('forge.branch.delete', '^branch'));
    forge.clearRequests();
    const message = await vscode.commands.executeCommand<string>('forge.branch.delete', readme.node, {
      confirmed: true,
    });
    assert.equal(received('DELETE', `${branchesPath()}/docs%2Freadme`).status, 204);
    assert.equal(message, 'Deleted the branch docs/readme of acme/web.');
    await eventually(async () => {
      const names = (await branchRows()).map(({ item }) => label(item));
      assert.ok(!names.includes('docs/readme'), `branches: ${names.join(', ')}`);
    });
  });

  it('shows the server’s refusal to delete the default branch', async () => {
    const master = await branchRow('master');
    assert.match(String(master.item.contextValue), /\bdefault\b/);
    assert.doesNotMatch(
      String(master.item.contextValue),
      menuPattern('forge.branch.delete', '^branch'),
      'no delete item on the default branch',
    );
    forge.clearRequests();
    const message = await vscode.commands.executeCommand<string>('forge.branch.delete', master.node, {
      confirmed: true,
    });
    assert.equal(received('DELETE', `${branchesPath()}/master`).status, 405);
    assert.equal(message, 'master was not deleted: The default branch of a project cannot be deleted.');
    assert.ok(forge.state.projects.get(forge.fixtures.projects.web)?.branches.has('master'));
  });

  it('deletes the merged branches of a project once confirmed, and then has none to delete', async () => {
    const folder = await branchesFolder();
    assert.match(
      String(folder.item.contextValue),
      menuPattern('forge.branch.deleteMerged', '^folder branches'),
    );
    const rows = await branchRows();
    const merged = rows
      .filter(({ item }) => /^branch unprotected merged deletable$/.test(String(item.contextValue)))
      .map(({ item }) => label(item));
    assert.ok(merged.includes('fix/typo') && merged.includes('release/1.0'), `merged: ${merged.join(', ')}`);
    forge.clearRequests();
    const message = await vscode.commands.executeCommand<string>('forge.branch.deleteMerged', folder.node, {
      confirmed: true,
    });
    received('DELETE', `/api/v4/projects/${forge.fixtures.projects.web}/repository/merged_branches`);
    assert.equal(message, `Deleting ${merged.length} merged branches of acme/web: ${merged.join(', ')}.`);
    await eventually(async () => {
      const names = (await branchRows()).map(({ item }) => label(item));
      for (const name of merged) assert.ok(!names.includes(name), `${name} is gone`);
      assert.ok(names.includes('master') && names.includes('feature/login'));
    });

    forge.clearRequests();
    const none = await vscode.commands.executeCommand<string>('forge.branch.deleteMerged', folder.node, {
      confirmed: true,
    });
    assert.match(none, /has no merged branches to delete/);
    assert.ok(!forge.requests.some((request) => request.method === 'DELETE'), 'no delete request');
  });

  it('copies a branch name', async () => {
    const login = await branchRow('feature/login');
    assert.match(String(login.item.contextValue), menuPattern('forge.branch.copyName', '^branch'));
    const name = await vscode.commands.executeCommand<string>('forge.branch.copyName', login.node);
    assert.equal(name, 'feature/login');
    // The clipboard cannot be read back here: headless Chromium never answers readText().
  });
});
