import assert from 'node:assert/strict';
import { unzipSync, strFromU8 } from 'fflate';
import { startFakeForge, type FakeForge } from '../server';
import { treeAt } from '../server/repositoryFiles';

/** Checks of the fake forge itself, through Node's own fetch (not our client). */

function api(forge: FakeForge, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${forge.url}/api/v4${path}`, init);
}

function as(token: string, extra: Record<string, string> = {}): RequestInit {
  return { headers: { 'PRIVATE-TOKEN': token, ...extra } };
}

/** The Link header as a map from rel to URL. */
function links(response: Response): Map<string, string> {
  const result = new Map<string, string>();
  for (const part of (response.headers.get('link') ?? '').split(', ')) {
    const match = /^<([^>]+)>; rel="(\w+)"$/.exec(part);
    if (match?.[1] && match[2]) result.set(match[2], match[1]);
  }
  return result;
}

/** The escape character that starts ANSI sequences (spelled out: lint forbids control characters in regexes). */
const ESC = String.fromCharCode(0x1b);

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe('fake forge', () => {
  let forge: FakeForge;

  before(async () => {
    forge = await startFakeForge();
  });

  after(async () => {
    await forge.close();
  });

  describe('repository files', () => {
    it("builds every commit's files from the seed's diffs (a merge brings in what it merges)", () => {
      for (const sha of forge.state.commits.keys()) assert.ok(treeAt(forge.state, sha), sha);
      const web = forge.state.projects.get(forge.fixtures.projects.web);
      const master = web?.branches.get('master')?.commitSha;
      assert.ok(master);
      const files = treeAt(forge.state, master);
      // "Fix typo in README" came in with the merge commit of !2.
      assert.match(files?.get('README.md') ?? '', /The web frontend of Acme\./);
      assert.ok(files?.has('package.json'));
      assert.equal(treeAt(forge.state, 'f'.repeat(40)), undefined);
    });
  });

  describe('server', () => {
    it('listens on 127.0.0.1, serves the seed and records every request', async () => {
      assert.match(forge.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      forge.clearRequests();
      const response = await api(forge, '/projects/acme%2Fweb?statistics=true', as(forge.userToken));
      assert.equal(response.status, 200);
      const project = (await response.json()) as { id: number; path_with_namespace: string; web_url: string };
      assert.equal(project.id, forge.fixtures.projects.web);
      assert.equal(project.path_with_namespace, 'acme/web');
      assert.equal(project.web_url, `${forge.url}/acme/web`);

      assert.equal(forge.requests.length, 1);
      const recorded = forge.requests[0];
      assert.equal(recorded?.method, 'GET');
      assert.equal(recorded?.path, '/api/v4/projects/acme%2Fweb');
      assert.deepEqual(recorded?.query, { statistics: 'true' });
      assert.equal(recorded?.headers['private-token'], forge.userToken);
      assert.equal(recorded?.status, 200);
    });

    it('starts and stops a second server independently', async () => {
      const other = await startFakeForge({ port: 0 });
      assert.notEqual(other.url, forge.url);
      assert.equal(other.adminToken, forge.adminToken, 'the seed is deterministic');
      await other.close();
      await assert.rejects(fetch(`${other.url}/api/v4/version`));
    });

    it('answers unknown routes with {"error":"404 Not Found"}', async () => {
      for (const path of ['/api/v4/nothing/here', '/api/v4/projects/1/jobs/1/unknown', '/not-the-api']) {
        const response = await fetch(`${forge.url}${path}`, as(forge.adminToken));
        assert.equal(response.status, 404, path);
        assert.deepEqual(await response.json(), { error: '404 Not Found' });
      }
    });

    it('reads parameters from JSON bodies, form bodies and the query string', async () => {
      const { opened } = forge.fixtures.mergeRequests;
      const base = `/projects/acme%2Fweb/merge_requests/${opened}/notes`;
      const bodies = [
        { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ body: 'from JSON' }) },
        { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'body=from+a+form' },
      ];
      for (const { headers, body } of bodies) {
        const response = await api(forge, base, {
          method: 'POST',
          headers: { ...headers, 'PRIVATE-TOKEN': forge.userToken },
          body,
        });
        assert.equal(response.status, 201);
      }
      const viaQuery = await api(forge, `${base}?body=from%20the%20query`, {
        method: 'POST',
        ...as(forge.userToken),
      });
      assert.equal(viaQuery.status, 201);
      const notes = (await (await api(forge, `${base}?per_page=3`, as(forge.userToken))).json()) as {
        body: string;
      }[];
      assert.deepEqual(
        notes.map((note) => note.body),
        ['from the query', 'from a form', 'from JSON'],
      );
      const missing = await api(forge, base, { method: 'POST', ...as(forge.userToken) });
      assert.equal(missing.status, 400);
      assert.deepEqual(await missing.json(), { error: 'body is missing' });
    });

    it('lets a hook answer in place of the handler, and adds latency', async () => {
      forge.onRequest((req, res) => {
        if (!req.url?.startsWith('/api/v4/version')) return false;
        res.writeHead(503, { 'Content-Type': 'text/plain', 'Retry-After': '1' });
        res.end('maintenance');
        return true;
      });
      try {
        const hooked = await api(forge, '/version', as(forge.userToken));
        assert.equal(hooked.status, 503);
        assert.equal(await hooked.text(), 'maintenance');
        assert.equal(forge.requests.at(-1)?.status, 503);
      } finally {
        forge.onRequest(undefined);
      }
      forge.setLatency(60);
      try {
        const startedAt = Date.now();
        assert.equal((await api(forge, '/version', as(forge.userToken))).status, 200);
        assert.ok(Date.now() - startedAt >= 55);
      } finally {
        forge.setLatency(0);
      }
    });

    it('refuses bodies over 10 MB with 413', async () => {
      const response = await api(forge, '/projects', {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': forge.userToken, 'Content-Type': 'application/octet-stream' },
        body: new Uint8Array(10 * 1024 * 1024 + 1),
      });
      assert.equal(response.status, 413);
    });
  });

  describe('authentication', () => {
    it('gives 401 {"message":"401 Unauthorized"} without credentials or with a bad token', async () => {
      for (const init of [{}, as('glpat-not-a-token'), { headers: { Authorization: 'Bearer nope' } }]) {
        const response = await api(forge, '/todos', init);
        assert.equal(response.status, 401);
        assert.deepEqual(await response.json(), { message: '401 Unauthorized' });
      }
    });

    it('accepts every kind of credential the spec lists', async () => {
      const inits: [string, RequestInit][] = [
        ['/user', as(forge.userToken)],
        [`/user?private_token=${forge.userToken}`, {}],
        ['/user', { headers: { Authorization: `Bearer ${forge.oauthToken}` } }],
        [`/user?access_token=${forge.oauthToken}`, {}],
      ];
      for (const [path, init] of inits) {
        const user = (await (await api(forge, path, init)).json()) as { username: string };
        assert.equal(user.username, 'alice', path);
      }
    });

    it('lets guests read public projects only', async () => {
      const projects = (await (await api(forge, '/projects?per_page=100')).json()) as {
        visibility: string;
      }[];
      assert.ok(projects.length > 0);
      assert.ok(projects.every((project) => project.visibility === 'public'));
      assert.equal((await api(forge, `/projects/${forge.fixtures.projects.api}`)).status, 404);
      const templates = await api(forge, '/templates/gitlab_ci_ymls');
      assert.equal(templates.status, 200);
    });

    it('hides private projects from non-members with 404 Project Not Found', async () => {
      const response = await api(forge, '/projects/acme%2Fsecret/boards', as(forge.userToken));
      assert.equal(response.status, 404);
      assert.deepEqual(await response.json(), { message: '404 Project Not Found' });
      assert.equal((await api(forge, '/projects/acme%2Fsecret', as(forge.adminToken))).status, 200);
    });

    it('implements sudo for administrators and its two errors', async () => {
      const asBob = (await (await api(forge, '/user', as(forge.adminToken, { SUDO: 'bob' }))).json()) as {
        username: string;
      };
      assert.equal(asBob.username, 'bob');
      const byId = (await (
        await api(forge, `/user?sudo=${forge.users.bob.id}`, as(forge.adminToken))
      ).json()) as { id: number };
      assert.equal(byId.id, forge.users.bob.id);

      const notAdmin = await api(forge, '/user', as(forge.userToken, { SUDO: 'bob' }));
      assert.equal(notAdmin.status, 403);
      assert.deepEqual(await notAdmin.json(), { message: '403 Forbidden - Must be admin to use sudo' });

      const unknown = await api(forge, '/user?sudo=nobody', as(forge.adminToken));
      assert.equal(unknown.status, 404);
      assert.deepEqual(await unknown.json(), { message: "404 User with ID or username 'nobody' Not Found" });
    });

    it('keeps broadcast messages for administrators (guest 401, user 403)', async () => {
      assert.equal((await api(forge, '/broadcast_messages')).status, 401);
      assert.equal((await api(forge, '/broadcast_messages', as(forge.userToken))).status, 403);
      const messages = (await (await api(forge, '/broadcast_messages', as(forge.adminToken))).json()) as {
        active: boolean;
      }[];
      assert.deepEqual(
        messages.map((message) => message.active),
        [true, false, false],
      );
    });
  });

  describe('pagination', () => {
    it('sends X-* headers and Link URLs that keep the client parameters', async () => {
      const { web } = forge.fixtures.projects;
      const path = `/projects/${web}/jobs?scope[]=success&scope[]=failed&per_page=2&page=2`;
      const response = await api(forge, path, as(forge.userToken));
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('x-page'), '2');
      assert.equal(response.headers.get('x-per-page'), '2');
      assert.equal(response.headers.get('x-prev-page'), '1');
      assert.equal(response.headers.get('x-next-page'), '3');
      const total = Number(response.headers.get('x-total'));
      assert.equal(response.headers.get('x-total-pages'), String(Math.ceil(total / 2)));
      const jobs = (await response.json()) as { status: string }[];
      assert.equal(jobs.length, 2);
      assert.ok(jobs.every((job) => job.status === 'success' || job.status === 'failed'));

      const rels = links(response);
      assert.deepEqual([...rels.keys()], ['prev', 'next', 'first', 'last']);
      const next = new URL(rels.get('next') ?? '');
      assert.equal(next.origin, forge.url);
      assert.equal(next.pathname, `/api/v4/projects/${web}/jobs`);
      assert.deepEqual(next.searchParams.getAll('scope[]'), ['success', 'failed']);
      assert.equal(next.searchParams.get('page'), '3');
      assert.equal(next.searchParams.get('per_page'), '2');
      assert.equal(new URL(rels.get('last') ?? '').searchParams.get('page'), String(Math.ceil(total / 2)));
    });

    it('clamps per_page to 100 and describes an empty list with X-Total 0 and rel="last" page=0', async () => {
      const clamped = await api(forge, '/projects?per_page=500', as(forge.adminToken));
      assert.equal(clamped.headers.get('x-per-page'), '100');

      const empty = await api(forge, '/todos?action=approval_required', as(forge.adminToken));
      assert.deepEqual(await empty.json(), []);
      assert.equal(empty.headers.get('x-total'), '0');
      assert.equal(empty.headers.get('x-next-page'), '');
      assert.equal(new URL(links(empty).get('last') ?? '').searchParams.get('page'), '0');
    });

    it('points Link at linkOrigin when it is set', async () => {
      forge.linkOrigin = 'http://evil.example';
      try {
        const response = await api(forge, '/projects?per_page=1', as(forge.adminToken));
        assert.ok((links(response).get('next') ?? '').startsWith('http://evil.example/api/v4/projects?'));
      } finally {
        forge.linkOrigin = undefined;
      }
    });

    it('omits X-Total, X-Total-Pages and rel="last" above 10,000 rows (large seed, started quickly)', async () => {
      const startedAt = Date.now();
      const large = await startFakeForge({ seed: 'large' });
      try {
        assert.ok(Date.now() - startedAt < 3000, 'the large seed starts in under 3 s');
        const response = await api(large, '/todos?per_page=100&page=2', as(large.adminToken));
        assert.equal(response.status, 200);
        assert.equal(((await response.json()) as unknown[]).length, 100);
        assert.equal(response.headers.get('x-total'), null);
        assert.equal(response.headers.get('x-total-pages'), null);
        assert.equal(response.headers.get('x-next-page'), '3');
        assert.deepEqual([...links(response).keys()], ['prev', 'next', 'first']);

        const projects = await api(large, '/projects?per_page=1', as(large.adminToken));
        assert.ok(Number(projects.headers.get('x-total')) >= 2000);
        const jobs = await api(
          large,
          `/projects/${large.fixtures.projects.monorepo}/jobs?per_page=1`,
          as(large.adminToken),
        );
        assert.ok(Number(jobs.headers.get('x-total')) >= 5000);
      } finally {
        await large.close();
      }
    });
  });

  describe('state transitions', () => {
    it('answers 304 with an empty body when starring twice', async () => {
      const { api: apiProject } = forge.fixtures.projects;
      const first = await api(forge, `/projects/${apiProject}/star`, {
        method: 'POST',
        ...as(forge.userToken),
      });
      assert.equal(first.status, 200);
      const starred = (await first.json()) as Record<string, unknown>;
      assert.equal(starred['star_count'], 2);
      assert.equal('runners_token' in starred, false);

      const second = await api(forge, `/projects/${apiProject}/star`, {
        method: 'POST',
        ...as(forge.userToken),
      });
      assert.equal(second.status, 304);
      assert.equal(await second.text(), '');
    });

    it('refuses a merge whose sha is not the source head with 409, and merges with the right one', async () => {
      const { opened } = forge.fixtures.mergeRequests;
      const path = `/projects/acme%2Fweb/merge_requests/${opened}/merge`;
      const wrong = await api(forge, `${path}?sha=${'0'.repeat(40)}`, {
        method: 'PUT',
        ...as(forge.userToken),
      });
      assert.equal(wrong.status, 409);

      const current = (await (
        await api(forge, `/projects/acme%2Fweb/merge_requests/${opened}`, as(forge.userToken))
      ).json()) as { sha: string };
      const merged = await api(forge, path, {
        method: 'PUT',
        headers: { 'PRIVATE-TOKEN': forge.userToken, 'Content-Type': 'application/json' },
        body: JSON.stringify({ sha: current.sha }),
      });
      assert.equal(merged.status, 200);
      const body = (await merged.json()) as { state: string; merge_commit_sha: string | null };
      assert.equal(body.state, 'merged');
      assert.match(body.merge_commit_sha ?? '', /^[0-9a-f]{40}$/);

      const again = await api(forge, path, { method: 'PUT', ...as(forge.userToken) });
      assert.equal(again.status, 406);
      const conflict = await api(
        forge,
        `/projects/acme%2Fweb/merge_requests/${forge.fixtures.mergeRequests.conflict}/merge`,
        {
          method: 'PUT',
          ...as(forge.userToken),
        },
      );
      assert.equal(conflict.status, 405);
    });

    it('makes DELETE idempotent: 204, then 200 once the thing is gone', async () => {
      const created = await api(
        forge,
        '/projects/acme%2Fweb/repository/branches?branch=tmp/delete-me&ref=master',
        {
          method: 'POST',
          ...as(forge.userToken),
        },
      );
      assert.equal(created.status, 201);
      const path = '/projects/acme%2Fweb/repository/branches/tmp%2Fdelete-me';
      const first = await api(forge, path, { method: 'DELETE', ...as(forge.userToken) });
      assert.equal(first.status, 204);
      const second = await api(forge, path, { method: 'DELETE', ...as(forge.userToken) });
      assert.equal(second.status, 200);
      assert.equal(await second.text(), '');
      assert.equal((await api(forge, path, as(forge.userToken))).status, 404);
    });

    it('retries a failed job to pending and plays only manual jobs', async () => {
      const { failed, manual, success } = forge.fixtures.jobs;
      const retried = await api(forge, `/projects/acme%2Fweb/jobs/${failed}/retry`, {
        method: 'POST',
        ...as(forge.userToken),
      });
      assert.equal(retried.status, 200);
      const job = (await retried.json()) as Record<string, unknown>;
      assert.equal(job['status'], 'pending');
      assert.equal(job['finished_at'], null);
      assert.equal('pipeline' in job, false);

      const played = (await (
        await api(forge, `/projects/acme%2Fweb/jobs/${manual}/play`, {
          method: 'POST',
          ...as(forge.userToken),
        })
      ).json()) as {
        status: string;
      };
      assert.equal(played.status, 'started');
      const notManual = await api(forge, `/projects/acme%2Fweb/jobs/${success}/play`, {
        method: 'POST',
        ...as(forge.userToken),
      });
      assert.equal(notManual.status, 403);
    });
  });

  describe('traces and artifacts', () => {
    it('serves a trace with a strong ETag and answers If-None-Match with an empty 304', async () => {
      const path = `/projects/acme%2Fweb/jobs/${forge.fixtures.jobs.success}/trace`;
      const first = await api(forge, path, as(forge.userToken));
      assert.equal(first.status, 200);
      assert.match(first.headers.get('content-type') ?? '', /^text\/plain/);
      const etag = first.headers.get('etag') ?? '';
      assert.match(etag, /^"[0-9a-f]+"$/);
      const text = await first.text();
      assert.match(text, new RegExp(`section_start:\\d+:step_script\\r${ESC}\\[0K`));
      assert.match(text, /Job succeeded/);

      const second = await api(forge, path, as(forge.userToken, { 'If-None-Match': etag }));
      assert.equal(second.status, 304);
      assert.equal(await second.text(), '');

      forge.state.appendTrace(forge.fixtures.jobs.success, 'one more line\n');
      const third = await api(forge, path, as(forge.userToken, { 'If-None-Match': etag }));
      assert.equal(third.status, 200);
      assert.notEqual(third.headers.get('etag'), etag);
      assert.ok((await third.text()).endsWith('one more line\n'));
    });

    it('grows a running trace, finishes the job at the planned length, and stops on setJobStatus', async () => {
      const growing = await startFakeForge({ traceGrowth: { intervalMs: 20, bytesPerStep: 4096 } });
      try {
        const { running } = growing.fixtures.jobs;
        const path = `/projects/acme%2Fweb/jobs/${running}/trace`;
        const before = await (await api(growing, path, as(growing.userToken))).text();
        assert.ok(before.includes(`${ESC}[32;1m`), 'ANSI colours');
        assert.match(before, new RegExp(`section_start:\\d+:prepare_script\\r${ESC}\\[0K`));
        await sleep(120);
        const after = await (await api(growing, path, as(growing.userToken))).text();
        assert.ok(after.length > before.length, 'the trace grew');
        assert.ok(after.startsWith(before), 'a trace only grows at its end');

        // A job started with a short planned trace finishes on its own, with the planned outcome.
        const { pending } = growing.fixtures.jobs;
        growing.state.startRunningJob(pending, { plannedChars: 6000, outcome: 'failed' });
        await sleep(150);
        const finished = (await (
          await api(growing, `/projects/acme%2Fweb/jobs/${pending}`, as(growing.userToken))
        ).json()) as {
          status: string;
          finished_at: string | null;
        };
        assert.equal(finished.status, 'failed');
        assert.notEqual(finished.finished_at, null);
        const finalTrace = growing.state.traceText(pending) ?? '';
        assert.ok(finalTrace.endsWith(`ERROR: Job failed: exit code 1${ESC}[0;m\n`));

        // Deterministic finish for tests: the status helper stops the growth.
        growing.state.setJobStatus(running, 'success');
        const stopped = await (await api(growing, path, as(growing.userToken))).text();
        await sleep(60);
        assert.equal(await (await api(growing, path, as(growing.userToken))).text(), stopped);
        assert.equal(growing.state.traceText(pending), finalTrace);
      } finally {
        await growing.close();
      }
    });

    it('streams artifacts as a real zip, by job and by ref', async () => {
      const { build, olderBuild } = forge.fixtures.jobs;
      const response = await api(forge, `/projects/acme%2Fweb/jobs/${build}/artifacts`, as(forge.userToken));
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'application/zip');
      assert.equal(response.headers.get('content-disposition'), 'attachment; filename="artifacts.zip"');
      const bytes = new Uint8Array(await response.arrayBuffer());
      assert.equal(Number(response.headers.get('content-length')), bytes.length);
      const files = unzipSync(bytes);
      assert.match(
        strFromU8(files['README.txt'] ?? new Uint8Array()),
        new RegExp(`job ${build} \\(build\\)`),
      );
      assert.equal(files['dist/app.bin']?.length, 200 * 1024);

      const byRef = await api(
        forge,
        '/projects/acme%2Fweb/jobs/artifacts/master/download?job=build',
        as(forge.userToken),
      );
      assert.equal(byRef.status, 200);
      const latest = unzipSync(new Uint8Array(await byRef.arrayBuffer()));
      assert.match(
        strFromU8(latest['README.txt'] ?? new Uint8Array()),
        new RegExp(`job ${Math.max(build, olderBuild)} `),
      );

      const none = await api(
        forge,
        `/projects/acme%2Fweb/jobs/${forge.fixtures.jobs.success}/artifacts`,
        as(forge.userToken),
      );
      assert.equal(none.status, 404);
    });
  });
});
