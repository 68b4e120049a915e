// GitLab's JSON schema of the CI file (issue 38): the bundled copy compiles, real files pass it, and
// each class of mistake is said once, on the node it is about; the schema read as a map of keywords.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkCiSchema, compileCiSchema, type CiSchemaValidator } from '../../../src/domain/ciSchemaCheck';
import { CiSchema, LIST_ITEM } from '../../../src/domain/ciSchema';
import { ciCursorAt, ciKeyPathAt } from '../../../src/domain/ciCursor';
import { CI_TEMPLATES } from '../../server/ciTemplates';
import { projectRoot } from '../../support/projectRoot';

const root = projectRoot;
const schemaJson = JSON.parse(readFileSync(path.join(root, 'schemas', 'gitlab-ci.json'), 'utf8')) as Record<
  string,
  unknown
>;
const schema = new CiSchema(schemaJson);
let validate: CiSchemaValidator;

/** `line: message` (1-based lines, as the Problems view shows them). */
function problems(text: string): string[] {
  return checkCiSchema(validate, text).map(({ range, message }) => `${range.startLine + 1}: ${message}`);
}

describe('GitLab CI schema checks', () => {
  before(() => {
    validate = compileCiSchema(schemaJson);
  });

  it('finds nothing wrong in GitLab templates and a file with anchors, merges and !reference', () => {
    assert.ok(CI_TEMPLATES.length >= 3);
    for (const template of CI_TEMPLATES) assert.deepEqual(problems(template.content), [], template.key);
    const fixture = JSON.parse(
      readFileSync(path.join(root, 'test/fixtures/gitlab-docs/template/G4J-gitlab-ci-template.json'), 'utf8'),
    ) as { content: string };
    assert.deepEqual(problems(fixture.content), []);
    const text = [
      '.defaults: &defaults',
      '  image: node:20',
      '  before_script: [npm ci]',
      '.setup:',
      '  script: [echo setup]',
      'build:',
      '  <<: *defaults',
      '  script:',
      '    - !reference [.setup, script]',
      '    - npm run build',
      '  rules:',
      '    - if: $CI_COMMIT_BRANCH == "main"',
      '      when: manual',
    ].join('\r\n');
    assert.deepEqual(problems(text), []);
  });

  it('puts an unknown key on the key, a wrong value on the value, and says each once', () => {
    const text = [
      'build:',
      '  scirpt: make',
      '  when: sometimes',
      'test:',
      '  script: 12',
      '  retry: 7',
      'deploy:',
      '  script: [deploy]',
      '  only: {refs: 3}',
      'late:',
      '  script: [x]',
      '  when: delayed',
    ].join('\n');
    assert.deepEqual(problems(text), [
      '2: "scirpt" is not a keyword here.',
      '3: Should be one of: on_success, on_failure, always, never, manual, delayed.',
      '5: Should be string or array.',
      '6: Should be <= 2.',
      // The branch that went deeper (`only: {refs}`) is the one meant, not "should be array".
      '9: Should be array.',
      '10: "start_in" is missing here.',
    ]);
  });

  it('marks a mapping by its key, and says nothing of a file that does not parse', () => {
    assert.deepEqual(problems('build:\n  script: make\n  artifacts:\n    paths: dist/\n'), [
      '4: Should be array.',
    ]);
    assert.deepEqual(problems('build:\n  script: make\n  artifacts: 3\n'), ['3: Should be object or null.']);
    assert.deepEqual(problems('build:\n  script: [make\n'), []);
  });

  it('checks a 5,000-line file', () => {
    const jobs = Array.from({ length: 1250 }, (_, index) =>
      [
        `job${index}:`,
        '  stage: test',
        `  script: [make ${index}]`,
        index === 1249 ? '  wen: manual' : '  when: manual',
      ].join('\n'),
    );
    assert.deepEqual(problems(jobs.join('\n')), ['5000: "wen" is not a keyword here.']);
  });
});

