import assert from 'node:assert/strict';
import {
  describeBroadcastWindow,
  isBroadcastActive,
  isHexColor,
  parseWhen,
  plainBroadcastText,
  rememberIds,
  unseenActiveBroadcasts,
} from '../../../src/domain/broadcasts';

const NOW = Date.parse('2024-03-01T12:00:00Z');

describe('isBroadcastActive', () => {
  it('follows the server when it sends `active`', () => {
    assert.equal(isBroadcastActive({ active: true, starts_at: '2099-01-01T00:00:00Z' }, NOW), true);
    assert.equal(isBroadcastActive({ active: false, starts_at: '2020-01-01T00:00:00Z' }, NOW), false);
  });

  it('otherwise is active while starts_at <= now < ends_at', () => {
    const window = { starts_at: '2024-03-01T11:00:00Z', ends_at: '2024-03-01T13:00:00Z' };
    assert.equal(isBroadcastActive(window, NOW), true);
    assert.equal(isBroadcastActive({ ...window, starts_at: '2024-03-01T12:00:00Z' }, NOW), true);
    assert.equal(isBroadcastActive({ ...window, ends_at: '2024-03-01T12:00:00Z' }, NOW), false);
    assert.equal(isBroadcastActive({ ...window, starts_at: '2024-03-01T12:00:01Z' }, NOW), false);
  });

  it('treats a missing start or end as open, and an unreadable date as inactive', () => {
    assert.equal(isBroadcastActive({}, NOW), true);
    assert.equal(isBroadcastActive({ starts_at: null, ends_at: '2099-01-01T00:00:00Z' }, NOW), true);
    assert.equal(isBroadcastActive({ starts_at: '2020-01-01T00:00:00Z', ends_at: null }, NOW), true);
    assert.equal(isBroadcastActive({ starts_at: 'soon' }, NOW), false);
  });
});

describe('unseenActiveBroadcasts', () => {
  it('keeps the active messages not shown yet, in order', () => {
    const messages = [
      { id: 1, active: true },
      { id: 2, active: false },
      { id: 3, starts_at: '2024-01-01T00:00:00Z', ends_at: '2025-01-01T00:00:00Z' },
      { id: 4, active: true },
    ];
    assert.deepEqual(
      unseenActiveBroadcasts(messages, [4], NOW).map((message) => message.id),
      [1, 3],
    );
    assert.deepEqual(unseenActiveBroadcasts(messages, new Set([1, 3, 4]), NOW), []);
  });
});

describe('rememberIds', () => {
  it('merges without duplicates and keeps the newest ids', () => {
    assert.deepEqual(rememberIds([1, 2], [2, 3]), [1, 2, 3]);
    assert.deepEqual(rememberIds([1, 2, 3], [4, 5], 3), [3, 4, 5]);
  });
});

describe('parseWhen', () => {
  const at = (input: string): string | undefined => {
    const result = parseWhen(input, NOW);
    return 'date' in result ? result.date.toISOString() : undefined;
  };

  it('reads now, relative times and tomorrow', () => {
    assert.equal(at('now'), '2024-03-01T12:00:00.000Z');
    assert.equal(at(''), '2024-03-01T12:00:00.000Z');
    assert.equal(at('in 1 hour'), '2024-03-01T13:00:00.000Z');
    assert.equal(at('in 2 hours'), '2024-03-01T14:00:00.000Z');
    assert.equal(at('In 30 min'), '2024-03-01T12:30:00.000Z');
    assert.equal(at('in 3 days'), '2024-03-04T12:00:00.000Z');
    assert.equal(at('in 1 week'), '2024-03-08T12:00:00.000Z');
    assert.equal(at('tomorrow'), '2024-03-02T12:00:00.000Z');
  });

  it('reads ISO 8601 dates and date-times', () => {
    assert.equal(at('2024-05-01T08:00:00Z'), '2024-05-01T08:00:00.000Z');
    assert.equal(at('2024-05-01T08:00+02:00'), '2024-05-01T06:00:00.000Z');
    assert.equal(at('2024-05-01'), '2024-05-01T00:00:00.000Z');
    assert.ok(at('2024-05-01 08:00'));
  });

  it('explains what it accepts otherwise', () => {
    for (const bad of ['yesterday', 'in an hour', '2024-13-45', '1 May', 'in -1 hours']) {
      const result = parseWhen(bad, NOW);
      assert.ok('problem' in result, bad);
    }
  });
});

describe('isHexColor', () => {
  it('accepts #rgb and #rrggbb only', () => {
    assert.equal(isHexColor('#E75E40'), true);
    assert.equal(isHexColor('#abc'), true);
    assert.equal(isHexColor(' #abc '), true);
    assert.equal(isHexColor('E75E40'), false);
    assert.equal(isHexColor('#abcd'), false);
    assert.equal(isHexColor('red'), false);
    assert.equal(isHexColor('x#abc'), false, 'the whole text');
    assert.equal(isHexColor('#abcdef0'), false, 'the whole text');
  });
});

describe('describeBroadcastWindow', () => {
  it('says whether a message is active, scheduled or over', () => {
    assert.equal(
      describeBroadcastWindow({ starts_at: '2024-01-01T00:00:00Z', ends_at: '2099-12-31T23:59:59Z' }, NOW),
      'active · until 2099-12-31 23:59',
    );
    assert.equal(
      describeBroadcastWindow({ starts_at: '2099-12-31T23:59:59Z', ends_at: '2100-01-01T00:00:00Z' }, NOW),
      'scheduled · from 2099-12-31 23:59',
    );
    assert.equal(
      describeBroadcastWindow({ starts_at: '2023-05-01T08:00:00Z', ends_at: '2023-05-02T08:00:00Z' }, NOW),
      'ended 2023-05-02 08:00',
    );
    assert.equal(describeBroadcastWindow({ active: true }, NOW), 'active');
  });
});

describe('plainBroadcastText', () => {
  it('turns HTML and line breaks into one line of text', () => {
    assert.equal(
      plainBroadcastText('<p>Maintenance\n<b>tonight</b> &amp; tomorrow</p>'),
      'Maintenance tonight & tomorrow',
    );
  });

  it('cuts long messages with an ellipsis', () => {
    assert.equal(plainBroadcastText('abcdefghij', 5), 'abcd…');
    assert.equal(plainBroadcastText('abcde', 5), 'abcde');
  });
});
