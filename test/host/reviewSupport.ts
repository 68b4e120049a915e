// What the review host tests share: the fake forge's merge requests as stored, the Merge Requests
// view's rows, the panel, the diff editor shown, and the threads on a file's lines.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { MergeRequestPanel } from '../../src/features/mergeRequests';
import type { TreeNode } from '../../src/platform/tree/treeNode';
import { treeAt } from '../server/repositoryFiles';
import { type ForgeSession, childByLabel, childrenOf, eventually, type Row } from './support';

export function reviewHelpers(session: ForgeSession) {
  const view = (): vscode.TreeDataProvider<TreeNode> => session.api.treeProviders['forge.mergeRequests'];

  /** The files of the fake forge's commit `sha`, as GitLab serves them. */
  function fileAt(sha: string, path: string): string | undefined {
    return treeAt(session.forge.state, sha)?.get(path);
  }

  /** The account's folder `group` ("Assigned to me", "Created by me") of the Merge Requests view. */
  async function group(name: string): Promise<Row> {
    // Views show accounts once there are several: ours is found by its id.
    const roots = await childrenOf(view());
    const root = roots.find(({ item }) => item.id === `mergeRequests/account/${session.account.id}`)?.node;
    return childByLabel(view(), root, name);
  }

  /** !1 "Add a login form" in "Assigned to me", and its children. */
  async function loginForm(): Promise<{ row: Row; children: Row[] }> {
    const row = await childByLabel(view(), (await group('Assigned to me')).node, /^!1 /);
    return { row, children: await childrenOf(view(), row.node) };
  }

  function stored(iid = 1) {
    const { forge } = session;
    const web = forge.fixtures.projects.web;
    const found = [...forge.state.mergeRequests.values()].find(
      (each) => each.projectId === web && each.iid === iid,
    );
    assert.ok(found);
    return { ...found, headSha: forge.state.mergeRequestHeadSha(found) };
  }

  /** A diff comment's position on new line `newLine` of `path` in merge request `iid`, at its head. */
  function onNewLine(newLine: number, path = 'src/index.ts', iid = 1) {
    const mr = stored(iid);
    return {
      base_sha: mr.baseSha,
      start_sha: mr.baseSha,
      head_sha: mr.headSha,
      old_path: path,
      new_path: path,
      position_type: 'text',
      new_line: newLine,
    };
  }

  async function openPanel(iid = 1): Promise<MergeRequestPanel> {
    const opened = await vscode.commands.executeCommand<{ key: string }>(
      'forge.mergeRequest.openPanel',
      undefined,
      { accountId: session.account.id, project: session.forge.fixtures.projects.web, iid },
    );
    assert.ok(opened);
    const panel: MergeRequestPanel | undefined = session.api.panels.mergeRequest.get(opened.key);
    assert.ok(panel);
    // The first panel of a fresh VS Code builds its snapshot in several seconds: wait for it as
    // long as the test may run, not the default five.
    await eventually(
      () => assert.ok(panel.snapshot && !panel.snapshot.partial, 'the full snapshot is built'),
      25_000,
    );
    return panel;
  }

  async function activeDiff(path: string): Promise<vscode.TabInputTextDiff> {
    return eventually(() => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      assert.ok(input instanceof vscode.TabInputTextDiff, 'a diff editor is open');
      assert.equal(input.modified.path, `/${path}`);
      return input;
    });
  }

  /** The messages of `severity` shown while `run` runs (commands show their errors instead of throwing). */
  async function messagesShownBy(
    run: () => Thenable<unknown>,
    severity: 'error' | 'information' = 'error',
  ): Promise<string[]> {
    const shown: string[] = [];
    const observing = session.api.messages.observe((message) => {
      if (message.severity === severity) shown.push(message.text);
    });
    try {
      await run();
    } finally {
      observing.dispose();
    }
    return shown;
  }

  function threadsOn(path: string): vscode.CommentThread[] {
    return session.api.review.comments.shownThreads().filter((thread) => thread.uri.path === `/${path}`);
  }

  /** `src/index.ts` of !1 in the diff editor. */
  async function openIndex(): Promise<vscode.TabInputTextDiff> {
    const { children } = await loginForm();
    const file = await childByLabel(view(), children[0]!.node, 'index.ts');
    await vscode.commands.executeCommand('forge.review.openChangedFile', file.node);
    return activeDiff('src/index.ts');
  }

  /** The thread on `line` (0-based) of `path`, once it is shown. */
  function threadOn(path: string, line: number): Promise<vscode.CommentThread> {
    return eventually(() => {
      const found = threadsOn(path).find((each) => each.range?.start.line === line);
      assert.ok(found, `a thread on line ${line + 1} of ${path}`);
      return found;
    });
  }

  return {
    view,
    fileAt,
    group,
    loginForm,
    stored,
    onNewLine,
    openPanel,
    activeDiff,
    messagesShownBy,
    threadsOn,
    threadOn,
    openIndex,
  };
}
