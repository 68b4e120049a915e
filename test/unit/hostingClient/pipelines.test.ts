// Pipelines as a whole (beyond the seed spec, issue 37) against the fake forge: what the client
// sends, what it makes of the replies, the refusals real servers give, and the 304 of an unchanged
// pipeline read with its ETag.
import assert from 'node:assert/strict';
import { BEYOND_SPEC_ENDPOINTS } from '../../../src/api/hosting/beyondSpecEndpoints';
import { HostingClient } from '../../../src/api/hosting';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../../src/api/http';
import { type FakeForge, startFakeForge } from '../../server';
import { clientAs } from './harness';

describe('HostingClient: pipelines (beyond the spec)', () => {
  let forge: FakeForge;
  let bob: HostingClient;
  let root: HostingClient;
  let web: number;

  beforeEach(async () => {
    forge = await startFakeForge({ seed: 'small' });
    bob = clientAs(forge, 'bob');
    root = clientAs(forge, 'root');
    web = forge.fixtures.projects.web;
  });

  afterEach(async () => {
    await Promise.all([bob, root].map((client) => client.close()));
    await forge.close();
  });

  it('runs a pipeline with variables of both types, and reads them back', async () => {
    const pipeline = await bob.createPipeline(web, 'master', [
      { key: 'DEPLOY_ENVIRONMENT', value: 'production' },
      { key: 'CONFIG', value: 'a: 1', variable_type: 'file' },
    ]);
    const sent = forge.requests.find((request) => request.method === 'POST');
    assert.deepEqual(sent?.body, {
      ref: 'master',
      variables: [
        { key: 'DEPLOY_ENVIRONMENT', value: 'production' },
        { key: 'CONFIG', value: 'a: 1', variable_type: 'file' },
      ],
    });
    assert.equal(pipeline.source, 'api');
    assert.equal(pipeline.ref, 'master');
    const variables = (await bob.listPipelineVariables(web, pipeline.id).page()).items;
    assert.deepEqual(
      variables.map((variable) => [variable.key, variable.variable_type]),
      [
        ['DEPLOY_ENVIRONMENT', 'env_var'],
        ['CONFIG', 'file'],
      ],
    );
  });

  it('lists with filters, reads one, the latest of a ref, its trigger jobs and its test summary', async () => {
    const failed = (await bob.listPipelines(web, { status: 'failed', sort: 'asc' }).page()).items;
    assert.ok(failed.length > 0 && failed.every((pipeline) => pipeline.status === 'failed'));
    const query = forge.requests.find((request) => request.path.endsWith('/pipelines'))?.query;
    assert.deepEqual([query?.['status'], query?.['sort']], ['failed', 'asc']);
    const created = await bob.createPipeline(web, 'master');
    const one = await bob.getPipeline(web, created.id);
    assert.equal(one.detailed_status?.group, 'pending');
    assert.equal(one.user?.username, 'bob');
    const latest = await bob.getLatestPipeline(web, 'master');
    assert.equal(latest.id, created.id);
    const [bridge] = (await bob.listPipelineBridges(web, created.id).page()).items;
    assert.equal(bridge?.name, 'docs');
    assert.equal(bridge?.downstream_pipeline?.source, 'parent_pipeline');
    const summary = await bob.getTestReportSummary(web, created.id);
    assert.equal(summary.total.count, 0);
  });

  it('retries, cancels, and deletes only as an owner', async () => {
    const created = await bob.createPipeline(web, 'master');
    const canceled = await bob.cancelPipeline(web, created.id);
    assert.equal(canceled.status, 'canceled');
    const retried = await bob.retryPipeline(web, created.id);
    assert.equal(retried.status, 'pending');
    await assert.rejects(bob.deletePipeline(web, created.id), ForbiddenError);
    await root.deletePipeline(web, created.id);
    await assert.rejects(bob.getPipeline(web, created.id), NotFoundError);
  });

  it("says why a pipeline is refused, in the server's words", async () => {
    const error = await bob.createPipeline(forge.fixtures.projects.api, 'master').then(
      () => assert.fail('created'),
      (caught: unknown) => caught,
    );
    assert.ok(error instanceof BadRequestError);
    assert.deepEqual(error.fieldErrors, { base: ['Missing CI config file'] });
  });

  it('reads an unchanged pipeline as a 304 with its ETag, and a changed one whole', async () => {
    const created = await bob.createPipeline(web, 'master');
    const first = await bob.getPipelineIfChanged(web, created.id, undefined);
    assert.ok(!first.unchanged && first.etag);
    const again = await bob.getPipelineIfChanged(web, created.id, first.etag);
    assert.deepEqual(again, { unchanged: true });
    const sent = forge.requests.filter((request) => request.path.endsWith(`/pipelines/${created.id}`));
    assert.equal(sent.at(-1)?.headers['if-none-match'], first.etag);
    assert.equal(sent.at(-1)?.status, 304);
    for (const id of forge.state.pipelines.get(created.id)?.jobIds ?? [])
      if (forge.state.jobs.get(id)?.status === 'pending') forge.state.setJobStatus(id, 'running');
    const changed = await bob.getPipelineIfChanged(web, created.id, first.etag);
    assert.ok(!changed.unchanged);
    assert.equal(changed.value.status, 'running');
    assert.notEqual(changed.etag, first.etag);
  });

  it('has a registry entry, with the GitLab version that brought it, for every pipeline endpoint', () => {
    const pipelineEntries = Object.entries(BEYOND_SPEC_ENDPOINTS).filter(([id]) =>
      id.startsWith('pipelines.'),
    );
    assert.equal(pipelineEntries.length, 10);
    for (const [id, entry] of pipelineEntries) assert.match(entry.since, /^GitLab \d+\.\d+/, id);
  });
});
