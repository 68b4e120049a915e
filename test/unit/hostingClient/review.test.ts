// Approvals and rebase (beyond the seed spec, as GitLab 15-18 have them) against the fake forge:
// what the client sends, what it makes of the replies, and the refusals real servers give.
import assert from 'node:assert/strict';
import { HostingClient, RebaseFailedError, rebaseAndFollow } from '../../../src/api/hosting';
import { BadRequestError, ConflictError, NotFoundError, UnauthorizedError } from '../../../src/api/http';
import { type FakeForge, startFakeForge } from '../../server';
import { clientAs } from './harness';
import { linesShown } from '../../server/routes/discussions';
import { diffRefs } from '../../../src/domain/mergeRequestView';

describe('HostingClient: approvals and rebase (beyond the spec)', () => {
  let forge: FakeForge;
  let alice: HostingClient;
  let bob: HostingClient;
  let root: HostingClient;
  let web: number;
  let iid: number;

  before(async () => {
    forge = await startFakeForge({ seed: 'small' });
    alice = clientAs(forge, 'alice');
    bob = clientAs(forge, 'bob');
    root = clientAs(forge, 'root');
    web = forge.fixtures.projects.web;
    // !1 "Add a login form": bob's, assigned to alice.
    iid = forge.fixtures.mergeRequests.opened;
  });

  after(async () => {
    await Promise.all([alice, bob, root].map((client) => client.close()));
    await forge.close();
  });

  afterEach(() => forge.onRequest(undefined));

  const stored = () => {
    const found = [...forge.state.mergeRequests.values()].find(
      (each) => each.projectId === web && each.iid === iid,
    );
    assert.ok(found);
    return found;
  };

  /** The first added line of the merge request's first file, as a diff position; and its file. */
  async function firstLinePosition() {
    const mr = await alice.getMergeRequestChanges(web, iid);
    const change = mr.changes?.[0];
    assert.ok(change);
    const [line] = [...linesShown(change.diff).new];
    assert.ok(line !== undefined);
    // GitLab reads the diff between the commits a position names: the merge request's own here.
    const refs = diffRefs(mr);
    assert.ok(refs);
    const position = {
      base_sha: refs.baseSha,
      start_sha: refs.startSha ?? refs.baseSha,
      head_sha: mr.sha ?? '',
      old_path: change.old_path,
      new_path: change.new_path,
      position_type: 'text',
      new_line: line,
    };
    return { position, change, line };
  }

  it('approves at the head the reviewer saw, once, and withdraws the approval', async () => {
    const before = await alice.getApprovals(web, iid);
    assert.deepEqual(before.approved_by, []);
    assert.equal(before.user_has_approved, false);
    await assert.rejects(alice.approve(web, iid, { sha: 'f'.repeat(40) }), (error: unknown) => {
      assert.ok(error instanceof ConflictError);
      assert.match(error.message, /SHA does not match HEAD/);
      return true;
    });
    const head = (await alice.getMergeRequest(web, iid)).sha ?? undefined;
    forge.clearRequests();
    const approved = await alice.approve(web, iid, { sha: head });
    const sent = forge.requests.find((request) => request.path.endsWith('/approve'));
    assert.deepEqual(sent?.body, { sha: head }, 'the head goes with the approval');
    assert.deepEqual(
      approved.approved_by?.map(({ user }) => user.username),
      ['alice'],
    );
    assert.equal(approved.user_has_approved, true);
    await assert.rejects(alice.approve(web, iid), UnauthorizedError, 'a second approval is refused');
    await alice.unapprove(web, iid);
    assert.deepEqual((await alice.getApprovals(web, iid)).approved_by, []);
    await assert.rejects(alice.unapprove(web, iid), NotFoundError, 'nothing to withdraw');
  });

  it("refuses the author's own approval (401), as GitLab does by default", async () => {
    await assert.rejects(bob.approve(web, iid), UnauthorizedError);
    assert.deepEqual((await bob.getApprovals(web, iid)).approved_by, []);
  });

  it('reports not_approved until the required approvals are in', async () => {
    stored().approvalsRequired = 1;
    try {
      const waiting = await alice.getMergeRequest(web, iid);
      assert.equal(waiting['detailed_merge_status'], 'not_approved');
      assert.equal((await alice.getApprovals(web, iid)).approvals_left, 1);
      stored().approvalsRequired = 2;
      const halfway = await root.approve(web, iid);
      assert.equal(halfway.approvals_left, 1);
      assert.equal(halfway.approved, false, 'one of two approvals is not approved');
      await root.unapprove(web, iid);
      stored().approvalsRequired = 1;
      const approved = await root.approve(web, iid);
      assert.equal(approved.approvals_left, 0);
      assert.equal(approved.approved, true);
      assert.equal((await alice.getMergeRequest(web, iid))['detailed_merge_status'], 'mergeable');
      await root.unapprove(web, iid);
    } finally {
      stored().approvalsRequired = undefined;
    }
  });

  it('starts a rebase: 202, in progress', async () => {
    forge.clearRequests();
    const reply = await alice.rebase(web, iid, { skipCi: true });
    assert.equal(reply.rebase_in_progress, true);
    const sent = forge.requests.find((request) => request.path.endsWith('/rebase'));
    assert.equal(sent?.method, 'PUT');
    assert.deepEqual(sent?.body, { skip_ci: true });
    await assert.rejects(alice.rebase(web, iid), ConflictError, 'one rebase at a time, as GitLab');
    stored().rebase = undefined;
  });

  it('follows a rebase until the merge request reports it done, and says why one failed', async () => {
    const project = forge.state.projects.get(web);
    assert.ok(project);
    const main = project.branches.get(stored().targetBranch);
    assert.ok(main);
    const before = main.commitSha;
    const base = stored().baseSha;
    project.mergeMethod = 'ff';
    // The target moved on since the merge request was opened: a linear history needs a rebase.
    const elsewhere = [...forge.state.commits.keys()].find(
      (sha) => sha !== before && sha !== stored().baseSha,
    );
    assert.ok(elsewhere);
    main.commitSha = elsewhere;
    try {
      assert.notEqual(main.commitSha, stored().baseSha);
      assert.equal((await alice.getMergeRequest(web, iid)).detailed_merge_status, 'need_rebase');
      const checks: boolean[] = [];
      const rebased = await rebaseAndFollow(alice, web, iid, {
        intervalMs: 1,
        onCheck: (inProgress) => checks.push(inProgress),
      });
      assert.deepEqual(checks, [true, false], 'in progress, then done');
      assert.equal(rebased.detailed_merge_status, 'mergeable');
      assert.equal(stored().baseSha, main.commitSha);
      const reads = forge.requests.filter(
        (request) => request.method === 'GET' && request.path.endsWith(`/merge_requests/${iid}`),
      );
      assert.equal(reads.at(-1)?.query['include_rebase_in_progress'], 'true');

      stored().mergeStatus = 'cannot_be_merged';
      await assert.rejects(
        rebaseAndFollow(alice, web, iid, { intervalMs: 1 }),
        (error: Error) => error instanceof RebaseFailedError && /resolve all conflicts/.test(error.message),
      );
    } finally {
      stored().mergeStatus = 'can_be_merged';
      stored().mergeError = null;
      main.commitSha = before;
      stored().baseSha = base;
      project.mergeMethod = undefined;
    }
  });

  it('gives up following a rebase that never ends, saying the server goes on', async () => {
    const running = stored();
    running.rebase = { readsLeft: 1_000 };
    try {
      const before = forge.requests.length;
      await assert.rejects(
        rebaseAndFollow(alice, web, iid, { intervalMs: 1, maxChecks: 3, alreadyStarted: true }),
        /still rebasing after 3 checks/,
      );
      // Already started elsewhere: no PUT of its own, and exactly `maxChecks` reads.
      assert.deepEqual(
        forge.requests.slice(before).map((request) => request.method),
        ['GET', 'GET', 'GET'],
      );
      // Stopped while it waits between two reads, or just before: the wait ends at once, with the
      // abort's reason (not after a minute).
      for (const abortNow of [false, true]) {
        const stop = new AbortController();
        const reason = new Error('closed by the user');
        const following = rebaseAndFollow(alice, web, iid, {
          intervalMs: 60_000,
          alreadyStarted: true,
          signal: stop.signal,
          onCheck: () => (abortNow ? stop.abort(reason) : setImmediate(() => stop.abort(reason))),
        });
        await assert.rejects(following, (error) => error === reason);
      }
      assert.equal(new RebaseFailedError('x').name, 'RebaseFailedError');
    } finally {
      running.rebase = undefined;
    }
  });

  it('says NotFoundError where a server has no approvals API (older or reduced servers)', async () => {
    forge.onRequest((request, response) => {
      if (!request.url?.includes('/approvals')) return false;
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"404 Not Found"}');
      return true;
    });
    await assert.rejects(alice.getApprovals(web, iid), NotFoundError);
  });

  it('starts a thread on a line of the diff, replies, resolves, and refuses a line the diff does not show', async () => {
    const { position, change, line } = await firstLinePosition();
    await assert.rejects(
      alice.createDiscussion(web, iid, {
        body: 'off the diff',
        position: { ...position, new_line: 100_000 },
      }),
      (error: unknown) => {
        assert.ok(error instanceof BadRequestError);
        assert.match(error.message, /valid line code/);
        return true;
      },
    );
    const thread = await alice.createDiscussion(web, iid, { body: 'Why this name?', position });
    const [first] = thread.notes;
    assert.equal(first?.type, 'DiffNote');
    assert.equal(first?.position?.new_line, line);
    assert.equal(first?.position?.new_path, change.new_path);
    const answer = await bob.replyToDiscussion(web, iid, thread.id, 'It matches the form field.');
    assert.equal(answer.body, 'It matches the form field.');
    const resolved = await alice.resolveDiscussion(web, iid, thread.id, true);
    assert.ok(resolved.notes.every((note) => note.resolved === true));
    const listed = await alice.listDiscussions(web, iid).toArray();
    const again = listed.find((each) => each.id === thread.id);
    assert.deepEqual(
      again?.notes.map((note) => note.body),
      ['Why this name?', 'It matches the form field.'],
    );
    assert.equal((await alice.resolveDiscussion(web, iid, thread.id, false)).notes[0]?.resolved, false);
    await assert.rejects(alice.replyToDiscussion(web, iid, 'f'.repeat(40), 'lost'), NotFoundError);
  });

  it('the fake forge reads which lines a diff shows as GitLab does (file headers are no lines)', () => {
    const diff = '--- a/x\n+++ b/x\n@@ -3,3 +3,4 @@\n keep\n-old\n+new\n+more\n tail\n';
    const shown = linesShown(diff);
    assert.deepEqual([...shown.old], [3, 4, 5]);
    assert.deepEqual([...shown.new], [3, 4, 5, 6]);
  });

  it("holds a review as draft notes, the author's alone, and publishes them at once", async () => {
    const { position, line } = await firstLinePosition();
    forge.clearRequests();
    const onLine = await alice.createDraftNote(web, iid, { note: 'Rename this?', position });
    const sent = forge.requests.find((request) => request.path.endsWith('/draft_notes'));
    assert.deepEqual(Object.keys(sent?.body ?? {}).sort(), ['note', 'position'], 'the text is `note`');
    assert.equal(onLine.position?.new_line, line);
    const general = await alice.createDraftNote(web, iid, { note: 'Looks good otherwise.' });
    const dropped = await alice.createDraftNote(web, iid, { note: 'never mind' });
    assert.deepEqual(
      (await bob.listDraftNotes(web, iid).toArray()).length,
      0,
      "another's drafts are not shown",
    );
    await alice.deleteDraftNote(web, iid, dropped.id);
    assert.deepEqual(
      (await alice.listDraftNotes(web, iid).toArray()).map((draft) => draft.note),
      ['Rename this?', 'Looks good otherwise.'],
    );
    const threadsBefore = (await alice.listDiscussions(web, iid).toArray()).length;
    await alice.publishDraftNotes(web, iid);
    assert.deepEqual(await alice.listDraftNotes(web, iid).toArray(), []);
    const after = await alice.listDiscussions(web, iid).toArray();
    assert.equal(after.length, threadsBefore + 2);
    const published = after.flatMap((thread) => thread.notes).filter((note) => note.body === 'Rename this?');
    assert.equal(published[0]?.type, 'DiffNote');
    assert.equal(general.note, 'Looks good otherwise.');
    await assert.rejects(
      alice.deleteDraftNote(web, iid, onLine.id),
      NotFoundError,
      'published drafts are gone',
    );
  });

  it('lists the versions (the SHAs of the diff) and the diff a page at a time', async () => {
    const mr = await alice.getMergeRequestChanges(web, iid);
    const [version, ...older] = await alice.listVersions(web, iid).toArray();
    assert.ok(version);
    const commits = await alice.listMergeRequestCommits(web, iid).toArray();
    assert.deepEqual(
      [version, ...older].map((each) => each.head_commit_sha),
      commits.map((commit) => commit.id),
      'one version per push, newest first',
    );
    assert.equal(version.head_commit_sha, mr.sha);
    assert.match(version.base_commit_sha, /^[0-9a-f]{40}$/);
    assert.equal(version.start_commit_sha, version.base_commit_sha);
    forge.clearRequests();
    const diffs = await alice.listDiffs(web, iid).toArray();
    assert.deepEqual(
      diffs.map((each) => each.new_path),
      (mr.changes ?? []).map((each) => each.new_path),
    );
    assert.ok(forge.requests.every((request) => request.path.endsWith('/diffs')));
  });

  it('reads whole files at the base and head of the diff, and says which of commit and file is missing', async () => {
    const [version] = await alice.listVersions(web, iid).toArray();
    assert.ok(version);
    const diffs = await alice.listDiffs(web, iid).toArray();
    const modified = diffs.find((each) => !each.new_file && !each.deleted_file && each.diff !== '');
    assert.ok(modified, 'the merge request changes a file that was there');
    const text = (bytes: Uint8Array): string => Buffer.from(bytes).toString('utf8');
    forge.clearRequests();
    const head = text(await alice.getRawFile(web, modified.new_path, version.head_commit_sha));
    const base = text(await alice.getRawFile(web, modified.old_path, version.base_commit_sha));
    // The path is one segment (`src%2Findex.ts`), and the head is the base with the diff applied.
    assert.ok(
      forge.requests[0]?.path.includes(`/repository/files/${encodeURIComponent(modified.new_path)}/raw`),
    );
    assert.notEqual(head, base);
    for (const line of modified.diff.split('\n')) {
      if (line.startsWith('+') && !line.startsWith('+++')) assert.ok(head.includes(line.slice(1)), line);
      if (line.startsWith('-') && !line.startsWith('---')) assert.ok(base.includes(line.slice(1)), line);
    }
    const added = diffs.find((each) => each.new_file);
    assert.ok(added);
    await assert.rejects(alice.getRawFile(web, added.new_path, version.base_commit_sha), (error: unknown) => {
      assert.ok(error instanceof NotFoundError);
      assert.match(error.serverMessage, /File Not Found/);
      return true;
    });
    await assert.rejects(alice.getRawFile(web, modified.new_path, 'f'.repeat(40)), /Commit Not Found/);
    assert.equal(text(await alice.getRawFile(web, modified.new_path, stored().sourceBranch)), head);
  });

  it('lists a suggestion with the lines it replaces, applies it as a commit on the source branch, once', async () => {
    const mr = await alice.getMergeRequest(web, iid);
    const project = forge.state.projects.get(web);
    const branch = project?.branches.get(mr.source_branch);
    assert.ok(branch);
    const head = branch.commitSha;
    const base = stored().baseSha;
    const onIndexLine = (line: number) => ({
      base_sha: base,
      start_sha: base,
      head_sha: head,
      old_path: 'src/index.ts',
      new_path: 'src/index.ts',
      position_type: 'text',
      new_line: line,
    });
    try {
      // Line 6 of src/index.ts at the head: `createServer((request, response) => {`.
      const started = await bob.createDiscussion(web, iid, {
        body: 'Shorter:\n\n```suggestion:-0+0\ncreateServer((req, res) => {\n```',
        position: onIndexLine(6),
      });
      const [suggestion] = started.notes[0]?.suggestions ?? [];
      const above = await bob.createDiscussion(web, iid, {
        body: 'And this import?',
        position: onIndexLine(2),
      });
      assert.ok(suggestion);
      assert.deepEqual(
        [suggestion.from_line, suggestion.to_line, suggestion.from_content, suggestion.to_content],
        [6, 6, 'createServer((request, response) => {\n', 'createServer((req, res) => {\n'],
      );
      assert.equal(suggestion.appliable, true);

      forge.clearRequests();
      const applied = await alice.applySuggestion(suggestion.id, {
        commitMessage: 'Use the short names\n\nAs suggested in the review.',
      });
      assert.equal(forge.requests[0]?.method, 'PUT');
      assert.equal(forge.requests[0]?.path, `/api/v4/suggestions/${suggestion.id}/apply`);
      assert.deepEqual(forge.requests[0]?.body, {
        commit_message: 'Use the short names\n\nAs suggested in the review.',
      });
      assert.equal(forge.state.commits.get(branch.commitSha)?.title, 'Use the short names');
      assert.deepEqual([applied.applied, applied.appliable], [true, false]);
      assert.notEqual(branch.commitSha, head, 'a new commit on the source branch');
      // As GitLab does on a push: a thread on an unchanged line moves to the new head, the
      // suggestion's own thread (on the changed line) stays on its version.
      const after = await bob.listDiscussions(web, iid).toArray();
      const moved = after.find((each) => each.id === above.id)?.notes[0]?.position;
      assert.deepEqual([moved?.head_sha, moved?.new_line], [branch.commitSha, 2]);
      const kept = after.find((each) => each.id === started.id)?.notes[0]?.position;
      assert.equal(kept?.head_sha, head);
      const file = Buffer.from(await alice.getRawFile(web, 'src/index.ts', branch.commitSha)).toString(
        'utf8',
      );
      assert.match(file, /^createServer\(\(req, res\) => \{$/m);
      // The merge request's diff is still the base against the new head, every change in it.
      const changed = (await alice.getMergeRequestChanges(web, iid)).changes?.find(
        (each) => each.new_path === 'src/index.ts',
      );
      assert.match(changed?.diff ?? '', /^\+createServer\(\(req, res\) => \{$/m);
      assert.match(changed?.diff ?? '', /^\+import \{ renderLoginForm \} from '.\/login';$/m);
      await assert.rejects(alice.applySuggestion(suggestion.id), (error: unknown) => {
        assert.ok(error instanceof BadRequestError);
        assert.match(error.message, /already been applied/);
        return true;
      });
    } finally {
      branch.commitSha = head;
    }
  });
});
