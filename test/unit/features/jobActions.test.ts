// The job changes the commands and the trace panel share, against the fake forge, without any UI.
import assert from 'node:assert/strict';
import { HostingClient } from '../../../src/api/hosting';
import { changeJob } from '../../../src/features/jobs/actions';
import { type FakeForge, startFakeForge } from '../../server';

describe('job changes', () => {
  let forge: FakeForge;
  let client: HostingClient;
  let web: number;

  before(async () => {
    forge = await startFakeForge({ seed: 'small' });
    web = forge.fixtures.projects.web;
    client = HostingClient.create({
      baseUrl: forge.url,
      credentials: { kind: 'private-token', token: forge.userToken },
      retry: { baseDelayMs: 1 },
    });
  });
  after(async () => {
    await client.close();
    await forge.close();
  });

  it('sends each change to its endpoint once and returns the job the server answers with', async () => {
    const { failed, manual, running, build } = forge.fixtures.jobs;
    const cases = [
      ['retry', failed, 'retry'],
      ['play', manual, 'play'],
      ['cancel', running, 'cancel'],
      ['keepArtifacts', build, 'artifacts/keep'],
      ['erase', build, 'erase'],
    ] as const;
    for (const [change, jobId, endpoint] of cases) {
      forge.clearRequests();
      const job = await changeJob(client, web, jobId, change);
      assert.deepEqual(
        forge.requests.map((request) => `${request.method} ${request.path}`),
        [`POST /api/v4/projects/${web}/jobs/${jobId}/${endpoint}`],
        change,
      );
      if (change === 'retry') assert.notEqual(job.id, jobId, 'a retry answers with the new job');
      else assert.equal(job.id, jobId, change);
    }
  });
});
