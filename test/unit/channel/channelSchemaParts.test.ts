// The building blocks of the channel schemas, as tables: numbers as old and new hubs send them,
// 0/1 flags, zero dates, and the access lists every record carries.
import assert from 'node:assert/strict';
import * as z from 'zod';
import {
  AccessFieldsShape,
  FlagSchema,
  IntLikeSchema,
  isZeroDate,
} from '../../../src/api/channel/schemas/common';

describe('channel schema parts, as tables', () => {
  it('reads integers given as numbers or decimal text, and refuses the rest', () => {
    const rows: [unknown, number | 'refused'][] = [
      [3934, 3934],
      ['3934', 3934],
      [' 42 ', 42],
      ['-7', -7],
      ['0', 0],
      ['3.5', 'refused'],
      [3.5, 'refused'],
      ['12a', 'refused'],
      ['a12', 'refused'],
      ['', 'refused'],
      ['-', 'refused'],
      [null, 'refused'],
    ];
    for (const [input, expected] of rows) {
      const result = IntLikeSchema.safeParse(input);
      assert.deepEqual(result.success ? result.data : 'refused', expected, JSON.stringify(input));
    }
    const refused = IntLikeSchema.safeParse('12a');
    assert.ok(!refused.success);
    assert.match(JSON.stringify(refused.error.issues), /should be an integer/);
  });

  it('reads 0/1 columns as flags', () => {
    const rows: [unknown, boolean | 'refused'][] = [
      [true, true],
      [false, false],
      [1, true],
      [0, false],
      ['1', true],
      ['0', false],
      [' 1 ', true],
      ['yes', 'refused'],
    ];
    for (const [input, expected] of rows) {
      const result = FlagSchema.safeParse(input);
      assert.deepEqual(result.success ? result.data : 'refused', expected, JSON.stringify(input));
    }
  });

  it('knows the zero dates servers write for "never", and only those', () => {
    const rows: [string | null | undefined, boolean][] = [
      [undefined, true],
      [null, true],
      ['', true],
      ['0000-00-00 00:00:00', true],
      ['0001-01-01 00:00:00', true],
      ['0001-01-01', true],
      ['0002-01-01 00:00:00', false],
      ['2024-06-30 10:01:02', false],
      [' 0000-00-00 00:00:00', false],
      ['1000-01-01 00:00:00', false],
    ];
    for (const [input, expected] of rows) assert.equal(isZeroDate(input), expected, JSON.stringify(input));
  });

  it('reads the four access lists, each text or nothing', () => {
    const access = z.looseObject(AccessFieldsShape);
    assert.deepEqual(Object.keys(AccessFieldsShape), ['allow_cid', 'allow_gid', 'deny_cid', 'deny_gid']);
    const parsed = access.parse({ allow_cid: '<a>', allow_gid: null, deny_cid: '' });
    assert.deepEqual(parsed, { allow_cid: '<a>', allow_gid: null, deny_cid: '' });
    for (const key of Object.keys(AccessFieldsShape))
      assert.equal(access.safeParse({ [key]: 5 }).success, false, `${key} as a number is refused`);
  });
});
