import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENDPOINTS, type EndpointDefinition, fillPath } from '../../src/api/hosting/endpoints';
import { extractSpecEndpoints, type SpecEndpoint } from '../support/specEndpoints';
import { projectRoot } from '../support/projectRoot';

const root = projectRoot;
const specEndpoints = JSON.parse(
  readFileSync(join(root, 'test', 'fixtures', 'spec', 'project-hosting-endpoints.json'), 'utf8'),
) as SpecEndpoint[];
const sharedSpecPath = join(root, '..', 'shared', 'spec', 'project-hosting-api-v4.md');
const definitions: EndpointDefinition[] = Object.values(ENDPOINTS);

describe('endpoint registry', () => {
  it('has an entry for every row of every endpoint table of the spec', () => {
    const missing = specEndpoints.filter(
      (row) =>
        !definitions.some(
          (entry) => entry.method === row.method && (entry.specPath ?? entry.path) === row.path,
        ),
    );
    assert.deepEqual(missing, [], `rows without a registry entry: ${JSON.stringify(missing)}`);
  });

  it('has no entry that is not a spec row (one entry per row)', () => {
    const extra = definitions.filter(
      (entry) =>
        !specEndpoints.some(
          (row) => entry.method === row.method && (entry.specPath ?? entry.path) === row.path,
        ),
    );
    assert.deepEqual(extra, []);
    assert.equal(definitions.length, specEndpoints.length);
  });

  it('explains every place where the real path differs from the spec', () => {
    for (const entry of definitions) {
      if (entry.specPath !== undefined)
        assert.ok(entry.note, `${entry.path} differs from the spec without a note`);
    }
  });

  it('writes the shorthand rows out in full', () => {
    const paths = new Set(definitions.map((entry) => `${entry.method} ${entry.path}`));
    assert.ok(paths.has('PUT /projects/:id/merge_requests/:merge_request_iid/merge'));
    assert.ok(paths.has('DELETE /projects/:id/snippets/:snippet_id/notes/:note_id'));
    assert.ok(paths.has('POST /projects/:id/merge_requests/:merge_request_iid/notes/:note_id/award_emoji'));
    assert.ok(paths.has('GET /projects/:id/pipelines/:pipeline_id/jobs'));
    assert.ok(paths.has('GET /templates/gitlab_ci_ymls/:key'));
  });

  if (existsSync(sharedSpecPath)) {
    it('matches the endpoint list of the spec in ../shared', () => {
      assert.deepEqual(extractSpecEndpoints(readFileSync(sharedSpecPath, 'utf8')), specEndpoints);
    });
  }
});

describe('fillPath', () => {
  it('encodes a namespace/project path as one segment', () => {
    assert.equal(
      fillPath('/projects/:id/jobs/:job_id', { id: 'acme/web app', job_id: 7 }),
      '/projects/acme%2Fweb%20app/jobs/7',
    );
  });

  it('keeps a branch name with slashes in one segment', () => {
    assert.equal(
      fillPath('/projects/:id/repository/branches/:branch', { id: 3, branch: 'feature/login' }),
      '/projects/3/repository/branches/feature%2Flogin',
    );
  });

  it('refuses a missing parameter instead of sending a broken path', () => {
    assert.throws(() => fillPath('/projects/:id', {}), /Missing path parameter :id/);
  });
});
