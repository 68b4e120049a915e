// The merge use case the command and the panel share, against the fake forge, without any UI.
import assert from 'node:assert/strict';
import { HostingClient } from '../../../src/api/hosting';
import {
  changeMergeRequest,
  describeMergeResult,
  mergeRefusal,
  sendMerge,
} from '../../../src/features/mergeRequests';
import { type FakeForge, startFakeForge } from '../../server';

describe('merge use case', () => {
  let forge: FakeForge;
  let client: HostingClient;
  let web: number;

  before(async () => {
    forge = await startFakeForge({ seed: 'small' });
    web = forge.fixtures.projects.web;
    client = HostingClient.create({
      baseUrl: forge.url,
      credentials: { kind: 'private-token', token: forge.userToken },
      retry: { baseDelayMs: 1 },
    });
  });
  after(async () => {
    await client.close();
    await forge.close();
  });

  it('refuses before sending: merged, draft and conflicting merge requests, each saying why', async () => {
    const { merged, draft, conflict, opened } = forge.fixtures.mergeRequests;
    assert.deepEqual(mergeRefusal(await client.getMergeRequest(web, merged)), {
      reason: 'not-open',
      message: `!${merged} is merged; there is nothing to merge.`,
    });
    assert.match(mergeRefusal(await client.getMergeRequest(web, draft))?.message ?? '', /is a draft/);
    assert.match(mergeRefusal(await client.getMergeRequest(web, conflict))?.message ?? '', /has conflicts/);
    assert.equal(mergeRefusal(await client.getMergeRequest(web, opened)), undefined);
  });

  it('turns a moved branch (409) into a result with the current head, and merges with the right one', async () => {
    const mr = await client.getMergeRequest(web, forge.fixtures.mergeRequests.opened);
    const moved = await sendMerge(client, web, mr, { sha: 'deadbeefdeadbeef' });
    assert.equal(moved.merged, false);
    assert.ok(!moved.merged && 'reason' in moved);
    assert.equal(moved.reason, 'sha-changed');
    assert.equal(moved.currentSha, mr.sha);
    assert.match(describeMergeResult(mr, moved), /changed since you looked/);

    const done = await sendMerge(client, web, mr, { sha: mr.sha ?? undefined, squash: true });
    assert.equal(done.merged, true);
    assert.equal(describeMergeResult(mr, done), `Merged !${mr.iid} into ${mr.target_branch}.`);
    const put = forge.requests.filter(
      (request) => request.method === 'PUT' && request.path.endsWith('/merge'),
    );
    assert.deepEqual(put.at(-1)?.body, { sha: mr.sha, squash: true });
  });

  it('makes the one-click changes, each with its sentence and what needs a reload', async () => {
    const mr = await client.getMergeRequest(web, forge.fixtures.mergeRequests.conflict);
    const closed = await changeMergeRequest(client, web, mr, 'close');
    assert.deepEqual(closed, {
      result: { state: 'closed' },
      message: `Closed !${mr.iid} ${mr.title}`,
      changedMergeRequest: true,
      changedTodos: false,
    });
    const reopened = await changeMergeRequest(client, web, mr, 'reopen');
    assert.equal(reopened.message, `Reopened !${mr.iid} ${mr.title}`);

    await changeMergeRequest(client, web, mr, 'unsubscribe');
    const first = await changeMergeRequest(client, web, mr, 'subscribe');
    assert.deepEqual([first.result, first.changedMergeRequest], [{ changed: true }, true]);
    const again = await changeMergeRequest(client, web, mr, 'subscribe');
    assert.deepEqual([again.result, again.changedMergeRequest], [{ changed: false }, false]);
    assert.equal(again.message, `Already subscribed to !${mr.iid}`);

    const notScheduled = await changeMergeRequest(client, web, mr, 'cancelMergeWhenPipelineSucceeds');
    assert.deepEqual(notScheduled.result, { cancelled: false, reason: 'not-scheduled' });

    // The seed may already hold a todo for it; the second time there is one for sure.
    await changeMergeRequest(client, web, mr, 'addTodo');
    const todoAgain = await changeMergeRequest(client, web, mr, 'addTodo');
    assert.deepEqual(
      [todoAgain.changedTodos, todoAgain.message],
      [false, `You already have a todo for !${mr.iid}`],
    );
  });
});
