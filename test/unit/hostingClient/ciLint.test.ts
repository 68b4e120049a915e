// The CI lint (beyond the seed spec, issue 38) against the fake forge: what the client sends, and
// GitLab's sentences for the classes the editor places on their lines.
import assert from 'node:assert/strict';
import { HostingClient } from '../../../src/api/hosting';
import { ForbiddenError } from '../../../src/api/http';
import { placeCiMessages } from '../../../src/domain/ciLintPlaces';
import { type FakeForge, startFakeForge } from '../../server';
import { clientAs } from './harness';

describe('HostingClient: CI lint (beyond the spec)', () => {
  let forge: FakeForge;
  let bob: HostingClient;
  let web: number;

  beforeEach(async () => {
    forge = await startFakeForge({ seed: 'small' });
    bob = clientAs(forge, 'bob');
    web = forge.fixtures.projects.web;
  });

  afterEach(async () => {
    await bob.close();
    await forge.close();
  });

  it('sends the content with the options asked for, and reads a valid answer', async () => {
    const content = 'build:\n  stage: build\n  script: make\n';
    const answer = await bob.lintCiConfig(web, content, { dryRun: true, ref: 'master' });
    const sent = forge.requests.find((request) => request.method === 'POST');
    assert.equal(sent?.path, `/api/v4/projects/${web}/ci/lint`);
    assert.deepEqual(sent?.body, { content, dry_run: true, ref: 'master' });
    assert.equal(answer.valid, true);
    assert.deepEqual(answer.errors, []);
    assert.match(answer.merged_yaml ?? '', /^build:\n {2}stage: build/);
  });

  it("answers GitLab's sentences, and each goes on the line it is about", async () => {
    const content = [
      'stages: [build, test]',
      'build:',
      '  stage: build',
      '  scirpt: make',
      'test:',
      '  stage: tst',
      '  script: make test',
      '  needs: [lint]',
      'docs:',
      '  stage: test',
    ].join('\n');
    const answer = await bob.lintCiConfig(web, content);
    assert.equal(answer.valid, false);
    const placed = placeCiMessages(content, answer.errors ?? []);
    assert.deepEqual(
      placed.map(({ message, range, found }) => [message.split(';')[0], range.startLine, found]),
      [
        ['jobs:build config contains unknown keys: scirpt', 3, true],
        ['jobs build config should implement the script:, run:, or trigger: keyword', 1, true],
        ['test job: chosen stage tst does not exist', 5, true],
        ['jobs docs config should implement the script:, run:, or trigger: keyword', 8, true],
        ['test job: need lint is not defined in current or prior stages', 7, true],
      ],
    );
  });

  it('puts a YAML syntax error on its line, and a missing include on its entry', async () => {
    const broken = 'build:\n  script: [make\ntest:\n  script: x\n';
    const syntax = await bob.lintCiConfig(web, broken);
    const [error] = placeCiMessages(broken, syntax.errors ?? []);
    assert.match(error?.message ?? '', /^\(<unknown>\): .* at line \d+ column \d+$/);
    assert.equal(error?.found, true);
    const including = 'include:\n  - local: ci/docs.yml\n  - local: ci/gone.yml\nbuild:\n  script: make\n';
    const missing = await bob.lintCiConfig(web, including);
    assert.deepEqual(missing.errors, ['Local file `ci/gone.yml` does not exist!']);
    assert.equal(placeCiMessages(including, missing.errors ?? [])[0]?.range.startLine, 2);
  });

  it('lists the included files and merges them into merged_yaml', async () => {
    // The file's own `stages:` win over the included file's (`stages: [docs]`), as in GitLab.
    const answer = await bob.lintCiConfig(
      web,
      'include:\n  - local: ci/docs.yml\nstages: [build, docs]\nbuild:\n  stage: build\n  script: make\n',
    );
    assert.equal(answer.valid, true, String(answer.errors));
    assert.equal(answer.includes?.[0]?.location, 'ci/docs.yml');
    assert.match(answer.includes?.[0]?.blob ?? '', /\/acme\/web\/-\/blob\/[0-9a-f]+\/ci\/docs\.yml$/);
    assert.match(answer.merged_yaml ?? '', /^pages:/m);
    assert.match(answer.merged_yaml ?? '', /^build:/m);
  });

  it('checks the committed CI file', async () => {
    const answer = await bob.lintCommittedCiConfig(web);
    assert.equal(answer.valid, true, String(answer.errors));
    assert.equal(forge.requests.at(-1)?.method, 'GET');
  });

  it("lists the project's CI/CD variables to a Maintainer, hidden values as null, and refuses a Developer", async () => {
    const token = forge.tokens['alice'];
    assert.ok(token);
    const alice = HostingClient.create({ baseUrl: forge.url, credentials: { kind: 'private-token', token } });
    try {
      const variables = await alice.listProjectVariables(web).toArray();
      assert.deepEqual(
        variables.map((variable) => [variable.key, variable.value ?? null, variable.environment_scope]),
        [
          ['DEPLOY_TOKEN', null, 'production'],
          ['NPM_REGISTRY', 'https://registry.npmjs.org/', '*'],
        ],
      );
    } finally {
      await alice.close();
    }
    await assert.rejects(bob.listProjectVariables(web).toArray(), ForbiddenError);
  });
});
