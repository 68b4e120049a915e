// Real hubs answer an unknown file hash (file/export), album (photos) or connection (abook) with an
// empty success (design.md section 3, 2026-11): the client says "not found" instead of nothing.
import assert from 'node:assert/strict';
import { ChannelClient, ChannelReplyError } from '../../../src/api/channel';
import { type FakeForge, startFakeForge } from '../../server';

describe('channel answers that mean "not found"', () => {
  let forge: FakeForge;
  let client: ChannelClient;

  before(async () => {
    forge = await startFakeForge();
    client = ChannelClient.create({
      baseUrl: forge.url,
      login: forge.channel.nickname,
      password: forge.channel.password,
    });
  });

  after(async () => {
    await client.close();
    await forge.close();
  });

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
      client.exportFile('0123456789abcdef'),
      notFound(/no file with the hash "0123456789abcdef"/),
    );
    const known = forge.channel.state.files.find((file) => !file.isDir);
    assert.ok(known);
    assert.ok(await client.exportFile(known.hash));
  });

  it('photos of an unknown album', async () => {
    await assert.rejects(client.listPhotos({ album: 'No such album' }), notFound(/no album "No such album"/));
    const album = forge.channel.state.photos[0]?.album;
    assert.ok(album);
    assert.ok((await client.listPhotos({ album })).length > 0);
  });

  it('abook of an unknown connection', async () => {
    await assert.rejects(client.listConnections({ abookId: 987654 }), notFound(/no connection 987654/));
    const known = forge.channel.state.abook[0];
    assert.ok(known);
    assert.equal((await client.listConnections({ abookId: known.id })).length, 1);
  });
});
