// Every SGR code a job may print, as a table: what it does to the text style from a known state.
import assert from 'node:assert/strict';
import { DEFAULT_STYLE, type TraceStyle } from '../../../src/domain/trace';
import { StyleTable, type StyleAttributes, applySgr } from '../../../src/domain/trace/traceStyle';

/** Everything on: each code's effect shows against it (a reset, an "off", a colour change). */
const ALL_ON: StyleAttributes = {
  fg: 3,
  bg: 4,
  bold: true,
  italic: true,
  underline: true,
  strike: true,
  conceal: true,
};
const NONE: StyleAttributes = { ...DEFAULT_STYLE };

function after(parameters: string, from: StyleAttributes): StyleAttributes {
  const attributes = { ...from };
  applySgr(parameters, attributes);
  return attributes;
}

const ON: [string, Partial<StyleAttributes>][] = [
  ['1', { bold: true }],
  ['3', { italic: true }],
  ['4', { underline: true }],
  ['8', { conceal: true }],
  ['9', { strike: true }],
  ['30', { fg: 0 }],
  ['37', { fg: 7 }],
  ['40', { bg: 0 }],
  ['47', { bg: 7 }],
  ['90', { fg: 8 }],
  ['97', { fg: 15 }],
  ['100', { bg: 8 }],
  ['107', { bg: 15 }],
  ['38;5;0', { fg: 0 }],
  ['38;5;255', { fg: 255 }],
  ['48;5;196', { bg: 196 }],
  ['38;2;255;0;16', { fg: '#ff0010' }],
  ['48;2;0;128;255', { bg: '#0080ff' }],
  ['38:5:42', { fg: 42 }],
  ['48:5:7', { bg: 7 }],
  ['38:2:1:2:3', { fg: '#010203' }],
  ['38:2::10:20:30', { fg: '#0a141e' }],
  ['48:2:0:255:255:255', { bg: '#ffffff' }],
  ['4:3', { underline: true }],
  ['1;3;4', { bold: true, italic: true, underline: true }],
];

const OFF: [string, Partial<StyleAttributes>][] = [
  ['0', { ...NONE }],
  ['', { ...NONE }],
  ['22', { bold: false }],
  // GitLab reads 21 as bold off (ECMA-48's double underline is not drawn anywhere it is shown).
  ['21', { bold: false }],
  ['23', { italic: false }],
  ['24', { underline: false }],
  ['28', { conceal: false }],
  ['29', { strike: false }],
  ['39', { fg: undefined }],
  ['49', { bg: undefined }],
  ['4:0', { underline: false }],
  [';1', { ...NONE, bold: true }],
];

/** Codes that change nothing: unknown, out of range, or malformed. */
const IGNORED = [
  '2',
  '5',
  '7',
  '25',
  '27',
  '38',
  '38;5',
  '38;5;256',
  '38;2;1;2',
  '38;2;256;0;0',
  '38;5;-1',
  '48:5:300',
  '38:9:1',
  '99',
  '108',
  'x',
  '-1',
  '1.5',
  '50',
  '89',
  // Not whole numbers where a code or a colour goes: no fractional or negative colour.
  '31.5',
  '38;5;1.5',
  '38;2;x;0;0',
  '38;2;-1;0;0',
  '48;2;0;-5;0',
  // Colon fields: only 38 and 48 carry a colour, and only modes 2 and 5 read one.
  '1:5:3',
  '3:2:1:2:3',
  '38:7:1:2:3',
  '48:3:1:2:3',
];

describe('SGR codes as a table', () => {
  for (const [parameters, change] of ON) {
    it(`ESC[${parameters}m sets ${JSON.stringify(change)}`, () => {
      assert.deepEqual(after(parameters, NONE), { ...NONE, ...change });
    });
  }
  for (const [parameters, change] of OFF) {
    it(`ESC[${parameters}m turns off ${JSON.stringify(change)}`, () => {
      assert.deepEqual(after(parameters, ALL_ON), { ...ALL_ON, ...change });
    });
  }
  for (const parameters of IGNORED) {
    it(`ESC[${parameters}m changes nothing`, () => {
      assert.deepEqual(after(parameters, ALL_ON), ALL_ON);
      assert.deepEqual(after(parameters, NONE), NONE);
    });
  }

  it('reads a code after an unknown 38 mode as a code of its own, as terminals do', () => {
    assert.deepEqual(after('38;1', NONE), { ...NONE, bold: true });
  });

  it('hands out one shared style per combination, the same after the same sequence', () => {
    const table = new StyleTable();
    const red = table.applySgr(DEFAULT_STYLE, '31');
    const again = table.applySgr(DEFAULT_STYLE, '31');
    const viaBold: TraceStyle = table.applySgr(table.applySgr(DEFAULT_STYLE, '1'), '31;22');
    assert.equal(again, red);
    assert.equal(viaBold, red, 'the same attributes reached another way are the same object');
    assert.equal(table.applySgr(red, '0'), DEFAULT_STYLE);
    assert.ok(Object.isFrozen(red));
  });
});
