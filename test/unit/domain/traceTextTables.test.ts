// The plain-text helpers of a trace as tables: escape removal byte by byte, where a piece may end,
// how strongly a line reads as the failure, and copies that share no memory.
import assert from 'node:assert/strict';
import { errorRank, findFirstError, flatCopy, isRed, stripAnsi } from '../../../src/domain/trace/traceText';
import { DEFAULT_STYLE, type TraceLine, type TraceStyle } from '../../../src/domain/trace';

const ESC = '\x1b';
const RED: TraceStyle = { ...DEFAULT_STYLE, fg: 1 };

describe('stripAnsi, byte by byte', () => {
  it('ESC followed by each byte', () => {
    for (let code = 0x00; code <= 0x7f; code++) {
      const character = String.fromCharCode(code);
      let expected: string;
      if (character === '[')
        expected = 'a'; // `b` is the final byte of an empty CSI
      else if (character === ']')
        expected = 'a'; // an OSC that never ends takes the rest
      else if (code >= 0x28 && code <= 0x2f)
        expected = 'a'; // charset: the next character is its name
      else if (code >= 0x20 && code <= 0x7e)
        expected = 'ab'; // a two-character sequence
      else if (code === 0x1b)
        expected = 'a'; // the second ESC starts `ESC b`
      else expected = `a${character}b`; // a lone ESC: only the ESC goes
      assert.equal(stripAnsi(`a${ESC}${character}b`), expected, `ESC ${code.toString(16)}`);
    }
  });

  it('each byte inside `ESC [`: final bytes end it, parameters and intermediates continue it, others are kept', () => {
    for (let code = 0x00; code <= 0x7f; code++) {
      const character = String.fromCharCode(code);
      let expected: string;
      if (code >= 0x40 && code <= 0x7e)
        expected = 'amX'; // it is the final byte
      else if (code >= 0x20 && code <= 0x3f)
        expected = 'aX'; // `m` is the final byte
      else if (code === 0x1b)
        expected = 'aX'; // stops before the ESC, which starts `ESC m`
      else expected = `a${character}mX`; // malformed: the sequence stops before it
      assert.equal(stripAnsi(`a${ESC}[${character}mX`), expected, `CSI byte ${code.toString(16)}`);
    }
  });

  it('OSC ends at BEL or ESC \\; a bare ESC inside stops it and starts the next sequence', () => {
    assert.equal(stripAnsi(`a${ESC}]0;title\x07b`), 'ab');
    assert.equal(stripAnsi(`a${ESC}]0;title${ESC}\\b`), 'ab');
    assert.equal(stripAnsi(`a${ESC}]0;title${ESC}[1mb`), 'ab');
    assert.equal(stripAnsi(`a${ESC}]0;title${ESC}`), 'a');
    assert.equal(stripAnsi(`a${ESC}]0;title\nb`), 'a\nb');
    assert.equal(stripAnsi(`a${ESC}]0;title`), 'a');
  });

  it('a charset designation at the very end, and a lone ESC at the end', () => {
    assert.equal(stripAnsi(`a${ESC}(`), 'a');
    assert.equal(stripAnsi(`a${ESC}`), 'a');
    assert.equal(stripAnsi(`a${ESC}[12`), 'a');
    assert.equal(stripAnsi(`${ESC}[1m${ESC}[0m`), '');
  });
});

describe('errorRank', () => {
  const table: [string, boolean, number | undefined][] = [
    ['ERROR: Job failed: exit code 1', false, 3],
    ['  ERROR: Job failed: exit code 1', false, 3],
    ['ERROR: Job failed', true, 3],
    ['previous ERROR: Job failed', false, 2],
    ['xERROR: Job failed', false, undefined],
    ['WARNING: error while saving cache', false, undefined],
    ['WARNING: Failed to extract cache', true, undefined],
    ['compilation stopped', true, 0],
    ['   ', true, undefined],
    ['compilation stopped', false, undefined],
    ['not ok 3 - login', false, 1],
    ['  not ok 3 - login', false, 1],
    ['x not ok', false, undefined],
    ['FAIL src/a.test.ts', false, 1],
    ['FAILED tests/test_login.py::test_ok', false, 1],
    ['  FAIL src/a.test.ts', false, 1],
    ['xFAIL', false, undefined],
    ['✗ login works', false, 1],
    ['✖ 2 problems', false, 1],
    ['× renders', false, 1],
    ['1 failing', false, 1],
    ['10 failing', false, 1],
    ['123 failed, 4 passed', false, 1],
    ['0 failing', false, undefined],
    ['Error: cannot find module', false, 2],
    ['fatal: repository not found', false, 2],
    ['0 errors', false, undefined],
    ['no error found', false, undefined],
    ['-Werror', false, undefined],
    ['all good', false, undefined],
  ];
  for (const [text, red, expected] of table) {
    it(`${JSON.stringify(text)}${red ? ' in red' : ''} -> ${String(expected)}`, () => {
      assert.equal(errorRank(text, red), expected);
    });
  }

  it('red is colour 1 or its bright form 9, nothing else', () => {
    assert.equal(isRed({ fg: 1 }), true);
    assert.equal(isRed({ fg: 9 }), true);
    for (const fg of [undefined, 0, 2, 8, 10, 196, '#ff0000']) assert.equal(isRed({ fg }), false, String(fg));
  });
});

describe('findFirstError', () => {
  const line = (...spans: [string, TraceStyle?][]): TraceLine => ({
    spans: spans.map(([text, style]) => ({ text, style: style ?? DEFAULT_STYLE })),
    sectionDepth: 0,
    section: undefined,
  });

  it('the first line of the best rank wins; an empty red span makes nothing red', () => {
    const lines = [
      line(['fine']),
      line(['', RED], ['still fine']),
      line(['Error: first']),
      line(['Error: second']),
      line(['not ok 1 - a']),
      line(['not ok 2 - b']),
      line(['ERROR: Job failed']),
    ];
    assert.equal(findFirstError(lines), 4);
    assert.equal(findFirstError(lines.slice(0, 4)), 2);
    assert.equal(findFirstError([...lines, line(['boom', RED]), line(['bang', RED])]), 7);
    assert.equal(findFirstError(lines, 5), 5);
    assert.equal(findFirstError(lines, -3), 4);
    assert.equal(findFirstError(lines, 7), -1);
    assert.equal(findFirstError([]), -1);
  });
});

describe('flatCopy', () => {
  const long = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const table: [number, number | undefined, string][] = [
    [0, undefined, long],
    [0, 20, long.slice(0, 20)],
    [5, undefined, long.slice(5)],
    [2, 20, long.slice(2, 20)],
    [1, 3, 'bc'],
    [0, 12, long.slice(0, 12)],
    [0, 13, long.slice(0, 13)],
    [3, 3, ''],
  ];
  for (const [start, end, expected] of table) {
    it(`(${start}, ${String(end)}) is the slice`, () => {
      assert.equal(flatCopy(long, start, end), expected);
    });
  }
  it('short whole strings come back as they are', () => {
    assert.equal(flatCopy('abc'), 'abc');
    assert.equal(flatCopy(''), '');
  });
});
