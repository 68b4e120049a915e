// The token check before an account is saved (the spec has no "current user"): a valid token reads
// the todos, and only an administrator's reads the system hooks. Against the fake forge.
import assert from 'node:assert/strict';
import { HostingClient, probeIdentity } from '../../../src/api/hosting';
import { CancelledError, ServerError, UnauthorizedError } from '../../../src/api/http';
import { type FakeForge, startFakeForge } from '../../server';

describe('probeIdentity: who a token belongs to', () => {
  let forge: FakeForge;
  const clients: HostingClient[] = [];

  const clientOf = (token: string): HostingClient => {
    const client = HostingClient.create({
      baseUrl: forge.url,
      credentials: { kind: 'private-token', token },
      retry: { baseDelayMs: 1 },
    });
    clients.push(client);
    return client;
  };

  before(async () => {
    forge = await startFakeForge({ seed: 'small' });
  });

  afterEach(() => {
    forge.faults.clear();
    forge.clearRequests();
  });

  after(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await forge.close();
  });

  it('finds an administrator by the system hooks it may read', async () => {
    assert.deepEqual(await probeIdentity(clientOf(forge.adminToken)), { isAdmin: true });
    const paths = forge.requests.map((request) => `${request.method} ${request.path}`);
    assert.deepEqual(paths, ['GET /api/v4/todos', 'GET /api/v4/hooks']);
    assert.equal(forge.requests[0]?.query['per_page'], '1', 'one todo is enough');
  });

  it('finds a user the system hooks refuse (403) not to be an administrator', async () => {
    assert.deepEqual(await probeIdentity(clientOf(forge.userToken)), { isAdmin: false });
  });

  it('refuses a token the server rejects, before asking anything else', async () => {
    await assert.rejects(probeIdentity(clientOf('not-a-token')), UnauthorizedError);
    assert.deepEqual(
      forge.requests.map((request) => request.path),
      ['/api/v4/todos'],
    );
  });

  it('says the server failed rather than "not an administrator" when the hooks fail otherwise', async () => {
    forge.faults.add({ method: 'GET', path: '/hooks', fault: { kind: 'status', status: 500 } });
    await assert.rejects(probeIdentity(clientOf(forge.adminToken)), ServerError);
  });

  it('stops when its signal aborts', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(probeIdentity(clientOf(forge.adminToken), controller.signal), CancelledError);
  });
});
