import assert from 'node:assert/strict';
import {
  commentableRanges,
  linePosition,
  lineRangeEnd,
  notePlace,
  noteSide,
  shownLines,
} from '../../../src/domain/diffPositions';

// Two hunks: line 2 added, old line 5 replaced by new line 6; old 20-21 become 21 and 23 around an added 22.
const DIFF = [
  '--- a/src/index.ts',
  '+++ b/src/index.ts',
  '@@ -1,5 +1,6 @@',
  ' one',
  '+two',
  ' three',
  ' four',
  ' five',
  '-six',
  '+SIX',
  '@@ -20,2 +21,3 @@',
  ' twenty',
  '+new',
  ' twenty-one',
  '',
].join('\n');

describe('diff positions: where a comment can go, as GitLab judges it', () => {
  it('knows the lines the diff shows on each side, and the other side of each unchanged line', () => {
    const shown = shownLines(DIFF);
    assert.deepEqual(
      [...shown.head.entries()],
      [
        [1, 1],
        [2, undefined],
        [3, 2],
        [4, 3],
        [5, 4],
        [6, undefined],
        [21, 20],
        [22, undefined],
        [23, 21],
      ],
    );
    assert.deepEqual([...shown.base.keys()], [1, 2, 3, 4, 5, 20, 21]);
  });

  it('offers ranges of lines, one per run of shown lines', () => {
    assert.deepEqual(commentableRanges(DIFF, 'head'), [
      [1, 6],
      [21, 23],
    ]);
    assert.deepEqual(commentableRanges(DIFF, 'base'), [
      [1, 5],
      [20, 21],
    ]);
    assert.deepEqual(commentableRanges('', 'head'), []);
  });

  it('names an added line by its new number, a removed one by its old, an unchanged one by both', () => {
    assert.deepEqual(linePosition(DIFF, 'head', 2), { new_line: 2 });
    assert.deepEqual(linePosition(DIFF, 'base', 5), { old_line: 5 });
    assert.deepEqual(linePosition(DIFF, 'head', 4), { old_line: 3, new_line: 4 });
    assert.deepEqual(linePosition(DIFF, 'base', 3), { old_line: 3, new_line: 4 });
    assert.deepEqual(linePosition(DIFF, 'head', 23), { old_line: 21, new_line: 23 });
  });

  it('refuses a line the diff does not show', () => {
    assert.equal(linePosition(DIFF, 'head', 10), undefined);
    assert.equal(linePosition(DIFF, 'base', 6), undefined);
  });

  it('puts a note on the new side when it names a new line, else on the old side', () => {
    assert.deepEqual(noteSide({ old_line: 3, new_line: 4 }), { side: 'head', line: 4 });
    assert.deepEqual(noteSide({ old_line: 6, new_line: null }), { side: 'base', line: 6 });
    assert.equal(noteSide({}), undefined);
  });

  it('places no note on a line a server sent as 0, less, a fraction or beyond any file', () => {
    for (const line of [0, -3, 1.5, Number.MAX_VALUE, Number.NaN]) {
      assert.equal(noteSide({ old_line: null, new_line: line }), undefined, String(line));
      assert.equal(noteSide({ old_line: line, new_line: null }), undefined, String(line));
    }
    assert.deepEqual(noteSide({ old_line: 2, new_line: 0 }), { side: 'base', line: 2 });
  });

  it('says where a diff note is for a link to it: path and line of its side, outdated on another head', () => {
    const position = { old_path: 'a.ts', new_path: 'b.ts', old_line: null, new_line: 4, head_sha: 'h2' };
    assert.deepEqual(notePlace(position, 'h2'), { path: 'b.ts', line: 4, side: 'head', outdated: false });
    assert.deepEqual(notePlace(position, 'h3'), { path: 'b.ts', line: 4, side: 'head', outdated: true });
    assert.deepEqual(notePlace({ ...position, old_line: 7, new_line: null }, 'h2'), {
      path: 'a.ts',
      line: 7,
      side: 'base',
      outdated: false,
    });
    assert.equal(notePlace({ ...position, new_line: null }, 'h2'), undefined);
    assert.equal(notePlace(undefined, 'h2'), undefined);
  });

  it("names each end of a range of lines as GitLab's line_range does, with its line code", () => {
    // New line 2 is added after old line 1: its old counter is 2.
    assert.deepEqual(lineRangeEnd(DIFF, 'head', 2, 'h'), {
      line_code: 'h_2_2',
      type: 'new',
      old_line: null,
      new_line: 2,
    });
    assert.deepEqual(lineRangeEnd(DIFF, 'head', 3, 'h'), {
      line_code: 'h_2_3',
      type: null,
      old_line: 2,
      new_line: 3,
    });
    // Old line 5 is removed before new line 6.
    assert.deepEqual(lineRangeEnd(DIFF, 'base', 5, 'h'), {
      line_code: 'h_5_6',
      type: 'old',
      old_line: 5,
      new_line: null,
    });
    assert.equal(lineRangeEnd(DIFF, 'head', 40, 'h'), undefined, 'off the diff');
  });
});
