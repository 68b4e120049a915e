// The edges of the broadcast message helpers: unreadable dates, ids kept in order, what people type
// for a time, the window in words and a message as one line of plain text.
import assert from 'node:assert/strict';
import {
  describeBroadcastWindow,
  isBroadcastActive,
  parseWhen,
  plainBroadcastText,
  rememberIds,
} from '../../../src/domain/broadcasts';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const at = (when: ReturnType<typeof parseWhen>): number =>
  'date' in when ? when.date.getTime() : Number.NaN;

describe('broadcast message edges', () => {
  it('is not active with a start or an end it cannot read, whichever', () => {
    assert.equal(isBroadcastActive({ starts_at: 'soon', ends_at: null }, NOW), false);
    assert.equal(isBroadcastActive({ starts_at: null, ends_at: 'later' }, NOW), false);
    assert.equal(isBroadcastActive({ starts_at: null, ends_at: null }, NOW), true);
    assert.equal(
      isBroadcastActive({ starts_at: '2026-06-01T12:00:00Z', ends_at: null }, NOW),
      true,
      'from its start',
    );
    assert.equal(
      isBroadcastActive({ starts_at: null, ends_at: '2026-06-01T12:00:00Z' }, NOW),
      false,
      'not at its end',
    );
  });

  it('remembers ids in number order, once each, the newest limit of them', () => {
    assert.deepEqual(rememberIds([10, 2], [7, 2, 30]), [2, 7, 10, 30]);
    assert.deepEqual(rememberIds([1, 2, 3], [4, 5], 3), [3, 4, 5]);
    assert.deepEqual(rememberIds([100, 9], [], 1), [100]);
  });

  it('reads the times people type', () => {
    assert.equal(at(parseWhen('  NOW ', NOW)), NOW);
    assert.equal(at(parseWhen('', NOW)), NOW);
    assert.equal(at(parseWhen('Tomorrow', NOW)), NOW + 86_400_000);
    assert.equal(at(parseWhen('in 30 min', NOW)), NOW + 30 * 60_000);
    assert.equal(at(parseWhen('in 2 hours', NOW)), NOW + 2 * 3_600_000);
    assert.equal(at(parseWhen('in 1h', NOW)), NOW + 3_600_000);
    assert.equal(at(parseWhen('in 3d', NOW)), NOW + 3 * 86_400_000);
    assert.equal(at(parseWhen('IN  2   weeks', NOW)), NOW + 14 * 86_400_000);
    assert.equal(at(parseWhen('in 5 minutes', NOW)), NOW + 5 * 60_000);
    assert.equal(at(parseWhen('  2026-07-01T08:00Z ', NOW)), Date.parse('2026-07-01T08:00Z'));
    assert.equal(at(parseWhen('2026-07-01 08:00:30.5Z', NOW)), Date.parse('2026-07-01T08:00:30.5Z'));
    for (const text of [
      'in2 hours',
      'in 2hours later',
      'soon in 2 hours',
      'x2026-07-01',
      '2026-07-01 junk',
      '2026-13-45',
      'in 2 years',
    ])
      assert.ok('problem' in parseWhen(text, NOW), text);
    const refused = parseWhen('whenever', NOW);
    assert.ok('problem' in refused && /tomorrow/.test(refused.problem));
  });

  it('says the window in words', () => {
    assert.equal(describeBroadcastWindow({ starts_at: null, ends_at: null }, NOW), 'active');
    assert.equal(
      describeBroadcastWindow({ starts_at: null, ends_at: '2026-06-02T08:00:00Z' }, NOW),
      'active · until 2026-06-02 08:00',
    );
    assert.equal(
      describeBroadcastWindow({ starts_at: '2026-06-01T12:00:01Z', ends_at: null }, NOW),
      'scheduled · from 2026-06-01 12:00',
    );
    assert.equal(
      describeBroadcastWindow({ starts_at: '2026-05-01T00:00:00Z', ends_at: '2026-05-02T08:00:00Z' }, NOW),
      'ended 2026-05-02 08:00',
    );
    assert.equal(describeBroadcastWindow({ active: false, starts_at: null, ends_at: null }, NOW), 'inactive');
    assert.equal(
      describeBroadcastWindow({ active: false, starts_at: null, ends_at: 'never' }, NOW),
      'ended ',
    );
  });

  it('makes one line of plain text, entities read, cut with an ellipsis', () => {
    assert.equal(
      plainBroadcastText(
        '<p>Maintenance&nbsp;at <b>10</b> &lt;UTC&gt; &quot;soon&quot; it&#39;s &amp; more</p>',
      ),
      'Maintenance at 10 <UTC> "soon" it\'s & more',
    );
    assert.equal(plainBroadcastText('a\n\n  b\tc'), 'a b c');
    assert.equal(plainBroadcastText('abcdef', 4), 'abc…');
    assert.equal(plainBroadcastText('ab  cdef', 4), 'ab…', 'no space before the ellipsis');
    assert.equal(plainBroadcastText('abcd', 4), 'abcd');
    assert.equal(plainBroadcastText('abc', 0), '…');
  });
});
