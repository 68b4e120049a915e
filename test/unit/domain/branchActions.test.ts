import assert from 'node:assert/strict';
import {
  branchNameProblem,
  commitShaProblem,
  deleteMergedQuestion,
  describeProtection,
  isDefaultBranch,
  listNames,
  mergedBranchesToDelete,
  protectionFromPicks,
} from '../../../src/domain/branchActions';

describe('mergedBranchesToDelete', () => {
  const branches = [
    { name: 'master', merged: false, default: true },
    { name: 'fix/typo', merged: true },
    { name: 'release/1.0', merged: true, protected: true },
    { name: 'feature/login', merged: false },
    { name: 'docs', merged: true },
    { name: 'old', merged: undefined },
  ];

  it('counts merged, unprotected branches other than the default one', () => {
    assert.deepEqual(
      mergedBranchesToDelete(branches, 'master').map((branch) => branch.name),
      ['fix/typo', 'docs'],
    );
  });

  it('knows the default branch by its flag or by the project', () => {
    assert.equal(isDefaultBranch({ name: 'main' }, 'main'), true);
    assert.equal(isDefaultBranch({ name: 'main', default: true }, null), true);
    assert.equal(isDefaultBranch({ name: 'main' }, undefined), false);
    assert.deepEqual(mergedBranchesToDelete([{ name: 'main', merged: true }], 'main'), []);
  });
});

describe('deleteMergedQuestion', () => {
  it('counts and lists the branches', () => {
    assert.equal(
      deleteMergedQuestion('acme/web', ['a', 'b', 'c']),
      'Delete 3 merged branches of acme/web: a, b, c?',
    );
    assert.equal(deleteMergedQuestion('acme/web', ['a']), 'Delete 1 merged branch of acme/web: a?');
  });

  it('lists at most ten names and counts the rest', () => {
    const names = Array.from({ length: 13 }, (_, index) => `b${index}`);
    assert.equal(listNames(names), 'b0, b1, b2, b3, b4, b5, b6, b7, b8, b9 and 3 more');
  });
});

describe('branch input checks', () => {
  it('accepts usual names and refuses what git refuses', () => {
    assert.equal(branchNameProblem('feature/new-login_2'), undefined);
    for (const bad of [
      '',
      ' ',
      'has space',
      '-x',
      'x/',
      'x.lock',
      'a..b',
      'a//b',
      'a@{b',
      'a~1',
      'a:b',
      'a?',
      'a*',
      'a[b',
      'a\\b',
    ])
      assert.ok(branchNameProblem(bad), `"${bad}" should be refused`);
  });

  it('accepts 7 to 40 hexadecimal digits as a SHA', () => {
    assert.equal(commitShaProblem('abc1234'), undefined);
    assert.equal(commitShaProblem('0123456789abcdef0123456789abcdef01234567'), undefined);
    assert.ok(commitShaProblem('abc123'));
    assert.ok(commitShaProblem('xyz1234'));
  });
});

describe('protection options', () => {
  it('sends both booleans, false for what was not ticked', () => {
    assert.deepEqual(protectionFromPicks([{ key: 'developers_can_push' }]), {
      developers_can_push: true,
      developers_can_merge: false,
    });
    assert.deepEqual(protectionFromPicks([]), { developers_can_push: false, developers_can_merge: false });
  });

  it('describes them in a few words', () => {
    assert.equal(
      describeProtection({ developers_can_push: true, developers_can_merge: true }),
      'developers can push and merge',
    );
    assert.equal(describeProtection({ developers_can_merge: true }), 'developers can merge');
    assert.equal(describeProtection({}), 'maintainers only');
  });
});
