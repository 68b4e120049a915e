// A review held as draft notes until "Submit review" publishes it at once, with the count of
// pending comments in the status bar and the panel; a server without draft notes gets its comments
// at once, and says so. Own notes in the threads can be edited and deleted; a suggestion shows as
// the change it proposes and applies as a commit.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { HostingClient } from '../../src/api/hosting';
import { safeMarkdown } from '../../src/domain/safeMarkdown';
import { reviewHelpers } from './reviewSupport';
import { eventually, useForgeSession } from './support';

describe('a review submitted at once, own notes edited, suggestions applied', function () {
  this.timeout(30_000);
  const session = useForgeSession();
  const { stored, onNewLine, openPanel, openIndex, threadOn, messagesShownBy } = reviewHelpers(session);
  let bob: HostingClient;
  let alice: HostingClient;
  const web = () => session.forge.fixtures.projects.web;

  before(() => {
    const { forge } = session;
    const token = forge.tokens['bob'];
    assert.ok(token);
    bob = HostingClient.create({ baseUrl: forge.url, credentials: { kind: 'private-token', token } });
    alice = HostingClient.create({
      baseUrl: forge.url,
      credentials: { kind: 'private-token', token: forge.userToken },
    });
  });

  after(async () => {
    await bob.close();
    await alice.close();
  });

  afterEach(async () => {
    session.forge.onRequest(undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  /** A thread bob starts on line `newLine` of the new side of `src/index.ts` in !1. */
  function bobComments(body: string, newLine: number) {
    return bob.createDiscussion(web(), 1, {
      body,
      position: onNewLine(newLine),
    });
  }

  /** The server acts on the next POST to `path`, then the connection breaks before its answer. */
  function loseAnswerOnce(path: string): void {
    session.forge.faults.add({ method: 'POST', path, times: 1, fault: { kind: 'reset-after' } });
    session.forge.clearRequests();
  }

  function requestsTo(method: string, ending: string) {
    return session.forge.requests.filter(
      (request) => request.method === method && request.path.endsWith(ending),
    );
  }

  it('holds comments as pending until "Submit review" publishes them together', async () => {
    const { api, forge } = session;
    await bobComments('Is this import needed?', 2);
    const diff = await openIndex();
    const answered = await threadOn('src/index.ts', 1);
    assert.equal(api.review.pendingStatus.text, '', 'nothing pending yet');

    forge.clearRequests();
    const refused = await messagesShownBy(() =>
      vscode.commands.executeCommand('forge.review.addToReview', {
        thread: answered,
        text: 'It is: the form is served.',
      }),
    );
    assert.deepEqual(refused, []);
    const started = api.review.comments.controller.createCommentThread(
      diff.modified,
      new vscode.Range(5, 0, 5, 0),
      [],
    );
    await vscode.commands.executeCommand('forge.review.addToReview', {
      thread: started,
      text: 'Name it `handle`?',
    });
    assert.deepEqual(requestsTo('POST', '/discussions'), [], 'nothing is published yet');
    assert.deepEqual(requestsTo('POST', '/notes'), [], 'no reply is published yet');
    const drafts = requestsTo('POST', '/draft_notes').map(
      (request) => request.body as Record<string, unknown>,
    );
    assert.equal(drafts.length, 2);
    assert.equal(drafts[0]?.['in_reply_to_discussion_id'] !== undefined, true, 'a reply names its thread');
    assert.equal((drafts[1]?.['position'] as Record<string, unknown> | undefined)?.['new_line'], 6);
    for (const thread of [answered, started]) {
      const pending = thread.comments.at(-1);
      assert.equal(pending?.contextValue, 'draft');
      assert.equal(pending?.label, 'Pending');
    }
    assert.match(api.review.pendingStatus.text, /2/);

    const panel = await openPanel();
    try {
      assert.equal(panel.snapshot?.pendingReview, 2);
      assert.equal(panel.snapshot?.actions.submitReview, true);
    } finally {
      panel.dispose();
    }

    forge.clearRequests();
    const said = await messagesShownBy(
      () => vscode.commands.executeCommand('forge.review.submit'),
      'information',
    );
    assert.equal(requestsTo('POST', '/draft_notes/bulk_publish').length, 1);
    assert.match(said.join('\n'), /2 comments/);
    const discussions = await bob.listDiscussions(web(), 1).toArray();
    const bodies = (discussion: (typeof discussions)[number]) => discussion.notes.map((note) => note.body);
    assert.ok(
      discussions.some(
        (discussion) => bodies(discussion).join('|') === 'Is this import needed?|It is: the form is served.',
      ),
      'the reply is published in its thread',
    );
    const started6 = discussions.find((discussion) => bodies(discussion).join() === 'Name it `handle`?');
    assert.equal(started6?.notes[0]?.position?.new_line, 6, 'the new thread is published on its line');
    assert.equal(api.review.pendingStatus.text, '', 'nothing pending once submitted');
    const replied = await threadOn('src/index.ts', 1);
    await eventually(() =>
      assert.deepEqual(
        replied.comments.map((comment) => comment.contextValue),
        ['other', 'own'],
        'the threads are read again: the reply is published',
      ),
    );
    started.dispose();
  });

  it('shows a reply the server stored although its answer was lost as pending, once, never sent twice', async () => {
    const { api } = session;
    await bobComments('Does this need a test?', 4);
    await openIndex();
    const thread = await threadOn('src/index.ts', 3);
    // The server stores the draft, then the connection breaks before its answer.
    loseAnswerOnce('/projects/:id/merge_requests/:merge_request_iid/draft_notes');
    await vscode.commands.executeCommand('forge.review.addToReview', {
      thread,
      text: 'Yes: one for the 404.',
    });
    assert.equal(requestsTo('POST', '/draft_notes').length, 1, 'the draft was sent once');
    const replied = await threadOn('src/index.ts', 3);
    await eventually(() =>
      assert.deepEqual(
        replied.comments.map((comment) => comment.contextValue),
        ['other', 'draft'],
        'the stored draft is shown pending, nothing offered for sending again',
      ),
    );
    assert.match(api.review.pendingStatus.text, /1/);
    const drafts = await alice.listDraftNotes(web(), 1).toArray();
    assert.deepEqual(
      drafts.map((draft) => draft.note),
      ['Yes: one for the 404.'],
    );
    await alice.publishDraftNotes(web(), 1);
  });

  it('checks for a published copy before sending again a reply whose answer was lost', async () => {
    await bobComments('Is the timeout right?', 5);
    await openIndex();
    const thread = await threadOn('src/index.ts', 4);
    loseAnswerOnce('/projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id/notes');
    const failed = await messagesShownBy(() =>
      vscode.commands.executeCommand('forge.review.reply', { thread, text: 'It is: 30 s.' }),
    );
    assert.equal(failed.length, 1, failed.join('\n'));
    const unsent = thread.comments.at(-1);
    assert.equal(unsent?.contextValue, 'unsent');
    assert.match(String(unsent?.label), /May have been saved/);
    const said = await messagesShownBy(
      () => vscode.commands.executeCommand('forge.review.sendUnsent', unsent),
      'information',
    );
    assert.match(said.join('\n'), /published your comment: it was not sent again/);
    assert.equal(requestsTo('POST', '/notes').length, 1, 'the reply was posted once');
    const [discussion] = (await bob.listDiscussions(web(), 1).toArray()).filter((each) =>
      each.notes.some((note) => note.body === 'Is the timeout right?'),
    );
    assert.deepEqual(
      discussion?.notes.map((note) => note.body),
      ['Is the timeout right?', 'It is: 30 s.'],
    );
  });

  it('shows pending comments written elsewhere on their lines, and deletes one', async () => {
    const { api, forge } = session;
    await alice.createDraftNote(web(), 1, {
      note: 'Typo?',
      position: onNewLine(8),
    });
    await openIndex();
    const thread = await threadOn('src/index.ts', 7);
    const [pending] = thread.comments;
    assert.equal(pending?.contextValue, 'draft');
    assert.match(api.review.pendingStatus.text, /1/);

    forge.clearRequests();
    await vscode.commands.executeCommand('forge.review.deleteDraft', pending);
    assert.equal(requestsTo('DELETE', '').length, 1);
    assert.deepEqual(await alice.listDraftNotes(web(), 1).toArray(), []);
    assert.equal(api.review.pendingStatus.text, '');
    assert.equal(
      api.review.comments.shownThreads().includes(thread),
      false,
      'a thread of nothing but that comment goes',
    );
  });

  it('posts at once on a server without draft notes (404), and says so', async () => {
    const { api, forge } = session;
    forge.onRequest((request, response) => {
      if (!request.url?.includes('/draft_notes')) return false;
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"404 Not Found"}');
      return true;
    });
    const diff = await openIndex();
    const thread = api.review.comments.controller.createCommentThread(
      diff.modified,
      new vscode.Range(9, 0, 9, 0),
      [],
    );
    try {
      forge.clearRequests();
      const said = await messagesShownBy(
        () => vscode.commands.executeCommand('forge.review.addToReview', { thread, text: 'Now.' }),
        'information',
      );
      assert.match(said.join('\n'), /posted at once/);
      assert.equal(requestsTo('POST', '/discussions').length, 1);
      assert.equal(thread.comments.at(-1)?.contextValue, 'own');
      assert.equal(api.review.pendingStatus.text, '');
    } finally {
      thread.dispose();
    }
  });

  it("edits and deletes its own notes in a thread, not others'", async () => {
    const { api, forge } = session;
    await bobComments('Is this line needed?', 9);
    await openIndex();
    const thread = await threadOn('src/index.ts', 8);
    await vscode.commands.executeCommand('forge.review.reply', { thread, text: 'Yes, it is.' });
    const [theirs, mine] = thread.comments;
    assert.equal(theirs?.contextValue, 'other');
    assert.ok(mine);
    assert.equal(mine.contextValue, 'own');

    await vscode.commands.executeCommand('forge.review.editComment', mine);
    const editing = thread.comments[1];
    assert.equal(editing?.mode, vscode.CommentMode.Editing);
    assert.ok(editing);
    assert.equal(editing.body, 'Yes, it is.', 'the box holds the note as written, not as shown');
    // Cancel drops what was typed and shows the note as posted; nothing is sent.
    editing.body = 'Typed, then thought better of it.';
    forge.clearRequests();
    assert.deepEqual(await vscode.commands.executeCommand('forge.review.cancelEdit', editing), {
      editing: false,
    });
    const cancelled = thread.comments[1];
    assert.equal(cancelled?.mode, vscode.CommentMode.Preview);
    assert.equal((cancelled?.body as vscode.MarkdownString).value, safeMarkdown('Yes, it is.'));
    assert.deepEqual(requestsTo('PUT', ''), [], 'cancelling sends nothing');
    await vscode.commands.executeCommand('forge.review.editComment', cancelled);
    // As VS Code does with the text typed into the box.
    editing.body = 'Yes: the server needs it.';
    forge.clearRequests();
    await vscode.commands.executeCommand('forge.review.saveComment', editing);
    const put = requestsTo('PUT', '').at(0);
    assert.match(put?.path ?? '', /\/merge_requests\/1\/notes\/\d+$/);
    assert.deepEqual(put?.body, { body: 'Yes: the server needs it.' });
    const saved = thread.comments[1];
    assert.equal(saved?.mode, vscode.CommentMode.Preview);
    assert.equal((saved?.body as vscode.MarkdownString).value, safeMarkdown('Yes: the server needs it.'));

    const answering = api.messages.answerModals((_question, buttons) => buttons[0]);
    try {
      await vscode.commands.executeCommand('forge.review.deleteComment', saved);
    } finally {
      answering.dispose();
    }
    assert.deepEqual(
      thread.comments.map((comment) => (comment.body as vscode.MarkdownString).value),
      [safeMarkdown('Is this line needed?')],
    );
    const [onServer] = (await bob.listDiscussions(web(), 1).toArray()).filter((discussion) =>
      discussion.notes.some((note) => note.body === 'Is this line needed?'),
    );
    assert.equal(onServer?.notes.length, 1);
  });

  it('shows a suggestion as the change it proposes, and applies it as a commit on the branch', async () => {
    const { forge } = session;
    const mr = stored();
    const project = forge.state.projects.get(web());
    const branch = project?.branches.get(mr.sourceBranch);
    assert.ok(branch);
    const head = branch.commitSha;
    await bob.createDiscussion(web(), 1, {
      body: "Stricter:\n\n```suggestion:-0+0\n  if (request.url?.startsWith('/login')) {\n```",
      position: onNewLine(7),
    });
    try {
      const panel = await openPanel();
      assert.equal(panel.mergeRequest.sha, head);
      await openIndex();
      const thread = await threadOn('src/index.ts', 6);
      const [proposed] = thread.comments;
      assert.ok(proposed);
      assert.equal(proposed.contextValue, 'other suggestion');
      const shown = (proposed.body as vscode.MarkdownString).value;
      assert.match(shown, /\*\*Suggested change\*\* \(line 7\):/);
      assert.match(
        shown,
        /```diff\n- {2}if \(request\.url === '\/login'\) \{\n\+ {2}if \(request\.url\?\.startsWith\('\/login'\)\) \{\n```/,
      );

      forge.clearRequests();
      const said = await messagesShownBy(
        () => vscode.commands.executeCommand('forge.review.applySuggestion', proposed),
        'information',
      );
      assert.match(forge.requests[0]?.path ?? '', /^\/api\/v4\/suggestions\/\d+\/apply$/);
      assert.match(said.join('\n'), /Applied the suggestion to src\/index\.ts on /);
      assert.notEqual(branch.commitSha, head, 'the branch has a new commit');
      assert.equal(thread.comments[0]?.contextValue, 'other', 'nothing left to apply');
      assert.match((thread.comments[0]?.body as vscode.MarkdownString).value, /\(line 7, applied\)/);
      // The open panel reads the merge request again: its next Approve names the new head.
      await eventually(() => assert.equal(panel.mergeRequest.sha, branch.commitSha));
    } finally {
      branch.commitSha = head;
    }
  });
});
