// Comments (notes) and reactions (award emoji) on merge requests, driven inside a real VS Code
// against a fake forge started in this extension host: the notes under a merge request in the
// Merge Requests view, a comment that fails to post kept as a draft and restored, and reactions
// added and removed on merge requests and on comments.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ForgeWorkbenchApi } from '../../src/extension';
import type { AccountInfo } from '../../src/platform/accounts';
import type { MergeRequestsTreeProvider } from '../../src/features/mergeRequests';
import type { TreeNode } from '../../src/platform/tree/treeNode';
import { type FakeForge, type RecordedRequest } from '../server';
import { childrenOf, label, type Row, useForgeSession } from './support';

describe('notes and award emoji', function () {
  this.timeout(30_000);
  const session = useForgeSession();
  let forge: FakeForge;
  let api: ForgeWorkbenchApi;
  let account: AccountInfo;
  let view: MergeRequestsTreeProvider;
  let web: number;

  before(() => {
    ({ forge, api, account } = session);
  });

  before(() => {
    const provider = api.treeProviders['forge.mergeRequests'];
    view = provider;
    web = forge.fixtures.projects.web;
  });

  /** The row of acme/web !1 "Add a login form" (assigned to alice) in the Merge Requests view. */
  async function loginRow(): Promise<Row> {
    let root: TreeNode | undefined;
    if (api.accounts.list().length > 1) {
      root = (await childrenOf(view)).find(
        ({ item }) => item.id === `mergeRequests/account/${account.id}`,
      )?.node;
      assert.ok(root, 'our account is in the view');
    }
    const groups = await childrenOf(view, root);
    const assigned = groups.find(({ item }) => label(item) === 'Assigned to me');
    assert.ok(assigned);
    const rows = await childrenOf(view, assigned.node);
    const found = rows.find(({ item }) => label(item) === '!1 Add a login form');
    assert.ok(found, rows.map(({ item }) => label(item)).join(', '));
    return found;
  }

  async function notesOfLogin(): Promise<Row[]> {
    return childrenOf(view, (await loginRow()).node);
  }

  function requestsTo(method: string, path: string): RecordedRequest[] {
    return forge.requests.filter((request) => request.method === method && request.path === path);
  }

  const path = (suffix: string): string => `/api/v4/projects/${web}/merge_requests/1${suffix}`;

  function drafts(): Record<string, { body: string }> {
    return api.services.context.globalState.get<Record<string, { body: string }>>('forge.noteDrafts') ?? {};
  }

  it('shows a merge request’s comments as its children, own ones editable', async () => {
    view.refresh();
    const notes = await notesOfLogin();
    assert.ok(notes.length >= 4, notes.map(({ item }) => label(item)).join(', '));
    const byBody = (text: string): Row | undefined =>
      notes.find(({ item }) => String(item.description).startsWith(text));
    const own = byBody('Please add a test for the empty password case.');
    assert.ok(own);
    assert.equal(own.item.contextValue, 'note own');
    assert.match(String(own.item.description), / · .+ ago$/);
    const other = byBody('Done in the latest push');
    assert.equal(other?.item.contextValue, 'note other');
    assert.equal(label(other?.item ?? {}), 'Bob Builder');
    const system = byBody('mentioned in issue #1');
    assert.equal(system?.item.contextValue, 'note other system');
    const markdown = byBody('Thanks! **LGTM**');
    assert.ok(markdown, 'the first line of a longer note');
  });

  it('adds a comment from the tree and shows it', async () => {
    const login = await loginRow();
    forge.clearRequests();
    const result = await vscode.commands.executeCommand<{ posted: boolean; noteId: number }>(
      'forge.note.add',
      login.node,
      { body: 'Looks good to me.\n\nOne nit inline.' },
    );
    assert.equal(result?.posted, true);
    const post = requestsTo('POST', path('/notes'))[0];
    assert.deepEqual(post?.body, { body: 'Looks good to me.\n\nOne nit inline.' });
    assert.equal(post?.status, 201);
    const added = (await notesOfLogin()).find(({ item }) => item.id?.endsWith(`/note/${result.noteId}`));
    assert.ok(added, 'the new comment is in the tree');
    assert.equal(added.item.contextValue, 'note own');
    assert.match(String(added.item.description), /^Looks good to me\. · /);
  });

  it('keeps a comment that failed to post and restores it next time', async () => {
    const login = await loginRow();
    let failures = 0;
    forge.onRequest((request, response) => {
      if (request.method === 'POST' && request.url === path('/notes') && failures === 0) {
        failures += 1;
        response
          .writeHead(500, { 'content-type': 'application/json' })
          .end('{"message":"500 Internal Server Error"}');
        return true;
      }
      return false;
    });
    forge.clearRequests();
    const text = 'A long review comment that must not be lost.';
    const failed = await vscode.commands.executeCommand<{
      posted: boolean;
      reason: string;
      draftKept: boolean;
    }>('forge.note.add', login.node, { body: text });
    assert.equal(failed?.posted, false);
    assert.equal(failed.reason, 'failed');
    assert.equal(failed.draftKept, true);
    assert.equal(requestsTo('POST', path('/notes'))[0]?.status, 500);
    const key = `${account.id}|${web}|mergeRequest|1`;
    assert.equal(drafts()[key]?.body, text, 'the draft is stored');

    // The next "Add Comment" on the same merge request offers the draft; sending it posts it.
    forge.clearRequests();
    const restored = await vscode.commands.executeCommand<{
      posted: boolean;
      restoredDraft: boolean;
      noteId: number;
    }>('forge.note.add', (await loginRow()).node, {});
    assert.equal(restored?.posted, true);
    assert.equal(restored.restoredDraft, true);
    assert.deepEqual(requestsTo('POST', path('/notes'))[0]?.body, { body: text });
    assert.equal(drafts()[key], undefined, 'the draft is gone once the server has the note');
    assert.ok((await notesOfLogin()).some(({ item }) => item.id?.endsWith(`/note/${restored.noteId}`)));

    // No draft left and no text given: nothing is sent.
    forge.clearRequests();
    assert.equal(
      await vscode.commands.executeCommand('forge.note.add', (await loginRow()).node, {}),
      undefined,
    );
    assert.equal(requestsTo('POST', path('/notes')).length, 0);
  });

  it('edits and deletes an own comment', async () => {
    const own = (await notesOfLogin()).find(({ item }) =>
      String(item.description).startsWith('Please add a test for the empty password case.'),
    );
    assert.ok(own);
    const noteId = Number(own.item.id?.split('/note/')[1]);
    forge.clearRequests();
    const edited = await vscode.commands.executeCommand<{ edited: boolean }>('forge.note.edit', own.node, {
      body: 'Please add tests for empty and blank passwords.',
    });
    assert.equal(edited?.edited, true);
    assert.deepEqual(requestsTo('PUT', path(`/notes/${noteId}`))[0]?.body, {
      body: 'Please add tests for empty and blank passwords.',
    });
    const after = (await notesOfLogin()).find(({ item }) => item.id?.endsWith(`/note/${noteId}`));
    assert.match(String(after?.item.description), /^Please add tests for empty and blank passwords\. · /);

    forge.clearRequests();
    assert.ok(after);
    const deleted = await vscode.commands.executeCommand<{ deleted: boolean }>(
      'forge.note.delete',
      after.node,
      {
        confirmed: true,
      },
    );
    assert.equal(deleted?.deleted, true);
    assert.equal(requestsTo('DELETE', path(`/notes/${noteId}`))[0]?.status, 204);
    assert.ok(!(await notesOfLogin()).some(({ item }) => item.id?.endsWith(`/note/${noteId}`)));
  });

  it('adds a reaction to a merge request, once', async () => {
    const login = await loginRow();
    forge.clearRequests();
    const result = await vscode.commands.executeCommand<{ awarded: string }>(
      'forge.awardEmoji.add',
      login.node,
      {
        emoji: ':tada:',
      },
    );
    assert.equal(result?.awarded, 'tada');
    assert.deepEqual(requestsTo('POST', path('/award_emoji'))[0]?.body, { name: 'tada' });
    const again = await vscode.commands.executeCommand<{ awarded?: string; reason: string }>(
      'forge.awardEmoji.add',
      (await loginRow()).node,
      { emoji: 'tada' },
    );
    assert.deepEqual(again, { awarded: undefined, reason: 'already-awarded' });
  });

  it('removes only the user’s own reactions', async () => {
    const login = await loginRow();
    assert.match(String(login.item.description), /👍2 👎1/);
    forge.clearRequests();
    // carol's 👎 is not alice's to remove.
    const none = await vscode.commands.executeCommand('forge.awardEmoji.remove', login.node, {
      emoji: 'thumbsdown',
    });
    assert.deepEqual(none, { removed: undefined, reason: 'none' });
    assert.equal(forge.requests.filter((request) => request.method === 'DELETE').length, 0);
    assert.equal(requestsTo('GET', path('/award_emoji')).length, 1, 'the reactions were listed');

    const removed = await vscode.commands.executeCommand<{ removed: string; awardId: number }>(
      'forge.awardEmoji.remove',
      login.node,
      { emoji: 'thumbsup' },
    );
    assert.equal(removed?.removed, 'thumbsup');
    assert.equal(requestsTo('DELETE', path(`/award_emoji/${removed.awardId}`))[0]?.status, 204);
    const award = forge.state.awardEmoji.get(removed.awardId);
    assert.equal(award, undefined);
    assert.match(String((await loginRow()).item.description), /👍1 👎1/);
  });

  it('reacts to a comment and takes the reaction back', async () => {
    const other = (await notesOfLogin()).find(({ item }) =>
      String(item.description).startsWith('Done in the latest push'),
    );
    assert.ok(other);
    const noteId = Number(other.item.id?.split('/note/')[1]);
    forge.clearRequests();
    const added = await vscode.commands.executeCommand<{ awarded: string }>(
      'forge.awardEmoji.add',
      other.node,
      {
        emoji: 'rocket',
      },
    );
    assert.equal(added?.awarded, 'rocket');
    assert.deepEqual(requestsTo('POST', path(`/notes/${noteId}/award_emoji`))[0]?.body, { name: 'rocket' });
    const removed = await vscode.commands.executeCommand<{ removed: string; awardId: number }>(
      'forge.awardEmoji.remove',
      other.node,
      { emoji: 'rocket' },
    );
    assert.equal(removed?.removed, 'rocket');
    assert.equal(
      requestsTo('DELETE', path(`/notes/${noteId}/award_emoji/${removed.awardId}`))[0]?.status,
      204,
    );
  });

  it('comments on a merge request of the Projects view too', async () => {
    api.projects.refresh();
    let root: TreeNode | undefined;
    if (api.accounts.list().length > 1) {
      root = (await childrenOf(api.projects)).find(({ item }) => item.id === `account/${account.id}`)?.node;
    }
    const project = (await childrenOf(api.projects, root)).find(({ item }) => /^web$/i.test(label(item)));
    assert.ok(project);
    const folder = (await childrenOf(api.projects, project.node)).find(
      ({ item }) => label(item) === 'Merge Requests',
    );
    assert.ok(folder);
    const mr = (await childrenOf(api.projects, folder.node)).find(({ item }) =>
      label(item).startsWith('!1 '),
    );
    assert.ok(mr);
    forge.clearRequests();
    const result = await vscode.commands.executeCommand<{ posted: boolean; noteId: number }>(
      'forge.note.add',
      mr.node,
      {
        body: 'From the Projects view',
      },
    );
    assert.equal(result?.posted, true);
    assert.deepEqual(requestsTo('POST', path('/notes'))[0]?.body, { body: 'From the Projects view' });
    // The Merge Requests view shows it as well.
    assert.ok((await notesOfLogin()).some(({ item }) => item.id?.endsWith(`/note/${result.noteId}`)));
  });
});
