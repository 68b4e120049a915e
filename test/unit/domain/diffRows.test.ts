import assert from 'node:assert/strict';
import { MAX_HIGHLIGHT_LENGTH, diffRows, wordChanges } from '../../../src/domain/diffRows';
import { type ChangeFacts, unifiedDiff } from '../../../src/domain/mergeRequestView';

function fileDiff(hunks: string, fields: Partial<ChangeFacts> = {}): string {
  return unifiedDiff({
    old_path: 'src/a.ts',
    new_path: 'src/a.ts',
    new_file: false,
    renamed_file: false,
    deleted_file: false,
    diff: hunks,
    ...fields,
  });
}

describe('diffRows', () => {
  it('numbers context, removed and added lines and pairs a change for word highlights', () => {
    const rows = diffRows(
      fileDiff('@@ -10,4 +10,4 @@ function main() {\n a\n-let b = 1;\n+let b = 2;\n c\n-d\n+D\n'),
    );
    assert.deepEqual(rows.lines, [
      { kind: 'context', oldNumber: 10, newNumber: 10, text: 'a' },
      { kind: 'removed', oldNumber: 11, text: 'let b = 1;', partner: 2 },
      { kind: 'added', newNumber: 11, text: 'let b = 2;', partner: 1 },
      { kind: 'context', oldNumber: 12, newNumber: 12, text: 'c' },
      { kind: 'removed', oldNumber: 13, text: 'd', partner: 5 },
      { kind: 'added', newNumber: 13, text: 'D', partner: 4 },
    ]);
    assert.deepEqual(rows.unified, [
      { hunk: '@@ -10,4 +10,4 @@ function main() {' },
      ...[0, 1, 2, 3, 4, 5].map((line) => ({ line })),
    ]);
    assert.deepEqual(rows.split, [
      { hunk: '@@ -10,4 +10,4 @@ function main() {' },
      { old: 0, new: 0 },
      { old: 1, new: 2 },
      { old: 3, new: 3 },
      { old: 4, new: 5 },
    ]);
  });

  it('puts unequal runs side by side with empty cells, and starts a new change after additions', () => {
    const rows = diffRows(fileDiff('@@ -1,3 +1,3 @@\n-a\n-b\n-c\n+x\n+y\n-z\n+w\n'));
    assert.deepEqual(rows.split.slice(1), [
      { old: 0, new: 3 },
      { old: 1, new: 4 },
      { old: 2, new: undefined },
      { old: 5, new: 6 },
    ]);
    assert.equal(rows.lines[2]?.partner, undefined);
    assert.equal(rows.lines[5]?.partner, 6);
    assert.equal(rows.unified.length, 8, 'one header and every line, in the order of the diff');
  });

  it('keeps several hunks, each with its header, and a new file of 5,000 lines numbered in order', () => {
    const hunks = diffRows(fileDiff('@@ -1,1 +1,1 @@\n-x\n+y\n@@ -40,1 +40,1 @@ tail\n-p\n+q\n'));
    assert.deepEqual(
      hunks.unified.filter((row) => 'hunk' in row),
      [{ hunk: '@@ -1,1 +1,1 @@' }, { hunk: '@@ -40,1 +40,1 @@ tail' }],
    );
    const body = Array.from({ length: 5000 }, (_, index) => `+line ${index + 1}`).join('\n');
    const big = diffRows(fileDiff(`@@ -0,0 +1,5000 @@\n${body}\n`, { new_file: true }));
    assert.equal(big.lines.length, 5000);
    assert.equal(big.split.length, 5001);
    big.lines.forEach((line, index) => {
      assert.equal(line.newNumber, index + 1);
      assert.equal(line.text, `line ${index + 1}`);
    });
  });

  it('has no rows for a diff without hunks (a rename, a binary file)', () => {
    const rows = diffRows(fileDiff('', { renamed_file: true, old_path: 'a', new_path: 'b' }));
    assert.deepEqual(rows, { lines: [], unified: [], split: [] });
  });

  it('keeps markup in diff lines as text', () => {
    const rows = diffRows(fileDiff('@@ -1,1 +1,1 @@\n-<img src=x onerror=alert(1)>\n+<b>&amp;</b>\n'));
    assert.deepEqual(
      rows.lines.map((line) => line.text),
      ['<img src=x onerror=alert(1)>', '<b>&amp;</b>'],
    );
  });
});

describe('wordChanges', () => {
  it('finds the changed words on both sides', () => {
    assert.deepEqual(wordChanges('let b = 1;', 'let b = 22;'), { old: [[8, 9]], new: [[8, 10]] });
    assert.deepEqual(wordChanges('const a = f(x)', 'const a = f(x) + g'), {
      old: [],
      new: [[14, 18]],
    });
  });

  it('marks nothing when the lines share only spaces, or are too long to diff', () => {
    assert.deepEqual(wordChanges('alpha beta', 'gamma delta'), { old: [], new: [] });
    const long = 'x '.repeat(MAX_HIGHLIGHT_LENGTH);
    assert.deepEqual(wordChanges(long, `${long}y`), { old: [], new: [] });
  });
});
