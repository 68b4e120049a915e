// What the client sends for each filter and field of the endpoints beyond the spec, as the fake forge
// received it: a filter the server never sees lists the wrong issues, a field left out of an edit
// is an edit lost. Each case gives every option once, then none (nothing empty is sent).
import assert from 'node:assert/strict';
import { HostingClient, readDescriptionTemplates } from '../../../src/api/hosting';
import { setOwnAward } from '../../../src/api/hosting/awardToggle';
import { fetchCurrentUser } from '../../../src/api/hosting/currentUser';
import { probeIdentity } from '../../../src/api/hosting/identity';
import { type FakeForge, type RecordedRequest, startFakeForge } from '../../server';
import { clientAs } from './harness';

describe('HostingClient: what each option sends', () => {
  let forge: FakeForge;
  let alice: HostingClient;
  let web: number;

  before(async () => {
    forge = await startFakeForge({ seed: 'small' });
    alice = clientAs(forge, 'alice');
    web = forge.fixtures.projects.web;
  });

  after(async () => {
    await alice.close();
    await forge.close();
  });

  /**
   * The requests `action` made, as the forge received them. What the forge answered does not matter
   * here (the seed has no committed CI file, for one): only what was asked.
   */
  async function sent(action: () => Promise<unknown>): Promise<RecordedRequest[]> {
    const before = forge.requests.length;
    await action().catch(() => undefined);
    return forge.requests.slice(before);
  }

  /** The query of the one request `action` made, without the paging every list adds. */
  async function onlyQuery(action: () => Promise<unknown>): Promise<Record<string, string | string[]>> {
    const [request, ...rest] = await sent(action);
    assert.ok(request, 'a request');
    assert.equal(rest.length, 0, 'one request');
    const { page: _page, per_page: _perPage, ...query } = request.query;
    return query;
  }

  it('sends every issue filter by its GitLab name, and none left empty', async () => {
    const query = await onlyQuery(() =>
      alice
        .listProjectIssues(web, {
          scope: 'all',
          state: 'opened',
          labels: ['bug', 'ui'],
          milestone: 'v1.0',
          search: 'login',
          iids: [3, 4],
          authorId: 7,
          assigneeId: 0,
          orderBy: 'updated_at',
          sort: 'asc',
        })
        .toArray(),
    );
    assert.deepEqual(query, {
      scope: 'all',
      state: 'opened',
      labels: 'bug,ui',
      milestone: 'v1.0',
      search: 'login',
      'iids[]': ['3', '4'],
      author_id: '7',
      assignee_id: '0',
      order_by: 'updated_at',
      sort: 'asc',
    });
    const bare = await onlyQuery(() =>
      alice.listIssues({ labels: [], iids: [], search: '', milestone: '' }).toArray(),
    );
    assert.deepEqual(bare, {});
  });

  it('sends every field of an issue edit, null to clear, and leaves out what is not changed', async () => {
    const created = await alice.createIssue(web, { title: 'Shapes' });
    const [edit] = await sent(() =>
      alice.updateIssue(web, created.iid, {
        title: 'Shapes again',
        description: 'All of them',
        labels: ['bug', 'ui'],
        assigneeIds: [1],
        milestoneId: null,
        dueDate: '2026-12-24',
        confidential: true,
        stateEvent: 'close',
      }),
    );
    assert.deepEqual(edit?.body, {
      title: 'Shapes again',
      description: 'All of them',
      labels: 'bug,ui',
      assignee_ids: [1],
      milestone_id: null,
      due_date: '2026-12-24',
      confidential: true,
      state_event: 'close',
    });
    const [clear] = await sent(() => alice.updateIssue(web, created.iid, { dueDate: null, description: '' }));
    assert.deepEqual(clear?.body, { due_date: null, description: '' });
    const [milestone] = await sent(() => alice.updateIssue(web, created.iid, { milestoneId: 5 }));
    assert.deepEqual(milestone?.body, { milestone_id: 5 });
  });

  it('asks for milestones by state only when told', async () => {
    assert.deepEqual(await onlyQuery(() => alice.listMilestones(web, 'closed').toArray()), {
      state: 'closed',
    });
    assert.deepEqual(await onlyQuery(() => alice.listMilestones(web).toArray()), {});
  });

  it('sends the pipeline filters given, and only those', async () => {
    const query = await onlyQuery(() =>
      alice.listPipelines(web, { scope: 'finished', ref: 'main', source: undefined, sort: 'asc' }).toArray(),
    );
    // An undefined filter is left out.
    assert.deepEqual(query, { scope: 'finished', ref: 'main', sort: 'asc' });
    const latest = await sent(() => alice.getLatestPipeline(web, 'main'));
    assert.deepEqual(latest[0]?.query, { ref: 'main' });
    const latestDefault = await sent(() => alice.getLatestPipeline(web));
    assert.deepEqual(latestDefault[0]?.query, {});
  });

  it("sends the CI check's options, and the committed file's ref both ways GitLab reads it", async () => {
    const [dry] = await sent(() =>
      alice.lintCiConfig(web, 'a:\n  script: x\n', { dryRun: true, ref: 'main', includeJobs: false }),
    );
    assert.deepEqual(dry?.body, {
      content: 'a:\n  script: x\n',
      dry_run: true,
      ref: 'main',
      include_jobs: false,
    });
    const [plain] = await sent(() => alice.lintCiConfig(web, 'b: 1\n'));
    assert.deepEqual(plain?.body, { content: 'b: 1\n' });
    const [committed] = await sent(() => alice.lintCommittedCiConfig(web, { ref: 'main' }));
    assert.deepEqual(committed?.query, { content_ref: 'main', ref: 'main' });
    const [committedDefault] = await sent(() => alice.lintCommittedCiConfig(web));
    assert.deepEqual(committedDefault?.query, {});
  });

  it('gives an award once however often it is asked, and takes back only an award it has', async () => {
    const issue = await alice.createIssue(web, { title: 'Awards' });
    const awardable = { kind: 'issue', project: web, iid: issue.iid } as const;
    await setOwnAward(alice, awardable, 'thumbsup', true, undefined);
    // A second click raced the first: GitLab answers 400 "has already been taken"; that is done.
    await setOwnAward(alice, awardable, 'thumbsup', true, undefined);
    const awards = await alice.listAwardEmoji(awardable).toArray();
    assert.deepEqual(
      awards.map((award) => award.name),
      ['thumbsup'],
    );
    await assert.rejects(
      setOwnAward(alice, awardable, 'tada', false, undefined),
      /have not reacted with :tada:/,
    );
    const own = awards[0]?.id;
    assert.ok(own !== undefined);
    await setOwnAward(alice, awardable, 'thumbsup', false, own);
    assert.deepEqual(await alice.listAwardEmoji(awardable).toArray(), []);
    // Any other refusal is the caller's to show.
    await assert.rejects(setOwnAward(alice, { ...awardable, iid: 99_999 }, 'tada', true, undefined), {
      name: 'NotFoundError',
    });
  });

  it('takes the colons off an award name, and sends no edit that changes nothing', async () => {
    const issue = await alice.createIssue(web, { title: 'Colons' });
    const [award] = await sent(() =>
      alice.awardEmoji({ kind: 'issue', project: web, iid: issue.iid }, ':tada:'),
    );
    assert.deepEqual(award?.body, { name: 'tada' });
    const [inner] = await sent(() =>
      alice.awardEmoji({ kind: 'issue', project: web, iid: issue.iid }, 'a:b'),
    );
    assert.deepEqual(inner?.body, { name: 'a:b' }, 'only the colons around it');
    const none = await sent(() =>
      assert.rejects(alice.updateMergeRequest(web, 1, { title: undefined }), /Nothing to update/),
    );
    assert.deepEqual(none, []);
  });

  it('sends nothing for a call whose signal was aborted before it started', async () => {
    const stop = new AbortController();
    stop.abort(new Error('the panel closed'));
    const { signal } = stop;
    const project = await alice.getProject(web);
    const calls: [string, () => Promise<unknown>][] = [
      ['getIssue', () => alice.getIssue(web, 1, { signal })],
      ['createIssue', () => alice.createIssue(web, { title: 'Never' }, { signal })],
      ['updateIssue', () => alice.updateIssue(web, 1, { title: 'Never' }, { signal })],
      ['getLatestPipeline', () => alice.getLatestPipeline(web, 'main', { signal })],
      ['createPipeline', () => alice.createPipeline(web, 'main', [], { signal })],
      ['getRawFile', () => alice.getRawFile(web, 'README.md', 'main', { signal })],
      ['fetchCurrentUser', () => fetchCurrentUser(alice, { signal })],
      ['probeIdentity', () => probeIdentity(alice, signal)],
      ['lintCiConfig', () => alice.lintCiConfig(web, 'a: 1\n', { signal })],
      ['readDescriptionTemplates', () => readDescriptionTemplates(alice, project, 'issue', signal)],
    ];
    for (const [name, call] of calls) {
      const before = forge.requests.length;
      await assert.rejects(
        call(),
        (error: Error) => /cancel|the panel closed/i.test(`${error.name} ${error.message}`),
        name,
      );
      assert.deepEqual(
        forge.requests.slice(before).map((request) => `${request.method} ${request.path}`),
        [],
        name,
      );
    }
  });

  it('runs a pipeline with variables only when given, and checks a token with one-row pages', async () => {
    const [plain] = await sent(() => alice.createPipeline(web, 'main'));
    assert.deepEqual(plain?.body, { ref: 'main' });
    const variables = [{ key: 'DEPLOY', value: 'staging', variable_type: 'env_var' as const }];
    const [withVariables] = await sent(() => alice.createPipeline(web, 'main', variables));
    assert.deepEqual(withVariables?.body, { ref: 'main', variables });
    const probe = await sent(() => probeIdentity(alice));
    assert.ok(probe.length > 0);
    assert.ok(probe.every((request) => request.query['per_page'] === '1'));
    const [raw] = await sent(() => alice.getRawFile(web, 'README.md', 'main'));
    assert.equal(raw?.headers['accept'], '*/*', 'a raw file is any type, not JSON');
  });
});
