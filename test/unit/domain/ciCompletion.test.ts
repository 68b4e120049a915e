// Completion contexts of the CI file (issue 38): which names to offer where the cursor is.
import assert from 'node:assert/strict';
import { ciCompletionKind, ciCompletions, ciNames } from '../../../src/domain/ciCompletion';
import { ciJobAt } from '../../../src/domain/ciCursor';

/** The kind at the `|` of a file written with one. */
function kindAt(text: string): string | undefined {
  const lines = text.split('\n');
  const line = lines.findIndex((candidate) => candidate.includes('|'));
  const character = lines[line]?.indexOf('|') ?? 0;
  lines[line] = (lines[line] ?? '').replace('|', '');
  return ciCompletionKind(lines, line, character);
}

describe('ciCompletionKind', () => {
  it('offers stages after stage:, jobs in needs and dependencies, templates after extends', () => {
    assert.equal(kindAt('test:\n  stage: te|'), 'stage');
    assert.equal(kindAt('test:\n  needs: [build, li|'), 'job');
    assert.equal(kindAt('test:\n  dependencies: [|'), 'job');
    assert.equal(kindAt('test:\n  extends: .ba|'), 'template');
    assert.equal(kindAt('test:\n  needs:\n    - build\n    - |'), 'job');
    assert.equal(kindAt('test:\n  needs:\n\n    # the first\n    - bu|'), 'job');
    assert.equal(kindAt('test:\n  extends:\n  - .ba|'), 'template');
  });

  it('offers nothing in a script, a comment, after a closed list or in a mapping item', () => {
    assert.equal(kindAt('test:\n  script: make te|'), undefined);
    assert.equal(kindAt('test:\n  stage: test # st|'), undefined);
    assert.equal(kindAt('test:\n  needs: [build] |'), undefined);
    assert.equal(kindAt('test:\n  script:\n    - echo b|'), undefined);
    assert.equal(kindAt('test:\n  needs:\n    - job: bu|'), undefined);
  });
});

describe('ciNames', () => {
  it("lists the file's jobs, templates and stages", () => {
    const names = ciNames(
      'stages: [build, ship]\n.base: {image: x}\nbuild: {script: make}\ninclude: a.yml\n',
    );
    assert.ok(names);
    assert.deepEqual(ciCompletions(names, 'job'), ['build']);
    assert.deepEqual(ciCompletions(names, 'template'), ['.base', 'build']);
    assert.deepEqual(ciCompletions(names, 'stage'), ['.pre', 'build', 'ship', '.post']);
    assert.equal(ciNames('build:\n  script: [make\n'), undefined);
  });
});

describe('ciNames: variables', () => {
  it("lists the file's variables at the top and in its jobs, with their descriptions", () => {
    const names = ciNames(
      [
        'variables:',
        '  DEPLOY_ENVIRONMENT:',
        '    value: staging',
        '    description: Where the deploy job sends the build.',
        '  PLAIN: "1"',
        'build:',
        '  variables: {NODE_ENV: production}',
        '  script: make',
      ].join('\n'),
    );
    assert.deepEqual(names?.variables, [
      {
        name: 'DEPLOY_ENVIRONMENT',
        setIn: 'variables',
        description: 'Where the deploy job sends the build.',
      },
      { name: 'PLAIN', setIn: 'variables' },
      { name: 'NODE_ENV', setIn: 'build' },
    ]);
  });
});

describe('ciJobAt', () => {
  const lines = [
    'stages: [build]',
    '',
    'build:',
    '  stage: build',
    '  script:',
    '    - make',
    '',
    '"quoted job":',
    '  script: make',
    '.template:',
    '  image: node',
    'variables:',
    '  A: 1',
  ];

  it('names the job whose lines hold the cursor, its key line included', () => {
    assert.equal(ciJobAt(lines, 2), 'build');
    assert.equal(ciJobAt(lines, 5), 'build');
    assert.equal(ciJobAt(lines, 6), 'build', 'a blank line inside the job');
    assert.equal(ciJobAt(lines, 8), 'quoted job');
  });

  it('names none in settings, templates or before the first job', () => {
    assert.equal(ciJobAt(lines, 0), undefined);
    assert.equal(ciJobAt(lines, 10), undefined);
    assert.equal(ciJobAt(lines, 12), undefined);
    assert.equal(ciJobAt([], 0), undefined);
  });
});
