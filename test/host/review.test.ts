// Review in VS Code's own diff editor: a merge request's "Changes" folder in the Merge Requests view,
// each changed file side by side (base ↔ head) and all of them in the multi-file diff editor, the
// sides read from the server when the workspace has no clone; the panel's "Open in diff editor" too.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ForgeWorkbenchApi } from '../../src/extension';
import type { TreeNode } from '../../src/platform/tree/treeNode';
import type { FakeForge } from '../server';
import type { DiffPosition } from '../server/state';
import { HostingClient } from '../../src/api/hosting';
import { safeMarkdown } from '../../src/domain/safeMarkdown';
import { reviewHelpers } from './reviewSupport';
import { childByLabel, childrenOf, eventually, label, shownTooltip, useForgeSession } from './support';

describe('review in the diff editor', function () {
  this.timeout(30_000);
  const session = useForgeSession();
  const {
    fileAt,
    loginForm,
    stored,
    onNewLine,
    openPanel,
    activeDiff,
    threadsOn,
    openIndex,
    messagesShownBy,
  } = reviewHelpers(session);
  let forge: FakeForge;
  let api: ForgeWorkbenchApi;
  let view: vscode.TreeDataProvider<TreeNode>;

  before(() => {
    ({ forge, api } = session);
    view = api.treeProviders['forge.mergeRequests'];
    assert.equal(
      vscode.workspace.workspaceFolders?.some((folder) => folder.uri.fsPath.endsWith('.git')),
      false,
    );
  });

  afterEach(async () => {
    forge.onRequest(undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('lists the changed files under "Changes", first among the merge request\'s children', async () => {
    forge.clearRequests();
    const { children } = await loginForm();
    const [changes, ...notes] = children;
    assert.ok(changes);
    assert.equal(label(changes.item), 'Changes');
    assert.equal(changes.item.contextValue, 'reviewChanges');
    assert.ok(notes.length > 0, 'the comments follow');
    const [commits, ...files] = await childrenOf(view, changes.node);
    assert.equal(commits?.item.contextValue, 'reviewCommits', 'the commits come first');
    assert.deepEqual(
      files.map(({ item }) => [label(item), item.description]),
      [
        ['login.ts', 'src · added'],
        ['index.ts', 'src'],
        ['login.test.ts', 'test · added'],
      ],
    );
    assert.equal(files[0]?.item.command?.command, 'forge.review.openChangedFile');
    assert.ok(
      forge.requests.some((request) => request.path.endsWith('/merge_requests/1/diffs')),
      `read from .../diffs: ${forge.requests.map((request) => request.path).join(', ')}`,
    );
  });

  it('opens a modified file side by side, both sides read from the server at the base and head commits', async () => {
    const { children } = await loginForm();
    const files = await childrenOf(view, children[0]!.node);
    const modified = files.find(({ item }) => label(item) === 'index.ts');
    assert.ok(modified);
    forge.clearRequests();
    await vscode.commands.executeCommand('forge.review.openChangedFile', modified.node);
    const diff = await activeDiff('src/index.ts');
    assert.equal(diff.original.scheme, 'forge-review');
    const mr = stored();
    const base = await vscode.workspace.openTextDocument(diff.original);
    const head = await vscode.workspace.openTextDocument(diff.modified);
    assert.equal(head.getText(), fileAt(mr.headSha, 'src/index.ts'));
    assert.equal(base.getText(), fileAt(mr.baseSha, 'src/index.ts'));
    assert.notEqual(base.getText(), head.getText());
    assert.equal(head.languageId, 'typescript');
    const reads = forge.requests.filter((request) => request.path.includes('/repository/files/'));
    assert.deepEqual(
      reads.map((request) => String(request.query['ref'])).sort(),
      [mr.baseSha, mr.headSha].sort(),
      forge.requests.map((request) => `${request.path}?${JSON.stringify(request.query)}`).join('\n'),
    );
    assert.match(
      vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? '',
      /^index\.ts \(!1 [0-9a-f]{8} ↔ [0-9a-f]{8}\)$/,
    );

    // Read again: each side is kept, nothing is asked twice.
    forge.clearRequests();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('forge.review.openChangedFile', modified.node);
    await activeDiff('src/index.ts');
    assert.deepEqual(
      forge.requests.filter((request) => request.path.includes('/repository/files/')),
      [],
    );
  });

  it('opens an added file against an empty base', async () => {
    const { children } = await loginForm();
    const added = await childByLabel(view, children[0]!.node, 'login.ts');
    await vscode.commands.executeCommand('forge.review.openChangedFile', added.node);
    const diff = await activeDiff('src/login.ts');
    assert.equal((await vscode.workspace.openTextDocument(diff.original)).getText(), '');
    assert.match((await vscode.workspace.openTextDocument(diff.modified)).getText(), /renderLoginForm/);
  });

  it('opens every changed file in the multi-file diff editor', async () => {
    const { children } = await loginForm();
    const result = await vscode.commands.executeCommand<{ opened: number }>(
      'forge.review.openAllChanges',
      children[0]!.node,
    );
    assert.equal(result?.opened, 3);
    // The multi-file diff editor's tab input is not in the stable API: read as the object it is.
    const tab = await eventually(() => {
      const active = vscode.window.tabGroups.activeTabGroup.activeTab;
      assert.match(active?.label ?? '', /^!1 Add a login form \([0-9a-f]{8} ↔ [0-9a-f]{8}\)/);
      return active;
    });
    const { textDiffs } = tab?.input as { textDiffs?: { original: vscode.Uri; modified: vscode.Uri }[] };
    assert.deepEqual(
      textDiffs?.map((each) => [each.original.path, each.modified.path]),
      [
        ['/src/login.ts', '/src/login.ts'],
        ['/src/index.ts', '/src/index.ts'],
        ['/test/login.test.ts', '/test/login.test.ts'],
      ],
    );
    assert.equal(
      new URLSearchParams(textDiffs?.[0]?.original.query).get('sha'),
      '',
      'an added file has no base',
    );
  });

  it('lists the changed files under each merge request of the Projects view too', async () => {
    // Views show accounts once there are several: ours is found by its id.
    const roots = await childrenOf(api.projects);
    const root =
      api.accounts.list().length === 1
        ? undefined
        : roots.find(({ item }) => item.id?.includes(session.account.id))?.node;
    const web = await childByLabel(api.projects, root, /^web$/i);
    const folder = await childByLabel(api.projects, web.node, 'Merge Requests');
    const row = await childByLabel(api.projects, folder.node, /^!1 /);
    assert.equal(row.item.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    assert.equal(row.item.command?.command, 'forge.mergeRequest.openPanel', 'a click still opens the panel');
    const changes = await childByLabel(api.projects, row.node, 'Changes');
    const file = await childByLabel(api.projects, changes.node, 'index.ts');
    await vscode.commands.executeCommand('forge.review.openChangedFile', file.node);
    await activeDiff('src/index.ts');
  });

  it('reviews every change of a merge request from its row ("Review Changes in the Diff Editor")', async () => {
    const { row } = await loginForm();
    const result = await vscode.commands.executeCommand<{ opened: number }>(
      'forge.mergeRequest.openChanges',
      row.node,
    );
    assert.equal(result?.opened, 3);
    await eventually(() =>
      assert.match(
        vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? '',
        /^!1 Add a login form \([0-9a-f]{8} ↔ [0-9a-f]{8}\)/,
      ),
    );
  });

  it('opens a file in the diff editor from the panel without a clone, from the server', async () => {
    const panel = await openPanel();
    const snapshot = panel.snapshot;
    assert.ok(snapshot);
    assert.equal(snapshot.opensDiffs, true, 'the files offer the diff editor without a clone');
    const index = snapshot.files.findIndex((file) => file.path === 'src/index.ts');
    await panel.host.receive({ type: 'openDiff', file: index });
    const diff = await activeDiff('src/index.ts');
    assert.equal(diff.modified.scheme, 'forge-review');
    panel.dispose();
  });

  it('gives a diff side VS Code restores after a reload its text, and its merge request its threads again', async () => {
    // As VS Code does for a restored tab: it asks for the side by its URI, nothing opened before.
    const readme = stored(3);
    const web = forge.fixtures.projects.web;
    const { account } = session;
    assert.equal(api.review.comments.hasSession(account.id, web, 3), false, 'no review of !3 in this window');
    const uri = api.review.content.uri(
      { accountId: account.id, project: web, mergeRequestIid: 3 },
      { sha: readme.headSha, path: 'README.md' },
    );
    const document = await vscode.workspace.openTextDocument(uri);
    assert.equal(document.getText(), fileAt(readme.headSha, 'README.md'));
    await api.review.sides.resuming;
    await eventually(() =>
      assert.ok(api.review.comments.hasSession(account.id, web, 3), 'its threads are placed'),
    );
  });

  describe('comment threads on the lines', () => {
    let bob: HostingClient;
    const web = () => forge.fixtures.projects.web;

    before(() => {
      const token = forge.tokens['bob'];
      assert.ok(token);
      bob = HostingClient.create({ baseUrl: forge.url, credentials: { kind: 'private-token', token } });
    });

    after(() => bob.close());

    it("shows a reviewer's thread on its line of the new side, and answers and resolves it", async () => {
      // bob comments on the added line 2 of src/index.ts (`import { renderLoginForm } …`).
      const started = await bob.createDiscussion(web(), 1, {
        body: 'Is **this** import needed? [run](command:workbench.action.quit) [see](file:///etc/passwd) [docs](https://nodejs.org/api/http.html)',
        position: onNewLine(2),
      });
      const diff = await openIndex();
      const thread = await eventually(() => {
        const found = threadsOn('src/index.ts').find((each) => each.range?.start.line === 1);
        assert.ok(found, 'the thread is on line 2');
        return found;
      });
      assert.equal(thread.uri.toString(), diff.modified.toString(), 'on the new side');
      assert.equal(thread.contextValue, 'resolvable unresolved');
      assert.equal(thread.state, vscode.CommentThreadState.Unresolved);
      const [first] = thread.comments;
      const body = first?.body as vscode.MarkdownString;
      // Only the web link stays a link: the others are their text, with the target as code.
      assert.equal(
        body.value,
        'Is **this** import needed\\? run `command:workbench.action.quit` see `file:///etc/passwd` [docs](<https://nodejs.org/api/http.html>)',
      );
      assert.equal(body.isTrusted, false, 'a command link in server text does not run');
      assert.equal(first?.author.name, 'Bob Builder');

      forge.clearRequests();
      await vscode.commands.executeCommand('forge.review.reply', {
        thread,
        text: 'It is: the form is served.',
      });
      assert.equal(thread.comments.length, 2);
      assert.deepEqual(
        forge.requests.filter((request) => request.path === '/api/v4/user'),
        [],
        'who the account is was read once, with the threads',
      );
      await vscode.commands.executeCommand('forge.review.resolveThread', thread);
      assert.equal(thread.state, vscode.CommentThreadState.Resolved);
      assert.equal(thread.contextValue, 'resolvable resolved');
      const [onServer] = (await bob.listDiscussions(web(), 1).toArray()).filter(
        (each) => each.id === started.id,
      );
      assert.deepEqual(
        onServer?.notes.map((note) => [note.body, note.resolved]),
        [
          [
            'Is **this** import needed? [run](command:workbench.action.quit) [see](file:///etc/passwd) [docs](https://nodejs.org/api/http.html)',
            true,
          ],
          ['It is: the form is served.', true],
        ],
      );
      await vscode.commands.executeCommand('forge.review.unresolveThread', thread);
      assert.equal(thread.state, vscode.CommentThreadState.Unresolved);
    });

    it("puts the seed's threads of !5 on their sides, resolved ones folded, outdated ones left off, a suggestion shown", async () => {
      const created = await childByLabel(
        view,
        (await childrenOf(view)).find(({ item }) => item.id === `mergeRequests/account/${session.account.id}`)
          ?.node,
        'Created by me',
      );
      const draft = await childByLabel(view, created.node, /^!5 /);
      const [changes] = await childrenOf(view, draft.node);
      assert.ok(changes);
      const theme = await childByLabel(view, changes.node, 'dark.css');
      await vscode.commands.executeCommand('forge.review.openChangedFile', theme.node);
      await activeDiff('src/theme/dark.css');
      const threads = await eventually(() => {
        const shown = api.review.comments
          .shownThreads()
          .filter((thread) => new URLSearchParams(thread.uri.query).get('mr') === '5');
        assert.equal(shown.length, 3);
        return shown;
      });
      const onTheme = threads.find(
        (thread) => thread.uri.path === '/src/theme/dark.css' && thread.range?.start.line === 1,
      );
      const suggested = threads.find(
        (thread) => thread.uri.path === '/src/theme/dark.css' && thread.range?.start.line === 2,
      );
      assert.equal(suggested?.comments[0]?.contextValue, 'other suggestion', 'the seed has a suggestion');
      assert.match(
        (suggested?.comments[0]?.body as vscode.MarkdownString | undefined)?.value ?? '',
        /- {2}--background: #1e1e1e;\n\+ {2}--background: #1f1f1f;/,
      );
      assert.equal(onTheme?.range?.start.line, 1, 'new line 2');
      assert.equal(onTheme?.comments.length, 2);
      assert.equal(onTheme?.state, vscode.CommentThreadState.Unresolved);
      const onLegacy = threads.find((thread) => thread.uri.path === '/src/legacy.js');
      assert.equal(new URLSearchParams(onLegacy?.uri.query).get('sha'), stored(5).baseSha, 'on the old side');
      assert.equal(onLegacy?.range?.start.line, 1, 'old line 2');
      assert.equal(onLegacy?.state, vscode.CommentThreadState.Resolved);
      assert.equal(onLegacy?.collapsibleState, vscode.CommentThreadCollapsibleState.Collapsed);
    });

    it('skips a thread whose position no file has, and shows the threads and changes after it', async () => {
      // What a hostile or broken server may send (issue 41): lines of 0 or less, a range starting
      // below line 1, paths that would make a URI of another host.
      const broken: Partial<DiffPosition>[] = [
        { new_line: 0 },
        { new_line: -3 },
        { old_path: '/etc/passwd', new_path: '/etc/passwd' },
        { old_path: '//host/share/x', new_path: '//host/share/x' },
        {
          line_range: {
            start: { line_code: 'x_0_-1', type: 'new', old_line: null, new_line: -1 },
            end: { line_code: 'x_0_2', type: 'new', old_line: null, new_line: 2 },
          },
        },
      ];
      for (const change of broken) {
        const created = await bob.createDiscussion(web(), 1, { body: 'Broken', position: onNewLine(2) });
        const note = forge.state.notes.get(created.notes[0]!.id);
        assert.ok(note?.position);
        Object.assign(note.position, change);
      }
      await bob.createDiscussion(web(), 1, { body: 'After the broken ones', position: onNewLine(3) });
      await openIndex();
      const shown = await eventually(() => {
        const found = threadsOn('src/index.ts').find((thread) =>
          thread.comments.some(
            (comment) =>
              (comment.body as vscode.MarkdownString).value === safeMarkdown('After the broken ones'),
          ),
        );
        assert.ok(found, 'the thread after the broken ones is on its line');
        return found;
      });
      assert.equal(shown.range?.start.line, 2);
      for (const thread of api.review.comments.shownThreads()) {
        assert.ok(thread.range === undefined || thread.range.start.line >= 0);
        assert.ok(!thread.uri.path.startsWith('//'), `no URI of another host: ${thread.uri.toString()}`);
      }
      const { children } = await loginForm();
      const result = await vscode.commands.executeCommand<{ opened: number }>(
        'forge.review.openAllChanges',
        children[0]!.node,
      );
      assert.equal(result?.opened, 3, 'every change opens');
    });

    it('starts a thread on a line the diff shows, with the position GitLab wants, and refuses others', async () => {
      const diff = await openIndex();
      const controller = api.review.comments.controller;
      // VS Code writes the prompt on the reply button of threads that have comments: a reply.
      assert.equal(controller.options?.prompt, 'Reply…');
      // The "+" in the gutter: on the lines the diff shows, on each side.
      const ranges = async (uri: vscode.Uri) =>
        (await controller.commentingRangeProvider?.provideCommentingRanges(
          await vscode.workspace.openTextDocument(uri),
          new vscode.CancellationTokenSource().token,
        )) as vscode.Range[] | undefined;
      assert.deepEqual(
        (await ranges(diff.modified))?.map((range) => [range.start.line, range.end.line]),
        [[0, 11]],
      );
      assert.deepEqual(
        (await ranges(diff.original))?.map((range) => [range.start.line, range.end.line]),
        [[0, 6]],
      );
      // As when the user clicks "+" in the gutter of line 6 (`createServer((request, response) => {`, added).
      const thread = controller.createCommentThread(diff.modified, new vscode.Range(5, 0, 5, 0), []);
      try {
        forge.clearRequests();
        await vscode.commands.executeCommand('forge.review.reply', { thread, text: 'Name it `handle`?' });
        const posted = forge.requests.find(
          (request) => request.method === 'POST' && request.path.endsWith('/discussions'),
        );
        const position = (posted?.body as { position?: Record<string, unknown> }).position;
        assert.equal(position?.['new_line'], 6);
        assert.equal(position?.['old_line'], undefined, 'an added line has no old line');
        assert.equal(position?.['head_sha'], stored().headSha);
        assert.equal(thread.comments.length, 1);
      } finally {
        thread.dispose();
      }

      // An unchanged line (4, `const port = …`) names both sides, as GitLab requires.
      const context = controller.createCommentThread(diff.modified, new vscode.Range(3, 0, 3, 0), []);
      forge.clearRequests();
      await vscode.commands.executeCommand('forge.review.reply', { thread: context, text: 'Why 3000?' });
      const posted = forge.requests.find(
        (request) => request.method === 'POST' && request.path.endsWith('/discussions'),
      );
      const position = (posted?.body as { position?: Record<string, unknown> }).position;
      assert.deepEqual([position?.['old_line'], position?.['new_line']], [3, 4]);
      context.dispose();

      const offTheDiff = controller.createCommentThread(diff.modified, new vscode.Range(40, 0, 40, 0), []);
      const refused = await messagesShownBy(() =>
        vscode.commands.executeCommand('forge.review.reply', { thread: offTheDiff, text: 'x' }),
      );
      assert.match(refused.join('\n'), /Only the lines the diff shows/);
      offTheDiff.dispose();
    });

    it('starts a thread on a range of lines, with line_range, and shows it over those lines', async () => {
      const diff = await openIndex();
      const controller = api.review.comments.controller;
      // Lines 6-10 of the new side: `createServer((request, response) => {` … `  }`, all added.
      const thread = controller.createCommentThread(diff.modified, new vscode.Range(5, 0, 9, 0), []);
      try {
        forge.clearRequests();
        await vscode.commands.executeCommand('forge.review.reply', { thread, text: 'Split this out?' });
        const posted = forge.requests.find(
          (request) => request.method === 'POST' && request.path.endsWith('/discussions'),
        );
        const position = (posted?.body as { position?: Record<string, unknown> }).position;
        assert.equal(position?.['new_line'], 10, 'the position names the last line');
        const range = position?.['line_range'] as
          { start: Record<string, unknown>; end: Record<string, unknown> } | undefined;
        assert.equal(range?.start['new_line'], 6);
        assert.equal(range?.start['type'], 'new');
        assert.match(String(range?.start['line_code']), /^[0-9a-f]{40}_\d+_6$/);
        assert.equal(range?.end['new_line'], 10);
      } finally {
        thread.dispose();
      }
      // Read again, the thread covers its lines.
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await openIndex();
      const shown = await eventually(() => {
        const found = threadsOn('src/index.ts').find((each) =>
          each.comments.some(
            (comment) => (comment.body as vscode.MarkdownString).value === safeMarkdown('Split this out?'),
          ),
        );
        assert.ok(found);
        return found;
      });
      assert.deepEqual([shown.range?.start.line, shown.range?.end.line], [5, 9]);
    });

    it('keeps a reply that failed to post in the thread, open for editing, and sends it again', async () => {
      await openIndex();
      const thread = await eventually(() => {
        const found = threadsOn('src/index.ts').find((each) => each.range?.start.line === 1);
        assert.ok(found);
        return found;
      });
      const before = thread.comments.length;
      forge.onRequest((request, response) => {
        if (request.method !== 'POST' || !request.url?.includes('/discussions/')) return false;
        response
          .writeHead(500, { 'content-type': 'application/json' })
          .end('{"message":"500 Internal Server Error"}');
        return true;
      });
      const failed = await messagesShownBy(() =>
        vscode.commands.executeCommand('forge.review.reply', { thread, text: 'Lost?' }),
      );
      assert.match(failed.join('\n'), /500/);
      const unsent = thread.comments.at(-1);
      assert.equal(thread.comments.length, before + 1);
      assert.equal(unsent?.contextValue, 'unsent');
      assert.equal(unsent?.mode, vscode.CommentMode.Editing);
      assert.equal(unsent?.body, 'Lost?');

      forge.onRequest(undefined);
      await vscode.commands.executeCommand('forge.review.sendUnsent', unsent);
      assert.equal(thread.comments.length, before + 1);
      assert.equal(thread.comments.at(-1)?.contextValue, 'own');
      assert.equal((thread.comments.at(-1)?.body as vscode.MarkdownString).value, safeMarkdown('Lost?'));
    });
  });

  describe("the panel's Discussion tab and the lines of its comments", () => {
    it('shows the threads: replies under their first comment, resolved or not', async () => {
      const panel = await openPanel(5);
      try {
        const notes = panel.snapshot?.notes ?? [];
        const first = notes.findIndex((note) => note.body.startsWith('Should this follow the system'));
        assert.ok(first >= 0);
        const thread = notes[first]?.thread;
        assert.deepEqual(thread, { id: thread?.id, reply: false, resolved: false });
        assert.match(thread?.id ?? '', /^[0-9a-f]{40}$/, 'the thread is named by its discussion');
        assert.match(notes[first + 1]?.body ?? '', /^The light theme stays the default/);
        assert.deepEqual(notes[first + 1]?.thread, { id: thread?.id, reply: true });
        const legacy = notes.find((note) => note.body.startsWith('Is anything still reading'));
        assert.deepEqual(legacy?.thread, { id: legacy?.thread?.id, reply: false, resolved: true });
        assert.notEqual(legacy?.thread?.id, thread?.id);
      } finally {
        panel.dispose();
      }
    });

    it('opens a comment on the current diff at its line', async () => {
      const panel = await openPanel(5);
      try {
        const note = panel.snapshot?.notes.find((each) =>
          each.body.startsWith('Should this follow the system'),
        );
        assert.deepEqual(note?.place, { path: 'src/theme/dark.css', line: 2, side: 'head', outdated: false });
        await panel.host.receive({ type: 'openNoteLine', noteId: note.id });
        const diff = await activeDiff('src/theme/dark.css');
        assert.equal(new URLSearchParams(diff.modified.query).get('sha'), stored(5).headSha);
        await eventually(() =>
          assert.equal(vscode.window.activeTextEditor?.selection.active.line, 1, 'the cursor on line 2'),
        );
      } finally {
        panel.dispose();
      }
    });

    it('opens an outdated comment on the version it was written on, with its thread there', async () => {
      const written = [...forge.state.notes.values()].find((each) =>
        each.body.startsWith('Should the username label'),
      );
      assert.ok(written?.position);
      assert.notEqual(written.position.head_sha, stored().headSha, 'the seed has it on the first push');
      const panel = await openPanel(1);
      try {
        const note = panel.snapshot?.notes.find((each) => each.id === written.id);
        assert.deepEqual(note?.place, { path: 'src/login.ts', line: 8, side: 'head', outdated: true });
        await panel.host.receive({ type: 'openNoteLine', noteId: written.id });
        const diff = await activeDiff('src/login.ts');
        assert.equal(new URLSearchParams(diff.modified.query).get('sha'), written.position.head_sha);
        assert.equal(new URLSearchParams(diff.original.query).get('sha'), '', 'the file was new then');
        const thread = await eventually(() => {
          const found = api.review.comments
            .shownThreads()
            .find((each) => each.uri.toString() === diff.modified.toString());
          assert.ok(found, 'the thread on the version it was written on');
          return found;
        });
        assert.equal(thread.range?.start.line, 7);
        assert.equal(thread.label, 'Outdated');
        assert.equal(
          (thread.comments[0]?.body as vscode.MarkdownString).value,
          safeMarkdown('Should the username label be in English, like the rest of the form?'),
        );
        await vscode.commands.executeCommand('forge.review.reply', {
          thread,
          text: 'Yes: fixed in the next push.',
        });
        assert.equal(thread.comments.length, 2, 'answered where it was written');
        await eventually(() => assert.equal(vscode.window.activeTextEditor?.selection.active.line, 7));
      } finally {
        panel.dispose();
      }
    });
  });

  describe('approvals in the merge request panel', () => {
    it("approves bob's merge request as alice at the head shown, says who approved, and takes it back", async () => {
      const panel = await openPanel();
      try {
        assert.deepEqual(panel.snapshot?.approvals, {
          approvedBy: [],
          left: 0,
          youApproved: false,
          canApprove: true,
        });
        assert.equal(panel.snapshot?.actions.approve, true);
        assert.equal(panel.snapshot?.actions.unapprove, false);
        forge.clearRequests();
        await panel.host.receive({ type: 'action', action: 'approve' });
        const posted = forge.requests.find((request) => request.path.endsWith('/merge_requests/1/approve'));
        assert.deepEqual(
          posted?.body,
          { sha: stored().headSha },
          'the approval is for the head the panel shows',
        );
        assert.deepEqual(panel.snapshot?.approvals?.approvedBy, ['Alice Liddell']);
        assert.equal(panel.snapshot?.actions.approve, false);
        assert.equal(panel.snapshot?.actions.unapprove, true);

        await panel.host.receive({ type: 'action', action: 'unapprove' });
        assert.deepEqual(panel.snapshot?.approvals?.approvedBy, []);
        assert.equal(panel.snapshot?.actions.approve, true);
        assert.deepEqual(panel.snapshot?.errors, []);

        // Someone pushes after the panel was read: the approval is refused (409), said in words, and
        // the panel shows the new head, which the next approval is for.
        const branch = forge.state.projects
          .get(forge.fixtures.projects.web)
          ?.branches.get(stored().sourceBranch);
        assert.ok(branch);
        const seeded = branch.commitSha;
        branch.commitSha = forge.state.newSha();
        forge.state.commits.set(branch.commitSha, {
          ...forge.state.commits.get(seeded)!,
          id: branch.commitSha,
          parentIds: [seeded],
          title: 'A late push',
        });
        try {
          await panel.host.receive({ type: 'action', action: 'approve' });
          const said = panel.host.sent.filter((message) => message.type === 'status').at(-1);
          assert.equal(said?.type === 'status' ? said.level : undefined, 'error');
          assert.match(
            said?.type === 'status' ? said.text : '',
            /moved since you looked: the panel shows it as it is now\. Check the changes and approve again\./,
          );
          assert.doesNotMatch(said?.type === 'status' ? said.text : '', /SHA does not match/);
          assert.equal(panel.snapshot?.mergeRequest.sha, branch.commitSha, 'the panel shows the new head');
          await panel.host.receive({ type: 'action', action: 'approve' });
          assert.deepEqual(panel.snapshot?.approvals?.approvedBy, ['Alice Liddell']);
          await panel.host.receive({ type: 'action', action: 'unapprove' });
        } finally {
          branch.commitSha = seeded;
        }
      } finally {
        panel.dispose();
      }
    });

    it("shows a row's approvals in its tooltip, read on hover, and what blocks it in its description", async () => {
      const mergeRequest = [...forge.state.mergeRequests.values()].find(
        (each) => each.projectId === forge.fixtures.projects.web && each.iid === 1,
      );
      assert.ok(mergeRequest);
      mergeRequest.approvalsRequired = 1;
      try {
        (view as unknown as { refresh(): void }).refresh();
        forge.clearRequests();
        const { row } = await loginForm();
        assert.match(String(row.item.description), /needs approval/);
        assert.deepEqual(
          forge.requests.filter((request) => request.path.endsWith('/approvals')),
          [],
          'no request per row drawn',
        );
        const resolved = await view.resolveTreeItem?.(
          row.item,
          row.node,
          new vscode.CancellationTokenSource().token,
        );
        assert.match(shownTooltip(resolved ?? undefined), /Approvals: Not approved yet; 1 needed/);
      } finally {
        mergeRequest.approvalsRequired = 0;
      }
    });

    it('offers no approval on a server without approvals (404), and says nothing is wrong', async () => {
      forge.onRequest((request, response) => {
        if (!request.url?.includes('/approvals')) return false;
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"404 Not Found"}');
        return true;
      });
      const panel = await openPanel();
      try {
        assert.equal(panel.snapshot?.approvals, undefined);
        assert.equal(panel.snapshot?.actions.approve, false);
        assert.deepEqual(panel.snapshot?.errors, []);
      } finally {
        panel.dispose();
      }
    });
  });

  describe('what blocks a merge, and its fix', () => {
    it('says a merge request needs approval, and lets the approval unblock it', async () => {
      const mergeRequest = [...forge.state.mergeRequests.values()].find(
        (each) => each.projectId === forge.fixtures.projects.web && each.iid === 1,
      );
      assert.ok(mergeRequest);
      mergeRequest.approvalsRequired = 1;
      const rowDescription = async (): Promise<string> => {
        const { row } = await loginForm();
        return String(row.item.description);
      };
      api.treeProviders['forge.mergeRequests'].refresh?.();
      await eventually(async () => assert.match(await rowDescription(), /needs approval/));
      const panel = await openPanel();
      try {
        assert.equal(panel.snapshot?.actions.merge, false);
        assert.match(panel.snapshot?.actions.mergeBlockedReason ?? '', /needs approval first/);
        await panel.host.receive({ type: 'action', action: 'approve' });
        assert.equal(panel.snapshot?.actions.merge, true);
        assert.equal(panel.snapshot?.actions.mergeBlockedReason, undefined);
        // The views follow our own approval: the row no longer asks for one.
        await eventually(async () => assert.doesNotMatch(await rowDescription(), /needs approval/));
      } finally {
        mergeRequest.approvalsRequired = 0;
        await panel.host.receive({ type: 'action', action: 'unapprove' });
        panel.dispose();
      }
    });

    it('rebases a merge request behind its target, following the rebase to its end', async () => {
      const project = forge.state.projects.get(forge.fixtures.projects.web);
      assert.ok(project);
      const main = project.branches.get(stored().targetBranch);
      assert.ok(main);
      const before = main.commitSha;
      const elsewhere = [...forge.state.commits.keys()].find(
        (sha) => sha !== before && sha !== stored().baseSha,
      );
      assert.ok(elsewhere);
      const base = stored().baseSha;
      project.mergeMethod = 'ff';
      main.commitSha = elsewhere;
      const panel = await openPanel();
      try {
        assert.equal(panel.snapshot?.actions.rebase, true);
        assert.equal(panel.snapshot?.actions.merge, false);
        assert.match(panel.snapshot?.actions.mergeBlockedReason ?? '', /needs a rebase onto master/);
        forge.clearRequests();
        await panel.host.receive({ type: 'action', action: 'rebase' });
        assert.equal(forge.requests.filter((request) => request.path.endsWith('/rebase')).length, 1);
        const followed = forge.requests.filter(
          (request) => request.query['include_rebase_in_progress'] === 'true',
        );
        assert.equal(followed.length, 2, 'read while in progress, then once done');
        assert.equal(stored().baseSha, elsewhere, 'rebased onto the new target head');
        assert.equal(panel.snapshot?.actions.rebase, false);
        assert.equal(panel.snapshot?.actions.merge, true);
      } finally {
        project.mergeMethod = undefined;
        main.commitSha = before;
        const rebased = [...forge.state.mergeRequests.values()].find(
          (each) => each.projectId === forge.fixtures.projects.web && each.iid === 1,
        );
        if (rebased) rebased.baseSha = base;
        panel.dispose();
      }
    });

    it('opens the unresolved threads a project wants resolved before a merge', async () => {
      const project = forge.state.projects.get(forge.fixtures.projects.web);
      assert.ok(project);
      const token = forge.tokens['bob'];
      assert.ok(token);
      const bob = HostingClient.create({ baseUrl: forge.url, credentials: { kind: 'private-token', token } });
      project.settings.only_allow_merge_if_all_discussions_are_resolved = true;
      const panel = await (async () => {
        await bob.createDiscussion(forge.fixtures.projects.web, 1, {
          body: 'Must this wait?',
          position: onNewLine(7),
        });
        return openPanel();
      })();
      try {
        assert.equal(panel.snapshot?.actions.openThreads, true);
        assert.match(panel.snapshot?.actions.mergeBlockedReason ?? '', /unresolved discussions/);
        await panel.host.receive({ type: 'action', action: 'openThreads' });
        await eventually(() =>
          assert.match(
            vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? '',
            /^!1 Add a login form \(/,
            'every file in the multi-file diff editor',
          ),
        );
        await eventually(() =>
          assert.ok(
            threadsOn('src/index.ts').some(
              (thread) =>
                thread.range?.start.line === 6 &&
                thread.comments.some(
                  (comment) =>
                    (comment.body as vscode.MarkdownString).value === safeMarkdown('Must this wait?'),
                ),
            ),
            'the unresolved thread is on its line',
          ),
        );
      } finally {
        project.settings.only_allow_merge_if_all_discussions_are_resolved = false;
        await bob.close();
        panel.dispose();
      }
    });

    it('opens the failed job of a pipeline that must pass before a merge', async () => {
      const project = forge.state.projects.get(forge.fixtures.projects.web);
      assert.ok(project);
      const pipeline = forge.state.latestPipeline(stored().headSha);
      assert.ok(pipeline, 'the seed runs a pipeline on !1');
      // The seed's pipeline still runs: its unfinished jobs end, so the failed lint fails it.
      const unfinished = [...forge.state.jobs.values()].filter(
        (job) => job.pipelineId === pipeline.id && ['running', 'pending', 'created'].includes(job.status),
      );
      const before = unfinished.map((job) => job.status);
      for (const job of unfinished) job.status = 'success';
      project.settings.only_allow_merge_if_pipeline_succeeds = true;
      const panel = await openPanel();
      try {
        assert.equal(panel.snapshot?.actions.openFailingJob, true);
        assert.match(panel.snapshot?.actions.mergeBlockedReason ?? '', /needs its pipeline to pass first/);
        await panel.host.receive({ type: 'action', action: 'openFailingJob' });
        await eventually(() =>
          assert.match(vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? '', /^lint #\d+/),
        );
      } finally {
        project.settings.only_allow_merge_if_pipeline_succeeds = false;
        unfinished.forEach((job, index) => (job.status = before[index] ?? job.status));
        panel.dispose();
        for (const trace of [...api.panels.jobTrace.values()]) trace.dispose();
      }
    });

    it('marks a draft as ready from the panel: the draft mark leaves the title on the server', async () => {
      const panel = await openPanel(5);
      try {
        assert.equal(panel.snapshot?.mergeRequest.draft, true);
        assert.equal(panel.snapshot?.actions.markReady, true);
        assert.match(panel.snapshot?.actions.mergeBlockedReason ?? '', /draft/);
        forge.clearRequests();
        await panel.host.receive({ type: 'action', action: 'markReady' });
        const put = forge.requests.find(
          (request) => request.method === 'PUT' && request.path.endsWith('/merge_requests/5'),
        );
        assert.deepEqual(put?.body, { title: 'Dark mode' });
        assert.equal(panel.snapshot?.mergeRequest.title, 'Dark mode');
        assert.equal(panel.snapshot?.mergeRequest.draft, false);
        assert.equal(panel.snapshot?.actions.markReady, false);
      } finally {
        panel.dispose();
      }
    });
  });
});
