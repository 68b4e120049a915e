// How the channel client reads replies that are errors in disguise, from a scripted hub: a refusal
// with or without a reason, a refusal that is a normal answer (a channel without photos), and a hub
// that echoes the credentials it received in its error text: neither the password nor the Basic
// header's value reaches a message. And the base64 of file data, read strictly.
import assert from 'node:assert/strict';
import { ChannelClient, ChannelReplyError } from '../../../src/api/channel';
import { decodeBase64 } from '../../../src/api/channel/channelCore';
import { type ScriptedServer, sendJson, startScriptedServer } from '../../support/scriptedServer';

const LOGIN = 'wren';
const PASSWORD = 'correct horse battery staple';
const BASIC = Buffer.from(`${LOGIN}:${PASSWORD}`).toString('base64');

describe('ChannelClient: replies that are errors in disguise', () => {
  let hub: ScriptedServer;
  let client: ChannelClient;

  before(async () => {
    hub = await startScriptedServer();
    client = ChannelClient.create({
      baseUrl: hub.url,
      login: LOGIN,
      password: PASSWORD,
      retry: { baseDelayMs: 1, maxRetries: 0 },
    });
  });

  after(async () => {
    await client.close();
    await hub.close();
  });

  async function refusal(call: () => Promise<unknown>): Promise<ChannelReplyError> {
    const error = await call().then(
      () => assert.fail('expected a refusal'),
      (caught: unknown) => caught,
    );
    assert.ok(error instanceof ChannelReplyError, String(error));
    return error;
  }

  it('says the reason a hub refused with, and "no reason given" for a blank or missing one', async () => {
    hub.handle((_request, response) =>
      sendJson(response, 200, { success: false, message: 'Not allowed here' }),
    );
    const said = await refusal(() => client.listGroups());
    assert.equal(said.problem, 'refused');
    assert.match(said.message, /the server refused: Not allowed here/);
    for (const body of [
      { success: false, message: '  ' },
      { success: false },
      { success: false, message: 7 },
    ]) {
      hub.handle((_request, response) => sendJson(response, 200, body));
      const silent = await refusal(() => client.listGroups());
      assert.match(silent.message, /the server refused: no reason given/, JSON.stringify(body));
    }
  });

  it('takes a refusal without a message as an answer where the hub means "none" (a channel without photos)', async () => {
    hub.handle((_request, response) => sendJson(response, 200, { success: false }));
    assert.deepEqual(await client.listPhotos(), []);
    // With a reason it is a refusal all the same.
    hub.handle((_request, response) =>
      sendJson(response, 200, { success: false, message: 'Permission denied.' }),
    );
    assert.match((await refusal(() => client.listPhotos())).message, /Permission denied/);
  });

  it('keeps the password and the Basic value out of what a hub echoes back', async () => {
    const echo = (request: { headers: Record<string, string | string[] | undefined> }) =>
      `you sent ${String(request.headers['authorization'])} with password ${PASSWORD}`;
    hub.handle((request, response) => sendJson(response, 200, { success: false, message: echo(request) }));
    const refused = await refusal(() => client.listGroups());
    hub.handle((request, response) => {
      response.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Basic realm="hub"' });
      response.end(echo(request));
    });
    const unauthorized = await refusal(() => client.listGroups());
    assert.equal(unauthorized.problem, 'unauthorized');
    for (const error of [refused, unauthorized]) {
      assert.ok(error.message.includes('you sent'), 'the rest of what the hub said is kept');
      assert.ok(!error.message.includes(PASSWORD), error.message);
      assert.ok(!error.message.includes(BASIC), error.message);
    }
  });
});

describe('decodeBase64', () => {
  it('reads base64 wrapped in lines or padded, and refuses anything else', () => {
    const bytes = Buffer.from('channel file data, 33 bytes long!');
    const text = bytes.toString('base64');
    assert.deepEqual(decodeBase64(text.replace(/(.{8})/g, '$1\r\n '), 'the data'), bytes);
    assert.deepEqual(decodeBase64('YQ==', 'x'), Buffer.from('a'));
    assert.deepEqual(decodeBase64('', 'x'), Buffer.alloc(0));
    for (const bad of ['YQ===', 'Y', 'YQ=a', '%%', 'YQ==YQ==', 'a-b_']) {
      assert.throws(() => decodeBase64(bad, 'the data'), /the data is not valid base64/, bad);
    }
  });
});
