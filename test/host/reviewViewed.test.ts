// "Viewed" on a merge request's changed files: the checkbox of each row of the Changes folder, the
// folder's count, "Hide Viewed Files", "Mark All as Viewed", a later push that unmarks a changed file,
// and the same ticks in the panel's Changes tab.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TreeNode } from '../../src/platform/tree/treeNode';
import type { FakeForge } from '../server';
import { reviewHelpers } from './reviewSupport';
import { type Row, childByLabel, childrenOf, eventually, label, useForgeSession } from './support';

describe('review: viewed files', function () {
  this.timeout(30_000);
  const session = useForgeSession();
  const { loginForm, stored, openPanel, fileAt } = reviewHelpers(session);
  let forge: FakeForge;
  let view: vscode.TreeDataProvider<TreeNode>;

  before(() => {
    forge = session.forge;
    view = session.api.treeProviders['forge.mergeRequests'];
  });

  async function changesFolder(): Promise<Row> {
    const { children } = await loginForm();
    const folder = children.find(({ item }) => label(item) === 'Changes');
    assert.ok(folder);
    return folder;
  }

  /** The file rows of the folder (not the Commits folder, not a message). */
  async function fileRows(folder: Row): Promise<Row[]> {
    const rows = await childrenOf(view, folder.node);
    return rows.filter(({ item }) => item.contextValue?.startsWith('reviewFile') === true);
  }

  function ticked(row: Row): boolean {
    const state = row.item.checkboxState;
    const value = typeof state === 'object' ? state.state : state;
    return value === vscode.TreeItemCheckboxState.Checked;
  }

  afterEach(async () => {
    const folder = await changesFolder();
    await vscode.commands.executeCommand('forge.review.markAllNotViewed', folder.node);
    await vscode.commands.executeCommand('forge.review.showViewedFiles');
  });

  it('ticks a file viewed from its checkbox, counts it on the folder, and hides it on request', async () => {
    const folder = await changesFolder();
    const files = await fileRows(folder);
    assert.deepEqual(files.map(ticked), [false, false, false]);
    assert.equal((view.getTreeItem(folder.node) as vscode.TreeItem).description, '3');
    const login = files.find(({ item }) => label(item) === 'login.ts');
    assert.ok(login);
    assert.equal(typeof login.node.checkboxChanged, 'function', 'a changed file has a checkbox');
    // What VS Code calls when the reviewer clicks the row's checkbox.
    login.node.checkboxChanged?.(true);
    await eventually(() =>
      assert.equal((view.getTreeItem(folder.node) as vscode.TreeItem).description, '1 of 3 viewed'),
    );
    const again = await fileRows(folder);
    assert.deepEqual(
      again.map((row) => [label(row.item), ticked(row), row.item.contextValue]),
      [
        ['login.ts', true, 'reviewFile added viewed'],
        ['index.ts', false, 'reviewFile modified unviewed'],
        ['login.test.ts', false, 'reviewFile added unviewed'],
      ],
    );

    await vscode.commands.executeCommand('forge.review.hideViewedFiles');
    assert.deepEqual(
      (await fileRows(folder)).map(({ item }) => label(item)),
      ['index.ts', 'login.test.ts'],
    );
    await vscode.commands.executeCommand('forge.review.markAllViewed', folder.node);
    const hidden = await childrenOf(view, folder.node);
    assert.deepEqual(
      hidden.map(({ item }) => label(item)).filter((text) => text !== 'Commits'),
      ['All 3 files viewed (hidden)'],
    );
    assert.equal((view.getTreeItem(folder.node) as vscode.TreeItem).description, '3 of 3 viewed');

    // A new Changes folder (the tree refreshed, another view): the ticks are kept.
    await vscode.commands.executeCommand('forge.review.showViewedFiles');
    const fresh = await changesFolder();
    assert.deepEqual((await fileRows(fresh)).map(ticked), [true, true, true]);

    // From the row's menu, as the keyboard reaches it.
    const index = await childByLabel(view, fresh.node, 'index.ts');
    await vscode.commands.executeCommand('forge.review.markFileNotViewed', index.node);
    assert.deepEqual((await fileRows(fresh)).map(ticked), [true, false, true]);
    await vscode.commands.executeCommand('forge.review.markFileViewed', index.node);
    assert.deepEqual((await fileRows(fresh)).map(ticked), [true, true, true]);
  });

  it('unmarks a file whose diff a later push changed, and keeps the files the push left alone', async () => {
    const folder = await changesFolder();
    await vscode.commands.executeCommand('forge.review.markAllViewed', folder.node);
    const mr = stored();
    const branch = forge.state.projects.get(forge.fixtures.projects.web)?.branches.get(mr.sourceBranch);
    assert.ok(branch);
    const seeded = branch.commitSha;
    const before = fileAt(seeded, 'src/index.ts');
    assert.ok(before);
    const lines = before.split('\n');
    branch.commitSha = forge.state.addCommit({
      parentIds: [seeded],
      title: 'A later push',
      message: 'A later push',
      by: { name: 'Bob', email: 'bob@example.com' },
      at: new Date().toISOString(),
      changes: [
        {
          oldPath: 'src/index.ts',
          newPath: 'src/index.ts',
          aMode: '100644',
          bMode: '100644',
          newFile: false,
          renamedFile: false,
          deletedFile: false,
          diff: `@@ -1,1 +1,2 @@\n ${lines[0]}\n+// pushed later\n`,
        },
      ],
    });
    try {
      await vscode.commands.executeCommand('forge.mergeRequests.refresh');
      const after = await changesFolder();
      const rows = await fileRows(after);
      assert.deepEqual(
        rows.map((row) => [label(row.item), ticked(row)]),
        [
          ['login.ts', true],
          ['index.ts', false],
          ['login.test.ts', true],
        ],
      );
      assert.equal((view.getTreeItem(after.node) as vscode.TreeItem).description, '2 of 3 viewed');
    } finally {
      branch.commitSha = seeded;
      await vscode.commands.executeCommand('forge.mergeRequests.refresh');
    }
  });

  it("shows and takes the same ticks in the panel's Changes tab", async () => {
    const panel = await openPanel();
    try {
      const viewedSent = () =>
        panel.host.sent.flatMap((message) => (message.type === 'viewed' ? [message.paths] : [])).at(-1);
      await eventually(() => assert.deepEqual(viewedSent(), []));
      const folder = await changesFolder();
      const login = await childByLabel(view, folder.node, 'login.ts');
      login.node.checkboxChanged?.(true);
      await eventually(() => assert.deepEqual(viewedSent(), ['src/login.ts']));

      await panel.host.receive({ type: 'setViewed', path: 'src/index.ts', viewed: true });
      await eventually(() => assert.deepEqual(viewedSent(), ['src/login.ts', 'src/index.ts']));
      await eventually(() =>
        assert.equal((view.getTreeItem(folder.node) as vscode.TreeItem).description, '2 of 3 viewed'),
      );
      // A path the merge request does not change is no file to tick.
      await panel.host.receive({ type: 'setViewed', path: 'elsewhere.ts', viewed: true });
      assert.deepEqual(viewedSent(), ['src/login.ts', 'src/index.ts']);
    } finally {
      panel.dispose();
    }
  });
});
