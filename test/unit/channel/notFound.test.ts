// Real hubs answer an unknown file hash (file/export), album (photos) or connection (abook) with an
// empty success (design.md section 3, 2026-11): the client says "not found" instead of nothing.
import assert from 'node:assert/strict';
import { ChannelReplyError } from '../../../src/api/channel';
import { useFakeHub } from './harness';

describe('channel answers that mean "not found"', () => {
  const hub = useFakeHub();

  function notFound(what: RegExp): (error: unknown) => boolean {
    return (error) => {
      assert.ok(error instanceof ChannelReplyError, String(error));
      assert.equal(error.problem, 'not-found');
      assert.match(error.message, what);
      return true;
    };
  }

  it('file/export of an unknown hash', async () => {
    await assert.rejects(
      hub.client.exportFile('0123456789abcdef'),
      notFound(/no file with the hash "0123456789abcdef"/),
    );
    const known = hub.forge.channel.state.files.find((file) => !file.isDir);
    assert.ok(known);
    assert.ok(await hub.client.exportFile(known.hash));
  });

  it('photos of an unknown album', async () => {
    await assert.rejects(
      hub.client.listPhotos({ album: 'No such album' }),
      notFound(/no album "No such album"/),
    );
    const album = hub.forge.channel.state.photos[0]?.album;
    assert.ok(album);
    assert.ok((await hub.client.listPhotos({ album })).length > 0);
  });

  it('abook of an unknown connection', async () => {
    await assert.rejects(hub.client.listConnections({ abookId: 987654 }), notFound(/no connection 987654/));
    const known = hub.forge.channel.state.abook[0];
    assert.ok(known);
    assert.equal((await hub.client.listConnections({ abookId: known.id })).length, 1);
  });
});
