// Faults inside a real VS Code (issue 8), injected with the fake forge's fault mode: the trees show an
// error row with Retry instead of going blank, and recover; a comment or channel post whose connection
// broke after the server acted is sent once, reported as uncertain and kept as a draft; a download cut
// mid-way leaves no file that looks complete; and nothing ends in an unhandled rejection.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ForgeWorkbenchApi } from '../../src/extension';
import type { AccountInfo } from '../../src/platform/accounts';
import type { TreeNode } from '../../src/platform/tree/treeNode';
import { type Fault, type FakeForge } from '../server';
import { childrenOf, childWhere, eventually, label, type Row, useForgeSession, jobRowsOf } from './support';

interface DraftResult {
  posted: boolean;
  reason?: string;
  uncertain?: boolean;
  draftKept?: boolean;
  message?: string;
}

describe('reliability under faults', function () {
  this.timeout(60_000);
  const session = useForgeSession();
  let forge: FakeForge;
  let api: ForgeWorkbenchApi;
  let account: AccountInfo;
  let channelAccountId: string;
  let downloads: string;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => {
    unhandled.push(reason);
  };

  before(() => {
    ({ forge, api, account } = session);
  });

  before(async () => {
    process.on('unhandledRejection', onUnhandled);
    channelAccountId = (
      await api.channelAccounts.add({
        serverUrl: forge.url,
        login: forge.channel.nickname,
        password: forge.channel.password,
      })
    ).id;
    downloads = mkdtempSync(join(tmpdir(), 'forge-reliability-'));
  });

  afterEach(() => {
    forge.faults.clear();
  });

  session.cleanUps.push(async () => {
    process.off('unhandledRejection', onUnhandled);
    await api.channelAccounts.remove(channelAccountId);
    rmSync(downloads, { recursive: true, force: true });
  });

  async function webProject(): Promise<Row> {
    const accountRow = (await childrenOf(api.projects)).find(
      ({ item }) => item.id === `account/${account.id}`,
    );
    return childWhere(api.projects, accountRow?.node, (item) => item.description === 'acme/web', 'acme/web');
  }

  async function jobsFolder(): Promise<Row> {
    return childWhere(
      api.projects,
      (await webProject()).node,
      (item) => label(item) === 'Jobs',
      'Jobs folder',
    );
  }

  const pipelinesPath = (): string => `/api/v4/projects/${forge.fixtures.projects.web}/pipelines`;

  for (const [name, fault, attempts] of [
    ['503 from a proxy, on every try', { kind: 'status', status: 503 }, 4],
    ['connection reset before the answer, on every try', { kind: 'reset-before' }, 4],
    ['a reply cut off mid-body, on every try', { kind: 'truncated', contentLength: 'full' }, 4],
    ['invalid JSON', { kind: 'invalid-json' }, 1],
    ['a sign-in page instead of JSON', { kind: 'html' }, 1],
  ] as [string, Fault, number][]) {
    it(`shows an error row with Retry for ${name}, and recovers`, async () => {
      const folder = await jobsFolder();
      // The Jobs folder reads the project's pipelines.
      forge.faults.add({ method: 'GET', path: '/projects/:id/pipelines', fault });
      forge.clearRequests();
      await vscode.commands.executeCommand('forge.projects.refresh', folder.node);
      const rows = await eventually(async () => {
        const children = await childrenOf(api.projects, folder.node);
        assert.match(label(children[0]?.item ?? {}), /^Could not load: /);
        return children;
      }, 20_000);
      assert.equal(rows.length, 1, 'only the error row, nothing half-loaded');
      const [errorRow] = rows;
      assert.equal(errorRow?.item.contextValue, 'error retryable');
      assert.equal(errorRow?.item.command?.command, 'forge.tree.retry');
      const sent = forge.requests.filter((request) => request.path === pipelinesPath());
      // Each load of the folder (the refresh, and any redraw since) makes `attempts` requests.
      assert.ok(
        sent.length > 0 && sent.length % attempts === 0,
        `${sent.length} requests: reads are retried ${attempts - 1} times only when it can help`,
      );
      assert.ok(sent.every((request) => request.fault !== undefined));

      forge.faults.clear();
      await vscode.commands.executeCommand('forge.tree.retry', errorRow?.node);
      await eventually(async () => {
        const pipelines = await childrenOf(api.projects, folder.node);
        assert.ok(
          pipelines.length > 0 && pipelines.every(({ item }) => !/^Could not load/.test(label(item))),
        );
      }, 10_000);
    });
  }

  it('keeps the Todos view usable after a burst of 429s with Retry-After', async () => {
    const handle = forge.faults.add({
      method: 'GET',
      path: '/todos',
      times: 2,
      fault: { kind: 'rate-limited', retryAfter: { seconds: 1 } },
    });
    api.todos.refresh();
    const rows = await eventually(async () => {
      const children = await childrenOf(api.todos);
      assert.ok(children.length > 0);
      return children;
    }, 20_000);
    assert.equal(handle.hits, 2, 'both 429s were answered, then the retry went through');
    assert.ok(
      rows.every(({ item }) => !/^Could not load/.test(label(item))),
      'the list loaded',
    );
  });

  it('sends a comment whose connection broke after the server acted once, says so, keeps the draft', async () => {
    const view = api.treeProviders['forge.mergeRequests'];
    const loginRow = async (): Promise<Row> => {
      let root: TreeNode | undefined;
      if (api.accounts.list().length > 1) {
        root = (await childrenOf(view)).find(
          ({ item }) => item.id === `mergeRequests/account/${account.id}`,
        )?.node;
      }
      const assigned = (await childrenOf(view, root)).find(({ item }) => label(item) === 'Assigned to me');
      const rows = await childrenOf(view, assigned?.node);
      const found = rows.find(({ item }) => label(item) === '!1 Add a login form');
      assert.ok(found, rows.map(({ item }) => label(item)).join(', '));
      return found;
    };
    const body = 'Reliability: a comment that must be sent once.';
    forge.faults.add({
      method: 'POST',
      path: '/projects/:id/merge_requests/:merge_request_iid/notes',
      times: 1,
      fault: { kind: 'reset-after' },
    });
    forge.clearRequests();
    const result = await vscode.commands.executeCommand<DraftResult>(
      'forge.note.add',
      (await loginRow()).node,
      {
        body,
      },
    );
    assert.equal(result?.posted, false);
    assert.equal(result.uncertain, true);
    assert.equal(result.draftKept, true);
    assert.match(result.message ?? '', /may have/);
    assert.match(result.message ?? '', /kept as a draft; look at the comments of !1 before sending it/);
    const posts = forge.requests.filter(
      (request) => request.method === 'POST' && request.path.endsWith('/notes'),
    );
    assert.equal(posts.length, 1, 'sent exactly once');
    assert.equal(posts[0]?.fault, 'reset-after');
    // The server did act: the comment is there when the person looks.
    await vscode.commands.executeCommand('forge.mergeRequests.refresh');
    await eventually(async () => {
      const notes = await childrenOf(view, (await loginRow()).node);
      assert.ok(notes.some(({ item }) => String(item.description).startsWith('Reliability: a comment')));
    }, 10_000);
    const drafts =
      api.services.context.globalState.get<Record<string, { body: string }>>('forge.noteDrafts') ?? {};
    assert.ok(
      Object.values(drafts).some((draft) => draft.body === body),
      'the draft is kept until the person decides',
    );
  });

  it('sends a channel post whose connection broke after the server acted once, and keeps the draft', async () => {
    forge.faults.add({ method: 'POST', path: '/item/update', times: 1, fault: { kind: 'reset-after' } });
    forge.clearRequests();
    const result = await vscode.commands.executeCommand<DraftResult>('forge.channel.post', undefined, {
      account: channelAccountId,
      body: 'Reliability: a post that must be sent once.',
      audience: 'public',
    });
    assert.equal(result?.posted, false);
    assert.equal(result.uncertain, true);
    assert.equal(result.draftKept, true);
    assert.match(result.message ?? '', /look at the stream of .* before sending it, it may already be there/);
    const posts = forge.requests.filter(
      (request) => request.method === 'POST' && request.path === '/api/z/1.0/item/update',
    );
    assert.equal(posts.length, 1, 'sent exactly once');
    const drafts =
      api.services.context.globalState.get<Record<string, { body: string }>>('forge.channelDrafts') ?? {};
    assert.equal(drafts[`${channelAccountId}|post`]?.body, 'Reliability: a post that must be sent once.');
  });

  it('leaves no complete-looking file when an artifacts download is cut mid-way', async () => {
    const destination = join(downloads, 'cut.zip');
    const handle = forge.faults.add({
      method: 'GET',
      path: '/projects/:id/jobs/:job_id/artifacts',
      fault: { kind: 'truncated', contentLength: 'full', keep: 0.5 },
    });
    const jobs = await jobsFolder();
    const pipelines = await childrenOf(api.projects, jobs.node);
    let buildRow: Row | undefined;
    for (const pipeline of pipelines) {
      buildRow ??= (await jobRowsOf(api.projects, pipeline.node)).find(({ item }) =>
        item.id?.endsWith(`/job/${forge.fixtures.jobs.build}`),
      );
    }
    assert.ok(buildRow, 'the build job row');
    const outcome = await vscode.commands.executeCommand('forge.job.downloadArtifacts', buildRow.node, {
      destination,
    });
    assert.equal(outcome, undefined, 'the failure became an error notification');
    assert.ok(handle.hits >= 1);
    assert.ok(!existsSync(destination), 'no archive under the final name');
    assert.deepEqual(readdirSync(downloads), [], 'no .part file left behind either');
  });

  it('ended no promise in an unhandled rejection', () => {
    assert.deepEqual(
      unhandled.map((reason) => (reason instanceof Error ? reason.message : String(reason))),
      [],
    );
  });
});
