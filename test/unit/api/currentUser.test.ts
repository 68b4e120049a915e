import assert from 'node:assert/strict';
import { HostingClient } from '../../../src/api/hosting';
import { fetchCurrentUser } from '../../../src/api/hosting/currentUser';
import { UnauthorizedError } from '../../../src/api/http';
import { type FakeForge, startFakeForge } from '../../server';

describe('fetchCurrentUser', () => {
  let forge: FakeForge;
  const clients: HostingClient[] = [];

  function client(token: string): HostingClient {
    const created = HostingClient.create({
      baseUrl: forge.url,
      credentials: { kind: 'private-token', token },
    });
    clients.push(created);
    return created;
  }

  before(async () => {
    forge = await startFakeForge({ seed: 'small' });
  });

  after(async () => {
    await Promise.all(clients.map((created) => created.close()));
    await forge.close();
  });

  it('reads the caller from GET /user', async () => {
    const user = await fetchCurrentUser(client(forge.userToken));
    assert.equal(user?.id, forge.users.user.id);
    assert.equal(user?.username, 'alice');
    assert.equal(typeof user?.name, 'string');
    assert.equal(forge.requests.at(-1)?.path, '/api/v4/user');
  });

  it('answers undefined when the server has no GET /user, and rejects a bad token', async () => {
    forge.onRequest((request, response) => {
      if (request.url === '/api/v4/user') {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"404 Not Found"}');
        return true;
      }
      return false;
    });
    try {
      assert.equal(await fetchCurrentUser(client(forge.userToken)), undefined);
    } finally {
      forge.onRequest(undefined);
    }
    await assert.rejects(fetchCurrentUser(client('wrong-token')), UnauthorizedError);
  });
});
