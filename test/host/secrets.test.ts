// Secrets inside a real VS Code (issue 8): a server that echoes the credentials it received into its
// error replies, on reads and writes of both APIs, and the places where the token or the channel
// password could then surface: the log (what the extension writes, and the log file VS Code keeps),
// command results and messages, tree error rows and their tooltips, the merge request panel's HTML and
// every message sent to the page (all a page can keep in its state), settings, globalState and an
// exported channel file. Removing an account removes its secret.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { AddAccountResult } from '../../src/features/accounts';
import type { ForgeWorkbenchApi } from '../../src/extension';
import type { AccountInfo } from '../../src/platform/accounts';
import type { PanelRegistry } from '../../src/webviews/shared/panelHost';
import type { MergeRequestPanel } from '../../src/features/mergeRequests';
import { type FakeForge } from '../server';
import { childrenOf, childWhere, eventually, label, type Row, useForgeSession } from './support';

type LogMethod = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'appendLine' | 'append';

describe('secrets never leak', function () {
  this.timeout(60_000);
  const session = useForgeSession();
  let forge: FakeForge;
  let api: ForgeWorkbenchApi;
  let account: AccountInfo;
  let channelAccountId: string;
  let tmp: string;
  let secrets: string[];
  /** Everything a person or another extension could see, gathered as the suite goes. */
  const seen: { where: string; text: string }[] = [];
  const logged: string[] = [];
  const originals = new Map<LogMethod, unknown>();

  function note(where: string, value: unknown): void {
    seen.push({ where, text: typeof value === 'string' ? value : (JSON.stringify(value) ?? '') });
  }

  function assertNoSecret(where: string, text: string): void {
    for (const secret of secrets) {
      assert.ok(!text.includes(secret), `a secret (${secret.slice(0, 4)}…) appears in ${where}`);
    }
  }

  before(() => {
    ({ forge, api, account } = session);
  });

  before(async () => {
    secrets = [forge.userToken, forge.channel.password];
    tmp = mkdtempSync(join(tmpdir(), 'forge-secrets-'));
    const log = api.log as unknown as Record<LogMethod, (...args: unknown[]) => void>;
    for (const method of ['trace', 'debug', 'info', 'warn', 'error', 'appendLine', 'append'] as const) {
      const original = log[method];
      originals.set(method, original);
      log[method] = (...args: unknown[]) => {
        logged.push(
          args.map((arg) => (arg instanceof Error ? `${arg.message}\n${arg.stack}` : String(arg))).join(' '),
        );
        original.apply(api.log, args);
      };
    }
    channelAccountId = (
      await api.channelAccounts.add({
        serverUrl: forge.url,
        login: forge.channel.nickname,
        password: forge.channel.password,
      })
    ).id;
  });

  afterEach(() => {
    forge.faults.clear();
  });

  session.cleanUps.push(async () => {
    const log = api.log as unknown as Record<string, unknown>;
    for (const [method, original] of originals) log[method] = original;
    for (const panel of [...mergeRequestPanels().values()]) panel.dispose();
    for (const added of api.channelAccounts.list()) await api.channelAccounts.remove(added.id);
    rmSync(tmp, { recursive: true, force: true });
  });

  function mergeRequestPanels(): PanelRegistry<MergeRequestPanel> {
    const registry = api.panels.mergeRequest;
    return registry;
  }

  async function webProject(): Promise<Row> {
    const accountRow = (await childrenOf(api.projects)).find(
      ({ item }) => item.id === `account/${account.id}`,
    );
    return childWhere(api.projects, accountRow?.node, (item) => item.description === 'acme/web', 'acme/web');
  }

  /** What an error row shows: its label and its tooltip. */
  function rowText(row: Row): string {
    const tooltip = row.item.tooltip;
    return `${label(row.item)}\n${typeof tooltip === 'string' ? tooltip : (tooltip?.value ?? '')}`;
  }

  it('keeps the token out of tree error rows when the server echoes it on reads', async () => {
    const folder = await childWhere(
      api.projects,
      (await webProject()).node,
      (item) => label(item) === 'Branches',
      'Branches',
    );
    for (const fault of [
      { kind: 'status', status: 500, echoCredentials: true },
      { kind: 'invalid-json', echoCredentials: true },
      { kind: 'html', echoCredentials: true },
    ] as const) {
      const handle = forge.faults.add({ method: 'GET', path: '/projects/:id/repository/branches', fault });
      await vscode.commands.executeCommand('forge.projects.refresh', folder.node);
      const [errorRow] = await eventually(async () => {
        const rows = await childrenOf(api.projects, folder.node);
        assert.match(label(rows[0]?.item ?? {}), /^Could not load/);
        return rows;
      }, 20_000);
      assert.ok(errorRow && handle.hits > 0, `${fault.kind} was injected`);
      note(`the error row for ${fault.kind}`, rowText(errorRow));
      assertNoSecret(`the error row for ${fault.kind}`, rowText(errorRow));
      handle.remove();
    }
  });

  it('keeps the token out of a failed comment’s message and the sign-in error', async () => {
    forge.faults.add({
      method: 'POST',
      path: '/projects/:id/merge_requests/:merge_request_iid/notes',
      fault: { kind: 'status', status: 500, echoCredentials: true },
    });
    const mergeRequests = await childWhere(
      api.projects,
      (await webProject()).node,
      (item) => label(item) === 'Merge Requests',
      'Merge Requests folder',
    );
    const first = await childWhere(
      api.projects,
      mergeRequests.node,
      (item) => label(item).startsWith('!1 '),
      '!1',
    );
    const result = await vscode.commands.executeCommand<{ posted: boolean; message: string }>(
      'forge.note.add',
      first.node,
      { body: 'A comment the server refuses' },
    );
    assert.equal(result?.posted, false);
    note('the failed comment result', result);
    assertNoSecret('the failed comment message', result.message);

    forge.faults.add({
      method: 'GET',
      path: '/todos',
      fault: { kind: 'status', status: 500, echoCredentials: true },
    });
    const added = await vscode.commands.executeCommand<AddAccountResult>('forge.account.add', {
      serverUrl: forge.url,
      token: forge.userToken,
    });
    assert.equal(added?.added, false);
    note('the failed sign-in', added);
    assertNoSecret('the failed sign-in message', added.message ?? '');
  });

  it('keeps the channel password out of a failed post, a Channel error row and an export', async () => {
    forge.faults.add({
      method: 'POST',
      path: '/item/update',
      fault: { kind: 'status', status: 500, echoCredentials: true },
    });
    const posted = await vscode.commands.executeCommand<{ posted: boolean; message: string }>(
      'forge.channel.post',
      undefined,
      { account: channelAccountId, body: 'A post the server refuses', audience: 'public' },
    );
    assert.equal(posted?.posted, false);
    note('the failed post', posted);
    assertNoSecret('the failed post message', posted.message);

    const tree = api.treeProviders['forge.channel'];
    forge.faults.add({
      method: 'GET',
      path: '/group',
      fault: { kind: 'invalid-json', echoCredentials: true },
    });
    const top = await childrenOf(tree);
    const folders = api.channelAccounts.list().length === 1 ? top : await childrenOf(tree, top[0]?.node);
    const groups = folders.find(({ item }) => label(item) === 'Privacy groups');
    assert.ok(groups);
    await vscode.commands.executeCommand('forge.channel.refresh', groups.node);
    const [errorRow] = await eventually(async () => {
      const rows = await childrenOf(tree, groups.node);
      assert.match(label(rows[0]?.item ?? {}), /^Could not load/);
      return rows;
    }, 20_000);
    assert.ok(errorRow);
    note('the Channel error row', rowText(errorRow));
    forge.faults.clear();

    const destination = join(tmp, 'export.json');
    const exported = await vscode.commands.executeCommand<{ path: string }>(
      'forge.channel.export',
      undefined,
      {
        account: channelAccountId,
        posts: true,
        destination,
      },
    );
    assert.equal(exported?.path, destination);
    note('the exported channel file', readFileSync(destination, 'utf8'));
  });

  it('keeps the token out of the merge request panel’s HTML and everything sent to the page', async () => {
    forge.faults.add({
      method: 'GET',
      path: '/projects/:id/merge_requests/:merge_request_iid/changes',
      fault: { kind: 'status', status: 500, echoCredentials: true },
    });
    const opened = await vscode.commands.executeCommand<{ opened: boolean; key: string }>(
      'forge.mergeRequest.openPanel',
      undefined,
      { accountId: account.id, project: 'acme/web', iid: 1 },
    );
    assert.equal(opened?.opened, true);
    const panel = mergeRequestPanels().get(opened.key);
    assert.ok(panel);
    const sent = await eventually(() => {
      const json = JSON.stringify(panel.host.sent);
      assert.match(json, /Changes:/, 'the failed changes request reached the page as an error');
      return json;
    }, 20_000);
    note('the messages sent to the merge request page', sent);
    note('the merge request panel HTML', panel.host.panel.webview.html);
  });

  it('keeps both secrets out of the log, settings and globalState', async () => {
    const logFile = join(api.services.context.logUri.fsPath, 'Forge Workbench.log');
    // VS Code writes the log file a moment after the lines arrive.
    await eventually(
      () => assert.ok(existsSync(logFile) && readFileSync(logFile, 'utf8').includes('500')),
      10_000,
    );
    note('the log file', readFileSync(logFile, 'utf8'));
    assert.ok(logged.length > 0, 'the suite saw log lines');
    note('the log lines', logged.join('\n'));
    note('settings (forge.*, http.*)', {
      forge: vscode.workspace.getConfiguration('forge'),
      http: vscode.workspace.getConfiguration('http'),
    });
    const settingsFile = join(
      dirname(dirname(api.services.context.globalStorageUri.fsPath)),
      'settings.json',
    );
    if (existsSync(settingsFile)) note('settings.json', readFileSync(settingsFile, 'utf8'));
    const state = api.services.context.globalState;
    note('globalState', Object.fromEntries(state.keys().map((key) => [key, state.get(key)])));
    assert.ok(seen.length >= 12, `${seen.length} places looked at`);
    for (const { where, text } of seen) assertNoSecret(where, text);
    // The places above did see the failures: an empty text would prove nothing, and the echoed
    // secrets did reach the extension, which replaced them.
    assert.ok(seen.every(({ text }) => text.length > 0));
    const redacted = seen.filter(({ text }) => text.includes('«redacted»')).map(({ where }) => where);
    assert.ok(redacted.length >= 3, `echoed secrets were redacted in: ${redacted.join(', ')}`);
  });

  it('removes the secret with the account', async () => {
    const secretStore = api.services.context.secrets;
    const second = await api.accounts.add({
      serverUrl: forge.url,
      token: forge.userToken,
      tokenKind: 'private-token',
    });
    assert.equal(await secretStore.get(`forge.account.${second.id}.token`), forge.userToken);
    await vscode.commands.executeCommand('forge.account.remove', second.id, { confirmed: true });
    assert.ok(!api.accounts.list().some((candidate) => candidate.id === second.id), 'the account is gone');
    assert.equal(await secretStore.get(`forge.account.${second.id}.token`), undefined);

    assert.equal(await secretStore.get(`forge.channel.${channelAccountId}.password`), forge.channel.password);
    await api.channelAccounts.remove(channelAccountId);
    assert.equal(await secretStore.get(`forge.channel.${channelAccountId}.password`), undefined);
  });
});
