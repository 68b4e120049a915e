// The merge request of the checked-out branch on the working files: its threads on the lines as
// they are now (moved by local edits), an outdated one on its file, a new thread started on a
// working file with the head's position, the toggle that silences them, and local edits turned
// into pending suggestions.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { HostingClient } from '../../src/api/hosting';
import type { FakeForge } from '../server';
import { reviewHelpers } from './reviewSupport';
import { eventually, makeWorkspaceAClone, useForgeSession } from './support';

describe('review: on the checked-out branch', function () {
  this.timeout(30_000);
  const session = useForgeSession();
  const { stored, fileAt, onNewLine, messagesShownBy } = reviewHelpers(session);
  let forge: FakeForge;
  let folder: string;
  let restoreClone: (() => void) | undefined;
  let alice: HostingClient;
  const written: string[] = [];

  function write(path: string, text: string): vscode.Uri {
    const file = join(folder, path);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, text);
    written.push(file);
    return vscode.Uri.file(file);
  }

  before(() => {
    forge = session.forge;
    const workspaceFolder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(workspaceFolder, 'the test VS Code opens a folder');
    folder = workspaceFolder.uri.fsPath;
    restoreClone = makeWorkspaceAClone(forge, 'acme/web', stored().sourceBranch);
    const token = forge.tokens['alice'];
    assert.ok(token);
    alice = HostingClient.create({ baseUrl: forge.url, credentials: { kind: 'private-token', token } });
  });

  session.cleanUps.push(async () => {
    // Unsaved edits are thrown away, not saved into the shared test folder.
    for (const document of vscode.workspace.textDocuments.filter((each) => each.isDirty)) {
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const file of written) rmSync(file, { force: true });
    rmSync(join(folder, 'src'), { recursive: true, force: true });
    restoreClone?.();
    await vscode.workspace
      .getConfiguration('forge')
      .update('review.threadsOnCheckedOutBranch', undefined, vscode.ConfigurationTarget.Workspace);
    await vscode.commands.executeCommand('forge.statusBar.refresh');
    await alice.close();
  });

  function threadsOnFile(uri: vscode.Uri): vscode.CommentThread[] {
    return session.api.review.comments
      .shownThreads()
      .filter((thread) => thread.uri.toString() === uri.toString());
  }

  it("puts the threads on the working file's lines as they are now, and an outdated one on the file", async () => {
    const mr = stored();
    const head = fileAt(mr.headSha, 'src/index.ts');
    assert.ok(head);
    const headLines = head.split('\n');
    // Two lines added above, and head line 7 changed: line 6 is now line 8, line 7 is gone.
    const working = [
      '// local 1',
      '// local 2',
      ...headLines.slice(0, 6),
      '  // changed here',
      ...headLines.slice(7),
    ].join('\n');
    const uri = write('src/index.ts', working);
    const web = forge.fixtures.projects.web;
    const onSix = await alice.createDiscussion(web, 1, {
      body: 'Still here after your edits',
      position: onNewLine(6),
    });
    const onSeven = await alice.createDiscussion(web, 1, {
      body: 'This line you changed',
      position: onNewLine(7),
    });

    // The review starts once a file of the clone is open.
    await vscode.workspace.openTextDocument(uri);
    await vscode.commands.executeCommand('forge.statusBar.refresh');
    const [moved, outdated] = await eventually(() => {
      const threads = threadsOnFile(uri);
      const followed = threads.find((thread) =>
        thread.comments.some((comment) =>
          String((comment.body as vscode.MarkdownString).value ?? comment.body).includes('Still here'),
        ),
      );
      const lost = threads.find((thread) =>
        thread.comments.some((comment) =>
          String((comment.body as vscode.MarkdownString).value ?? comment.body).includes(
            'This line you changed',
          ),
        ),
      );
      assert.ok(followed && lost, `threads on the working file: ${threads.length}`);
      return [followed, lost];
    }, 15_000);
    assert.equal(moved?.range?.start.line, 7, 'head line 6 is working line 8');
    assert.equal(outdated?.range, undefined, 'a changed line: the thread is on the file, listed as outdated');
    assert.match(outdated?.label ?? '', /^Outdated \(was line 7 at [0-9a-f]{8}\)$/);
    assert.ok(onSix.id && onSeven.id);

    // A reply there is a reply in the thread on the server.
    forge.clearRequests();
    await vscode.commands.executeCommand('forge.review.reply', {
      thread: moved,
      text: 'Answered from my branch',
    });
    assert.ok(
      forge.requests.some(
        (request) => request.method === 'POST' && request.path.endsWith(`/discussions/${onSix.id}/notes`),
      ),
    );

    // A new thread on a working line: posted with the head's line.
    const controller = session.api.review.comments.controller;
    const document = await vscode.workspace.openTextDocument(uri);
    const ranges = (await controller.commentingRangeProvider?.provideCommentingRanges(
      document,
      new vscode.CancellationTokenSource().token,
    )) as vscode.Range[] | undefined;
    assert.ok(
      ranges?.some((range) => range.start.line <= 4 && range.end.line >= 4),
      'working line 5 (head line 3) takes a comment',
    );
    assert.ok(
      !ranges?.some((range) => range.start.line <= 0 && range.end.line >= 0),
      'a line added locally does not',
    );
    const fresh = controller.createCommentThread(uri, new vscode.Range(4, 0, 4, 0), []);
    try {
      forge.clearRequests();
      await vscode.commands.executeCommand('forge.review.reply', {
        thread: fresh,
        text: 'Started on my file',
      });
      const posted = forge.requests.find(
        (request) => request.method === 'POST' && request.path.endsWith('/merge_requests/1/discussions'),
      );
      const position = (posted?.body as { position?: Record<string, unknown> } | undefined)?.position;
      assert.equal(position?.['new_line'], 3);
      assert.equal(position?.['head_sha'], mr.headSha);
    } finally {
      fresh.dispose();
    }

    // Silenced, then back.
    await vscode.commands.executeCommand('forge.review.hideBranchThreads');
    await eventually(() => assert.deepEqual(threadsOnFile(uri), []));
    await vscode.commands.executeCommand('forge.review.showBranchThreads');
    await eventually(() => assert.ok(threadsOnFile(uri).length >= 2));
  });

  it('turns local edits into pending suggestions on the lines they change, and says what it left out', async () => {
    const mr = stored();
    const head = fileAt(mr.headSha, 'src/login.ts');
    assert.ok(head);
    const uri = write('src/login.ts', head);
    // The first test's edits to index.ts are taken back: only login.ts differs from the head.
    const index = fileAt(mr.headSha, 'src/index.ts');
    assert.ok(index);
    write('src/index.ts', index);
    const readme = write('README.md', 'not part of the merge request\n');
    const editor = await vscode.window.showTextDocument(uri);
    // Unsaved edits: the first line changed, and a line added after the third.
    await editor.edit((edit) => {
      edit.replace(new vscode.Range(0, 0, 0, editor.document.lineAt(0).text.length), '// reworded');
      edit.insert(new vscode.Position(3, 0), 'const added = true;\n');
    });
    const other = await vscode.window.showTextDocument(readme, { preview: false });
    await other.edit((edit) => edit.insert(new vscode.Position(0, 0), 'edited\n'));
    const before = forge.requests.length;
    const said = await messagesShownBy(
      () => vscode.commands.executeCommand('forge.review.suggestFromEdits'),
      'information',
    );
    const drafts = forge.requests
      .slice(before)
      .filter(
        (request) => request.method === 'POST' && request.path.endsWith('/merge_requests/1/draft_notes'),
      );
    const bodies = drafts.map((request) => (request.body as { note: string }).note);
    const lines = drafts.map(
      (request) => (request.body as { position: { new_line: number } }).position.new_line,
    );
    assert.deepEqual(lines, [1, 3]);
    assert.equal(bodies[0], '```suggestion\n// reworded\n```');
    assert.match(bodies[1] ?? '', /^```suggestion\n.*\nconst added = true;\n```$/);
    assert.match(
      said.join('\n'),
      /^2 suggestions held for your review of !1: submit the review to publish them\. Left out: README\.md is not a file !1 changes/,
    );
    assert.equal(editor.document.lineAt(0).text, '// reworded', 'the edit stays in the file');
    assert.throws(
      () => execFileSync('git', ['rev-parse', 'HEAD'], { cwd: folder, stdio: 'pipe' }),
      'nothing was committed',
    );
    // Held on the server as the account's drafts (alice's), and counted in the status bar.
    const pending = await alice.listDraftNotes(forge.fixtures.projects.web, 1).toArray();
    assert.equal(pending.filter((draft) => draft.note.includes('```suggestion')).length, 2);
    await eventually(() => assert.match(session.api.review.pendingStatus.text, /2 pending/));
  });
});
