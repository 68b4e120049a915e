// The merge request panel, inside a real VS Code against a fake forge started in this extension host:
// opening it from tree nodes and from the palette path, one panel per merge request, the page's
// `ready` answered with a snapshot, each page message driving the right request (through the same
// path the page uses, PanelHost.receive), invalid messages ignored, a failed comment kept as a draft,
// "Open in diff editor" through the review with a clone in the workspace, and no Content-Security-Policy violation from the page.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { ForgeWorkbenchApi } from '../../src/extension';
import { HostingClient } from '../../src/api/hosting';
import type { AccountInfo } from '../../src/platform/accounts';
import type { TreeNode } from '../../src/platform/tree/treeNode';
import type {
  MergeRequestHostMessage,
  MergeRequestPanel,
  MergeRequestSnapshot,
} from '../../src/features/mergeRequests';
import type { PanelRegistry } from '../../src/webviews/shared/panelHost';
import { type FakeForge, type RecordedRequest } from '../server';
import { treeAt } from '../server/repositoryFiles';
import { childByLabel, childrenOf, eventually, label, useForgeSession } from './support';

function git(cwd: string, args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();
}

function write(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

describe('merge request panel', function () {
  this.timeout(60_000);
  const session = useForgeSession();
  let forge: FakeForge;
  let api: ForgeWorkbenchApi;
  let account: AccountInfo;
  let registry: PanelRegistry<MergeRequestPanel>;
  let web: number;

  before(() => {
    ({ forge, api, account } = session);
  });

  before(() => {
    const panels = api.panels.mergeRequest;
    registry = panels;
    web = forge.fixtures.projects.web;
  });

  session.cleanUps.push(() => {
    for (const panel of [...registry.values()]) panel.dispose();
  });

  const keyOf = (iid: number): string => `${account.id}|${web}|${iid}`;
  const mrPath = (iid: number, suffix = ''): string =>
    `/api/v4/projects/${web}/merge_requests/${iid}${suffix}`;

  function requestsTo(method: string, path: string): RecordedRequest[] {
    return forge.requests.filter((request) => request.method === method && request.path === path);
  }

  /** Every panel the suite looked at, still open or not (the last test checks them all). */
  const seen = new Set<MergeRequestPanel>();

  function panelOf(iid: number): MergeRequestPanel {
    const panel = registry.get(keyOf(iid));
    assert.ok(panel, `a panel for !${iid}`);
    seen.add(panel);
    return panel;
  }

  /**
   * The panel of `iid`, opened from its row first when no earlier test left it open (so that every
   * test passes when run alone with --grep), with the page's snapshot in.
   */
  async function openedPanel(iid: number): Promise<MergeRequestPanel> {
    if (!registry.get(keyOf(iid))) {
      const row = await mergeRequestsRow(iid);
      await vscode.commands.executeCommand('forge.mergeRequest.openPanel', row.node);
    }
    const panel = panelOf(iid);
    await snapshotOf(panel);
    return panel;
  }

  function sent<T extends MergeRequestHostMessage['type']>(
    panel: MergeRequestPanel,
    type: T,
  ): Extract<MergeRequestHostMessage, { type: T }>[] {
    return panel.host.sent.filter(
      (message): message is Extract<MergeRequestHostMessage, { type: T }> => message.type === type,
    );
  }

  async function snapshotOf(panel: MergeRequestPanel): Promise<MergeRequestSnapshot> {
    return eventually(() => {
      assert.ok(panel.host.isReady, 'the page said it is ready');
      const last = sent(panel, 'snapshot').at(-1);
      assert.ok(last, 'the page was sent a snapshot');
      assert.ok(!last.snapshot.partial, 'the full snapshot, not only the merge request as picked');
      return last.snapshot;
    }, 30_000);
  }

  /** Waits until the page has drawn its first snapshot. */
  async function drawn(panel: MergeRequestPanel): Promise<void> {
    await eventually(
      () => assert.ok(panel.host.renders.some((render) => render.what === 'mergeRequest')),
      20_000,
    );
  }

  function drafts(): Record<string, { body: string }> {
    return api.services.context.globalState.get<Record<string, { body: string }>>('forge.noteDrafts') ?? {};
  }

  /** A row of the Merge Requests view ("All opened" of our account). */
  async function mergeRequestsRow(iid: number): Promise<{ node: TreeNode; item: vscode.TreeItem }> {
    const view = api.treeProviders['forge.mergeRequests'];
    let root: TreeNode | undefined;
    if (api.accounts.list().length > 1) {
      root = (await childrenOf(view)).find(
        ({ item }) => item.id === `mergeRequests/account/${account.id}`,
      )?.node;
      assert.ok(root, 'our account is in the Merge Requests view');
    }
    const all = await childByLabel(view, root, 'All opened');
    const rows = await childrenOf(view, all.node);
    const found = rows.find(
      ({ item }) => label(item).startsWith(`!${iid} `) && String(item.description).startsWith('acme/web'),
    );
    assert.ok(found, rows.map(({ item }) => label(item)).join(', '));
    return found;
  }

  /** A merge request row of acme/web in the Projects view. */
  async function projectsRow(iid: number): Promise<{ node: TreeNode; item: vscode.TreeItem }> {
    api.projects.refresh();
    return childByLabel(api.projects, await projectsMergeRequestsFolder(), new RegExp(`^!${iid} `));
  }

  /** The Merge Requests folder of acme/web in the Projects view, as it is now. */
  async function projectsMergeRequestsFolder(): Promise<TreeNode> {
    let root: TreeNode | undefined;
    if (api.accounts.list().length > 1) {
      root = (await childrenOf(api.projects)).find(({ item }) => item.id === `account/${account.id}`)?.node;
      assert.ok(root, 'our account is in the Projects view');
    }
    const project = await childByLabel(api.projects, root, /^web$/i);
    return (await childByLabel(api.projects, project.node, 'Merge Requests')).node;
  }

  it('opens from a Merge Requests row (its default click) and answers the page’s ready with a snapshot', async () => {
    const row = await mergeRequestsRow(1);
    assert.equal(row.item.command?.command, 'forge.mergeRequest.openPanel');
    assert.deepEqual(row.item.command?.arguments, [row.node]);
    const opened = await vscode.commands.executeCommand<{ opened: boolean; created: boolean; key: string }>(
      'forge.mergeRequest.openPanel',
      row.node,
    );
    assert.deepEqual(opened, { opened: true, created: true, key: keyOf(1) });
    const panel = panelOf(1);
    const snapshot = await snapshotOf(panel);
    // The page's first frame shows the merge request as picked, written into its HTML (escaped)
    // before the stylesheets and the script, which load after.
    const html = panel.host.panel.webview.html;
    assert.match(
      html,
      /<div id="first-paint"><header class="fp-header">\s*<h1 class="fp-title">\s*<span class="fp-iid">!1<\/span><span>Add a login form<\/span>/,
    );
    assert.ok(
      html.indexOf('id="first-paint"') < html.indexOf('rel="stylesheet"'),
      'drawn before the styles load',
    );
    assert.match(html, /style-src [^;]* 'nonce-/, 'its style has the page nonce, not unsafe-inline');
    assert.doesNotMatch(html, /unsafe-inline/);
    // The page's script then gets the merge request as it was picked, to draw at once; then everything.
    const [first] = sent(panel, 'snapshot');
    assert.equal(first?.snapshot.partial, true);
    assert.equal(first.snapshot.mergeRequest.title, 'Add a login form');
    assert.deepEqual([first.snapshot.files, first.snapshot.notes], [[], []]);
    assert.equal(snapshot.mergeRequest.title, 'Add a login form');
    assert.equal(snapshot.mergeRequest.state, 'opened');
    assert.deepEqual(snapshot.mergeRequest.labels, ['feature', 'Review']);
    assert.equal(snapshot.mergeRequest.author.username, 'bob');
    assert.deepEqual(snapshot.files.map((file) => `${file.path} ${file.badge}`).sort(), [
      'src/index.ts modified',
      'src/login.ts added',
      'test/login.test.ts added',
    ]);
    for (const file of snapshot.files) assert.match(file.diff, /^diff --git a\//);
    assert.ok(snapshot.commits.length >= 2, 'the commits');
    assert.ok(
      snapshot.notes.some(
        (note) => note.body === 'Please add a test for the empty password case.' && note.own,
      ),
    );
    assert.ok(
      snapshot.notes.some((note) => note.system),
      'system notes are included',
    );
    assert.equal(snapshot.actions.merge, true);
    assert.equal(snapshot.actions.unsubscribe, true, 'alice is subscribed to !1');
    assert.equal(snapshot.actions.subscribe, false);
    assert.equal(snapshot.actions.reopen, false);
    assert.equal(snapshot.viewer, 'alice');
    assert.deepEqual(snapshot.errors, []);
    assert.equal(panel.host.panel.title, '!1 Add a login form');
    // The page drew it, and nothing was blocked or thrown there.
    await drawn(panel);
    assert.deepEqual(panel.host.violations, []);
    assert.deepEqual(panel.host.pageErrors, []);
    assert.doesNotMatch(panel.host.panel.webview.html, /worker-src/, 'this page starts no worker');
  });

  it('keeps one panel per merge request: opening it again (palette path, Projects view) reveals it', async () => {
    await openedPanel(1);
    const before = registry.size;
    const again = await vscode.commands.executeCommand<{ created: boolean; key: string }>(
      'forge.mergeRequest.openPanel',
      undefined,
      { accountId: account.id, project: web, iid: 1 },
    );
    assert.deepEqual(again, { opened: true, created: false, key: keyOf(1) });
    const row = await projectsRow(1);
    assert.equal(row.item.command?.command, 'forge.mergeRequest.openPanel');
    const fromProjects = await vscode.commands.executeCommand<{ created: boolean }>(
      'forge.mergeRequest.openPanel',
      row.node,
    );
    assert.equal(fromProjects?.created, false);
    assert.equal(registry.size, before);
    assert.equal(panelOf(1).host.panel.active, true);
  });

  it('opens another merge request from the palette path in its own panel, with what its state allows', async () => {
    const opened = await vscode.commands.executeCommand<{ created: boolean; key: string }>(
      'forge.mergeRequest.openPanel',
      undefined,
      { accountId: account.id, project: 'acme/web', iid: 4 },
    );
    assert.deepEqual(opened, { opened: true, created: true, key: keyOf(4) });
    const panel = panelOf(4);
    const snapshot = await snapshotOf(panel);
    assert.equal(snapshot.mergeRequest.title, 'Serve over HTTPS');
    assert.equal(snapshot.actions.merge, false);
    assert.match(snapshot.actions.mergeBlockedReason ?? '', /conflicts/);
    assert.equal(snapshot.actions.close, true);
    assert.notEqual(registry.get(keyOf(1)), panel);
    await drawn(panel);
    panel.dispose();
    assert.equal(registry.get(keyOf(4)), undefined, 'a closed panel leaves the registry');
  });

  it('ignores invalid messages from the page and sends nothing', async () => {
    const panel = await openedPanel(1);
    const rejectedBefore = panel.host.rejectedMessages;
    forge.clearRequests();
    const invalid: unknown[] = [
      null,
      'postNote',
      { type: 'nope' },
      { type: 'postNote' },
      { type: 'postNote', body: 5 },
      { type: 'postNote', body: '   ' },
      { type: 'postNote', body: 'x'.repeat(1_000_001) },
      { type: 'postNote', body: 'fine', extra: true },
      { type: 'merge', options: { sha: 'not-a-sha' } },
      { type: 'merge', options: { sha: 'abcdef12', squash: 'yes' } },
      { type: 'action', action: 'delete' },
      { type: 'deleteNote', noteId: -1 },
      { type: 'editNote', noteId: 1.5, body: 'x' },
      { type: 'awardEmoji', name: '<img src=x>' },
      { type: 'removeAwardEmoji', name: 'tada', noteId: '1' },
      { type: 'openDiff', file: -1 },
      { type: 'cspViolation', directive: 'x'.repeat(201), blockedUri: '', sample: '' },
    ];
    for (const message of invalid) await panel.host.receive(message);
    assert.equal(panel.host.rejectedMessages - rejectedBefore, invalid.length);
    assert.deepEqual(forge.requests, []);
    assert.deepEqual(panel.host.violations, []);
  });

  it('opens a link clicked in the page through the one door, which refuses all but web links', async () => {
    const panel = await openedPanel(1);
    const errors: string[] = [];
    const observing = api.messages.observe((message) => {
      if (message.severity === 'error') errors.push(message.text);
    });
    try {
      // A job page on the face of it; everything before `@` is a user name, and the host is evil.
      await panel.host.receive({
        type: 'openLink',
        url: 'https://gitlab.example.com%2F-%2Fjobs%2F42@evil.example/',
      });
      await panel.host.receive({ type: 'openLink', url: 'file:///etc/passwd' });
      await panel.host.receive({ type: 'openLink', url: 'x'.repeat(8193) });
    } finally {
      observing.dispose();
    }
    assert.equal(errors.length, 2, errors.join('\n'));
    assert.match(errors[0] ?? '', /Did not open the link .*user name before the host/);
    assert.match(errors[1] ?? '', /Did not open the link "file:\/\/\/etc\/passwd": only http and https/);
    assert.equal(panel.host.rejectedMessages > 0, true, 'a link longer than any address is not read');
  });

  it('saves the draft as the user types, posts a comment and drops the draft', async () => {
    const panel = await openedPanel(1);
    const key = `${account.id}|${web}|mergeRequest|1`;
    await panel.host.receive({ type: 'draftChanged', body: 'Half a thought' });
    assert.equal(drafts()[key]?.body, 'Half a thought');
    // A reload of the page gets the draft back.
    await panel.host.receive({ type: 'ready' });
    assert.equal(sent(panel, 'snapshot').at(-1)?.snapshot.draft, 'Half a thought');

    forge.clearRequests();
    const body = 'Looks good.\n\nTwo lines, **bold**.';
    await panel.host.receive({ type: 'postNote', body });
    assert.deepEqual(requestsTo('POST', mrPath(1, '/notes'))[0]?.body, { body });
    assert.equal(requestsTo('POST', mrPath(1, '/notes'))[0]?.status, 201);
    assert.equal(sent(panel, 'noteResult').at(-1)?.ok, true);
    assert.equal(drafts()[key], undefined, 'the draft is gone once the server has the note');
    assert.ok(panel.snapshot?.notes.some((note) => note.body === body && note.own));
  });

  it('keeps a comment that failed to post as the draft and says so in the panel', async () => {
    const panel = await openedPanel(1);
    const key = `${account.id}|${web}|mergeRequest|1`;
    forge.onRequest((request, response) => {
      if (request.method === 'POST' && request.url === mrPath(1, '/notes')) {
        response
          .writeHead(500, { 'content-type': 'application/json' })
          .end('{"message":"500 Internal Server Error"}');
        return true;
      }
      return false;
    });
    try {
      forge.clearRequests();
      const body = 'A review that must not be lost.';
      await panel.host.receive({ type: 'postNote', body });
      assert.equal(requestsTo('POST', mrPath(1, '/notes'))[0]?.status, 500);
      const result = sent(panel, 'noteResult').at(-1);
      assert.equal(result?.ok, false);
      assert.match(result?.message ?? '', /kept/);
      assert.equal(drafts()[key]?.body, body);
      await panel.host.receive({ type: 'ready' });
      assert.equal(sent(panel, 'snapshot').at(-1)?.snapshot.draft, body, 'the page gets it back');
    } finally {
      forge.onRequest(undefined);
      await panel.host.receive({ type: 'draftChanged', body: '' });
    }
    assert.equal(drafts()[key], undefined);
  });

  it('answers and resolves a general thread and answers a single comment from the Discussion tab', async () => {
    const panel = await openedPanel(1);
    const token = forge.tokens['bob'];
    assert.ok(token);
    const bob = HostingClient.create({ baseUrl: forge.url, credentials: { kind: 'private-token', token } });
    try {
      const thread = await bob.createDiscussion(web, 1, { body: 'Should the form remember the user?' });
      await bob.createNote({ kind: 'mergeRequest', project: web, iid: 1 }, 'A lone remark.');
      await panel.refresh();
      const first = panel.snapshot?.notes.find((note) => note.body === 'Should the form remember the user?');
      assert.deepEqual(first?.thread, { id: thread.id, reply: false, resolved: false });
      const lone = panel.snapshot?.notes.find((note) => note.body === 'A lone remark.');
      assert.equal(lone?.thread?.reply, false, 'a single comment can be answered');
      assert.ok(first && lone);

      // "Open unresolved threads" reaches the general thread too: the panel shows it.
      await panel.host.receive({ type: 'action', action: 'openThreads' });
      await eventually(() =>
        assert.ok(
          panel.host.sent.some((message) => message.type === 'showThread' && message.noteId === first.id),
          'the panel comes back at the unresolved thread of its Discussion tab',
        ),
      );
      assert.ok(panel.host.panel.visible, 'the panel is shown');
      const said = panel.host.sent.filter((message) => message.type === 'status').at(-1);
      assert.match(
        said?.type === 'status' ? said.text : '',
        /in the discussion: shown in the Discussion tab/,
      );
      await panel.host.receive({ type: 'replyToThread', noteId: first.id, body: 'Not yet: a later change.' });
      await panel.host.receive({ type: 'resolveThread', noteId: first.id, resolved: true });
      await panel.host.receive({ type: 'replyToThread', noteId: lone.id, body: 'Noted.' });
      const onServer = await bob.listDiscussions(web, 1).toArray();
      const answered = onServer.find((each) => each.id === thread.id);
      assert.deepEqual(
        answered?.notes.map((note) => [note.body, note.resolved]),
        [
          ['Should the form remember the user?', true],
          ['Not yet: a later change.', true],
        ],
      );
      const made = onServer.find((each) => each.notes.some((note) => note.body === 'A lone remark.'));
      assert.deepEqual(
        made?.notes.map((note) => note.body),
        ['A lone remark.', 'Noted.'],
      );
      const shown = panel.snapshot?.notes.find((note) => note.id === first.id);
      assert.equal(shown?.thread?.resolved, true, 'the panel shows it resolved');
      const results = panel.host.sent.filter(
        (message): message is Extract<typeof message, { type: 'noteResult' }> =>
          message.type === 'noteResult',
      );
      assert.deepEqual(
        results.slice(-3).map((result) => [result.action, result.ok]),
        [
          ['reply', true],
          ['resolve', true],
          ['reply', true],
        ],
      );
      // A comment outside any thread shown here is not acted on.
      await panel.host.receive({ type: 'resolveThread', noteId: 999_999, resolved: true });
      assert.equal(panel.host.sent.at(-1)?.type, 'noteResult');
    } finally {
      await bob.close();
    }
  });

  it('edits and deletes an own comment', async () => {
    const panel = await openedPanel(1);
    // A comment of its own, so that the test does not depend on the one an earlier test posted.
    await panel.host.receive({ type: 'postNote', body: 'Looks good. Mine to edit.' });
    const note = panel.snapshot?.notes.find((candidate) => candidate.body === 'Looks good. Mine to edit.');
    assert.ok(note);
    forge.clearRequests();
    await panel.host.receive({ type: 'editNote', noteId: note.id, body: 'Looks good, edited.' });
    assert.deepEqual(requestsTo('PUT', mrPath(1, `/notes/${note.id}`))[0]?.body, {
      body: 'Looks good, edited.',
    });
    assert.ok(
      panel.snapshot?.notes.some(
        (candidate) => candidate.id === note.id && candidate.body === 'Looks good, edited.',
      ),
    );
    await panel.host.receive({ type: 'deleteNote', noteId: note.id });
    assert.equal(requestsTo('DELETE', mrPath(1, `/notes/${note.id}`))[0]?.status, 204);
    assert.ok(!panel.snapshot?.notes.some((candidate) => candidate.id === note.id));
    // A note that is not in the panel is not acted on.
    forge.clearRequests();
    await panel.host.receive({ type: 'deleteNote', noteId: 999_999 });
    assert.deepEqual(forge.requests, []);
  });

  it('adds and removes award emoji on the merge request and on a comment', async () => {
    const panel = await openedPanel(1);
    forge.clearRequests();
    await panel.host.receive({ type: 'awardEmoji', name: 'rocket' });
    assert.deepEqual(requestsTo('POST', mrPath(1, '/award_emoji'))[0]?.body, { name: 'rocket' });
    const rocket = panel.snapshot?.awards.find((award) => award.name === 'rocket');
    assert.ok(rocket?.ownAwardId, 'the panel shows the new reaction as ours');
    await panel.host.receive({ type: 'removeAwardEmoji', name: 'rocket' });
    assert.equal(requestsTo('DELETE', mrPath(1, `/award_emoji/${rocket.ownAwardId}`))[0]?.status, 204);
    assert.ok(!panel.snapshot?.awards.some((award) => award.name === 'rocket'));

    const comment = panel.snapshot?.notes.find((note) => !note.system);
    assert.ok(comment);
    forge.clearRequests();
    await panel.host.receive({ type: 'awardEmoji', name: 'eyes', noteId: comment.id });
    assert.deepEqual(requestsTo('POST', mrPath(1, `/notes/${comment.id}/award_emoji`))[0]?.body, {
      name: 'eyes',
    });
    const eyes = panel.snapshot?.notes
      .find((note) => note.id === comment.id)
      ?.awards.find((a) => a.name === 'eyes');
    assert.ok(eyes?.ownAwardId);
    await panel.host.receive({ type: 'removeAwardEmoji', name: 'eyes', noteId: comment.id });
    assert.equal(
      requestsTo('DELETE', mrPath(1, `/notes/${comment.id}/award_emoji/${eyes.ownAwardId}`))[0]?.status,
      204,
    );
  });

  it('runs the header actions through the merge request commands and refreshes', async () => {
    const panel = await openedPanel(1);
    forge.clearRequests();
    await panel.host.receive({ type: 'action', action: 'unsubscribe' });
    assert.equal(requestsTo('POST', mrPath(1, '/unsubscribe'))[0]?.status, 200);
    assert.equal(panel.snapshot?.actions.subscribe, true);
    assert.equal(panel.snapshot?.actions.unsubscribe, false);
    await panel.host.receive({ type: 'action', action: 'subscribe' });
    assert.equal(requestsTo('POST', mrPath(1, '/subscribe'))[0]?.status, 200);
    assert.equal(panel.snapshot?.actions.unsubscribe, true);
    await panel.host.receive({ type: 'action', action: 'addTodo' });
    assert.equal(requestsTo('POST', mrPath(1, '/todo')).length, 1);
    await panel.host.receive({ type: 'action', action: 'close' });
    assert.deepEqual(requestsTo('PUT', mrPath(1))[0]?.body, { state_event: 'close' });
    assert.equal(panel.snapshot?.mergeRequest.state, 'closed');
    assert.equal(panel.snapshot?.actions.reopen, true);
    assert.equal(panel.snapshot?.actions.merge, false);
    await panel.host.receive({ type: 'action', action: 'reopen' });
    assert.deepEqual(requestsTo('PUT', mrPath(1))[1]?.body, { state_event: 'reopen' });
    // Real servers report a reopened merge request as `reopened`: it is open, with every action of one.
    assert.equal(panel.snapshot?.mergeRequest.state, 'reopened');
    assert.equal(panel.snapshot?.actions.close, true, 'Close is offered again');
    assert.equal(panel.snapshot?.actions.reopen, false);
    assert.equal(panel.snapshot?.actions.merge, true, 'Merge is offered again');
  });

  it('says in the panel why a header action failed', async () => {
    const panel = await openedPanel(1);
    const fault = forge.faults.add({
      method: 'PUT',
      path: '/projects/:id/merge_requests/:merge_request_iid',
      times: 1,
      fault: { kind: 'status', status: 500 },
    });
    try {
      await panel.host.receive({ type: 'action', action: 'close' });
    } finally {
      fault.remove();
    }
    const status = sent(panel, 'status').at(-1);
    assert.equal(status?.level, 'error');
    assert.doesNotMatch(status?.text ?? '', /^close failed/);
    assert.match(status?.text ?? '', /server/i);
    assert.equal(panel.snapshot?.actions.close, true, 'still open');
  });

  it('says in the panel why a merge failed when the connection broke', async () => {
    const panel = await openedPanel(1);
    const sha = panel.snapshot?.mergeRequest.sha;
    assert.ok(sha);
    const fault = forge.faults.add({
      method: 'PUT',
      path: '/projects/:id/merge_requests/:merge_request_iid/merge',
      times: 1,
      fault: { kind: 'reset-before' },
    });
    try {
      await panel.host.receive({ type: 'merge', options: { sha } });
    } finally {
      fault.remove();
    }
    const broken = sent(panel, 'mergeResult').at(-1);
    assert.equal(broken?.ok, false);
    assert.doesNotMatch(broken?.message ?? '', /see the notification/);
    assert.match(broken?.message ?? '', /may have done it; check before trying again/);
    assert.notEqual(panel.snapshot?.mergeRequest.state, 'merged');
    assert.equal(panel.snapshot?.actions.merge, true, 'nothing was merged: Merge is still offered');
  });

  it('merges with the panel’s options and SHA guard, refusing when the branch moved', async () => {
    const panel = await openedPanel(1);
    // The Projects view shows !1 too: it is to follow the merge.
    await projectsRow(1);
    const folder = await projectsMergeRequestsFolder();
    const sha = panel.snapshot?.mergeRequest.sha;
    assert.ok(sha);

    // A head the branch no longer has: the server refuses (409) and nothing is merged.
    forge.clearRequests();
    await panel.host.receive({ type: 'merge', options: { sha: 'deadbeefdeadbeef' } });
    assert.equal(requestsTo('PUT', mrPath(1, '/merge'))[0]?.status, 409);
    const refused = sent(panel, 'mergeResult').at(-1);
    assert.equal(refused?.ok, false);
    assert.match(refused?.message ?? '', /changed since you looked/);

    // Merge when the pipeline succeeds, then cancel that.
    forge.clearRequests();
    await panel.host.receive({ type: 'merge', options: { sha, mergeWhenPipelineSucceeds: true } });
    assert.deepEqual(requestsTo('PUT', mrPath(1, '/merge'))[0]?.body, {
      sha,
      auto_merge: true,
      merge_when_pipeline_succeeds: true,
    });
    assert.equal(panel.snapshot?.actions.cancelMergeWhenPipelineSucceeds, true);
    await panel.host.receive({ type: 'action', action: 'cancelMergeWhenPipelineSucceeds' });
    assert.equal(requestsTo('PUT', mrPath(1, '/cancel_merge_when_pipeline_succeeds'))[0]?.status, 200);
    assert.equal(panel.snapshot?.actions.merge, true);

    forge.clearRequests();
    await panel.host.receive({
      type: 'merge',
      options: { sha, message: 'Merge the login form', squash: true, removeSourceBranch: true },
    });
    assert.deepEqual(requestsTo('PUT', mrPath(1, '/merge'))[0]?.body, {
      sha,
      merge_commit_message: 'Merge the login form',
      squash: true,
      should_remove_source_branch: true,
    });
    assert.equal(sent(panel, 'mergeResult').at(-1)?.ok, true);
    assert.equal(panel.snapshot?.mergeRequest.state, 'merged');
    assert.equal(panel.snapshot?.actions.merge, false);
    assert.equal(panel.snapshot?.actions.close, false);
    assert.equal(panel.snapshot?.mergeRequest.mergeStatusText, '', 'no merge status once merged');
    await eventually(async () => {
      const rows = (await childrenOf(api.projects, folder)).map(({ item }) => label(item));
      assert.ok(rows.length > 0 && !rows.some((label) => label.startsWith('Loading')), 'loaded');
      assert.ok(!rows.some((label) => label.startsWith('!1 ')), `!1 gone from ${rows.join(', ')}`);
    });
  });

  describe('with a clone of the project in the workspace', () => {
    let folder: string;
    let savedGitDir: string | undefined;
    let bare: string;
    let scratch: string;

    before(() => {
      const workspaceFolder = vscode.workspace.workspaceFolders?.[0];
      assert.ok(workspaceFolder, 'the test VS Code opens a folder');
      folder = workspaceFolder.uri.fsPath;
      if (existsSync(join(folder, '.git'))) {
        savedGitDir = join(folder, `.git-saved-${Date.now()}`);
        renameSync(join(folder, '.git'), savedGitDir);
      }
      // The upstream: master with src/index.ts, feature/dark-mode changing it and adding a file.
      bare = mkdtempSync(join(tmpdir(), 'forge-panel-upstream-'));
      scratch = mkdtempSync(join(tmpdir(), 'forge-panel-scratch-'));
      git(bare, ['init', '-q', '--bare']);
      git(scratch, ['init', '-q', '-b', 'master']);
      write(scratch, 'src/index.ts', 'export const port = 3000;\n');
      write(scratch, 'src/legacy.js', 'window.acmeLegacy = true;\n');
      git(scratch, ['add', '.']);
      git(scratch, ['commit', '-q', '-m', 'Start']);
      git(scratch, ['push', '-q', bare, 'master']);
      git(scratch, ['checkout', '-q', '-b', 'feature/dark-mode']);
      write(scratch, 'src/index.ts', 'export const port = Number(process.env.PORT ?? 3000);\n');
      write(scratch, 'src/theme/dark.css', ':root { color-scheme: dark; }\n');
      git(scratch, ['rm', '-q', 'src/legacy.js']);
      git(scratch, ['add', '.']);
      git(scratch, ['commit', '-q', '-m', 'Dark mode']);
      git(scratch, ['push', '-q', bare, 'feature/dark-mode']);

      const remoteUrl = `${forge.url}/acme/web.git`;
      git(folder, ['init', '-q', '-b', 'master']);
      git(folder, ['commit', '-q', '--allow-empty', '-m', 'Local start']);
      git(folder, ['remote', 'add', 'origin', remoteUrl]);
      git(folder, ['config', `url.${bare}.insteadOf`, remoteUrl]);
    });

    after(async () => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      rmSync(join(folder, '.git'), { recursive: true, force: true });
      if (savedGitDir) renameSync(savedGitDir, join(folder, '.git'));
      rmSync(bare, { recursive: true, force: true });
      rmSync(scratch, { recursive: true, force: true });
    });

    it('opens "Open in diff editor" through the review, reading sides the clone lacks from the server, fetching nothing', async () => {
      const opened = await vscode.commands.executeCommand<{ key: string }>(
        'forge.mergeRequest.openPanel',
        undefined,
        {
          accountId: account.id,
          project: web,
          iid: 5,
        },
      );
      assert.equal(opened?.key, keyOf(5));
      const panel = panelOf(5);
      const snapshot = await snapshotOf(panel);
      assert.equal(snapshot.opensDiffs, true);
      const index = snapshot.files.findIndex((file) => file.path === 'src/theme/dark.css');
      assert.ok(index >= 0, snapshot.files.map((file) => file.path).join(', '));
      await panel.host.receive({ type: 'openDiff', file: index });
      assert.deepEqual(
        sent(panel, 'status').filter((message) => message.level === 'error'),
        [],
      );
      const tab = await eventually(() => {
        const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
        assert.ok(input instanceof vscode.TabInputTextDiff, 'a diff editor is open');
        assert.equal(input.modified.path, '/src/theme/dark.css');
        return input;
      });
      assert.equal(tab.modified.scheme, 'forge-review', "the review's sides, with its threads");
      assert.equal(new URLSearchParams(tab.modified.query).get('root'), folder, 'the clone is found');
      assert.equal(
        (await vscode.workspace.openTextDocument(tab.original)).getText(),
        '',
        'an added file has no base',
      );
      // The clone does not have the server's commits: the head is read from the server.
      assert.equal(
        (await vscode.workspace.openTextDocument(tab.modified)).getText(),
        treeAt(forge.state, new URLSearchParams(tab.modified.query).get('sha') ?? '')?.get(
          'src/theme/dark.css',
        ),
      );
      assert.throws(
        () => git(folder, ['rev-parse', '--verify', '-q', 'FETCH_HEAD']),
        'nothing was fetched into the clone',
      );

      // Only clones the review found are read with git: another folder named in a URI is not.
      const elsewhere = tab.modified.with({
        query: new URLSearchParams({
          account: account.id,
          project: String(web),
          root: tmpdir(),
          sha: 'abcdef1234567890abcdef1234567890abcdef12',
          mr: '5',
        }).toString(),
      });
      await assert.rejects(async () => (await vscode.workspace.openTextDocument(elsewhere)).getText());
      await drawn(panel);
      assert.deepEqual(panel.host.violations, []);
      panel.dispose();
    });
  });

  describe('afterwards', () => {
    it('reported no Content-Security-Policy violation or page error in any panel', () => {
      assert.equal(seen.size, 3);
      for (const panel of seen) {
        assert.ok(panel.host.renders.length > 0, `${panel.key} was drawn`);
        assert.deepEqual(panel.host.violations, []);
        assert.deepEqual(panel.host.pageErrors, []);
      }
    });
  });
});
