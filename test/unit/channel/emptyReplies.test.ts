// A channel hub reports most errors as a 200 with an empty body (design.md section 3). Each call
// then says, in its own words, what could not be done and which endpoint answered so: a table of
// every call of the client against a scripted hub that answers every request that way.
import assert from 'node:assert/strict';
import { ChannelClient, ChannelReplyError } from '../../../src/api/channel';
import { type ScriptedServer, startScriptedServer } from '../../support/scriptedServer';

describe('ChannelClient: an empty 200 from every endpoint', () => {
  let hub: ScriptedServer;
  let client: ChannelClient;

  before(async () => {
    hub = await startScriptedServer();
    hub.handle((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end());
    client = ChannelClient.create({
      baseUrl: hub.url,
      login: 'wren',
      password: 'secret',
      retry: { baseDelayMs: 1, maxRetries: 0 },
    });
  });

  after(async () => {
    await client.close();
    await hub.close();
  });

  const calls: [string, () => Promise<unknown>, RegExp][] = [
    ['listAlbums', () => client.listAlbums(), /the albums could not be listed/],
    ['listPhotos', () => client.listPhotos(), /the photos could not be listed/],
    ['getPhoto', () => client.getPhoto('abc'), /abc/],
    ['listGroups', () => client.listGroups(), /the privacy groups could not be listed/],
    ['listGroupMembers by id', () => client.listGroupMembers({ id: 4 }), /no privacy group id 4/],
    [
      'listGroupMembers by name',
      () => client.listGroupMembers({ name: 'Friends' }),
      /no privacy group "Friends"/,
    ],
    ['getXchan', () => client.getXchan({ address: 'a@hub' }), /no channel identity with the address "a@hub"/],
    ['listConnections', () => client.listConnections(), /the connections could not be listed/],
    [
      'listConnectionConfig',
      () => client.listConnectionConfig(),
      /the connection settings could not be read/,
    ],
    ['permissionsAllowed', () => client.permissionsAllowed({ abookId: 3 }), /no such connection or identity/],
    ['getItem by mid', () => client.getItem({ mid: 'm@hub' }), /no .*m@hub/],
    ['exportChannel', () => client.exportChannel(), /the export could not be made/],
    ['exportItemsPage', () => client.exportItemsPage(1), /the posts could not be exported/],
    ['fetchChannelStream', () => client.fetchChannelStream(undefined), /the stream could not be read/],
    [
      'fetchNetworkStreamPage',
      () => client.fetchNetworkStreamPage({}, { start: 0, records: 10 }),
      /the stream could not be read/,
    ],
    ['listFiles', () => client.listFiles().toArray(), /the file list could not be read/],
    ['getFileData', () => client.getFileData('f00d'), /no file whose id starts with "f00d"/],
    [
      'getFileMeta',
      () => client.getFileMeta('h1'),
      /no file with the hash "h1" \(filemeta needs the whole hash\)/,
    ],
    ['exportFile', () => client.exportFile('h2'), /no file with the hash "h2"/],
    ['getFile', () => client.getFile('h3'), /no file with the hash "h3" \(file needs the whole hash\)/],
  ];

  for (const [name, call, words] of calls) {
    it(`${name} says what could not be done`, async () => {
      const error: unknown = await call().then(
        () => assert.fail('an empty reply is an error'),
        (caught: unknown) => caught,
      );
      assert.ok(error instanceof ChannelReplyError, String(error));
      assert.equal(error.problem, 'empty');
      assert.match(error.message, /the server answered 200 with an empty body/);
      assert.match(error.message, words);
    });
  }
});
