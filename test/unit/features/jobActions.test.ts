// The job changes the commands and the trace panel share, against the fake forge, without any UI.
import assert from 'node:assert/strict';
import { changeJob } from '../../../src/features/jobs/actions';
import { useForgeSession } from './harness';

describe('job changes', () => {
  const session = useForgeSession();

  it('sends each change to its endpoint once and returns the job the server answers with', async () => {
    const { failed, manual, running, build } = session.forge.fixtures.jobs;
    const cases = [
      ['retry', failed, 'retry'],
      ['play', manual, 'play'],
      ['cancel', running, 'cancel'],
      ['keepArtifacts', build, 'artifacts/keep'],
      ['erase', build, 'erase'],
    ] as const;
    for (const [change, jobId, endpoint] of cases) {
      session.forge.clearRequests();
      const job = await changeJob(session.client, session.web, jobId, change);
      assert.deepEqual(
        session.forge.requests.map((request) => `${request.method} ${request.path}`),
        [`POST /api/v4/projects/${session.web}/jobs/${jobId}/${endpoint}`],
        change,
      );
      if (change === 'retry') assert.notEqual(job.id, jobId, 'a retry answers with the new job');
      else assert.equal(job.id, jobId, change);
    }
  });
});
