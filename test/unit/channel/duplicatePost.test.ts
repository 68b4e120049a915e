// A hub refuses a body identical to one posted in the last couple of minutes and answers only
// "operation cancelled" (design.md section 3, 2026-11): the client says it was a duplicate.
import assert from 'node:assert/strict';
import { ChannelReplyError } from '../../../src/api/channel';
import { useFakeHub } from './harness';

describe('channel posts the hub suppresses as duplicates', () => {
  const hub = useFakeHub();

  it('says the hub suppressed a duplicate, not that something failed without a reason', async () => {
    const body = `Release notes ${Date.now()}`;
    await hub.client.updateItem({ body });
    await assert.rejects(hub.client.updateItem({ body }), (error: unknown) => {
      assert.ok(error instanceof ChannelReplyError, String(error));
      assert.equal(error.problem, 'duplicate');
      assert.match(error.message, /suppressed .*duplicate.*"operation cancelled"/);
      return true;
    });
    // Another body goes through.
    assert.ok((await hub.client.updateItem({ body: `${body} (2)` })).itemId > 0);
  });
});
