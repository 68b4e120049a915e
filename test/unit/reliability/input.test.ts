import assert from 'node:assert/strict';
import type { HostingClient } from '../../../src/api/hosting';
import { ForgeError, NotFoundError } from '../../../src/api/http';
import { checkProjectPath } from '../../../src/domain/inputValidation';
import { type FakeForge, startFakeForge } from '../../server';
import { Clients, LogSink, failureOf, forbidUnhandledRejections, resetForge, cleanUp } from './harness';

/*
 * Odd names that reach the client anyway (from a git remote, an option object, a server reply): a project
 * path travels as exactly one encoded segment, whatever it contains, and a name that is "." or ".." (which
 * the URL parser would resolve away, reaching another endpoint) is refused before anything is sent.
 */

describe('reliability: odd names in paths', function () {
  this.timeout(10_000);
  let forge: FakeForge;
  let clients: Clients;
  let alice: HostingClient;

  forbidUnhandledRejections();

  before(async () => {
    forge = await startFakeForge();
    clients = new Clients(() => forge, new LogSink());
    alice = clients.hosting({ kind: 'private-token', token: forge.userToken });
  });

  after(async () => {
    await cleanUp(
      () => clients?.closeAll(),
      () => forge?.close(),
    );
  });

  afterEach(() => resetForge(forge));

  const oneSegment: [string, string][] = [
    ['acme/web', '/api/v4/projects/acme%2Fweb'],
    ['acme/platform/api', '/api/v4/projects/acme%2Fplatform%2Fapi'],
    ['../../users', '/api/v4/projects/..%2F..%2Fusers'],
    ['acme/web?private_token=x#frag', '/api/v4/projects/acme%2Fweb%3Fprivate_token%3Dx%23frag'],
    ['acme/%2e%2e', '/api/v4/projects/acme%2F%252e%252e'],
    ['a b\\c', '/api/v4/projects/a%20b%5Cc'],
  ];
  for (const [project, path] of oneSegment) {
    it(`sends ${JSON.stringify(project)} as one segment`, async () => {
      await alice.getProject(project).catch((error: unknown) => {
        assert.ok(error instanceof NotFoundError, String(error));
      });
      assert.deepEqual(
        forge.requests.map((request) => request.path),
        [path],
      );
    });
  }

  const dotNames: [string, () => Promise<unknown>][] = [
    ['project ".."', () => alice.getProject('..')],
    ['project "."', () => alice.getProject('.')],
    ['branch ".." (delete)', () => alice.deleteBranch('acme/web', '..')],
    [
      'ref ".." (artifacts by ref)',
      () => alice.downloadArtifactsByRef('acme/web', '..', 'build', '/nonexistent/x.zip'),
    ],
  ];
  for (const [what, call] of dotNames) {
    it(`refuses ${what} before sending anything`, async () => {
      const error = await failureOf(call());
      assert.ok(error instanceof ForgeError, String(error));
      assert.match(error.message, /^Refused to send a request for .*: a name in it is "\." or "\.\."/);
      assert.deepEqual(forge.requests, []);
    });
  }

  it('checkProjectPath, which commands call first, refuses every odd one', () => {
    for (const [project] of oneSegment.slice(2)) assert.equal(checkProjectPath(project).ok, false, project);
    assert.equal(checkProjectPath('..').ok, false);
  });
});