describe('CiSchema as a map of the file', () => {
  it('lists the keywords of the top, a job, a nested mapping and a list item', () => {
    const top = schema.keywordsAt([]).map((keyword) => keyword.name);
    assert.ok(top.includes('stages') && top.includes('workflow') && top.includes('include'));
    assert.ok(!top.includes('$schema'));
    const job = schema.keywordsAt(['build']).map((keyword) => keyword.name);
    for (const name of ['script', 'stage', 'needs', 'rules', 'artifacts', 'extends'])
      assert.ok(job.includes(name), name);
    assert.deepEqual(
      schema.keywordsAt(['.template']).map((keyword) => keyword.name),
      job,
      'a hidden job is a template with the same keywords',
    );
    assert.ok(schema.keywordsAt(['build', 'artifacts']).some((keyword) => keyword.name === 'expire_in'));
    assert.ok(schema.keywordsAt(['build', 'rules', LIST_ITEM]).some((keyword) => keyword.name === 'if'));
  });

  it('lists the values a keyword takes, and says what a keyword means', () => {
    assert.deepEqual(schema.valuesAt(['build', 'artifacts', 'when']), ['on_success', 'on_failure', 'always']);
    assert.ok(schema.valuesAt(['build', 'when']).includes('manual'));
    assert.match(schema.descriptionAt(['build', 'script']) ?? '', /Shell scripts executed by the Runner/);
    assert.match(schema.descriptionAt(['stages']) ?? '', /Groups jobs into stages/);
    assert.equal(schema.descriptionAt(['build', 'no_such_keyword']), undefined);
  });
});

describe('ciCursorAt and ciKeyPathAt', () => {
  /** The cursor at the `‸` of a file written with one (`|` is YAML's). */
  function cursorAt(text: string): ReturnType<typeof ciCursorAt> {
    const lines = text.split('\n');
    const line = lines.findIndex((candidate) => candidate.includes('‸'));
    const character = lines[line]?.indexOf('‸') ?? 0;
    lines[line] = (lines[line] ?? '').replace('‸', '');
    return ciCursorAt(lines, line, character);
  }

  it('finds the path of keys above a key, a value and a list item being typed', () => {
    assert.deepEqual(cursorAt('build:\n  artifacts:\n    ex‸'), {
      kind: 'key',
      path: ['build', 'artifacts'],
      typed: 'ex',
    });
    assert.deepEqual(cursorAt('build:\n  artifacts:\n    when: al‸'), {
      kind: 'value',
      path: ['build', 'artifacts', 'when'],
      typed: 'al',
    });
    assert.deepEqual(cursorAt('build:\n  rules:\n    - if: $X\n      wh‸'), {
      kind: 'key',
      path: ['build', 'rules', LIST_ITEM],
      typed: 'wh',
    });
    assert.deepEqual(cursorAt('build:\n  rules:\n    - ‸'), {
      kind: 'item',
      path: ['build', 'rules', LIST_ITEM],
      typed: '',
    });
    assert.deepEqual(cursorAt('st‸'), { kind: 'key', path: [], typed: 'st' });
  });

  it('reads a variable after $ anywhere, and nothing in a script block or a comment', () => {
    assert.deepEqual(cursorAt('build:\n  script: |\n    echo ${CI_COMMIT_‸'), {
      kind: 'variable',
      typed: 'CI_COMMIT_',
    });
    assert.equal(cursorAt('build:\n  script: |\n    make al‸'), undefined);
    assert.equal(cursorAt('build:\n  stage: test # a comm‸'), undefined);
  });

  it('names the key under the cursor with its parents', () => {
    const lines = ['build:', '  rules:', '    - if: $X', '      when: manual'];
    assert.deepEqual(ciKeyPathAt(lines, 3, 8), ['build', 'rules', LIST_ITEM, 'when']);
    assert.deepEqual(ciKeyPathAt(lines, 2, 6), ['build', 'rules', LIST_ITEM, 'if']);
    assert.equal(ciKeyPathAt(lines, 3, 13), undefined, 'on the value');
  });
});
