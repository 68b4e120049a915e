// GitLab's predefined CI/CD variables (issue 38): our list agrees with GitLab's documentation page as
// `scripts/ci-variables.ts` reads it, and every variable has a one-line description of our own.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ciPredefinedVariables, predefinedVariable } from '../../../src/domain/ciPredefinedVariables';
import {
  compareVariables,
  parsePredefinedVariablesPage,
  readOurVariables,
} from '../../../scripts/ci-variables';
import { projectRoot } from '../../support/projectRoot';

const root = projectRoot;

describe('predefined CI/CD variables', () => {
  it("reads the documentation page's tables, availability included", () => {
    const page = parsePredefinedVariablesPage(
      readFileSync(path.join(root, 'test/fixtures/gitlab-ci-docs/predefined_variables.excerpt.md'), 'utf8'),
    );
    assert.deepEqual(
      page.map((variable) => `${variable.name} ${variable.availability}`),
      [
        'CHAT_CHANNEL pipeline',
        'CI pre-pipeline',
        'CI_BUILDS_DIR job',
        'CI_COMMIT_SHA pre-pipeline',
        'CI_JOB_TOKEN job',
        'CI_MERGE_REQUEST_IID pre-pipeline',
        'CI_MERGE_REQUEST_TITLE pre-pipeline',
      ],
    );
    // Every row of the excerpt is in our list with the same availability.
    const ours = readOurVariables(
      readFileSync(path.join(root, 'src/domain/ciPredefinedVariables.ts'), 'utf8'),
    );
    assert.equal(ours.length, ciPredefinedVariables().length, 'the script reads every row of the module');
    // What the module hands out is what its source says, row for row.
    assert.deepEqual(
      ciPredefinedVariables().map((variable) => `${variable.name} ${variable.availability}`),
      ours.map((variable) => `${variable.name} ${variable.availability}`),
    );
    const { added, changed } = compareVariables(page, ours);
    assert.deepEqual([added, changed], [[], []]);
  });

  it('says when GitLab added, removed or moved a variable', () => {
    const { added, removed, changed } = compareVariables(
      [
        { name: 'CI', availability: 'pipeline' },
        { name: 'CI_NEW', availability: 'job' },
      ],
      [
        { name: 'CI', availability: 'pre-pipeline' },
        { name: 'CI_OLD', availability: 'job' },
      ],
    );
    assert.deepEqual([added, removed, changed], [['CI_NEW'], ['CI_OLD'], ['CI: pre-pipeline -> pipeline']]);
  });

  it('has each name once, with a one-line description', () => {
    const names = ciPredefinedVariables().map((variable) => variable.name);
    assert.equal(new Set(names).size, names.length);
    assert.ok(names.length > 140, `${names.length} variables`);
    for (const variable of ciPredefinedVariables()) {
      assert.match(variable.description, /^\S.{5,120}$/, variable.name);
      assert.ok(!variable.description.includes('\n'), variable.name);
    }
    assert.equal(predefinedVariable('CI_COMMIT_SHA')?.availability, 'pre-pipeline');
    assert.equal(predefinedVariable('NOT_A_VARIABLE'), undefined);
    for (const variable of ciPredefinedVariables())
      assert.deepEqual(predefinedVariable(variable.name), variable);
  });

  it('runs as `npm run ci:variables -- <page>`: reads the page and our list, and says what differs', function () {
    this.timeout(30_000);
    const excerpt = path.join(root, 'test/fixtures/gitlab-ci-docs/predefined_variables.excerpt.md');
    const run = spawnSync(
      path.join(root, 'node_modules', '.bin', 'tsx'),
      ['scripts/ci-variables.ts', excerpt],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    // The excerpt has 7 of the page's rows: the rest of our list reads as "no longer on the page".
    assert.equal(run.status, 1, run.stderr);
    assert.match(
      run.stdout,
      new RegExp(`^7 variables on the page, ${ciPredefinedVariables().length} in our list\\.`),
    );
    assert.match(run.stdout, /no longer on the page: CI_PROJECT_ID\n/);
    assert.doesNotMatch(run.stdout, /added by GitLab/);
  });
});
