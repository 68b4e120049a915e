import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import {
  type Awardable,
  ENDPOINTS,
  HostingClient,
  type NoteParent,
  isAwardEmoji,
} from '../../src/api/hosting';
import {
  CancelledError,
  ConflictError,
  type Credentials,
  type DownloadProgress,
  ForbiddenError,
  MethodNotAllowedError,
  NotAcceptableError,
  NotFoundError,
  SchemaMismatchError,
  UnauthorizedError,
} from '../../src/api/http';
import { type FakeForge, type RecordedRequest, type SeedFixtures, startFakeForge } from '../server';
import {
  ENDPOINT_COUNT,
  endpointFor,
  header,
  jsonBody,
  lastRequestTo,
  onlyRequest,
  rejectsWith,
  requestsTo,
  unexercisedEndpoints,
} from './hostingClient/harness';

/**
 * HostingClient against the fake forge: every registry entry is called through its typed method, and
 * each test checks both the parsed reply and what the server received. The last test checks that all
 * 106 entries were exercised with a successful status.
 */

const WEB = 'acme/web';
const WEB_PATH = '/api/v4/projects/acme%2Fweb';

type NoteParentKind = NoteParent['kind'];
type AwardableKind = Awardable['kind'];

describe('HostingClient against the fake forge', () => {
  let forge: FakeForge;
  let fx: SeedFixtures;
  let alice: HostingClient;
  let root: HostingClient;
  let oauth: HostingClient;
  let anon: HostingClient;
  let tmp: string;
  /** Numeric id of acme/web and its API path with that id. */
  let web: number;
  let webIdPath: string;
  const clients: HostingClient[] = [];
  /** Every request of this file, for the coverage test at the end. */
  const recorded: RecordedRequest[] = [];

  function client(credentials: Credentials, sudo?: string): HostingClient {
    const created = HostingClient.create({
      baseUrl: forge.url,
      credentials,
      retry: { baseDelayMs: 1 },
      ...(sudo === undefined ? {} : { sudo }),
    });
    clients.push(created);
    return created;
  }

  before(async () => {
    forge = await startFakeForge({ seed: 'small' });
    fx = forge.fixtures;
    web = fx.projects.web;
    webIdPath = `/api/v4/projects/${web}`;
    alice = client({ kind: 'private-token', token: forge.userToken });
    root = client({ kind: 'private-token', token: forge.adminToken });
    oauth = client({ kind: 'oauth', token: forge.oauthToken });
    anon = client({ kind: 'none' });
    tmp = await mkdtemp(join(tmpdir(), 'hosting-client-'));
  });

  after(async () => {
    await Promise.all(clients.map((each) => each.close()));
    await forge.close();
    await rm(tmp, { recursive: true, force: true });
  });

  /** Starts a fresh request record, keeping the old one for the coverage test. */
  function resetRequests(): void {
    recorded.push(...forge.requests);
    forge.clearRequests();
  }

  afterEach(resetRequests);

  // ---- state helpers -------------------------------------------------------------------------------

  function issueId(iid: number): number {
    const issue = forge.state.findIssue(web, iid);
    assert.ok(issue, `no issue #${iid}`);
    return issue.id;
  }

  function mergeRequestId(iid: number): number {
    const mergeRequest = forge.state.findMergeRequest(web, iid);
    assert.ok(mergeRequest, `no merge request !${iid}`);
    return mergeRequest.id;
  }

  function seededNoteId(startOfBody: string): number {
    const note = [...forge.state.notes.values()].find((candidate) => candidate.body.startsWith(startOfBody));
    assert.ok(note, `no note starting with ${startOfBody}`);
    return note.id;
  }

  function branchSha(name: string): string {
    const branch = forge.state.projects.get(web)?.branches.get(name);
    assert.ok(branch, `no branch ${name}`);
    return branch.commitSha;
  }

  function userId(username: string): number {
    const user = forge.state.findUser(username);
    assert.ok(user, `no user ${username}`);
    return user.id;
  }

  async function filesStartingWith(prefix: string): Promise<string[]> {
    return (await readdir(tmp)).filter((name) => name.startsWith(prefix));
  }

  function statuses(method: string, path: string): number[] {
    return requestsTo(forge, method, path).map((request) => request.status);
  }

  // ---- authentication ------------------------------------------------------------------------------

  describe('authentication', () => {
    it('sends PRIVATE-TOKEN for a personal access token', async () => {
      const project = await alice.getProject('alice/dotfiles');
      assert.equal(project.path_with_namespace, 'alice/dotfiles');
      const request = onlyRequest(forge, 'GET', '/api/v4/projects/alice%2Fdotfiles');
      assert.equal(header(request, 'private-token'), forge.userToken);
      assert.equal(header(request, 'authorization'), undefined);
      assert.equal(header(request, 'sudo'), undefined);
    });

    it('sends an OAuth token as Authorization: Bearer, and acts as its owner', async () => {
      const project = await oauth.getProject('alice/dotfiles');
      assert.equal(project.path_with_namespace, 'alice/dotfiles');
      assert.equal(project.visibility, 'private');
      const request = onlyRequest(forge, 'GET', '/api/v4/projects/alice%2Fdotfiles');
      assert.equal(header(request, 'authorization'), `Bearer ${forge.oauthToken}`);
      assert.equal(header(request, 'private-token'), undefined);
    });

    it('sends no credentials anonymously: a private project is 404 and a public one is readable', async () => {
      await rejectsWith(anon.getProject('alice/dotfiles'), NotFoundError, (error) => {
        assert.equal(error.serverMessage, '404 Project Not Found');
      });
      const project = await anon.getProject(WEB);
      assert.equal(project.id, web);
      for (const request of forge.requests) {
        assert.equal(header(request, 'private-token'), undefined);
        assert.equal(header(request, 'authorization'), undefined);
      }
    });

    it('acts as another user with sudo from an administrator token', async () => {
      const rootAsAlice = client({ kind: 'private-token', token: forge.adminToken }, 'alice');
      const note = await rootAsAlice.createNote(
        { kind: 'issue', project: WEB, iid: fx.issues.darkMode },
        'Written by root as alice',
      );
      assert.ok(!isAwardEmoji(note));
      assert.equal(note.author?.username, 'alice');
      assert.equal(forge.state.notes.get(note.id)?.authorId, userId('alice'));
      const request = onlyRequest(forge, 'POST', `${WEB_PATH}/issues/${fx.issues.darkMode}/notes`);
      assert.equal(header(request, 'sudo'), 'alice');
      assert.equal(header(request, 'private-token'), forge.adminToken);
      assert.equal(request.status, 201);
    });

    it('refuses sudo from a non-administrator with 403 and the server message', async () => {
      const aliceAsBob = client({ kind: 'private-token', token: forge.userToken }, 'bob');
      await rejectsWith(aliceAsBob.getProject(WEB), ForbiddenError, (error) => {
        assert.equal(error.status, 403);
        assert.equal(error.serverMessage, '403 Forbidden - Must be admin to use sudo');
        assert.equal(error.path, '/projects/acme%2Fweb');
      });
      assert.equal(header(onlyRequest(forge, 'GET', WEB_PATH), 'sudo'), 'bob');
    });

    it('gives 404 naming the user for sudo as an unknown user', async () => {
      const rootAsNobody = client({ kind: 'private-token', token: forge.adminToken }, 'nobody');
      await rejectsWith(rootAsNobody.getProject(WEB), NotFoundError, (error) => {
        assert.equal(error.serverMessage, "404 User with ID or username 'nobody' Not Found");
      });
    });

    it('gives UnauthorizedError for a bad token, without the token in the message', async () => {
      const badToken = 'glpat-not-a-real-token-0123456789';
      const bad = client({ kind: 'private-token', token: badToken });
      const error = await rejectsWith(bad.getProject(WEB), UnauthorizedError, (caught) => {
        assert.equal(caught.status, 401);
        assert.equal(caught.serverMessage, '401 Unauthorized');
      });
      assert.ok(!error.message.includes(badToken), error.message);
      assert.ok(!String(error.stack).includes(badToken));
      assert.equal(header(onlyRequest(forge, 'GET', WEB_PATH), 'private-token'), badToken);
    });
  });

  // ---- project references --------------------------------------------------------------------------

  describe('project references', () => {
    it('reaches the same project by numeric id and by the encoded namespace/project path', async () => {
      const byId = await alice.getProject(web);
      const byPath = await alice.getProject(WEB);
      assert.equal(byId.id, web);
      assert.deepEqual(byPath, byId);
      assert.equal(byPath.path_with_namespace, WEB);
      assert.deepEqual(
        forge.requests.map((request) => request.path),
        [webIdPath, WEB_PATH],
      );
    });

    it('keeps a branch name with a slash as one segment (create feature/x, then get it)', async () => {
      const created = await alice.createBranch(WEB, 'feature/x', 'master');
      assert.equal(created.name, 'feature/x');
      const fetched = await alice.getBranch(web, 'feature/x');
      assert.equal(fetched.name, 'feature/x');
      assert.equal(fetched.commit.id, branchSha('master'));
      assert.equal(lastRequestTo(forge, 'POST', `${WEB_PATH}/repository/branches`).status, 201);
      assert.equal(lastRequestTo(forge, 'GET', `${webIdPath}/repository/branches/feature%2Fx`).status, 200);
      await alice.deleteBranch(WEB, 'feature/x');
      assert.equal(lastRequestTo(forge, 'DELETE', `${WEB_PATH}/repository/branches/feature%2Fx`).status, 204);
    });
  });

  // ---- jobs ----------------------------------------------------------------------------------------

  describe('jobs', () => {
    it('lists jobs filtered by scope, sent as repeated scope[]', async () => {
      const jobs = await alice.listJobs(WEB, ['success', 'failed']).toArray();
      const expected = [...forge.state.jobs.values()]
        .filter((job) => job.projectId === web && (job.status === 'success' || job.status === 'failed'))
        .map((job) => job.id)
        .sort((a, b) => b - a);
      assert.deepEqual(
        jobs.map((job) => job.id),
        expected,
      );
      assert.ok(jobs.every((job) => job.status === 'success' || job.status === 'failed'));
      const request = onlyRequest(forge, 'GET', `${WEB_PATH}/jobs`);
      assert.deepEqual(request.query['scope[]'], ['success', 'failed']);
      assert.equal(request.query['per_page'], '100');
      assert.equal(header(request, 'private-token'), forge.userToken);
    });

    it("lists a pipeline's jobs", async () => {
      const jobs = await alice.listPipelineJobs(web, fx.pipelines.masterSuccess).toArray();
      assert.deepEqual(jobs.map((job) => job.name).sort(), [
        'build',
        'deploy-production',
        'deploy-staging',
        'lint',
        'test',
      ]);
      assert.ok(jobs.every((job) => job.pipeline?.id === fx.pipelines.masterSuccess));
      const succeeded = await alice.listPipelineJobs(WEB, fx.pipelines.masterSuccess, ['success']).toArray();
      assert.equal(succeeded.length, 4);
      assert.equal(
        lastRequestTo(forge, 'GET', `${WEB_PATH}/pipelines/${fx.pipelines.masterSuccess}/jobs`).query[
          'scope[]'
        ],
        'success',
      );
      assert.equal(
        requestsTo(forge, 'GET', `${webIdPath}/pipelines/${fx.pipelines.masterSuccess}/jobs`).length,
        1,
      );
    });

    it('gets one job', async () => {
      const job = await alice.getJob(WEB, fx.jobs.build);
      assert.equal(job.id, fx.jobs.build);
      assert.equal(job.name, 'build');
      assert.equal(job.status, 'success');
      assert.equal(job.ref, 'master');
      assert.equal(job.pipeline?.id, fx.pipelines.masterSuccess);
      assert.equal(job.artifacts_file?.filename, 'artifacts.zip');
      onlyRequest(forge, 'GET', `${WEB_PATH}/jobs/${fx.jobs.build}`);
    });

    it('gets a trace with its ETag, then "unchanged" with If-None-Match, then the grown trace', async () => {
      const jobId = fx.jobs.success;
      const path = `${WEB_PATH}/jobs/${jobId}/trace`;
      const first = await alice.getTrace(WEB, jobId);
      assert.ok(!first.unchanged);
      assert.ok(first.text.length > 0);
      assert.match(first.etag ?? '', /^"[0-9a-f]{32}"$/);
      const firstRequest = lastRequestTo(forge, 'GET', path);
      assert.equal(header(firstRequest, 'if-none-match'), undefined);
      assert.equal(firstRequest.status, 200);

      const second = await alice.getTrace(WEB, jobId, { etag: first.etag });
      assert.deepEqual(second, { unchanged: true });
      const secondRequest = lastRequestTo(forge, 'GET', path);
      assert.equal(header(secondRequest, 'if-none-match'), first.etag);
      assert.equal(secondRequest.status, 304);

      forge.state.appendTrace(jobId, '\n$ echo one more line\none more line\n');
      const third = await alice.getTrace(WEB, jobId, { etag: first.etag });
      assert.ok(!third.unchanged);
      assert.ok(third.text.startsWith(first.text));
      assert.ok(third.text.endsWith('one more line\n'));
      assert.notEqual(third.etag, first.etag);
      assert.equal(lastRequestTo(forge, 'GET', path).status, 200);
    });

    it('gets a trace from an offset: the bytes before it are dropped, unless the trace is shorter', async () => {
      const jobId = fx.jobs.success;
      const whole = await alice.getTrace(WEB, jobId);
      assert.ok(!whole.unchanged);
      assert.equal(whole.offset, 0);
      const from = Math.floor(whole.bytes.length / 2);
      const rest = await alice.getTrace(WEB, jobId, { from });
      assert.ok(!rest.unchanged);
      assert.equal(rest.offset, from);
      assert.deepEqual(rest.bytes, whole.bytes.subarray(from));
      assert.equal(rest.etag, whole.etag);
      const pieces: Buffer[] = [];
      let expectedOffset = 0;
      await alice.getTrace(WEB, jobId, {
        onBytes: (bytes, offset) => {
          assert.equal(offset, expectedOffset);
          expectedOffset += bytes.length;
          pieces.push(Buffer.from(bytes));
        },
      });
      assert.deepEqual(Buffer.concat(pieces), whole.bytes, 'every piece handed on as it arrived, in order');
      // A failure of the caller's own is passed on as it is: not a cut-off reply, and not retried.
      const requestsBefore = forge.requests.length;
      const mistake = new Error('the caller’s own mistake');
      await assert.rejects(
        alice.getTrace(WEB, jobId, {
          onBytes: () => {
            throw mistake;
          },
        }),
        (error) => error === mistake,
      );
      assert.equal(forge.requests.length - requestsBefore, 1, 'read once');
      // A Content-Length shorter than the offset: not the trace the caller has, so all of it is kept.
      const shorter = await alice.getTrace(WEB, jobId, { from: whole.bytes.length + 10 });
      assert.ok(!shorter.unchanged);
      assert.equal(shorter.offset, 0);
      assert.deepEqual(shorter.bytes, whole.bytes);
    });

    it('pauses reading a trace while onBytes holds it (a promise), and reads on when it settles', async () => {
      const jobId = fx.jobs.created;
      const long = 'a line of a long trace, long enough to come in several pieces\n'.repeat(40_000);
      forge.state.appendTrace(jobId, long);
      const events: string[] = [];
      const pieces: Buffer[] = [];
      const result = await alice.getTrace(WEB, jobId, {
        onBytes: (bytes) => {
          pieces.push(Buffer.from(bytes));
          events.push(`piece ${pieces.length}`);
          if (pieces.length !== 1) return;
          // The first piece holds the read for a moment.
          return new Promise<void>((resolve) =>
            setTimeout(() => {
              events.push('resumed');
              resolve();
            }, 30),
          );
        },
      });
      assert.ok(!result.unchanged);
      assert.ok(pieces.length > 2, `several pieces (${pieces.length})`);
      assert.deepEqual(events.slice(0, 3), ['piece 1', 'resumed', 'piece 2'], 'nothing read while held');
      assert.deepEqual(Buffer.concat(pieces), result.bytes);
      assert.ok(result.text.endsWith(long));
    });

    it('downloads artifacts to a file: a zip of Content-Length bytes, with increasing progress', async () => {
      const destination = join(tmp, 'build.zip');
      const progress: DownloadProgress[] = [];
      const result = await alice.downloadArtifacts(WEB, fx.jobs.build, destination, {
        onProgress: (update) => progress.push({ ...update }),
      });
      const bytes = await readFile(destination);
      assert.deepEqual(result, { path: destination, bytes: bytes.length });
      assert.deepEqual([...bytes.subarray(0, 4)], [0x50, 0x4b, 0x03, 0x04], 'PK\\x03\\x04');
      const job = forge.state.jobs.get(fx.jobs.build);
      assert.ok(job);
      assert.equal(bytes.length, forge.state.artifactsSize(job));

      assert.ok(progress.length > 1, `${progress.length} progress callbacks`);
      const contentLength = progress[0]?.totalBytes;
      assert.equal(contentLength, bytes.length, 'the file size equals Content-Length');
      for (const [index, update] of progress.entries()) {
        assert.equal(update.totalBytes, contentLength);
        assert.ok(update.receivedBytes > (progress[index - 1]?.receivedBytes ?? 0));
      }
      assert.equal(progress.at(-1)?.receivedBytes, bytes.length);

      const files = unzipSync(bytes);
      const readme = files['README.txt'];
      assert.ok(readme);
      assert.match(strFromU8(readme), new RegExp(`^Artifacts of job ${fx.jobs.build} \\(build\\) on master`));
      assert.ok(files['dist/app.bin']);
      assert.deepEqual(await filesStartingWith('build.zip'), ['build.zip']);
      onlyRequest(forge, 'GET', `${WEB_PATH}/jobs/${fx.jobs.build}/artifacts`);
    });

    it("downloads by ref the latest successful job's artifacts", async () => {
      const destination = join(tmp, 'by-ref.zip');
      const result = await alice.downloadArtifactsByRef(WEB, 'master', 'build', destination);
      const bytes = await readFile(destination);
      assert.equal(result.bytes, bytes.length);
      const readme = unzipSync(bytes)['README.txt'];
      assert.ok(readme);
      // The newer of the two successful `build` jobs on master.
      assert.ok(fx.jobs.build > fx.jobs.olderBuild);
      assert.match(strFromU8(readme), new RegExp(`^Artifacts of job ${fx.jobs.build} \\(build\\)`));
      const request = onlyRequest(forge, 'GET', `${WEB_PATH}/jobs/artifacts/master/download`);
      assert.equal(request.query['job'], 'build');
    });

    it('leaves no file (neither final nor .part) for a job without artifacts', async () => {
      const destination = join(tmp, 'none.zip');
      await rejectsWith(
        alice.downloadArtifacts(WEB, fx.jobs.success, destination),
        NotFoundError,
        (error) => {
          assert.equal(error.path, `/projects/acme%2Fweb/jobs/${fx.jobs.success}/artifacts`);
          assert.equal(error.serverMessage, '404 Artifacts Not Found');
        },
      );
      assert.deepEqual(await filesStartingWith('none.zip'), []);
    });

    it('cancels a download with an AbortController and leaves no file', async () => {
      const destination = join(tmp, 'cancelled.zip');
      const controller = new AbortController();
      let calls = 0;
      await rejectsWith(
        alice.downloadArtifacts(WEB, fx.jobs.build, destination, {
          signal: controller.signal,
          onProgress: () => {
            calls++;
            controller.abort();
          },
        }),
        CancelledError,
        (error) => {
          assert.equal(error.path, '/projects/:id/jobs/:job_id/artifacts');
          assert.equal(error.message, 'GET /projects/:id/jobs/:job_id/artifacts was cancelled');
        },
      );
      assert.ok(calls >= 1);
      assert.deepEqual(await filesStartingWith('cancelled.zip'), []);
    });

    it('cancels a download that is still waiting for the server and leaves no file', async () => {
      const destination = join(tmp, 'waiting.zip');
      const controller = new AbortController();
      forge.setLatency(300);
      try {
        const download = alice.downloadArtifacts(WEB, fx.jobs.build, destination, {
          signal: controller.signal,
        });
        setTimeout(() => controller.abort(), 30);
        await rejectsWith(download, CancelledError, (error) => {
          assert.equal(error.path, `/projects/acme%2Fweb/jobs/${fx.jobs.build}/artifacts`);
        });
      } finally {
        forge.setLatency(0);
      }
      assert.deepEqual(await filesStartingWith('waiting.zip'), []);
    });

    it('keeps artifacts: no expiry any more', async () => {
      assert.notEqual(forge.state.jobs.get(fx.jobs.build)?.artifacts?.expireAt, null);
      const job = await alice.keepArtifacts(WEB, fx.jobs.build);
      assert.equal(job.id, fx.jobs.build);
      assert.equal(job.artifacts_file?.filename, 'artifacts.zip');
      assert.equal(job['artifacts_expire_at'], null);
      assert.equal(job.download_url, null);
      assert.equal(forge.state.jobs.get(fx.jobs.build)?.artifacts?.expireAt, null);
      const request = onlyRequest(forge, 'POST', `${WEB_PATH}/jobs/${fx.jobs.build}/artifacts/keep`);
      assert.equal(request.status, 200);
    });

    it('erases a job: its trace and artifacts are gone (404 afterwards)', async () => {
      const jobId = fx.jobs.olderBuild;
      const job = await alice.eraseJob(web, jobId);
      assert.equal(job.id, jobId);
      assert.equal(job.status, 'success');
      assert.equal(job.artifacts_file, null);
      assert.equal(job.download_url, null);
      assert.equal(typeof job['erased_at'], 'string');
      assert.equal(onlyRequest(forge, 'POST', `${webIdPath}/jobs/${jobId}/erase`).status, 200);

      await rejectsWith(alice.getTrace(web, jobId), NotFoundError, (error) => {
        assert.equal(error.serverMessage, '404 Trace Not Found');
      });
      const destination = join(tmp, 'erased.zip');
      await rejectsWith(alice.downloadArtifacts(web, jobId, destination), NotFoundError);
      assert.deepEqual(await filesStartingWith('erased.zip'), []);
      assert.equal((await alice.getJob(web, jobId)).artifacts_file, null);
    });

    it('retries a failed job: pending, finished_at null', async () => {
      const before = await alice.getJob(WEB, fx.jobs.failed);
      assert.equal(before.status, 'failed');
      assert.notEqual(before.finished_at, null);
      const job = await alice.retryJob(WEB, fx.jobs.failed);
      // A new job, as real servers run it; the old one stays as it was.
      assert.ok(job.id > fx.jobs.failed);
      assert.equal(job.name, before.name);
      assert.equal(job.status, 'pending');
      assert.equal(job.finished_at, null);
      assert.equal(job.pipeline, undefined, 'the retry shape has no pipeline');
      assert.equal((await alice.getJob(WEB, job.id)).status, 'pending');
      assert.equal((await alice.getJob(WEB, fx.jobs.failed)).status, 'failed');
      const pipelineJobs = await alice.listPipelineJobs(WEB, before.pipeline!.id).toArray();
      assert.ok(pipelineJobs.some((listed) => listed.id === job.id));
      assert.ok(
        !pipelineJobs.some((listed) => listed.id === fx.jobs.failed),
        'the retried attempt is left out',
      );
      const request = lastRequestTo(forge, 'POST', `${WEB_PATH}/jobs/${fx.jobs.failed}/retry`);
      assert.equal(request.status, 200);
      assert.equal(request.body, undefined);
    });

    it('cancels a running job', async () => {
      const job = await alice.cancelJob(WEB, fx.jobs.running);
      assert.equal(job.status, 'canceled');
      assert.equal(typeof job.finished_at, 'string');
      assert.equal(forge.state.jobs.get(fx.jobs.running)?.status, 'canceled');
      assert.equal(onlyRequest(forge, 'POST', `${WEB_PATH}/jobs/${fx.jobs.running}/cancel`).status, 200);
    });

    it('plays a manual job: the reply says started', async () => {
      const job = await alice.playJob(WEB, fx.jobs.manual);
      assert.equal(job.id, fx.jobs.manual);
      assert.equal(job.status, 'started');
      assert.equal(job.user?.username, 'alice');
      assert.equal((await alice.getJob(WEB, fx.jobs.manual)).status, 'pending');
      assert.equal(lastRequestTo(forge, 'POST', `${WEB_PATH}/jobs/${fx.jobs.manual}/play`).status, 200);
      await rejectsWith(alice.playJob(WEB, fx.jobs.success), ForbiddenError, (error) => {
        assert.equal(error.serverMessage, '403 Forbidden - Job is not playable');
      });
    });
  });

  // ---- pagination ----------------------------------------------------------------------------------

  describe('pagination', () => {
    /** The jobs of acme/web now (a retry earlier in this file added one). */
    const webJobCount = (): number =>
      [...forge.state.jobs.values()].filter((job) => job.projectId === fx.projects.web).length;

    it('toArray() equals the concatenation of the pages', async () => {
      const list = alice.listJobs(WEB);
      const paged: number[] = [];
      let page = await list.page({ perPage: 4 });
      assert.equal(page.total, webJobCount());
      assert.equal(page.totalPages, 4);
      paged.push(...page.items.map((job) => job.id));
      while (page.nextUrl !== undefined) {
        assert.ok(page.nextUrl.startsWith(`${forge.url}/api/v4/`));
        page = await list.next(page.nextUrl);
        paged.push(...page.items.map((job) => job.id));
      }
      assert.equal(paged.length, webJobCount());
      resetRequests();

      const all = await list.toArray({ perPage: 4 });
      assert.deepEqual(
        all.map((job) => job.id),
        paged,
      );
      const pages = requestsTo(forge, 'GET', `${WEB_PATH}/jobs`)
        .map((request) => request.query['page'])
        .sort();
      assert.deepEqual(pages, ['1', '2', '3', '4']);
      assert.ok(forge.requests.every((request) => request.query['per_page'] === '4'));
    });

    it('never follows a Link to another origin: falls back to X-Next-Page, token only to the forge', async () => {
      forge.linkOrigin = 'http://127.0.0.1:1';
      try {
        const list = alice.listJobs(WEB);
        const first = await list.page({ perPage: 5 });
        assert.equal(first.nextUrl, `${forge.url}/api/v4/projects/acme%2Fweb/jobs?page=2&per_page=5`);
        const all = await list.toArray({ perPage: 5 });
        assert.equal(all.length, webJobCount());
        assert.equal(new Set(all.map((job) => job.id)).size, webJobCount());
      } finally {
        forge.linkOrigin = undefined;
      }
      const host = new URL(forge.url).host;
      assert.ok(forge.requests.length >= 4);
      for (const request of forge.requests) {
        assert.equal(header(request, 'host'), host);
        assert.equal(header(request, 'private-token'), forge.userToken);
      }
    });

    it('iterates more than 10,000 todos without X-Total; page() reports total undefined', async function () {
      this.timeout(20_000);
      const bobId = userId('bob');
      forge.state.bulkAddTodos(bobId, 10_050);
      const expected = [...forge.state.todos.values()]
        .filter((todo) => todo.userId === bobId && todo.state === 'pending')
        .map((todo) => todo.id)
        .sort((a, b) => b - a);
      assert.ok(expected.length > 10_000);
      const bobsConnections = forge.connectionsFromNow();
      const bob = client({ kind: 'private-token', token: forge.tokens['bob'] ?? '' });

      const first = await bob.listTodos().page();
      assert.equal(first.total, undefined);
      assert.equal(first.totalPages, undefined);
      assert.equal(first.items.length, 100);
      assert.ok(first.nextUrl);
      resetRequests();

      const ids: number[] = [];
      for await (const todo of bob.listTodos()) ids.push(todo.id);
      assert.deepEqual(ids, expected);
      // Without totals the client reads ahead: a few requests past the last page may have been sent.
      const pages = Math.ceil(expected.length / 100);
      const requests = requestsTo(forge, 'GET', '/api/v4/todos').length;
      assert.ok(requests >= pages && requests <= pages + 8, `${requests} requests for ${pages} pages`);
      // The pages asked past the end were cancelled; one may still reach the server. Bob's
      // connections closed, nothing of this test is left to land in the next one's record.
      await bob.close();
      await bobsConnections();
    });
  });

  // ---- projects ------------------------------------------------------------------------------------

  describe('projects', () => {
    it('lists public projects only for an anonymous caller', async () => {
      const projects = await anon.listProjects().toArray();
      const publicPaths = [...forge.state.projects.values()]
        .filter((project) => project.visibility === 'public')
        .map((project) => forge.state.pathWithNamespace(project))
        .sort();
      assert.deepEqual(projects.map((project) => project.path_with_namespace).sort(), publicPaths);
      assert.ok(publicPaths.includes(WEB));
      const request = onlyRequest(forge, 'GET', '/api/v4/projects');
      assert.equal(header(request, 'private-token'), undefined);
    });

    it('lists projects with filters sent as query parameters', async () => {
      const projects = await alice
        .listProjects({
          search: 'web',
          simple: true,
          orderBy: 'name',
          sort: 'asc',
          archived: false,
          membership: true,
        })
        .toArray();
      assert.deepEqual(
        projects.map((project) => project.path_with_namespace),
        [WEB],
      );
      assert.equal(projects[0]?.permissions, undefined, 'the simple shape');
      const request = onlyRequest(forge, 'GET', '/api/v4/projects');
      assert.deepEqual(request.query, {
        search: 'web',
        simple: 'true',
        order_by: 'name',
        sort: 'asc',
        archived: 'false',
        membership: 'true',
        page: '1',
        per_page: '100',
      });
      const starred = await alice.listProjects({ starred: true }).toArray();
      assert.deepEqual(
        starred.map((project) => project.id),
        [web],
      );
    });

    it("lists a project's users, with search", async () => {
      const users = await alice.listProjectUsers(WEB).toArray();
      assert.deepEqual(
        users.map((user) => user.username),
        ['root', 'alice', 'bob'],
      );
      const found = await alice.listProjectUsers(WEB, 'ali').toArray();
      assert.deepEqual(
        found.map((user) => [user.username, user.state]),
        [['alice', 'active']],
      );
      assert.equal(lastRequestTo(forge, 'GET', `${WEB_PATH}/users`).query['search'], 'ali');
    });

    it("lists a project's events newest first", async () => {
      const events = await anon.listProjectEvents(WEB).toArray();
      const count = [...forge.state.events.values()].filter((event) => event.projectId === web).length;
      assert.equal(events.length, count);
      assert.ok(count > 5);
      for (let index = 1; index < events.length; index++) {
        assert.ok(
          (events[index - 1]?.created_at ?? '') >= (events[index]?.created_at ?? ''),
          `event ${index} is newer than the one before`,
        );
      }
      onlyRequest(forge, 'GET', `${WEB_PATH}/events`);
    });

    it('stars and unstars: 304 ({changed: false}) when already in that state', async () => {
      assert.deepEqual(await alice.starProject(WEB), { changed: false });
      const unstarred = await alice.unstarProject(WEB);
      assert.ok(unstarred.changed);
      assert.equal(unstarred.value.star_count, 1);
      assert.equal(unstarred.value.runners_token, undefined, 'the star shape has no runners token');
      assert.deepEqual(await alice.unstarProject(WEB), { changed: false });
      const starred = await alice.starProject(web);
      assert.ok(starred.changed);
      assert.equal(starred.value.star_count, 2);
      assert.deepEqual(await alice.starProject(WEB), { changed: false });
      assert.deepEqual(statuses('POST', `${WEB_PATH}/star`), [304, 304]);
      assert.deepEqual(statuses('POST', `${WEB_PATH}/unstar`), [200, 304]);
      assert.deepEqual(statuses('POST', `${webIdPath}/star`), [200]);
    });

    it('creates a project in the caller namespace, edits it and deletes it (twice)', async () => {
      const created = await alice.createProject({
        name: 'Scratch Pad',
        description: 'Throwaway',
        visibility: 'private',
        wiki_enabled: false,
      });
      assert.equal(created.path, 'scratch-pad');
      assert.equal(created.path_with_namespace, 'alice/scratch-pad');
      assert.equal(created.visibility, 'private');
      assert.equal(created.wiki_enabled, false);
      assert.equal(created.owner?.name, 'Alice Liddell');
      const createRequest = lastRequestTo(forge, 'POST', '/api/v4/projects');
      assert.equal(createRequest.status, 201);
      assert.deepEqual(jsonBody(createRequest), {
        name: 'Scratch Pad',
        description: 'Throwaway',
        visibility: 'private',
        wiki_enabled: false,
      });

      const edited = await alice.editProject(created.id, {
        name: 'Scratch Pad 2',
        description: 'Still throwaway',
        issues_enabled: false,
      });
      assert.equal(edited.name, 'Scratch Pad 2');
      assert.equal(edited.path, 'scratch-pad');
      assert.equal(edited.description, 'Still throwaway');
      assert.equal(edited.issues_enabled, false);
      const editRequest = lastRequestTo(forge, 'PUT', `/api/v4/projects/${created.id}`);
      assert.deepEqual(jsonBody(editRequest), {
        name: 'Scratch Pad 2',
        description: 'Still throwaway',
        issues_enabled: false,
      });

      await alice.deleteProject('alice/scratch-pad');
      await alice.deleteProject('alice/scratch-pad');
      assert.deepEqual(statuses('DELETE', '/api/v4/projects/alice%2Fscratch-pad'), [202, 200]);
      await rejectsWith(alice.getProject(created.id), NotFoundError);
    });

    it('creates a project for another user as an administrator only', async () => {
      const bobId = userId('bob');
      await rejectsWith(
        alice.createProjectForUser(bobId, { name: 'Not Allowed' }),
        ForbiddenError,
        (error) => {
          assert.equal(error.serverMessage, '403 Forbidden');
        },
      );
      const project = await root.createProjectForUser(bobId, { name: 'Bob Tools', default_branch: 'main' });
      assert.equal(project.path_with_namespace, 'bob/bob-tools');
      assert.equal(project.default_branch, 'main');
      assert.equal(project.owner?.id, bobId);
      const request = lastRequestTo(forge, 'POST', `/api/v4/projects/user/${bobId}`);
      assert.equal(request.status, 201);
      assert.deepEqual(jsonBody(request), { name: 'Bob Tools', default_branch: 'main' });
      assert.equal(header(request, 'private-token'), forge.adminToken);
    });

    it('forks a project into a namespace and deletes the fork', async () => {
      const fork = await alice.forkProject(WEB, 'alice');
      assert.equal(fork.path_with_namespace, 'alice/web');
      const forkedFrom = fork['forked_from_project'];
      assert.ok(typeof forkedFrom === 'object' && forkedFrom !== null && 'id' in forkedFrom);
      assert.equal(forkedFrom.id, web);
      const request = onlyRequest(forge, 'POST', `${WEB_PATH}/fork`);
      assert.equal(request.status, 201);
      assert.deepEqual(jsonBody(request), { namespace: 'alice' });

      await alice.deleteProject(fork.id);
      await alice.deleteProject(fork.id);
      assert.deepEqual(statuses('DELETE', `/api/v4/projects/${fork.id}`), [202, 200]);
    });

    it('archives and unarchives idempotently (owner only)', async () => {
      const dotfiles = 'alice/dotfiles';
      assert.equal((await alice.archiveProject(dotfiles)).archived, true);
      assert.equal((await alice.archiveProject(dotfiles)).archived, true);
      assert.equal((await alice.unarchiveProject(fx.projects.dotfiles)).archived, false);
      assert.equal((await alice.unarchiveProject(fx.projects.dotfiles)).archived, false);
      assert.deepEqual(statuses('POST', '/api/v4/projects/alice%2Fdotfiles/archive'), [200, 200]);
      assert.deepEqual(statuses('POST', `/api/v4/projects/${fx.projects.dotfiles}/unarchive`), [200, 200]);
      await rejectsWith(alice.archiveProject(WEB), ForbiddenError);
    });
  });

  // ---- branches ------------------------------------------------------------------------------------

  describe('branches', () => {
    it('lists branches sorted by name, anonymously for a public project', async () => {
      const branches = await anon.listBranches(WEB).toArray();
      const names = branches.map((branch) => branch.name);
      assert.deepEqual(names, [...names].sort());
      assert.ok(names.includes('master') && names.includes('feature/login'));
      assert.equal(branches.find((branch) => branch.name === 'master')?.commit.id, branchSha('master'));
      onlyRequest(forge, 'GET', `${WEB_PATH}/repository/branches`);
    });

    it('gets a branch whose name has a slash', async () => {
      const branch = await alice.getBranch(WEB, 'feature/login');
      assert.equal(branch.name, 'feature/login');
      assert.equal(branch.commit.id, branchSha('feature/login'));
      assert.equal(branch.protected, false);
      onlyRequest(forge, 'GET', `${WEB_PATH}/repository/branches/feature%2Flogin`);
    });

    it('creates a branch from a ref and deletes it twice without error', async () => {
      const branch = await alice.createBranch(WEB, 'feature/temp', 'master');
      assert.equal(branch.name, 'feature/temp');
      assert.equal(branch.commit.id, branchSha('master'));
      assert.deepEqual(jsonBody(lastRequestTo(forge, 'POST', `${WEB_PATH}/repository/branches`)), {
        branch: 'feature/temp',
        ref: 'master',
      });
      await alice.deleteBranch(WEB, 'feature/temp');
      await alice.deleteBranch(WEB, 'feature/temp');
      assert.deepEqual(statuses('DELETE', `${WEB_PATH}/repository/branches/feature%2Ftemp`), [204, 200]);
      await rejectsWith(alice.getBranch(WEB, 'feature/temp'), NotFoundError);
    });

    it('protects (with developers_can_push/merge) and unprotects idempotently', async () => {
      const path = `${WEB_PATH}/repository/branches/docs%2Freadme`;
      const first = await alice.protectBranch(WEB, 'docs/readme', {
        developers_can_push: true,
        developers_can_merge: true,
      });
      assert.equal(first.protected, true);
      assert.equal(first.developers_can_push, true);
      assert.equal(first.developers_can_merge, true);
      const second = await alice.protectBranch(WEB, 'docs/readme', {
        developers_can_push: false,
        developers_can_merge: true,
      });
      assert.equal(second.protected, true);
      assert.equal(second.developers_can_push, false);
      assert.equal(second.developers_can_merge, true);
      assert.deepEqual(
        requestsTo(forge, 'PUT', `${path}/protect`).map((request) => jsonBody(request)),
        [
          { developers_can_push: true, developers_can_merge: true },
          { developers_can_push: false, developers_can_merge: true },
        ],
      );
      assert.deepEqual(statuses('PUT', `${path}/protect`), [200, 200]);

      assert.equal((await alice.unprotectBranch(WEB, 'docs/readme')).protected, false);
      const again = await alice.unprotectBranch(WEB, 'docs/readme');
      assert.equal(again.protected, false);
      assert.equal(again.developers_can_push, false);
      assert.deepEqual(statuses('PUT', `${path}/unprotect`), [200, 200]);
    });

    it('deletes merged branches, keeping protected ones', async () => {
      assert.equal((await alice.getBranch(WEB, 'fix/typo')).merged, true);
      const release = await alice.getBranch(WEB, 'release/1.0');
      assert.equal(release.merged, true);
      assert.equal(release.protected, true);
      await alice.deleteMergedBranches(WEB);
      assert.equal(lastRequestTo(forge, 'DELETE', `${WEB_PATH}/repository/merged_branches`).status, 202);
      await rejectsWith(alice.getBranch(WEB, 'fix/typo'), NotFoundError);
      assert.equal((await alice.getBranch(WEB, 'release/1.0')).name, 'release/1.0');
      assert.equal((await alice.getBranch(WEB, 'master')).name, 'master');
    });
  });

  // ---- merge requests ------------------------------------------------------------------------------

  describe('merge requests', () => {
    it('lists merge requests by state, order and iids[]', async () => {
      const opened = await alice
        .listMergeRequests(WEB, { state: 'opened', orderBy: 'created_at', sort: 'asc' })
        .toArray();
      assert.deepEqual(
        opened.map((mergeRequest) => mergeRequest.iid),
        [fx.mergeRequests.conflict, fx.mergeRequests.opened, fx.mergeRequests.draft],
      );
      const openedRequest = lastRequestTo(forge, 'GET', `${WEB_PATH}/merge_requests`);
      assert.equal(openedRequest.query['state'], 'opened');
      assert.equal(openedRequest.query['order_by'], 'created_at');
      assert.equal(openedRequest.query['sort'], 'asc');

      const chosen = await alice
        .listMergeRequests(web, { iids: [fx.mergeRequests.opened, fx.mergeRequests.merged] })
        .toArray();
      assert.deepEqual(
        chosen.map((mergeRequest) => mergeRequest.iid).sort(),
        [fx.mergeRequests.opened, fx.mergeRequests.merged].sort(),
      );
      assert.deepEqual(lastRequestTo(forge, 'GET', `${webIdPath}/merge_requests`).query['iids[]'], [
        String(fx.mergeRequests.opened),
        String(fx.mergeRequests.merged),
      ]);
    });

    it('gets a merge request, its commits, changes and the issues it closes', async () => {
      const iid = fx.mergeRequests.opened;
      const base = `${WEB_PATH}/merge_requests/${iid}`;
      const mergeRequest = await alice.getMergeRequest(WEB, iid);
      assert.equal(mergeRequest.title, 'Add a login form');
      assert.equal(mergeRequest.state, 'opened');
      assert.equal(mergeRequest.source_branch, 'feature/login');
      assert.equal(mergeRequest.sha, branchSha('feature/login'));
      assert.equal(mergeRequest.author.username, 'bob');
      assert.equal(mergeRequest.assignee?.username, 'alice');
      assert.equal(mergeRequest.subscribed, true);

      const commits = await alice.listMergeRequestCommits(WEB, iid).toArray();
      assert.deepEqual(
        commits.map((commit) => commit.title),
        ['Validate credentials', 'Add login form'],
      );
      assert.equal(commits[0]?.id, branchSha('feature/login'));

      const changes = await alice.getMergeRequestChanges(WEB, iid);
      assert.equal(changes.iid, iid);
      assert.ok(changes.changes.some((change) => change.new_path === 'src/login.ts' && change.new_file));

      const closes = await alice.listMergeRequestClosesIssues(WEB, iid).toArray();
      assert.deepEqual(
        closes.map((issue) => [issue.id, issue.title]),
        [[issueId(fx.issues.crash), 'Login page crashes on Safari']],
      );

      assert.deepEqual(
        forge.requests.map((request) => `${request.method} ${request.path} ${request.status}`),
        [
          `GET ${base} 200`,
          `GET ${base}/commits 200`,
          `GET ${base}/changes 200`,
          `GET ${base}/closes_issues 200`,
        ],
      );
    });

    it('subscribes and unsubscribes: the second call of each is {changed: false} (304)', async () => {
      const iid = fx.mergeRequests.opened;
      const base = `${WEB_PATH}/merge_requests/${iid}`;
      assert.deepEqual(await alice.subscribeToMergeRequest(WEB, iid), { changed: false });
      const unsubscribed = await alice.unsubscribeFromMergeRequest(WEB, iid);
      assert.ok(unsubscribed.changed);
      assert.equal(unsubscribed.value.subscribed, false);
      assert.deepEqual(await alice.unsubscribeFromMergeRequest(WEB, iid), { changed: false });
      const subscribed = await alice.subscribeToMergeRequest(WEB, iid);
      assert.ok(subscribed.changed);
      assert.equal(subscribed.value.subscribed, true);
      assert.deepEqual(await alice.subscribeToMergeRequest(WEB, iid), { changed: false });
      assert.deepEqual(statuses('POST', `${base}/subscribe`), [304, 200, 304]);
      assert.deepEqual(statuses('POST', `${base}/unsubscribe`), [200, 304]);
    });

    it('creates a todo for a merge request: {changed: false} (304) when one is pending', async () => {
      const iid = fx.mergeRequests.draft;
      const created = await alice.createMergeRequestTodo(WEB, iid);
      assert.ok(created.changed);
      assert.equal(created.value.action_name, 'marked');
      assert.equal(created.value.state, 'pending');
      assert.equal(created.value.target?.iid, iid);
      assert.deepEqual(await alice.createMergeRequestTodo(WEB, iid), { changed: false });
      assert.deepEqual(statuses('POST', `${WEB_PATH}/merge_requests/${iid}/todo`), [201, 304]);
      assert.deepEqual(await alice.createMergeRequestTodo(WEB, fx.mergeRequests.opened), { changed: false });
    });

    it('sets merge when pipeline succeeds and cancels it (406 when it is not set)', async () => {
      const iid = fx.mergeRequests.opened;
      const base = `${WEB_PATH}/merge_requests/${iid}`;
      await rejectsWith(alice.cancelMergeWhenPipelineSucceeds(WEB, iid), NotAcceptableError, (error) => {
        assert.equal(error.status, 406);
        assert.equal(error.serverMessage, '406 Not Acceptable');
      });
      const scheduled = await alice.mergeMergeRequest(WEB, iid, { merge_when_pipeline_succeeds: true });
      assert.equal(scheduled.state, 'opened');
      assert.equal(scheduled.merge_when_pipeline_succeeds, true);
      assert.deepEqual(jsonBody(lastRequestTo(forge, 'PUT', `${base}/merge`)), {
        merge_when_pipeline_succeeds: true,
      });
      const cancelled = await alice.cancelMergeWhenPipelineSucceeds(WEB, iid);
      assert.equal(cancelled.state, 'opened');
      assert.equal(cancelled.merge_when_pipeline_succeeds, false);
      assert.deepEqual(statuses('PUT', `${base}/cancel_merge_when_pipeline_succeeds`), [406, 200]);
    });

    it('refuses a merge with a wrong sha (409 with the server message), then merges with the right one', async () => {
      const iid = fx.mergeRequests.opened;
      const path = `${WEB_PATH}/merge_requests/${iid}/merge`;
      const head = (await alice.getMergeRequest(WEB, iid)).sha;
      assert.ok(head);
      const wrong = 'f'.repeat(40);
      await rejectsWith(alice.mergeMergeRequest(WEB, iid, { sha: wrong }), ConflictError, (error) => {
        assert.equal(error.status, 409);
        assert.equal(error.serverMessage, `SHA does not match HEAD of source branch: ${head}`);
      });
      assert.equal(forge.state.findMergeRequest(web, iid)?.state, 'opened');

      const merged = await alice.mergeMergeRequest(WEB, iid, {
        sha: head,
        merge_commit_message: 'Merge the login form',
      });
      assert.equal(merged.state, 'merged');
      assert.match(merged.merge_commit_sha ?? '', /^[0-9a-f]{40}$/);
      const master = await alice.getBranch(WEB, 'master');
      assert.equal(master.commit.id, merged.merge_commit_sha);
      assert.ok(master.commit.parent_ids?.includes(head));
      assert.deepEqual(
        requestsTo(forge, 'PUT', path).map((request) => [request.status, jsonBody(request)['sha']]),
        [
          [409, wrong],
          [200, head],
        ],
      );
    });

    it('refuses to merge a merged or closed request (406) and a conflicting one (405)', async () => {
      await rejectsWith(alice.mergeMergeRequest(WEB, fx.mergeRequests.opened), NotAcceptableError);
      await rejectsWith(
        alice.mergeMergeRequest(WEB, fx.mergeRequests.closed),
        NotAcceptableError,
        (error) => {
          assert.equal(error.serverMessage, 'Method Not Allowed');
        },
      );
      await rejectsWith(
        alice.mergeMergeRequest(WEB, fx.mergeRequests.conflict),
        MethodNotAllowedError,
        (error) => {
          assert.equal(error.status, 405);
          assert.equal(error.serverMessage, 'Branch cannot be merged');
        },
      );
      assert.equal(forge.state.findMergeRequest(web, fx.mergeRequests.conflict)?.state, 'opened');
    });

    it('creates, closes and reopens via update, and deletes (owner only, twice)', async () => {
      await alice.createBranch(WEB, 'feature/y', 'master');
      const created = await alice.createMergeRequest(WEB, {
        source_branch: 'feature/y',
        target_branch: 'master',
        title: 'Try Y',
        description: 'Testing',
        labels: 'feature,bug',
        remove_source_branch: true,
      });
      assert.equal(created.state, 'opened');
      assert.equal(created.title, 'Try Y');
      assert.equal(created.author.username, 'alice');
      assert.deepEqual(created.labels, ['feature', 'bug']);
      assert.equal(created.force_remove_source_branch, true);
      const createRequest = lastRequestTo(forge, 'POST', `${WEB_PATH}/merge_requests`);
      assert.equal(createRequest.status, 201);
      assert.deepEqual(jsonBody(createRequest), {
        source_branch: 'feature/y',
        target_branch: 'master',
        title: 'Try Y',
        description: 'Testing',
        labels: 'feature,bug',
        remove_source_branch: true,
      });

      const iid = created.iid;
      const path = `${WEB_PATH}/merge_requests/${iid}`;
      const closed = await alice.updateMergeRequest(WEB, iid, { state_event: 'close' });
      assert.equal(closed.state, 'closed');
      const reopened = await alice.updateMergeRequest(WEB, iid, {
        state_event: 'reopen',
        title: 'Try Y again',
      });
      assert.equal(reopened.state, 'reopened', 'real servers report a reopened merge request as reopened');
      assert.equal(reopened.title, 'Try Y again');
      assert.deepEqual(
        requestsTo(forge, 'PUT', path).map((request) => jsonBody(request)),
        [{ state_event: 'close' }, { state_event: 'reopen', title: 'Try Y again' }],
      );

      resetRequests();
      await rejectsWith(alice.updateMergeRequest(WEB, iid, {}), Error, (error) => {
        assert.match(error.message, /Nothing to update/);
      });
      assert.equal(forge.requests.length, 0, 'an empty update is not sent');

      await rejectsWith(alice.deleteMergeRequest(WEB, iid), ForbiddenError);
      await root.deleteMergeRequest(WEB, iid);
      await root.deleteMergeRequest(WEB, iid);
      assert.deepEqual(statuses('DELETE', path), [403, 204, 200]);
      await rejectsWith(alice.getMergeRequest(WEB, iid), NotFoundError);
    });
  });

  // ---- notes ---------------------------------------------------------------------------------------

  describe('notes', () => {
    function noteParent(kind: NoteParentKind): { parent: NoteParent; path: string; noteableId: number } {
      switch (kind) {
        case 'issue':
          return {
            parent: { kind, project: WEB, iid: fx.issues.crash },
            path: `${WEB_PATH}/issues/${fx.issues.crash}`,
            noteableId: issueId(fx.issues.crash),
          };
        case 'mergeRequest':
          return {
            parent: { kind, project: WEB, iid: fx.mergeRequests.opened },
            path: `${WEB_PATH}/merge_requests/${fx.mergeRequests.opened}`,
            noteableId: mergeRequestId(fx.mergeRequests.opened),
          };
        case 'snippet':
          return {
            parent: { kind, project: web, snippetId: fx.snippets.checklist },
            path: `${webIdPath}/snippets/${fx.snippets.checklist}`,
            noteableId: fx.snippets.checklist,
          };
      }
    }

    const TYPES: Record<NoteParentKind, string> = {
      issue: 'Issue',
      mergeRequest: 'MergeRequest',
      snippet: 'Snippet',
    };

    for (const kind of ['issue', 'snippet', 'mergeRequest'] as const) {
      it(`lists, gets, creates, updates and deletes (twice) notes of a ${kind}`, async () => {
        const { parent, path, noteableId } = noteParent(kind);
        const seeded = [...forge.state.notes.values()].filter(
          (note) => note.noteableType === TYPES[kind] && note.noteableId === noteableId,
        );
        assert.ok(seeded.length >= 2);
        const listed = await alice.listNotes(parent).toArray();
        assert.deepEqual(listed.map((note) => note.id).sort(), seeded.map((note) => note.id).sort());

        const firstSeeded = seeded[0];
        assert.ok(firstSeeded);
        const one = await alice.getNote(parent, firstSeeded.id);
        assert.equal(one.id, firstSeeded.id);
        assert.equal(one['body'], firstSeeded.body);

        const created = await alice.createNote(parent, `A note on the ${kind}`);
        assert.ok(!isAwardEmoji(created));
        assert.equal(created.body, `A note on the ${kind}`);
        assert.equal(created.author?.username, 'alice');
        assert.equal(created.noteable_type, TYPES[kind]);
        const createRequest = lastRequestTo(forge, 'POST', `${path}/notes`);
        assert.equal(createRequest.status, 201);
        assert.deepEqual(jsonBody(createRequest), { body: `A note on the ${kind}` });

        const updated = await alice.updateNote(parent, created.id, 'Edited');
        assert.equal(updated['body'], 'Edited');
        assert.deepEqual(jsonBody(lastRequestTo(forge, 'PUT', `${path}/notes/${created.id}`)), {
          body: 'Edited',
        });

        await alice.deleteNote(parent, created.id);
        await alice.deleteNote(parent, created.id);
        assert.deepEqual(statuses('DELETE', `${path}/notes/${created.id}`), [204, 200]);
        await rejectsWith(alice.getNote(parent, created.id), NotFoundError);
        assert.equal(lastRequestTo(forge, 'GET', `${path}/notes`).status, 200);
        assert.equal(lastRequestTo(forge, 'GET', `${path}/notes/${firstSeeded.id}`).status, 200);
      });
    }

    it('sends created_at for issue notes only', async () => {
      const createdAt = '2024-01-02T03:04:05.000Z';
      const { parent, path } = noteParent('issue');
      const note = await alice.createNote(parent, 'Backdated', { createdAt });
      assert.ok(!isAwardEmoji(note));
      assert.equal(note.created_at, createdAt);
      assert.deepEqual(jsonBody(lastRequestTo(forge, 'POST', `${path}/notes`)), {
        body: 'Backdated',
        created_at: createdAt,
      });

      const other = noteParent('mergeRequest');
      await alice.createNote(other.parent, 'Not backdated', { createdAt });
      assert.deepEqual(jsonBody(lastRequestTo(forge, 'POST', `${other.path}/notes`)), {
        body: 'Not backdated',
      });
    });

    it('returns an award emoji for a note body that is only :thumbsup:', async () => {
      const { parent, noteableId } = noteParent('issue');
      const created = await alice.createNote(parent, ':thumbsup:');
      assert.ok(isAwardEmoji(created));
      assert.equal(created.name, 'thumbsup');
      assert.equal(created.user.username, 'alice');
      assert.equal(created.awardable_type, 'Issue');
      assert.equal(created.awardable_id, noteableId);
      assert.equal(forge.state.awardEmoji.get(created.id)?.name, 'thumbsup');
    });
  });

  // ---- award emoji ---------------------------------------------------------------------------------

  describe('award emoji', () => {
    function awardable(kind: AwardableKind): { target: Awardable; path: string; type: string; id: number } {
      const issuePath = `${WEB_PATH}/issues/${fx.issues.crash}`;
      const mergeRequestPath = `${webIdPath}/merge_requests/${fx.mergeRequests.opened}`;
      switch (kind) {
        case 'issue':
          return {
            target: { kind, project: WEB, iid: fx.issues.crash },
            path: issuePath,
            type: 'Issue',
            id: issueId(fx.issues.crash),
          };
        case 'mergeRequest':
          return {
            target: { kind, project: web, iid: fx.mergeRequests.opened },
            path: mergeRequestPath,
            type: 'MergeRequest',
            id: mergeRequestId(fx.mergeRequests.opened),
          };
        case 'snippet':
          return {
            target: { kind, project: WEB, snippetId: fx.snippets.checklist },
            path: `${WEB_PATH}/snippets/${fx.snippets.checklist}`,
            type: 'Snippet',
            id: fx.snippets.checklist,
          };
        case 'issueNote': {
          const noteId = seededNoteId('I can reproduce this');
          return {
            target: { kind, project: WEB, iid: fx.issues.crash, noteId },
            path: `${issuePath}/notes/${noteId}`,
            type: 'Note',
            id: noteId,
          };
        }
        case 'mergeRequestNote': {
          const noteId = seededNoteId('Please add a test');
          return {
            target: { kind, project: web, iid: fx.mergeRequests.opened, noteId },
            path: `${mergeRequestPath}/notes/${noteId}`,
            type: 'Note',
            id: noteId,
          };
        }
      }
    }

    for (const kind of ['issue', 'mergeRequest', 'snippet', 'issueNote', 'mergeRequestNote'] as const) {
      it(`lists, gets, awards and deletes (twice) award emoji of a ${kind}`, async () => {
        const { target, path, type, id } = awardable(kind);
        const seeded = [...forge.state.awardEmoji.values()].filter(
          (award) => award.awardableType === type && award.awardableId === id,
        );
        assert.ok(seeded.length >= 1);
        const listed = await alice.listAwardEmoji(target).toArray();
        assert.deepEqual(
          listed.map((award) => [award.id, award.name]),
          seeded.map((award) => [award.id, award.name]),
        );

        const firstSeeded = seeded[0];
        assert.ok(firstSeeded);
        const one = await alice.getAwardEmoji(target, firstSeeded.id);
        assert.equal(one.name, firstSeeded.name);
        assert.equal(one.awardable_type, type);

        const created = await alice.awardEmoji(target, ':rocket:');
        assert.equal(created.name, 'rocket');
        assert.equal(created.user.username, 'alice');
        assert.equal(created.awardable_id, id);
        const createRequest = lastRequestTo(forge, 'POST', `${path}/award_emoji`);
        assert.equal(createRequest.status, 201);
        assert.deepEqual(jsonBody(createRequest), { name: 'rocket' });

        await alice.deleteAwardEmoji(target, created.id);
        await alice.deleteAwardEmoji(target, created.id);
        assert.deepEqual(statuses('DELETE', `${path}/award_emoji/${created.id}`), [204, 200]);
        await rejectsWith(alice.getAwardEmoji(target, created.id), NotFoundError);
        assert.equal(lastRequestTo(forge, 'GET', `${path}/award_emoji`).status, 200);
        assert.equal(lastRequestTo(forge, 'GET', `${path}/award_emoji/${firstSeeded.id}`).status, 200);
      });
    }

    it("refuses to delete someone else's award (403)", async () => {
      const { target, type, id } = awardable('issue');
      const bobs = [...forge.state.awardEmoji.values()].find(
        (award) => award.awardableType === type && award.awardableId === id && award.userId === userId('bob'),
      );
      assert.ok(bobs);
      await rejectsWith(alice.deleteAwardEmoji(target, bobs.id), ForbiddenError, (error) => {
        assert.equal(error.serverMessage, '403 Forbidden');
      });
      assert.ok(forge.state.awardEmoji.has(bobs.id));
    });
  });

  // ---- boards --------------------------------------------------------------------------------------

  describe('issue boards', () => {
    it('lists boards and their lists, gets one list (authentication required)', async () => {
      const boardId = fx.boards.development;
      const boards = await alice.listBoards(WEB).toArray();
      assert.deepEqual(
        boards.map((board) => board.id),
        [boardId],
      );
      assert.deepEqual(
        boards[0]?.lists.map((list) => list.label?.name),
        ['To Do', 'Doing', 'Review'],
      );
      const lists = await alice.listBoardLists(WEB, boardId).toArray();
      assert.deepEqual(
        lists.map((list) => [list.label?.name, list.position]),
        [
          ['To Do', 0],
          ['Doing', 1],
          ['Review', 2],
        ],
      );
      const second = lists[1];
      assert.ok(second);
      const one = await alice.getBoardList(web, boardId, second.id);
      assert.equal(one.label?.name, 'Doing');
      assert.deepEqual(
        forge.requests.map((request) => request.path),
        [
          `${WEB_PATH}/boards`,
          `${WEB_PATH}/boards/${boardId}/lists`,
          `${webIdPath}/boards/${boardId}/lists/${second.id}`,
        ],
      );
      await rejectsWith(anon.listBoards(WEB).toArray(), UnauthorizedError);
    });

    it('creates a list, moves it, and deletes it (owner only, twice)', async () => {
      const boardId = fx.boards.development;
      const base = `${WEB_PATH}/boards/${boardId}/lists`;
      const done = [...forge.state.labels.values()].find(
        (label) => label.projectId === web && label.name === 'Done',
      );
      assert.ok(done);
      const created = await alice.createBoardList(WEB, boardId, done.id);
      assert.equal(created.label?.name, 'Done');
      assert.equal(created.position, 3);
      assert.deepEqual(jsonBody(lastRequestTo(forge, 'POST', base)), { label_id: done.id });

      const moved = await alice.moveBoardList(WEB, boardId, created.id, 0);
      assert.equal(moved.position, 0);
      assert.deepEqual(jsonBody(lastRequestTo(forge, 'PUT', `${base}/${created.id}`)), { position: 0 });
      const lists = await alice.listBoardLists(WEB, boardId).toArray();
      assert.deepEqual(
        lists.map((list) => list.label?.name),
        ['Done', 'To Do', 'Doing', 'Review'],
      );

      await rejectsWith(alice.deleteBoardList(WEB, boardId, created.id), ForbiddenError);
      await root.deleteBoardList(WEB, boardId, created.id);
      await root.deleteBoardList(WEB, boardId, created.id);
      assert.deepEqual(statuses('DELETE', `${base}/${created.id}`), [403, 204, 200]);
      assert.equal((await alice.listBoardLists(WEB, boardId).toArray()).length, 3);
    });
  });

  // ---- triggers ------------------------------------------------------------------------------------

  describe('pipeline triggers', () => {
    function triggerId(description: string): number {
      const trigger = [...forge.state.triggers.values()].find(
        (candidate) => candidate.description === description,
      );
      assert.ok(trigger, `no trigger ${description}`);
      return trigger.id;
    }

    it('lists and gets triggers', async () => {
      const triggers = await alice.listTriggers(WEB).toArray();
      assert.deepEqual(
        triggers.map((trigger) => trigger.description),
        ['Nightly build', 'Deploy from chatops'],
      );
      const nightly = triggerId('Nightly build');
      const one = await alice.getTrigger(WEB, nightly);
      assert.equal(one.description, 'Nightly build');
      assert.equal(one.owner?.username, 'alice');
      assert.match(one.token ?? '', /^glptt-/);
      assert.deepEqual(
        forge.requests.map((request) => `${request.path} ${request.status}`),
        [`${WEB_PATH}/triggers 200`, `${WEB_PATH}/triggers/${nightly} 200`],
      );
    });

    it('creates, updates, takes ownership of and deletes (twice) a trigger', async () => {
      const created = await alice.createTrigger(WEB, 'Release trigger');
      assert.equal(created.description, 'Release trigger');
      assert.equal(created.owner?.username, 'alice');
      const createRequest = lastRequestTo(forge, 'POST', `${WEB_PATH}/triggers`);
      assert.equal(createRequest.status, 201);
      assert.deepEqual(jsonBody(createRequest), { description: 'Release trigger' });

      const updated = await alice.updateTrigger(web, created.id, 'Release trigger (renamed)');
      assert.equal(updated.description, 'Release trigger (renamed)');
      assert.deepEqual(jsonBody(lastRequestTo(forge, 'PUT', `${webIdPath}/triggers/${created.id}`)), {
        description: 'Release trigger (renamed)',
      });

      const chatops = triggerId('Deploy from chatops');
      assert.equal((await alice.getTrigger(WEB, chatops)).owner, null);
      const owned = await alice.takeTriggerOwnership(WEB, chatops);
      assert.equal(owned.owner?.username, 'alice');
      const taken = await root.takeTriggerOwnership(WEB, created.id);
      assert.equal(taken.owner?.username, 'root');
      assert.equal(
        lastRequestTo(forge, 'POST', `${WEB_PATH}/triggers/${chatops}/take_ownership`).status,
        200,
      );

      await alice.deleteTrigger(WEB, created.id);
      await alice.deleteTrigger(WEB, created.id);
      assert.deepEqual(statuses('DELETE', `${WEB_PATH}/triggers/${created.id}`), [204, 200]);
      await rejectsWith(alice.getTrigger(WEB, created.id), NotFoundError);
    });
  });

  // ---- system hooks --------------------------------------------------------------------------------

  describe('system hooks (administrators)', () => {
    it('lists, creates (secret not returned), tests and deletes (twice) hooks as root', async () => {
      const hooks = await root.listSystemHooks().toArray();
      assert.deepEqual(
        hooks.map((hook) => hook.url),
        ['https://hooks.example.com/gitlab', 'https://ci.example.com/tag-hook'],
      );

      const created = await root.createSystemHook({
        url: 'https://hooks.example.org/forge',
        token: 'hook-secret',
        push_events: true,
        tag_push_events: true,
        enable_ssl_verification: false,
      });
      assert.equal(created.url, 'https://hooks.example.org/forge');
      assert.equal(created.tag_push_events, true);
      assert.equal(created.enable_ssl_verification, false);
      assert.equal('token' in created, false, 'the secret is never returned');
      const createRequest = lastRequestTo(forge, 'POST', '/api/v4/hooks');
      assert.equal(createRequest.status, 201);
      assert.equal(jsonBody(createRequest)['token'], 'hook-secret');

      const sample = await root.testSystemHook(created.id);
      assert.equal(sample.event_name, 'project_create');
      assert.equal(typeof sample.project_id, 'number');

      await root.deleteSystemHook(created.id);
      await root.deleteSystemHook(created.id);
      assert.deepEqual(statuses('DELETE', `/api/v4/hooks/${created.id}`), [204, 200]);
      assert.equal(lastRequestTo(forge, 'GET', `/api/v4/hooks/${created.id}`).status, 200);
      assert.ok(forge.requests.every((request) => header(request, 'private-token') === forge.adminToken));
    });

    it('gives ForbiddenError to a normal user and UnauthorizedError anonymously', async () => {
      await rejectsWith(alice.listSystemHooks().toArray(), ForbiddenError);
      await rejectsWith(alice.createSystemHook({ url: 'https://example.com/x' }), ForbiddenError);
      await rejectsWith(anon.listSystemHooks().page(), UnauthorizedError);
    });
  });

  // ---- todos ---------------------------------------------------------------------------------------

  describe('todos', () => {
    it('lists pending todos, with filters as query parameters', async () => {
      const aliceId = userId('alice');
      const pending = await alice.listTodos().toArray();
      const expected = [...forge.state.todos.values()]
        .filter((todo) => todo.userId === aliceId && todo.state === 'pending')
        .map((todo) => todo.id)
        .sort((a, b) => b - a);
      assert.deepEqual(
        pending.map((todo) => todo.id),
        expected,
      );
      assert.ok(pending.every((todo) => todo.state === 'pending'));

      const filtered = await alice
        .listTodos({ type: 'MergeRequest', action: 'assigned', projectId: web, authorId: userId('bob') })
        .toArray();
      assert.deepEqual(
        filtered.map((todo) => [todo.action_name, todo.target_type, todo.target?.iid]),
        [['assigned', 'MergeRequest', fx.mergeRequests.opened]],
      );
      const request = lastRequestTo(forge, 'GET', '/api/v4/todos');
      assert.deepEqual(request.query, {
        type: 'MergeRequest',
        action: 'assigned',
        project_id: String(web),
        author_id: String(userId('bob')),
        page: '1',
        per_page: '100',
      });

      const done = await alice.listTodos({ state: 'done' }).toArray();
      assert.ok(done.length >= 2);
      assert.ok(done.every((todo) => todo.state === 'done'));
    });

    it('marks one todo as done, then all (204)', async () => {
      const [first] = await alice.listTodos().toArray();
      assert.ok(first);
      const done = await alice.markTodoAsDone(first.id);
      assert.equal(done.id, first.id);
      assert.equal(done.state, 'done');
      assert.equal(lastRequestTo(forge, 'POST', `/api/v4/todos/${first.id}/mark_as_done`).status, 200);

      assert.equal(await alice.markAllTodosAsDone(), undefined);
      const request = lastRequestTo(forge, 'POST', '/api/v4/todos/mark_as_done');
      assert.equal(request.status, 204);
      assert.deepEqual(await alice.listTodos().toArray(), []);
    });
  });

  // ---- broadcast messages --------------------------------------------------------------------------

  describe('broadcast messages (administrators)', () => {
    it('lists, gets, creates, updates and deletes (twice) as root', async () => {
      const messages = await root.listBroadcastMessages().toArray();
      assert.equal(messages.length, 3);
      const first = messages[0];
      assert.ok(first);
      assert.match(first.message, /^Scheduled maintenance/);
      assert.equal(first.active, true);
      const one = await root.getBroadcastMessage(first.id);
      assert.equal(one.message, first.message);

      const created = await root.createBroadcastMessage({
        message: 'Deploy freeze',
        starts_at: '2024-01-01T00:00:00.000Z',
        ends_at: '2099-01-01T00:00:00.000Z',
        color: '#123456',
        font: '#FFFFFF',
      });
      assert.equal(created.message, 'Deploy freeze');
      assert.equal(created.color, '#123456');
      assert.equal(created.active, true);
      const createRequest = lastRequestTo(forge, 'POST', '/api/v4/broadcast_messages');
      assert.equal(createRequest.status, 201);
      assert.equal(jsonBody(createRequest)['color'], '#123456');

      const updated = await root.updateBroadcastMessage(created.id, {
        message: 'Deploy freeze extended',
        color: '#654321',
      });
      assert.equal(updated.message, 'Deploy freeze extended');
      assert.equal(updated.color, '#654321');
      assert.deepEqual(jsonBody(lastRequestTo(forge, 'PUT', `/api/v4/broadcast_messages/${created.id}`)), {
        message: 'Deploy freeze extended',
        color: '#654321',
      });

      await root.deleteBroadcastMessage(created.id);
      await root.deleteBroadcastMessage(created.id);
      assert.deepEqual(statuses('DELETE', `/api/v4/broadcast_messages/${created.id}`), [204, 200]);
      await rejectsWith(root.getBroadcastMessage(created.id), NotFoundError);
    });

    it('gives ForbiddenError to a normal user and UnauthorizedError anonymously', async () => {
      await rejectsWith(alice.listBroadcastMessages().toArray(), ForbiddenError, (error) => {
        assert.equal(error.serverMessage, '403 Forbidden');
      });
      await rejectsWith(alice.createBroadcastMessage({ message: 'nope' }), ForbiddenError);
      await rejectsWith(anon.listBroadcastMessages().toArray(), UnauthorizedError, (error) => {
        assert.equal(error.serverMessage, '401 Unauthorized');
      });
    });
  });

  // ---- CI templates and keys -----------------------------------------------------------------------

  describe('CI templates and SSH keys', () => {
    it('lists and gets CI templates anonymously', async () => {
      const templates = await anon.listCiTemplates().toArray();
      assert.ok(templates.length > 0);
      const first = templates[0];
      assert.ok(first);
      const key = first.key ?? first.name;
      const template = await anon.getCiTemplate(key);
      assert.equal(template.name, first.name);
      assert.ok(template.content.length > 0);
      assert.equal(lastRequestTo(forge, 'GET', '/api/v4/templates/gitlab_ci_ymls').status, 200);
      assert.equal(
        lastRequestTo(forge, 'GET', `/api/v4/templates/gitlab_ci_ymls/${encodeURIComponent(key)}`).status,
        200,
      );
      for (const request of forge.requests) {
        assert.equal(header(request, 'private-token'), undefined);
        assert.equal(header(request, 'authorization'), undefined);
      }
    });

    it('looks up an SSH key with its user (administrators only)', async () => {
      const aliceKey = [...forge.state.sshKeys.values()].find((key) => key.userId === userId('alice'));
      assert.ok(aliceKey);
      const key = await root.getSshKey(aliceKey.id);
      assert.equal(key.title, 'alice@laptop');
      assert.equal(key.key, aliceKey.key);
      assert.equal(key.user?.username, 'alice');
      assert.equal(lastRequestTo(forge, 'GET', `/api/v4/keys/${aliceKey.id}`).status, 200);
      await rejectsWith(alice.getSshKey(aliceKey.id), ForbiddenError);
      await rejectsWith(anon.getSshKey(aliceKey.id), UnauthorizedError);
    });
  });

  // ---- schema tolerance ----------------------------------------------------------------------------

  describe('schema tolerance', () => {
    function answerJobWith(jobId: number, payload: Record<string, unknown>): void {
      forge.onRequest((request, response) => {
        if (request.method !== 'GET' || request.url !== `${webIdPath}/jobs/${jobId}`) return false;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(payload));
        return true;
      });
    }

    it('names the endpoint and the field when a required field is missing', async () => {
      const jobId = fx.jobs.success;
      answerJobWith(jobId, { id: jobId, stage: 'test', ref: 'master', status: 'success' });
      try {
        await rejectsWith(alice.getJob(web, jobId), SchemaMismatchError, (error) => {
          assert.equal(error.endpoint, 'GET /projects/:id/jobs/:job_id');
          assert.equal(error.fieldPath, 'name');
          assert.match(error.message, /GET \/projects\/:id\/jobs\/:job_id/);
          assert.match(error.message, /"name"/);
        });
      } finally {
        forge.onRequest(undefined);
      }
    });

    it('accepts the spec sample shape of a created system hook (an array of one)', async () => {
      forge.onRequest((request, response) => {
        if (request.method !== 'POST' || request.url !== '/api/v4/hooks') return false;
        response.writeHead(201, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify([{ id: 99, url: 'https://example.com/hook', push_events: true, extra: 'kept' }]),
        );
        return true;
      });
      try {
        const hook = await root.createSystemHook({ url: 'https://example.com/hook' });
        assert.equal(hook.id, 99);
        assert.equal(hook['extra'], 'kept');
      } finally {
        forge.onRequest(undefined);
      }
    });

    it('names the list item when one item of a list lacks a required field', async () => {
      forge.onRequest((request, response) => {
        if (request.method !== 'GET' || !request.url?.startsWith('/api/v4/hooks?')) return false;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify([{ id: 1, url: 'https://example.com/a' }, { id: 2 }]));
        return true;
      });
      try {
        await rejectsWith(root.listSystemHooks().toArray(), SchemaMismatchError, (error) => {
          assert.equal(error.endpoint, 'GET /hooks [item 1]');
          assert.equal(error.fieldPath, 'url');
        });
      } finally {
        forge.onRequest(undefined);
      }
    });

    it('keeps unknown extra fields', async () => {
      const jobId = fx.jobs.success;
      answerJobWith(jobId, {
        id: jobId,
        name: 'test',
        stage: 'test',
        ref: 'master',
        status: 'success',
        future_field: { nested: [1, 2, 3] },
        runner_tags: ['linux'],
      });
      try {
        const job = await alice.getJob(web, jobId);
        assert.equal(job.name, 'test');
        assert.deepEqual(job['future_field'], { nested: [1, 2, 3] });
        assert.deepEqual(job['runner_tags'], ['linux']);
      } finally {
        forge.onRequest(undefined);
      }
    });
  });

  // ---- coverage (keep last) ------------------------------------------------------------------------

  describe('registry coverage', () => {
    it('maps every filled registry path back to its own entry', () => {
      const samples: Record<string, string> = {
        id: 'acme%2Fweb',
        branch: 'feature%2Fx',
        ref_name: 'master',
        key: 'Ruby',
      };
      for (const [id, definition] of Object.entries(ENDPOINTS)) {
        const path = `/api/v4${definition.path.replace(/:([a-z_]+)/g, (_match, name: string) => samples[name] ?? '7')}`;
        assert.equal(endpointFor({ method: definition.method, path }), id, `${definition.method} ${path}`);
      }
      assert.equal(unexercisedEndpoints([]).length, ENDPOINT_COUNT);
    });

    it('exercised every registry entry (method + path) with a 2xx or 304', () => {
      assert.equal(ENDPOINT_COUNT, 106);
      const missing = unexercisedEndpoints([...recorded, ...forge.requests]);
      assert.deepEqual(missing, [], `not exercised successfully (${missing.length}): ${missing.join('; ')}`);
    });
  });
});
