import assert from 'node:assert/strict';
import {
  boardTriggerCapabilities,
  isFullTriggerToken,
  parsePosition,
  triggerOwnership,
} from '../../../src/domain/boardsAndTriggers';

const withAccess = (project: number | null, group: number | null = null) => ({
  permissions: {
    project_access: project === null ? null : { access_level: project },
    group_access: group === null ? null : { access_level: group },
  },
});

describe('boardTriggerCapabilities', () => {
  it('maps access levels to what the caller may do', () => {
    assert.deepEqual(boardTriggerCapabilities(withAccess(30), false), {
      manageTriggers: false,
      editBoardLists: true,
      deleteBoardLists: false,
    });
    assert.deepEqual(boardTriggerCapabilities(withAccess(40), false), {
      manageTriggers: true,
      editBoardLists: true,
      deleteBoardLists: false,
    });
    assert.deepEqual(boardTriggerCapabilities(withAccess(null, 50), false), {
      manageTriggers: true,
      editBoardLists: true,
      deleteBoardLists: true,
    });
    assert.deepEqual(boardTriggerCapabilities(withAccess(null), false), {
      manageTriggers: false,
      editBoardLists: false,
      deleteBoardLists: false,
    });
  });

  it('lets administrators do everything, and offers everything when the level is unknown', () => {
    const all = { manageTriggers: true, editBoardLists: true, deleteBoardLists: true };
    assert.deepEqual(boardTriggerCapabilities(withAccess(null), true), all);
    assert.deepEqual(boardTriggerCapabilities({}, false), all);
  });
});

describe('triggerOwnership', () => {
  const full = 'glptt-0123456789abcdef0123456789abcdef01234567';

  it('compares the owner with the caller when the caller is known', () => {
    assert.equal(triggerOwnership({ owner: { id: 2 }, token: full }, 2), 'owned');
    assert.equal(triggerOwnership({ owner: { id: 3 }, token: full }, 2), 'notOwned');
  });

  it('nobody owns a trigger without an owner', () => {
    assert.equal(triggerOwnership({ owner: null, token: full }, 2), 'notOwned');
    assert.equal(triggerOwnership({ token: full }, undefined), 'notOwned');
  });

  it('falls back to whether the whole token is shown', () => {
    assert.equal(triggerOwnership({ owner: { id: 3 }, token: full }, undefined), 'owned');
    assert.equal(triggerOwnership({ owner: { id: 3 }, token: 'glpt' }, undefined), 'notOwned');
  });

  it('recognises shortened tokens', () => {
    assert.equal(isFullTriggerToken(full), true);
    assert.equal(isFullTriggerToken('6d05'), false);
    assert.equal(isFullTriggerToken('6d05****************************'), false);
    assert.equal(isFullTriggerToken(undefined), false);
  });
});

describe('parsePosition', () => {
  it('accepts 0..count-1 only', () => {
    assert.equal(parsePosition('0', 3), 0);
    assert.equal(parsePosition(' 2 ', 3), 2);
    assert.equal(parsePosition('3', 3), undefined);
    assert.equal(parsePosition('-1', 3), undefined);
    assert.equal(parsePosition('1.5', 3), undefined);
    assert.equal(parsePosition('', 3), undefined);
  });
});
