// The trace panel's first read waits, after its first piece, for the page to draw it.
import assert from 'node:assert/strict';
import { FirstReadPause } from '../../../src/features/jobs/panel/firstReadPause';

/** Whether `promise` has settled by the time pending callbacks have run. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('FirstReadPause', () => {
  it('holds nothing before the first piece, then one wait until released, and nothing after', async () => {
    const pause = new FirstReadPause(60_000);
    assert.equal(pause.hold(1000, 64 * 1024), undefined);
    const wait = pause.hold(64 * 1024, 64 * 1024);
    assert.ok(wait);
    assert.equal(pause.hold(200_000, 64 * 1024), wait, 'the same wait for every piece while held');
    assert.equal(await settled(wait), false);
    pause.release();
    assert.equal(await settled(wait), true);
    assert.equal(pause.hold(300_000, 64 * 1024), undefined);
  });

  it('lets the read go on after its longest wait, though the page never drew', async () => {
    const pause = new FirstReadPause(5);
    const wait = pause.hold(100, 10);
    assert.ok(wait);
    await wait;
  });
});
