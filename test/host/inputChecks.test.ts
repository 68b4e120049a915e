// Bad input from the user (or from automation's options) is refused with a clear message before any
// request: each case would reach this suite's fake forge if it were sent, and the forge's request log
// stays empty while the command runs.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ForgeWorkbenchApi } from '../../src/extension';
import type { AccountInfo } from '../../src/platform/accounts';
import { type FakeForge } from '../server';
import { childrenOf, childWhere, label, type Row, useForgeSession } from './support';

interface InvalidInputResult {
  invalidInput?: boolean;
  message?: string;
}

describe('input checks before any request', function () {
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

  async function mergeRequestRow(): Promise<Row> {
    const project = await webProject();
    const folder = await childWhere(
      api.projects,
      project.node,
      (item) => label(item) === 'Merge Requests',
      'Merge Requests folder',
    );
    return childWhere(api.projects, folder.node, (item) => label(item).startsWith('!1 '), '!1');
  }

  /** Runs the command with the request log cleared, and asserts it was refused without a request. */
  async function refusedWithoutRequest(
    command: string,
    args: unknown[],
    expected: RegExp,
  ): Promise<InvalidInputResult> {
    forge.clearRequests();
    const result = await vscode.commands.executeCommand<InvalidInputResult | undefined>(command, ...args);
    assert.deepEqual(
      forge.requests.map((request) => `${request.method} ${request.path}`),
      [],
      `${command} sent nothing`,
    );
    assert.equal(result?.invalidInput, true, `${command} reports refused input: ${JSON.stringify(result)}`);
    assert.match(result.message ?? '', expected);
    return result;
  }

  it('refuses project commands given options of the wrong kind', async () => {
    await refusedWithoutRequest(
      'forge.project.create',
      [account.id, { name: 'Scratch', visibility: 'secret' }],
      /forge\.project\.create cannot take its argument 2 \(visibility\)/,
    );
    const project = await webProject();
    await refusedWithoutRequest(
      'forge.project.delete',
      [project.node, { confirmed: 'yes' }],
      /forge\.project\.delete cannot take its argument 2 \(confirmed\)/,
    );
    await refusedWithoutRequest(
      'forge.ciTemplate.insert',
      [{ accountId: account.id, template: 5 }],
      /forge\.ciTemplate\.insert cannot take its argument 1/,
    );
  });

  it('refuses branch commands given options or rows of the wrong kind', async () => {
    const project = await webProject();
    await refusedWithoutRequest(
      'forge.branch.create',
      [project.node, { name: 42 }],
      /forge\.branch\.create cannot take its argument 2 \(name\)/,
    );
    await refusedWithoutRequest(
      'forge.branch.delete',
      [{ kind: 'nonsense' }, { confirmed: true }],
      /expected a branch or expected a project's Branches folder or expected a project/,
    );
  });

  it('refuses a server address with spaces or without a scheme when adding an account', async () => {
    const before = api.accounts.list().length;
    await refusedWithoutRequest(
      'forge.account.add',
      [{ serverUrl: `${forge.url}/my gitlab`, token: forge.userToken }],
      /cannot contain spaces/,
    );
    await refusedWithoutRequest(
      'forge.account.add',
      [{ serverUrl: 'javascript:alert(1)', token: forge.userToken }],
      /is not a valid address/,
    );
    assert.equal(api.accounts.list().length, before, 'no account was saved');
  });

  it('refuses a branch name git would refuse, and a bad starting point', async () => {
    const project = await webProject();
    for (const [name, expected] of [
      ['a..b', /"\.\."/],
      ['feature x', /cannot contain " "|space/],
      ['fix~1', /cannot contain "~"/],
      ['-oops', /cannot start with "-"/],
      ['topic.lock', /\.lock/],
    ] as const) {
      await refusedWithoutRequest('forge.branch.create', [project.node, { name, from: 'master' }], expected);
    }
    await refusedWithoutRequest(
      'forge.branch.create',
      [project.node, { name: 'feature/ok', from: 'master:evil' }],
      /cannot contain ":"/,
    );
  });

  it('refuses a bad ref when downloading the latest artifacts of a ref', async () => {
    const project = await webProject();
    await refusedWithoutRequest(
      'forge.job.downloadArtifactsByRef',
      [project.node, { ref: 'main?x=1', jobName: 'build', destination: '/tmp/never-written.zip' }],
      /cannot contain "\?"/,
    );
  });

  it('refuses bad source and target branches of a new merge request', async () => {
    const project = await webProject();
    await refusedWithoutRequest(
      'forge.mergeRequest.create',
      [project.node, { sourceBranch: 'topic@{1}', title: 'x' }],
      /"@\{"/,
    );
    await refusedWithoutRequest(
      'forge.mergeRequest.create',
      [project.node, { sourceBranch: 'topic', targetBranch: 'ma ster', title: 'x' }],
      /cannot contain/,
    );
  });

  it('refuses a project path with odd characters when opening a merge request panel', async () => {
    await refusedWithoutRequest(
      'forge.mergeRequest.openPanel',
      [undefined, { accountId: account.id, project: '../acme/web', iid: 1 }],
      /"\." or "\.\."|cannot start with/,
    );
    await refusedWithoutRequest(
      'forge.mergeRequest.openPanel',
      [undefined, { accountId: account.id, project: 'acme/web?private_token=x', iid: 1 }],
      /only letters, digits/,
    );
  });

  it('refuses a comment over the servers’ limit and an empty one', async () => {
    const row = await mergeRequestRow();
    await refusedWithoutRequest(
      'forge.note.add',
      [row.node, { body: 'x'.repeat(1_000_001) }],
      /1,000,001 characters; servers accept at most 1,000,000/,
    );
    await refusedWithoutRequest('forge.note.add', [row.node, { body: '   ' }], /empty/);
  });
});
