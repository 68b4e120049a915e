import assert from 'node:assert/strict';
import { startFakeForge, type FakeForge } from '../server';
import { planPipeline, ruleMatches } from '../server/ciConfig';
import { advancePipelines } from '../server/pipelines';

/** The fake forge's pipelines (issue 37), through Node's own fetch: as GitLab has them (design.md section 3). */

interface PipelineJson {
  id: number;
  status: string;
  source: string;
  ref: string;
  web_url: string;
  duration?: number | null;
  detailed_status?: { text: string; group: string };
}
interface JobJson {
  id: number;
  name: string;
  stage: string;
  status: string;
  downstream_pipeline?: PipelineJson | null;
}

describe('fake forge: pipelines', () => {
  let forge: FakeForge;
  let web: number;

  const call = async (token: string, path: string, init: RequestInit = {}): Promise<Response> =>
    fetch(`${forge.url}/api/v4${path}`, {
      ...init,
      headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json', ...init.headers },
    });
  const json = async <T>(response: Response): Promise<T> => (await response.json()) as T;
  const run = (token: string, body: unknown): Promise<Response> =>
    call(token, `/projects/${web}/pipeline`, { method: 'POST', body: JSON.stringify(body) });

  beforeEach(async () => {
    forge = await startFakeForge();
    web = forge.fixtures.projects.web;
  });

  afterEach(async () => {
    await forge.close();
  });

  it('creates a pipeline from the CI file: stages in order, needs, rules on the source, a child pipeline', async () => {
    const response = await run(forge.tokens.bob as string, {
      ref: 'master',
      variables: [{ key: 'DEPLOY_ENVIRONMENT', value: 'production' }],
    });
    assert.equal(response.status, 201);
    const pipeline = await json<PipelineJson>(response);
    assert.equal(pipeline.source, 'api');
    assert.equal(pipeline.detailed_status?.group, 'pending');
    const jobs = await json<JobJson[]>(
      await call(forge.tokens.bob as string, `/projects/${web}/pipelines/${pipeline.id}/jobs`),
    );
    const byName = new Map(jobs.map((job) => [job.name, job]));
    // `e2e` runs only when RUN_E2E is "true"; `deploy` is manual for API pipelines; `docs` is a bridge.
    assert.deepEqual([...byName.keys()].sort(), ['build', 'deploy', 'test']);
    assert.equal(byName.get('build')?.status, 'pending');
    assert.equal(byName.get('test')?.status, 'created');
    assert.equal(byName.get('deploy')?.status, 'manual');
    const bridges = await json<JobJson[]>(
      await call(forge.tokens.bob as string, `/projects/${web}/pipelines/${pipeline.id}/bridges`),
    );
    assert.equal(bridges.length, 1);
    const child = bridges[0]?.downstream_pipeline;
    assert.equal(child?.source, 'parent_pipeline');
    // Child pipelines are listed only when asked for by their source.
    const listed = await json<PipelineJson[]>(
      await call(forge.tokens.bob as string, `/projects/${web}/pipelines`),
    );
    assert.ok(listed.some((each) => each.id === pipeline.id));
    assert.ok(!listed.some((each) => each.id === child?.id));
    const children = await json<PipelineJson[]>(
      await call(forge.tokens.bob as string, `/projects/${web}/pipelines?source=parent_pipeline`),
    );
    assert.deepEqual(
      children.map((each) => each.id),
      [child?.id],
    );
    const variables = await json<unknown[]>(
      await call(forge.tokens.bob as string, `/projects/${web}/pipelines/${pipeline.id}/variables`),
    );
    assert.deepEqual(variables, [
      { key: 'DEPLOY_ENVIRONMENT', value: 'production', variable_type: 'env_var' },
    ]);
  });

  it('lets a variable bring in a job whose rule reads it', async () => {
    const pipeline = await json<PipelineJson>(
      await run(forge.tokens.bob as string, {
        ref: 'master',
        variables: [{ key: 'RUN_E2E', value: 'true' }],
      }),
    );
    const jobs = await json<JobJson[]>(
      await call(forge.tokens.bob as string, `/projects/${web}/pipelines/${pipeline.id}/jobs`),
    );
    assert.ok(jobs.some((job) => job.name === 'e2e'));
  });

  it("refuses as GitLab does: no ref, no CI file, a broken file, and a reporter's attempt", async () => {
    const missingRef = await run(forge.tokens.bob as string, { ref: 'no-such-branch' });
    assert.equal(missingRef.status, 400);
    assert.deepEqual(await missingRef.json(), { message: { base: ['Reference not found'] } });
    const api = forge.fixtures.projects.api;
    const noFile = await call(forge.tokens.bob as string, `/projects/${api}/pipeline`, {
      method: 'POST',
      body: JSON.stringify({ ref: 'master' }),
    });
    assert.deepEqual(await noFile.json(), { message: { base: ['Missing CI config file'] } });
    const badType = await run(forge.tokens.bob as string, {
      ref: 'master',
      variables: [{ key: 'A', value: 'b', variable_type: 'secret' }],
    });
    assert.equal(badType.status, 400);
    const carol = await run('no-such-token', { ref: 'master' });
    assert.equal(carol.status, 401);
  });

  it('derives the status from the jobs, retries failed jobs, cancels what runs, and deletes for owners only', async () => {
    const pipeline = await json<PipelineJson>(await run(forge.tokens.bob as string, { ref: 'master' }));
    const jobs = await json<JobJson[]>(
      await call(forge.tokens.bob as string, `/projects/${web}/pipelines/${pipeline.id}/jobs`),
    );
    const id = (name: string): number => jobs.find((job) => job.name === name)?.id ?? -1;
    forge.state.setJobStatus(id('build'), 'success');
    forge.state.setJobStatus(id('test'), 'failed');
    const status = async (): Promise<PipelineJson> =>
      json<PipelineJson>(await call(forge.tokens.bob as string, `/projects/${web}/pipelines/${pipeline.id}`));
    assert.equal((await status()).status, 'failed');
    const retried = await call(
      forge.tokens.bob as string,
      `/projects/${web}/pipelines/${pipeline.id}/retry`,
      {
        method: 'POST',
      },
    );
    assert.equal(retried.status, 201);
    assert.equal((await json<PipelineJson>(retried)).status, 'pending');
    const again = await json<JobJson[]>(
      await call(
        forge.tokens.bob as string,
        `/projects/${web}/pipelines/${pipeline.id}/jobs?include_retried=true`,
      ),
    );
    assert.equal(again.filter((job) => job.name === 'test').length, 2);
    const canceled = await call(
      forge.tokens.bob as string,
      `/projects/${web}/pipelines/${pipeline.id}/cancel`,
      {
        method: 'POST',
      },
    );
    assert.equal(canceled.status, 200);
    assert.equal((await json<PipelineJson>(canceled)).status, 'canceled');
    // The manual deploy is not canceled: it waits for a person.
    const deploy = forge.state.jobs.get(id('deploy'));
    assert.equal(deploy?.status, 'manual');
    const byDeveloper = await call(forge.tokens.bob as string, `/projects/${web}/pipelines/${pipeline.id}`, {
      method: 'DELETE',
    });
    assert.equal(byDeveloper.status, 403);
    const byOwner = await call(forge.tokens.root as string, `/projects/${web}/pipelines/${pipeline.id}`, {
      method: 'DELETE',
    });
    assert.equal(byOwner.status, 204);
    assert.equal(forge.state.pipelines.has(pipeline.id), false);
    assert.equal(forge.state.jobs.has(id('build')), false);
  });

  it('holds the pipeline at manual while a blocking manual job waits, and gives the duration once finished', async () => {
    const pipeline = await json<PipelineJson>(await run(forge.tokens.bob as string, { ref: 'master' }));
    const jobs = await json<JobJson[]>(
      await call(forge.tokens.bob as string, `/projects/${web}/pipelines/${pipeline.id}/jobs`),
    );
    for (const job of jobs) if (job.status !== 'manual') forge.state.setJobStatus(job.id, 'success');
    const held = await json<PipelineJson>(
      await call(forge.tokens.bob as string, `/projects/${web}/pipelines/${pipeline.id}`),
    );
    assert.equal(held.status, 'manual');
    assert.equal(held.detailed_status?.text, 'blocked');
    assert.equal(typeof held.duration, 'number');
  });

  it('moves a pipeline on as a runner would: needs first, then later stages; a failure skips what follows', async () => {
    const pipeline = await json<PipelineJson>(await run(forge.tokens.bob as string, { ref: 'master' }));
    const jobs = (): Map<string, string> =>
      new Map(
        (forge.state.pipelines.get(pipeline.id)?.jobIds ?? []).flatMap((id) => {
          const job = forge.state.jobs.get(id);
          return job && !job.retried && !job.bridge ? [[job.name, job.status] as [string, string]] : [];
        }),
      );
    const idOf = (name: string): number =>
      (forge.state.pipelines.get(pipeline.id)?.jobIds ?? []).find(
        (id) => forge.state.jobs.get(id)?.name === name,
      ) ?? -1;
    advancePipelines(forge.state);
    assert.equal(jobs().get('test'), 'created', 'waits for build');
    forge.state.setJobStatus(idOf('build'), 'success');
    advancePipelines(forge.state);
    assert.equal(jobs().get('test'), 'pending', 'its need passed');
    forge.state.setJobStatus(idOf('test'), 'failed');
    advancePipelines(forge.state);
    // The manual deploy waits for a person whatever happened before it.
    assert.equal(jobs().get('deploy'), 'manual');
    const second = await json<PipelineJson>(await run(forge.tokens.bob as string, { ref: 'master' }));
    const secondBuild = (forge.state.pipelines.get(second.id)?.jobIds ?? []).find(
      (id) => forge.state.jobs.get(id)?.name === 'build',
    );
    forge.state.setJobStatus(secondBuild ?? -1, 'failed');
    advancePipelines(forge.state);
    const secondTest = (forge.state.pipelines.get(second.id)?.jobIds ?? []).find(
      (id) => forge.state.jobs.get(id)?.name === 'test',
    );
    assert.equal(forge.state.jobs.get(secondTest ?? -1)?.status, 'skipped');
  });

  it('filters by status, ref, source and scope, and validates them', async () => {
    const base = `/projects/${web}/pipelines`;
    const failed = await json<PipelineJson[]>(
      await call(forge.tokens.bob as string, `${base}?status=failed`),
    );
    assert.ok(failed.length > 0 && failed.every((each) => each.status === 'failed'));
    const feature = await json<PipelineJson[]>(
      await call(forge.tokens.bob as string, `${base}?ref=feature/login`),
    );
    assert.ok(feature.length > 0 && feature.every((each) => each.ref === 'feature/login'));
    const ascending = await json<PipelineJson[]>(await call(forge.tokens.bob as string, `${base}?sort=asc`));
    assert.deepEqual(
      ascending.map((each) => each.id),
      [...ascending.map((each) => each.id)].sort((a, b) => a - b),
    );
    const bad = await call(forge.tokens.bob as string, `${base}?scope=everything`);
    assert.equal(bad.status, 400);
    const latest = await json<PipelineJson>(
      await call(forge.tokens.bob as string, `${base}/latest?ref=master`),
    );
    assert.equal(latest.ref, 'master');
  });
});

