// A merge request of 1,000 changed files in the Merge Requests view: the Changes folder lists them
// all with their "Viewed" boxes, and "Mark All as Viewed" ticks them all. What it takes is recorded
// for the benchmark (bench/reviewLarge.bench.ts), against listing as many plain tree items.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { HostingClient } from '../../src/api/hosting';
import type { TreeNode } from '../../src/platform/tree/treeNode';
import type { FakeForge } from '../server';
import type { FileChange } from '../server/state';
import { recordMeasurement } from './index';
import { childByLabel, childrenOf, label, useForgeSession } from './support';

const FILES = 1_000;

/** `getChildren` then `getTreeItem` of every child, as VS Code asks a tree for a folder's rows. */
async function listRows(
  provider: vscode.TreeDataProvider<TreeNode>,
  node: TreeNode,
): Promise<vscode.TreeItem[]> {
  const children = (await provider.getChildren(node)) ?? [];
  const items: vscode.TreeItem[] = [];
  for (const child of children) items.push(await provider.getTreeItem(child));
  return items;
}

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

describe('review: a merge request of 1,000 changed files', function () {
  this.timeout(60_000);
  const session = useForgeSession();
  let forge: FakeForge;
  let iid: number;

  before(async () => {
    forge = session.forge;
    const web = forge.fixtures.projects.web;
    const project = forge.state.projects.get(web);
    const master = project?.branches.get('master');
    assert.ok(project && master);
    const changes: FileChange[] = Array.from({ length: FILES }, (_, index) => ({
      oldPath: `generated/file-${index}.txt`,
      newPath: `generated/file-${index}.txt`,
      aMode: '0',
      bMode: '100644',
      diff: `@@ -0,0 +1,2 @@\n+file ${index}\n+of the large review\n`,
      newFile: true,
      renamedFile: false,
      deletedFile: false,
    }));
    const head = forge.state.addCommit({
      parentIds: [master.commitSha],
      title: 'Generate a thousand files',
      message: 'Generate a thousand files',
      by: { name: 'Alice Liddell', email: 'alice@example.com' },
      at: new Date().toISOString(),
      changes,
    });
    project.branches.set('feature/thousand', { ...master, name: 'feature/thousand', commitSha: head });
    const token = forge.tokens['alice'];
    assert.ok(token);
    const alice = HostingClient.create({ baseUrl: forge.url, credentials: { kind: 'private-token', token } });
    try {
      const created = await alice.createMergeRequest(web, {
        source_branch: 'feature/thousand',
        target_branch: 'master',
        title: 'A thousand files',
      });
      iid = created.iid;
    } finally {
      await alice.close();
    }
  });

  it('lists the 1,000 files with their boxes, and marks them all viewed', async () => {
    const provider = session.api.treeProviders['forge.mergeRequests'];
    const roots = await childrenOf(provider);
    const root = roots.find(({ item }) => item.id === `mergeRequests/account/${session.account.id}`)?.node;
    const created = await childByLabel(
      provider,
      (await childByLabel(provider, root, /^Created by me/)).node,
      new RegExp(`^!${iid} `),
    );
    const changes = (await childrenOf(provider, created.node)).find(({ item }) => label(item) === 'Changes');
    assert.ok(changes);

    // The same files read by a plain client: the floor of the first listing. Read once before (the
    // fake forge builds the commit's files on the first read) and once after ours; the later counts.
    const token = forge.tokens['alice'];
    assert.ok(token);
    const plainClient = HostingClient.create({
      baseUrl: forge.url,
      credentials: { kind: 'private-token', token },
    });
    const plainRead = async (): Promise<number> => {
      const at = performance.now();
      await plainClient.listDiffs(forge.fixtures.projects.web, iid).toArray();
      return performance.now() - at;
    };
    await plainRead();

    // First time: the files read from the server (10 pages of 100), then every row.
    let started = performance.now();
    const first = await listRows(provider, changes.node);
    const coldMs = performance.now() - started;
    assert.equal(first.filter((item) => item.contextValue?.startsWith('reviewFile')).length, FILES);
    assert.ok(
      first.every((item) => item.contextValue === 'reviewCommits' || item.checkboxState !== undefined),
    );
    const plainReadMs = await plainRead();
    await plainClient.close();

    // Warm: the rows again (what VS Code asks after a redraw), against as many plain tree items.
    const warm: number[] = [];
    const plain: number[] = [];
    // Plain rows of a file list: a name, its folder, a file icon and a click, no "Viewed" logic.
    const plainNodes: TreeNode[] = Array.from({ length: FILES }, (_, index) => ({
      getTreeItem: () => {
        const item = new vscode.TreeItem(`file-${index}.txt`);
        item.description = 'generated';
        item.resourceUri = vscode.Uri.file(`/generated/file-${index}.txt`);
        item.command = { command: 'noop', title: 'Open' };
        return item;
      },
    }));
    const plainProvider: vscode.TreeDataProvider<TreeNode> = {
      getChildren: () => Promise.resolve(plainNodes),
      getTreeItem: (node) => node.getTreeItem(),
    };
    const plainRoot: TreeNode = { getTreeItem: () => new vscode.TreeItem('root') };
    for (let run = 0; run < 7; run++) {
      started = performance.now();
      await listRows(provider, changes.node);
      warm.push(performance.now() - started);
      started = performance.now();
      await listRows(plainProvider, plainRoot);
      plain.push(performance.now() - started);
    }

    // Ticked and cleared five times: the median of the ticks.
    const marks: number[] = [];
    let ticked: vscode.TreeItem[] = [];
    for (let run = 0; run < 5; run++) {
      started = performance.now();
      await vscode.commands.executeCommand('forge.review.markAllViewed', changes.node);
      ticked = await listRows(provider, changes.node);
      marks.push(performance.now() - started);
      if (run < 4) await vscode.commands.executeCommand('forge.review.markAllNotViewed', changes.node);
    }
    const markAllMs = medianOf(marks);
    const checked = ticked.filter((item) => {
      const state = typeof item.checkboxState === 'object' ? item.checkboxState.state : item.checkboxState;
      return state === vscode.TreeItemCheckboxState.Checked;
    });
    assert.equal(checked.length, FILES);
    assert.equal(provider.getTreeItem(changes.node).description, `${FILES} of ${FILES} viewed`);
    await vscode.commands.executeCommand('forge.review.markAllNotViewed', changes.node);

    recordMeasurement('1,000 files: Changes folder listed cold, ms', coldMs);
    recordMeasurement('1,000 files: diffs read by a plain client, ms', plainReadMs);
    recordMeasurement('1,000 files: Changes folder listed warm, median ms', medianOf(warm));
    recordMeasurement('1,000 plain tree items listed, median ms', medianOf(plain));
    recordMeasurement('1,000 files: Mark All as Viewed and the rows again, median ms', markAllMs);
  });
});
