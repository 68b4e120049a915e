// Issues (beyond the seed spec, as GitLab's REST API has them) against the fake forge: the caller's
// lists by scope, a project's list with its filters, one issue, creating, editing, closing and
// reopening with the system notes GitLab writes, and confidential issues hidden from outsiders.
// GitLab's documented list answer is a fixture that parses.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { DiscussionSchema, HostingClient, IssueSchema } from '../../../src/api/hosting';
import { BadRequestError, NotFoundError, UnauthorizedError } from '../../../src/api/http';
import { type FakeForge, startFakeForge } from '../../server';

describe('HostingClient: issues (beyond the spec)', () => {
  let forge: FakeForge;
  let alice: HostingClient;
  let bob: HostingClient;
  let anonymous: HostingClient;
  let web: number;

  const clientOf = (token: string | undefined): HostingClient =>
    HostingClient.create({
      baseUrl: forge.url,
      credentials: token === undefined ? { kind: 'none' } : { kind: 'private-token', token },
      retry: { baseDelayMs: 1 },
    });

  before(async () => {
    forge = await startFakeForge({ seed: 'small' });
    alice = clientOf(forge.tokens['alice']);
    bob = clientOf(forge.tokens['bob']);
    anonymous = clientOf(undefined);
    web = forge.fixtures.projects.web;
  });

  after(async () => {
    await Promise.all([alice, bob, anonymous].map((client) => client.close()));
    await forge.close();
  });

  it("parses GitLab's documented list answer, nulls included", () => {
    const file = path.join(
      __dirname,
      '..',
      '..',
      'fixtures',
      'gitlab-api-docs',
      'issues',
      'GLD-issues_list.json',
    );
    const issues = z.array(IssueSchema).parse(JSON.parse(readFileSync(file, 'utf8')));
    assert.equal(issues[0]?.assignees?.[0]?.username, 'root');
    assert.equal(issues[0]?.closed_by, null);
    assert.equal(issues[0]?.references?.short, '#6');
  });

  it("lists the caller's issues by scope: created by me unless told, assigned to me, all", async () => {
    const mine = await alice.listIssues().toArray();
    assert.ok(mine.length > 0 && mine.every((issue) => issue.author?.username === 'alice'));
    const assigned = await alice.listIssues({ scope: 'assigned_to_me' }).toArray();
    assert.ok(
      assigned.length > 0 &&
        assigned.every((issue) => issue.assignees?.some((user) => user.username === 'alice')),
    );
    const opened = await alice.listIssues({ scope: 'all', state: 'opened' }).toArray();
    assert.ok(opened.every((issue) => issue.state === 'opened'));
    assert.ok(opened.length > mine.filter((issue) => issue.state === 'opened').length);
  });

  it("lists a project's issues with its filters (state, search, iids, order)", async () => {
    const all = await alice.listProjectIssues(web).toArray();
    assert.deepEqual(
      all.map((issue) => issue.iid).sort((a, b) => a - b),
      [...forge.state.issues.values()]
        .filter((issue) => issue.projectId === web)
        .map((issue) => issue.iid)
        .sort((a, b) => a - b),
    );
    const closed = await alice.listProjectIssues(web, { state: 'closed' }).toArray();
    assert.deepEqual(
      closed.map((issue) => issue.state),
      ['closed'],
    );
    const found = await alice.listProjectIssues(web, { search: 'safari' }).toArray();
    assert.deepEqual(
      found.map((issue) => issue.iid),
      [1],
    );
    const picked = await alice
      .listProjectIssues(web, { iids: [1, 2], orderBy: 'created_at', sort: 'asc' })
      .toArray();
    assert.deepEqual(picked.map((issue) => issue.iid).sort(), [1, 2]);
    const query = forge.requests.at(-1)?.query;
    assert.deepEqual(query?.['iids[]'], ['1', '2']);
  });

  it('creates an issue, edits it, closes and reopens it with the system notes GitLab writes', async () => {
    const issue = await alice.createIssue(web, {
      title: 'Search is slow',
      description: '- [ ] profile it\n- [ ] fix it',
      labels: ['bug', 'performance'],
      confidential: false,
    });
    assert.equal(issue.state, 'opened');
    assert.deepEqual(issue.labels, ['bug', 'performance']);
    await assert.rejects(alice.createIssue(web, { title: '' }), BadRequestError);
    const edited = await alice.updateIssue(web, issue.iid, {
      title: 'Search is slow on big projects',
      assigneeIds: [3],
    });
    assert.equal(edited.title, 'Search is slow on big projects');
    assert.equal(edited.assignees?.[0]?.username, 'bob');
    const closed = await bob.updateIssue(web, issue.iid, { stateEvent: 'close' });
    assert.equal(closed.state, 'closed');
    const reopened = await alice.updateIssue(web, issue.iid, { stateEvent: 'reopen' });
    assert.equal(reopened.state, 'opened');
    const notes = await alice.listNotes({ kind: 'issue', project: web, iid: issue.iid }).toArray();
    assert.deepEqual(
      notes
        .filter((note) => note.system)
        .map((note) => note.body)
        .sort(),
      ['closed', 'reopened'],
    );
    assert.deepEqual((await alice.getIssue(web, issue.iid)).labels, ['bug', 'performance']);
  });

  it('hides a confidential issue from outsiders, and shows it to its author and members', async () => {
    const issue = await alice.createIssue(web, { title: 'A security hole', confidential: true });
    assert.equal(issue.confidential, true);
    assert.equal((await bob.getIssue(web, issue.iid)).title, 'A security hole', 'a developer sees it');
    await assert.rejects(anonymous.getIssue(web, issue.iid), NotFoundError);
    const listed = await anonymous.listProjectIssues(web).toArray();
    assert.ok(!listed.some((issue2) => issue2.iid === issue.iid));
    // Editing someone else's issue takes Reporter or more: the anonymous caller is refused.
    await assert.rejects(anonymous.updateIssue(web, 1, { title: 'x' }), UnauthorizedError);
  });

  it('links an issue to the merge requests that mention it and those that close it', async () => {
    const opened = forge.state.findMergeRequest(web, 1);
    assert.ok(opened);
    const before = opened.description;
    opened.description = `${before}\n\nCloses #4, see also #2.`;
    try {
      const closing = await alice.listClosedBy(web, 4).toArray();
      assert.deepEqual(
        closing.map((mergeRequest) => mergeRequest.iid),
        [1],
      );
      const closingTwo = await alice.listClosedBy(web, 2).toArray();
      assert.ok(!closingTwo.some((mergeRequest) => mergeRequest.iid === 1), 'a mention does not close');
      const related = await alice.listRelatedMergeRequests(web, 2).toArray();
      assert.ok(related.some((mergeRequest) => mergeRequest.iid === 1));
      assert.deepEqual(await alice.listRelatedMergeRequests(web, 3).toArray(), [], '#3 is not #33 nor &3');
    } finally {
      opened.description = before;
    }
  });

  it("lists a project's labels with their colours and its milestones", async () => {
    const labels = await alice.listLabels(web).toArray();
    assert.ok(labels.length > 0 && labels.every((label) => /^#[0-9A-Fa-f]{6}$/.test(label.color)));
    const milestones = await alice.listMilestones(web).toArray();
    const active = await alice.listMilestones(web, 'active').toArray();
    assert.ok(active.every((milestone) => milestone.state === 'active'));
    assert.ok(milestones.length >= active.length);
  });

  it("parses GitLab's documented answer for an issue's threads", () => {
    const file = path.join(
      __dirname,
      '..',
      '..',
      'fixtures',
      'gitlab-api-docs',
      'issues',
      'GLD-issue_discussions.json',
    );
    const threads = z.array(DiscussionSchema).parse(JSON.parse(readFileSync(file, 'utf8')));
    assert.deepEqual(
      threads.map((thread) => thread.notes.length),
      [2, 1],
    );
    assert.equal(threads[1]?.individual_note, true);
  });

  it("keeps an issue's threads: a comment, a thread of one made a thread by a reply, none resolvable", async () => {
    const issue = await alice.createIssue(web, { title: 'Threads here' });
    const single = await bob.createNote({ kind: 'issue', project: web, iid: issue.iid }, 'a single comment');
    const thread = await alice.createIssueDiscussion(web, issue.iid, 'a question');
    await bob.replyToIssueDiscussion(web, issue.iid, thread.id, 'an answer');
    const before = await alice.listIssueDiscussions(web, issue.iid).toArray();
    const lone = before.find((each) => each.notes[0]?.id === single.id);
    assert.equal(lone?.individual_note, true);
    assert.ok(lone);
    await alice.replyToIssueDiscussion(web, issue.iid, lone.id, 'a reply makes it a thread');
    const after = await alice.listIssueDiscussions(web, issue.iid).toArray();
    assert.deepEqual(
      after.map((each) => [each.individual_note, each.notes.map((note) => note.body)]),
      [
        [false, ['a single comment', 'a reply makes it a thread']],
        [false, ['a question', 'an answer']],
      ],
    );
    assert.ok(after.every((each) => each.notes.every((note) => note.resolvable !== true)));
    await assert.rejects(alice.replyToIssueDiscussion(web, issue.iid, 'f'.repeat(40), 'x'), NotFoundError);
  });

  it("hides a confidential issue's comments and threads from outsiders", async () => {
    const issue = await alice.createIssue(web, { title: 'Hidden', confidential: true });
    await alice.createNote({ kind: 'issue', project: web, iid: issue.iid }, 'the secret');
    await assert.rejects(
      anonymous.listNotes({ kind: 'issue', project: web, iid: issue.iid }).toArray(),
      NotFoundError,
    );
    await assert.rejects(anonymous.listIssueDiscussions(web, issue.iid).toArray(), NotFoundError);
    const seen = await bob.listIssueDiscussions(web, issue.iid).toArray();
    assert.equal(seen[0]?.notes[0]?.body, 'the secret');
  });
});
