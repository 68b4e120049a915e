import assert from 'node:assert/strict';
import {
  PIPELINE_ACTIONS_BY_STATUS,
  pipelineActions,
  pipelineContextTokens,
  prefilledVariables,
} from '../../../src/domain/pipelineActions';

describe('pipeline actions', () => {
  // The capability table, as a table: each status and what it allows (besides the links).
  const expected: [string, string[]][] = [
    ['created', ['cancel', 'delete']],
    ['pending', ['cancel', 'delete']],
    ['running', ['cancel', 'delete']],
    ['scheduled', ['cancel', 'delete']],
    ['waiting_for_resource', ['cancel', 'delete']],
    ['preparing', ['cancel', 'delete']],
    ['canceling', ['delete']],
    ['manual', ['delete']],
    ['success', ['delete']],
    ['failed', ['retry', 'delete']],
    ['canceled', ['retry', 'delete']],
    ['skipped', ['delete']],
    ['a status from a newer server', ['delete']],
    // A server's word that names a property of every object is still just an unknown status.
    ['constructor', ['delete']],
  ];
  for (const [status, actions] of expected) {
    it(`${status}: ${actions.join(', ')}`, () => {
      assert.deepEqual(pipelineActions({ status }), actions);
    });
  }

  it('covers every status of the table in the test above', () => {
    const tested = new Set(expected.map(([status]) => status));
    for (const status of Object.keys(PIPELINE_ACTIONS_BY_STATUS))
      if (status !== 'success-with-warnings' && status !== 'waiting_for_callback')
        assert.ok(tested.has(status), status);
  });

  it('retries a pipeline that passed with an allowed failure (its detailed status says so)', () => {
    assert.deepEqual(
      pipelineActions({ status: 'success', detailed_status: { group: 'success-with-warnings' } }),
      ['retry', 'delete'],
    );
  });

  it('offers the links only with a web address, and names the tokens of the row', () => {
    assert.deepEqual(pipelineActions({ status: 'failed', web_url: 'https://x/p/-/pipelines/1' }), [
      'retry',
      'delete',
      'openInBrowser',
      'copyLink',
    ]);
    assert.deepEqual(pipelineContextTokens({ status: 'running', web_url: 'https://x' }), [
      'cancelable',
      'deletable',
      'linked',
    ]);
  });
});

describe('prefilled variables of the CI file', () => {
  it('offers top-level variables with a description, their value and options', () => {
    const offered = prefilledVariables(
      [
        'variables:',
        '  DEPLOY_ENVIRONMENT:',
        '    value: staging',
        '    description: Where to deploy.',
        '    options: [staging, production]',
        '  RETRIES:',
        '    value: 3',
        '    description: How often.',
        '  PLAIN: not offered',
        '  NO_DESCRIPTION:',
        '    value: x',
        'build:',
        '  script: make',
      ].join('\n'),
    );
    assert.deepEqual(offered, [
      {
        key: 'DEPLOY_ENVIRONMENT',
        value: 'staging',
        description: 'Where to deploy.',
        options: ['staging', 'production'],
      },
      { key: 'RETRIES', value: '3', description: 'How often.', options: undefined },
    ]);
  });

  it('offers nothing for broken YAML, a file without variables, or variables that are not a mapping', () => {
    assert.deepEqual(prefilledVariables('variables: [x\n'), []);
    assert.deepEqual(prefilledVariables('build:\n  script: make\n'), []);
    assert.deepEqual(prefilledVariables('variables: [A, B]\n'), []);
    assert.deepEqual(prefilledVariables(''), []);
  });
});
