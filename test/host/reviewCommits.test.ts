// A merge request commit by commit and version against version: the Commits folder under Changes,
// a commit's own changes in the multi-file diff editor with next and previous, a comment on a
// commit's line posted with that commit's position and shown there again, and "Compare with a
// Version…" / "Changes Since My Last Review".
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TreeNode } from '../../src/platform/tree/treeNode';
import type { FakeForge } from '../server';
import { reviewHelpers } from './reviewSupport';
import { type Row, childrenOf, eventually, label, useForgeSession } from './support';

/** The multi-file diff editor's tab input is not in the stable API: read as the object it is. */
function multiDiff(): { title: string; files: { original: vscode.Uri; modified: vscode.Uri }[] } | undefined {
  const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
  const input = tab?.input as { textDiffs?: { original: vscode.Uri; modified: vscode.Uri }[] } | undefined;
  return tab && input?.textDiffs ? { title: tab.label, files: input.textDiffs } : undefined;
}

describe('review: commit by commit, version against version', function () {
  this.timeout(30_000);
  const session = useForgeSession();
  const { loginForm, stored, messagesShownBy } = reviewHelpers(session);
  let forge: FakeForge;
  let view: vscode.TreeDataProvider<TreeNode>;

  before(() => {
    forge = session.forge;
    view = session.api.treeProviders['forge.mergeRequests'];
  });

  afterEach(async () => {
    forge.onRequest(undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  async function changesFolder(): Promise<Row> {
    const { children } = await loginForm();
    const folder = children.find(({ item }) => label(item) === 'Changes');
    assert.ok(folder);
    return folder;
  }

  /** The merge request's commits as the fake forge has them, oldest first. */
  function seededCommits() {
    const mr = stored();
    return forge.state.commitsBetween(mr.baseSha, mr.headSha).reverse();
  }

  async function commitRows(): Promise<Row[]> {
    const [commits] = await childrenOf(view, (await changesFolder()).node);
    assert.equal(commits?.item.contextValue, 'reviewCommits');
    return childrenOf(view, commits.node);
  }

  it("lists the commits oldest first and opens each one's own changes, with next and previous", async () => {
    const seeded = seededCommits();
    assert.ok(seeded.length >= 2, 'the seed gives !1 several commits');
    const rows = await commitRows();
    assert.deepEqual(
      rows.map(({ item }) => [label(item), String(item.description).split(' · ')[0]]),
      seeded.map((commit) => [commit.title, commit.id.slice(0, 8)]),
    );
    const [first, second] = seeded;
    assert.ok(first && second);

    forge.clearRequests();
    const opened = await vscode.commands.executeCommand<{ commit: string; files: number }>(
      'forge.review.openCommit',
      rows[0]?.node,
    );
    assert.equal(opened?.commit, first.id);
    assert.ok(
      forge.requests.some((request) => request.path.endsWith(`/repository/commits/${first.id}/diff`)),
      "the commit's own diff is read",
    );
    const shown = await eventually(() => {
      const diff = multiDiff();
      assert.match(
        diff?.title ?? '',
        new RegExp(`^!1 commit 1 of ${seeded.length}: ${first.id.slice(0, 8)} `),
      );
      return diff;
    });
    assert.deepEqual(
      shown?.files.map((file) => file.modified.path).sort(),
      first.changes.map((change) => `/${change.newPath}`).sort(),
    );
    // Its sides are the commit and its parent, not the merge request's base and head.
    assert.ok(shown?.files.every((file) => new URLSearchParams(file.modified.query).get('sha') === first.id));
    const parents = shown?.files
      .filter((file) => new URLSearchParams(file.original.query).get('sha') !== '')
      .map((file) => new URLSearchParams(file.original.query).get('sha'));
    assert.ok(parents?.every((sha) => sha === first.parentIds[0]));

    await vscode.commands.executeCommand('forge.review.nextCommit');
    await eventually(() =>
      assert.match(
        multiDiff()?.title ?? '',
        new RegExp(`^!1 commit 2 of ${seeded.length}: ${second.id.slice(0, 8)} `),
      ),
    );
    for (let index = 2; index < seeded.length; index += 1)
      await vscode.commands.executeCommand('forge.review.nextCommit');
    const said = await messagesShownBy(
      () => vscode.commands.executeCommand('forge.review.nextCommit'),
      'information',
    );
    assert.deepEqual(said, ['This is the last commit of !1.']);
    await vscode.commands.executeCommand('forge.review.previousCommit');
    await eventually(() =>
      assert.match(
        multiDiff()?.title ?? '',
        new RegExp(`^!1 commit ${seeded.length - 1} of ${seeded.length}: `),
      ),
    );
  });

  it("posts a comment on a commit's line with that commit's position, and shows its thread there", async () => {
    const [first] = seededCommits();
    assert.ok(first);
    const rows = await commitRows();
    await vscode.commands.executeCommand('forge.review.openCommit', rows[0]?.node);
    const change = first.changes.find((each) => !each.deletedFile);
    assert.ok(change);
    const shown = await eventually(() => {
      const found = multiDiff()?.files.find((file) => file.modified.path === `/${change.newPath}`);
      assert.ok(found);
      return found;
    });
    const controller = session.api.review.comments.controller;
    const ranges = (await controller.commentingRangeProvider?.provideCommentingRanges(
      await vscode.workspace.openTextDocument(shown.modified),
      new vscode.CancellationTokenSource().token,
    )) as vscode.Range[] | undefined;
    const line = ranges?.[0]?.start.line;
    assert.ok(line !== undefined, "the commit's lines take comments");
    const thread = controller.createCommentThread(shown.modified, new vscode.Range(line, 0, line, 0), []);
    try {
      forge.clearRequests();
      await vscode.commands.executeCommand('forge.review.reply', { thread, text: 'Why in this commit?' });
      const posted = forge.requests.find(
        (request) => request.method === 'POST' && request.path.endsWith('/merge_requests/1/discussions'),
      );
      const position = (posted?.body as { position?: Record<string, unknown> } | undefined)?.position;
      assert.equal(position?.['head_sha'], first.id);
      assert.equal(position?.['base_sha'], first.parentIds[0]);
      assert.equal(position?.['new_line'], line + 1);
      assert.equal(thread.comments.length, 1);
    } finally {
      thread.dispose();
    }
    // Opened again, the thread is read back onto the commit's line.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('forge.review.openCommit', rows[0]?.node);
    await eventually(() => {
      const threads = session.api.review.comments
        .shownThreads()
        .filter(
          (each) =>
            each.uri.path === `/${change.newPath}` &&
            new URLSearchParams(each.uri.query).get('sha') === first.id &&
            each.range?.start.line === line,
        );
      assert.equal(threads.length, 1);
    });
  });

  it('compares the newest version with an older one, and with the head of my last review', async () => {
    const seeded = seededCommits();
    const folder = await changesFolder();
    const oldest = seeded[0];
    assert.ok(oldest);
    const answering = session.api.messages.answerPicks((labels) => labels.indexOf('Version 1'));
    const compared = await vscode.commands
      .executeCommand<{ from: string; files: number }>('forge.review.compareWithVersion', folder.node)
      .then((answer) => {
        answering.dispose();
        return answer;
      });
    assert.equal(compared?.from, oldest.id, 'version 1 is the first push');
    const request = forge.requests.filter((each) => each.path.endsWith('/repository/compare')).at(-1);
    assert.equal(request?.query['straight'], 'true');
    await eventually(() => assert.match(multiDiff()?.title ?? '', /^!1 changes since Version 1 \(/));

    // Nothing remembered yet: said so. After a submitted review, the head is remembered.
    const refused = await messagesShownBy(() =>
      vscode.commands.executeCommand('forge.review.changesSinceLastReview', folder.node),
    );
    assert.match(
      refused.join('\n'),
      /You have not submitted a review of !1 or approved it from this workspace yet/,
    );
    const { target } = folder.node as unknown as {
      target: Parameters<typeof session.api.review.reviewed>[0];
    };
    await session.api.review.reviewed(target, oldest.id);
    const since = await vscode.commands.executeCommand<{ from: string }>(
      'forge.review.changesSinceLastReview',
      folder.node,
    );
    assert.equal(since?.from, oldest.id);
    await eventually(() => assert.match(multiDiff()?.title ?? '', /^!1 changes since your last review \(/));
    await session.api.review.reviewed(target, stored().headSha);
    const nothing = await messagesShownBy(
      () => vscode.commands.executeCommand('forge.review.changesSinceLastReview', folder.node),
      'information',
    );
    assert.deepEqual(nothing, ['Nothing was pushed to !1 since your last review.']);
  });
});