describe('fake forge: reading a CI file', () => {
  it('reads rules with ==, != , presence, && and ||', () => {
    assert.equal(ruleMatches('$A == "x"', { A: 'x' }), true);
    assert.equal(ruleMatches("$A != 'x'", { A: 'x' }), false);
    assert.equal(ruleMatches('$A', { A: '' }), false);
    assert.equal(ruleMatches('$A == "x" && $B', { A: 'x', B: '1' }), true);
    assert.equal(ruleMatches('$A == "y" || $B == "1"', { A: 'x', B: '1' }), true);
  });

  it("gives GitLab's sentences for a missing stage, a missing need, a job without script, and bad YAML", () => {
    const planned = planPipeline(
      'stages: [build]\nbuild:\n  stage: build\n  script: x\ntest:\n  stage: qa\n  needs: [lint]\n  script: y\nnothing:\n  stage: build\n',
      {},
    );
    assert.ok('errors' in planned);
    assert.deepEqual(planned.errors, [
      'test job: chosen stage qa does not exist; available stages are .pre, build, .post',
      'jobs nothing config should implement the script:, run:, or trigger: keyword',
      'test job: need lint is not defined in current or prior stages',
    ]);
    const broken = planPipeline('build:\n  script: [x\n', {});
    assert.ok('errors' in broken && broken.errors[0]?.startsWith('(<unknown>): '));
  });

  it('merges hidden templates through extends', () => {
    const planned = planPipeline('.base:\n  stage: build\n  script: x\njob:\n  extends: .base\n', {});
    assert.ok('plan' in planned);
    assert.deepEqual(
      planned.plan.jobs.map((job) => [job.name, job.stage]),
      [['job', 'build']],
    );
  });
});
