// The CI file's reference checks that need no server (issue 38), on the nodes they are about.
import assert from 'node:assert/strict';
import { checkCiReferences } from '../../../src/domain/ciLocalChecks';

const shown = (text: string): string[] =>
  checkCiReferences(text).map(({ message, range }) => {
    const line = text.split(/\r?\n/)[range.startLine] ?? '';
    return `${range.startLine}:${line.slice(range.startCharacter, range.endCharacter)}: ${message}`;
  });

describe('checkCiReferences', () => {
  it('finds a stage not in stages, and needs and dependencies on missing or later jobs', () => {
    const text = [
      'stages: [build, test, deploy]',
      'build:',
      '  stage: biuld',
      '  script: make',
      'test:',
      '  needs: [build, lint, {job: deploy}]',
      '  dependencies: [nothing]',
      '  script: make test',
      'deploy:',
      '  stage: deploy',
      '  script: ./deploy',
    ].join('\n');
    assert.deepEqual(shown(text), [
      '2:biuld: Stage "biuld" is not in stages: (.pre, build, test, deploy, .post).',
      '5:lint: needs: no job named "lint" in this file.',
      '5:deploy: needs: "deploy" runs in a later stage (deploy) than this job (test).',
      '6:nothing: dependencies: no job named "nothing" in this file.',
    ]);
  });

  it('finds a missing template and a job that runs nothing; a template may lack a script', () => {
    const text = [
      '.base:',
      '  image: node:20',
      'lint:',
      '  extends: .bsae',
      'docs:',
      '  stage: test',
      'pages:',
      '  extends: .base',
    ].join('\n');
    assert.deepEqual(shown(text), [
      '3:.bsae: extends: no template or job named ".bsae" in this file.',
      '4:docs: Job "docs" has no script:, run:, trigger: or extends:.',
    ]);
  });

  it('takes a stage from a template, defaults to test, and stays quiet on names an include may define', () => {
    const text = [
      'include: ci/more.yml',
      '.deploy: {stage: deploy}',
      'release:',
      '  extends: [.deploy, .elsewhere]',
      '  script: ./release',
      'test:',
      '  needs: [release, from-include]',
      '  script: make test',
    ].join('\n');
    assert.deepEqual(shown(text), [
      '6:release: needs: "release" runs in a later stage (deploy) than this job (test).',
    ]);
  });

  it('says nothing of a file that does not parse, and counts CRLF lines the same', () => {
    assert.deepEqual(shown('build:\n  script: [make\n'), []);
    assert.deepEqual(shown('build:\r\n  stage: nope\r\n  script: make\r\n'), [
      '1:nope: Stage "nope" is not in stages: (.pre, build, test, deploy, .post).',
    ]);
  });
});
