// The merge use case the command and the panel share, against the fake forge, without any UI.
import assert from 'node:assert/strict';
import { describeMergeResult, mergeRefusal, sendMerge } from '../../../src/features/mergeRequests/actions';
import { changeMergeRequest } from '../../../src/features/mergeRequests/changes';
import { useForgeSession } from './harness';

describe('merge use case', () => {
  const session = useForgeSession();

  it('refuses before sending: merged, draft and conflicting merge requests, each saying why', async () => {
    const { merged, draft, conflict, opened } = session.forge.fixtures.mergeRequests;
    assert.deepEqual(mergeRefusal(await session.client.getMergeRequest(session.web, merged)), {
      reason: 'not-open',
      message: `!${merged} is merged; there is nothing to merge.`,
    });
    assert.match(
      mergeRefusal(await session.client.getMergeRequest(session.web, draft))?.message ?? '',
      /is a draft/,
    );
    assert.match(
      mergeRefusal(await session.client.getMergeRequest(session.web, conflict))?.message ?? '',
      /has conflicts/,
    );
    assert.equal(mergeRefusal(await session.client.getMergeRequest(session.web, opened)), undefined);
  });

  it('turns a moved branch (409) into a result with the current head, and merges with the right one', async () => {
    const mr = await session.client.getMergeRequest(session.web, session.forge.fixtures.mergeRequests.opened);
    const moved = await sendMerge(session.client, session.web, mr, { sha: 'deadbeefdeadbeef' });
    assert.equal(moved.merged, false);
    assert.ok(!moved.merged && 'reason' in moved);
    assert.equal(moved.reason, 'sha-changed');
    assert.equal(moved.currentSha, mr.sha);
    assert.match(describeMergeResult(mr, moved), /changed since you looked/);

    const done = await sendMerge(session.client, session.web, mr, { sha: mr.sha ?? undefined, squash: true });
    assert.equal(done.merged, true);
    assert.equal(describeMergeResult(mr, done), `Merged !${mr.iid} into ${mr.target_branch}.`);
    const put = session.forge.requests.filter(
      (request) => request.method === 'PUT' && request.path.endsWith('/merge'),
    );
    assert.deepEqual(put.at(-1)?.body, { sha: mr.sha, squash: true });
  });

  it('makes the one-click changes, each with its sentence and what needs a reload', async () => {
    const mr = await session.client.getMergeRequest(
      session.web,
      session.forge.fixtures.mergeRequests.conflict,
    );
    const closed = await changeMergeRequest(session.client, session.web, mr, 'close');
    assert.deepEqual(closed, {
      result: { state: 'closed' },
      message: `Closed !${mr.iid} ${mr.title}`,
      changedMergeRequest: true,
      changedTodos: false,
    });
    const reopened = await changeMergeRequest(session.client, session.web, mr, 'reopen');
    assert.equal(reopened.message, `Reopened !${mr.iid} ${mr.title}`);

    await changeMergeRequest(session.client, session.web, mr, 'unsubscribe');
    const first = await changeMergeRequest(session.client, session.web, mr, 'subscribe');
    assert.deepEqual([first.result, first.changedMergeRequest], [{ changed: true }, true]);
    const again = await changeMergeRequest(session.client, session.web, mr, 'subscribe');
    assert.deepEqual([again.result, again.changedMergeRequest], [{ changed: false }, false]);
    assert.equal(again.message, `Already subscribed to !${mr.iid}`);

    const notScheduled = await changeMergeRequest(
      session.client,
      session.web,
      mr,
      'cancelMergeWhenPipelineSucceeds',
    );
    assert.deepEqual(notScheduled.result, { cancelled: false, reason: 'not-scheduled' });

    // The seed may already hold a todo for it; the second time there is one for sure.
    await changeMergeRequest(session.client, session.web, mr, 'addTodo');
    const todoAgain = await changeMergeRequest(session.client, session.web, mr, 'addTodo');
    assert.deepEqual(
      [todoAgain.changedTodos, todoAgain.message],
      [false, `You already have a todo for !${mr.iid}`],
    );
  });
});
