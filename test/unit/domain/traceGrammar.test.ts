// The trace grammar as tables: every byte class after ESC, inside and at the end of a CSI sequence,
// OSC endings, carriage returns, section markers and runner timestamps, each read whole and split
// at every position (the fast path of a whole sequence and the step-by-step path must agree).
import assert from 'node:assert/strict';
import {
  TraceParser,
  parseSectionMarker,
  type TraceParserOptions,
} from '../../../src/domain/trace/traceParser';
import type { TraceStyle } from '../../../src/domain/trace';
import { readTimestampPrefix } from '../../../src/domain/trace/traceParser';

const ESC = '\x1b';

function styleTag(style: TraceStyle): string {
  const parts: string[] = [];
  if (style.bold) parts.push('b');
  if (style.italic) parts.push('i');
  if (style.underline) parts.push('u');
  if (style.strike) parts.push('s');
  if (style.conceal) parts.push('c');
  if (style.fg !== undefined) parts.push(`fg${String(style.fg)}`);
  if (style.bg !== undefined) parts.push(`bg${String(style.bg)}`);
  return parts.join(',');
}

/** Lines as `text` (default style) or `{b,fg1}text` spans; `@time ` before a timestamped line. */
function render(parser: TraceParser): string[] {
  return parser.lines.map((line) => {
    const spans = line.spans.map((span) => {
      const tag = styleTag(span.style);
      return tag === '' ? span.text : `{${tag}}${span.text}`;
    });
    return (line.time === undefined ? '' : `@${line.time} `) + spans.join('');
  });
}

function sectionsOf(parser: TraceParser): string[] {
  return parser.sections.map(
    (section) =>
      `${section.name}:${section.startLine}-${String(section.endLine)}` +
      `${section.collapsed ? ' collapsed' : ''} "${section.header}" ${section.startedAt}+${String(section.durationSeconds)}`,
  );
}

function parseChunks(chunks: readonly string[], options?: TraceParserOptions): TraceParser {
  const parser = new TraceParser(options);
  for (const chunk of chunks) parser.push(chunk);
  return parser;
}

/**
 * Reads `input` whole, then split in two at every position, then one character per push, and
 * checks that all agree with `expected` (lines and, when given, sections).
 */
function assertReads(input: string, expected: string[], sections?: string[]): void {
  const whole = parseChunks([input]);
  assert.deepEqual(render(whole), expected, `whole: ${JSON.stringify(input)}`);
  if (sections) assert.deepEqual(sectionsOf(whole), sections, `sections: ${JSON.stringify(input)}`);
  for (let cut = 1; cut < input.length; cut++) {
    const split = parseChunks([input.slice(0, cut), input.slice(cut)]);
    assert.deepEqual(render(split), expected, `split at ${cut}: ${JSON.stringify(input)}`);
    if (sections) assert.deepEqual(sectionsOf(split), sections, `sections split at ${cut}`);
  }
  const perCharacter = parseChunks([...input]);
  assert.deepEqual(render(perCharacter), expected, `per character: ${JSON.stringify(input)}`);
}

/** What `ESC [ d m` does for each single digit d. */
const DIGIT_STYLE = ['', '{b}', '', '{i}', '{u}', '', '', '', '{c}', '{s}'];

describe('Trace grammar: ESC followed by each byte', () => {
  it('a printable byte (0x20 to 0x7e) makes a two-character sequence that is dropped whole', () => {
    for (let code = 0x20; code <= 0x7e; code++) {
      const character = String.fromCharCode(code);
      // `[` and `]` open CSI and OSC, `(` to `/` take one more character: tested below.
      if (character === '[' || character === ']' || (code >= 0x28 && code <= 0x2f)) continue;
      assertReads(`a${ESC}${character}b\n`, ['ab'], undefined);
    }
  });

  it('a control byte after ESC is not part of the sequence: tab, line feed and CR keep their meaning', () => {
    assertReads(`a${ESC}\tb\n`, ['a\tb']);
    assertReads(`a${ESC}\nb\n`, ['a', 'b']);
    assertReads(`a${ESC}\r\nb\n`, ['a', 'b']);
    assertReads(`a${ESC}\x01b\n`, ['ab']);
    assertReads(`a${ESC}\x7fb\n`, ['ab']);
  });

  it('ESC ( to ESC / designate a charset: the next printable byte is its name and is dropped', () => {
    for (let code = 0x28; code <= 0x2f; code++) {
      const introducer = String.fromCharCode(code);
      assertReads(`a${ESC}${introducer}Bb\n`, ['ab']);
      assertReads(`a${ESC}${introducer}\tb\n`, ['a\tb']);
      assertReads(`a${ESC}${introducer}\nb\n`, ['a', 'b']);
      assertReads(`a${ESC}${introducer} b\n`, ['ab']);
      assertReads(`a${ESC}${introducer}~b\n`, ['ab']);
    }
  });

  it('ESC ESC: the first is dropped and the second starts the sequence', () => {
    assertReads(`a${ESC}${ESC}[1mb\n`, ['a{b}b']);
  });
});

describe('Trace grammar: CSI bytes', () => {
  it('each byte after `ESC [`: parameter, intermediate, final or a control that abandons the sequence', () => {
    for (let code = 0x00; code <= 0x7f; code++) {
      const character = String.fromCharCode(code);
      const input = `${ESC}[${character}mX\n`;
      let expected: string[];
      if (code >= 0x30 && code <= 0x39)
        expected = [`${DIGIT_STYLE[code - 0x30] ?? ''}X`]; // SGR of one digit
      else if (code >= 0x20 && code <= 0x3f)
        expected = ['X']; // other parameter or intermediate, `m` ends it
      else if (code >= 0x40 && code <= 0x7e)
        expected = ['mX']; // the byte itself is the final byte
      else if (code === 0x0a) expected = ['', 'mX'];
      else if (code === 0x09) expected = ['\tmX'];
      else if (code === 0x0d)
        expected = ['mX']; // `\r` then text: overwrites the (empty) line
      else if (code === 0x1b)
        expected = ['X']; // a new escape: `ESC m` is dropped whole
      else expected = ['mX']; // other controls are dropped, the sequence abandoned
      assertReads(input, expected);
    }
  });

  it('parameter bytes 0x30 to 0x3b make SGR; `<` to `?` and intermediates 0x20 to 0x2f make it something else', () => {
    assertReads(`${ESC}[1;3mX\n`, ['{b,i}X']);
    assertReads(`${ESC}[0;1mX\n`, ['{b}X']);
    assertReads(`${ESC}[9mX\n`, ['{s}X']);
    assertReads(`${ESC}[38:5:1mX\n`, ['{fg1}X']);
    for (const marker of ['<', '=', '>', '?']) assertReads(`${ESC}[${marker}1mX\n`, ['X']);
    for (const marker of ['<', '=', '>', '?']) assertReads(`${ESC}[1${marker}mX\n`, ['X']);
    for (let code = 0x20; code <= 0x2f; code++) {
      assertReads(`${ESC}[1${String.fromCharCode(code)}mX\n`, ['X']);
      assertReads(`${ESC}[${String.fromCharCode(code)}1mX\n`, ['X']);
    }
  });

  it('only `m` changes the style; every other final byte is dropped without effect', () => {
    for (let code = 0x40; code <= 0x7e; code++) {
      const final = String.fromCharCode(code);
      assertReads(`a${ESC}[1${final}b\n`, code === 0x6d ? ['a{b}b'] : ['ab']);
    }
  });

  it('a byte that cannot be in a CSI sequence abandons it and is read as text', () => {
    assertReads(`${ESC}[1\nX\n`, ['', 'X']);
    assertReads(`${ESC}[31\tX\n`, ['\tX']);
    assertReads(`${ESC}[1\x7fmX\n`, ['mX']);
    assertReads(`${ESC}[1\x1f@X\n`, ['@X']);
    assertReads(`${ESC}[1é\n`, ['é']);
    assertReads(`${ESC}[31${ESC}[1mX\n`, ['{b}X']);
  });

  it('SGR parameters up to 256 characters are read; longer lists are ignored', () => {
    const at256 = '0;'.repeat(127) + '01';
    const at257 = '0;'.repeat(127) + '001';
    assert.equal(at256.length, 256);
    assertReads(`${ESC}[${at256}mX\n`, ['{b}X']);
    assertReads(`${ESC}[${at257}mX\n`, ['X']);
    // The same across a chunk boundary inside the parameters.
    const parser = parseChunks([`${ESC}[${at257.slice(0, 200)}`, `${at257.slice(200)}mX\n`]);
    assert.deepEqual(render(parser), ['X']);
  });

  it('an empty SGR and an empty parameter (read as 0) return to the default style', () => {
    assertReads(`${ESC}[1ma${ESC}[mb${ESC}[1;ma${ESC}[;1mb\n`, ['{b}aba{b}b']);
  });
});

describe('Trace grammar: style transitions are remembered per style without mixing them up', () => {
  it('every SGR code from the default style, read twice, gives what a fresh parser gives', () => {
    const codes = [
      ...Array.from({ length: 108 }, (_, code) => String(code)),
      '38;5;1',
      '48;5;2',
      '38;2;1;2;3',
    ];
    const parser = new TraceParser();
    for (const round of [1, 2]) {
      for (const code of codes) {
        parser.push(`${ESC}[${code}mX${ESC}[0m\n`);
        const fresh = parseChunks([`${ESC}[${code}mX\n`]);
        assert.deepEqual(render(parser).at(-1), render(fresh)[0], `round ${round}, code ${code}`);
      }
    }
  });

  it('from one style, each code leads to its own style, also for orders that would collide in a cache key', () => {
    const sequences = ['13', '31', '1;3', '3;1', '01;3', '1;03', '1:3', '11', '1;1', '0;1', '10', '1'];
    const parser = new TraceParser();
    for (const round of [1, 2]) {
      for (const sequence of sequences) {
        parser.push(`${ESC}[4m${ESC}[${sequence}mX${ESC}[0m\n`);
        const fresh = parseChunks([`${ESC}[4m${ESC}[${sequence}mX\n`]);
        assert.deepEqual(render(parser).at(-1), render(fresh)[0], `round ${round}: ${sequence}`);
      }
    }
  });

  it('long parameter lists that differ only in their last digit are told apart', () => {
    const parser = new TraceParser();
    const prefix = '38;2;255;100;101;0;0;0;0;';
    for (const last of ['1', '3', '4', '9', '8', '1', '3']) {
      parser.push(`${ESC}[${prefix}${last}mX${ESC}[0m\n`);
      const fresh = parseChunks([`${ESC}[${prefix}${last}mX\n`]);
      assert.deepEqual(render(parser).at(-1), render(fresh)[0], `last ${last}`);
    }
  });

  it('more distinct transitions than the cache keeps still give the right style', () => {
    const parser = new TraceParser();
    const lines: string[] = [];
    for (let value = 0; value < 1100; value++) {
      const red = value % 256;
      const green = Math.floor(value / 256);
      parser.push(`${ESC}[38;2;${red};${green};0mX${ESC}[0m\n`);
      lines.push(`{fg#${hexByte(red)}${hexByte(green)}00}X`);
    }
    for (let value = 0; value < 1100; value += 97) {
      const red = value % 256;
      const green = Math.floor(value / 256);
      parser.push(`${ESC}[38;2;${red};${green};0mX${ESC}[0m\n`);
      lines.push(`{fg#${hexByte(red)}${hexByte(green)}00}X`);
    }
    assert.deepEqual(render(parser), lines);
  });
});

function hexByte(value: number): string {
  return value.toString(16).padStart(2, '0');
}

describe('Trace grammar: OSC sequences', () => {
  it('end at BEL, at ESC \\, or give up at the line end', () => {
    assertReads(`a${ESC}]0;title\x07b\n`, ['ab']);
    assertReads(`a${ESC}]8;;https://x${ESC}\\link${ESC}]8;;${ESC}\\b\n`, ['alinkb']);
    assertReads(`a${ESC}]0;never ends\nb\n`, ['a', 'b']);
  });

  it('ESC followed by anything but `\\` inside an OSC ends it and starts a new sequence', () => {
    assertReads(`a${ESC}]0;title${ESC}[1mb\n`, ['a{b}b']);
    assertReads(`a${ESC}]0;title${ESC}7b\n`, ['ab']);
    assertReads(`a${ESC}]0;title${ESC}${ESC}\\b\n`, ['ab']);
    // The ESC that ends an OSC starts its own sequence: the character before it is no part of that.
    assertReads(`a${ESC}]0;x(${ESC}\\b\n`, ['ab']);
    assertReads(`a${ESC}]0;x[${ESC}[1mb\n`, ['a{b}b']);
  });
});

describe('Trace grammar: carriage returns and control characters', () => {
  it('CR LF, CR CR LF and LF end a line; a lone CR overwrites it', () => {
    assertReads('a\r\nb\r\r\nc\nd\re\n', ['a', 'b', 'c', 'e']);
    assertReads('10%\r50%\r100%\n', ['100%']);
    assertReads('a\r\r\r\rb\n', ['b']);
    assertReads(`${ESC}[1mbold\rplain\n`, ['{b}plain']);
  });

  it('a CR overwrites a line of several spans', () => {
    assertReads(`a${ESC}[1mb${ESC}[0mc\rd\n`, ['d']);
  });

  it('every control character other than tab, LF, CR and ESC is dropped', () => {
    for (let code = 0x00; code < 0x20; code++) {
      if (code === 0x09 || code === 0x0a || code === 0x0d || code === 0x1b) continue;
      const control = String.fromCharCode(code);
      assertReads(`a${control}b${control}\n`, ['ab']);
      assertReads(`${control}${control}\n`, ['']);
    }
    assertReads('a\x7fb\n', ['ab']);
    assertReads('\x07', []);
    assertReads('\x07\x07\x07', []);
  });

  it('a chunk ending in the first half of a surrogate pair shows nothing of it until the second half', () => {
    for (const high of ['\ud800', '\udbff']) {
      const parser = new TraceParser();
      parser.push(`a${high}`);
      assert.deepEqual(render(parser), ['a'], `high ${high.charCodeAt(0).toString(16)}`);
      parser.push('\udc00b');
      assert.deepEqual(render(parser), [`a${high}\udc00b`]);
    }
    const parser = new TraceParser();
    parser.push('a\udc00');
    assert.deepEqual(render(parser), ['a\udc00'], 'a low surrogate is not held back');
    parser.push('\ud7ff');
    assert.deepEqual(render(parser), ['a\udc00\ud7ff'], 'below the high surrogates');
  });

  it('the open line is reported as incomplete, a line feed completes it', () => {
    const parser = new TraceParser();
    assert.equal(parser.push('abc').lastLineComplete, false);
    assert.equal(parser.push('\n').lastLineComplete, true);
    assert.equal(parser.push('\x07').lastLineComplete, true);
  });
});

describe('Trace grammar: section markers', () => {
  const names: [string, boolean][] = [
    ['a', true],
    ['Z', true],
    ['z', true],
    ['A', true],
    ['0', true],
    ['9', true],
    ['_', true],
    ['.', true],
    ['-', true],
    ['step_script', true],
    ['my_section_2', true],
    ['/', false],
    [':', false],
    ['@', false],
    ['[', false],
    ['`', false],
    ['{', false],
    [' ', false],
    ['+', false],
  ];

  it('names are made of letters, digits, `_`, `.` and `-` (each boundary of those ranges)', () => {
    for (const [name, valid] of names) {
      const marker = parseSectionMarker(`section_start:1700000000:${name}`, 0);
      assert.equal(marker !== undefined, valid, `name ${JSON.stringify(name)}`);
      if (valid) assert.deepEqual(marker, { kind: 'start', time: 1700000000, name, collapsed: false });
      const end = parseSectionMarker(`x section_end:5:${name}`, 2);
      assert.equal(end !== undefined, valid, `end name ${JSON.stringify(name)}`);
    }
  });

  it('reads the kind, time, name and the collapsed option; refuses everything else', () => {
    const table: [string, unknown][] = [
      ['section_start:1:a', { kind: 'start', time: 1, name: 'a', collapsed: false }],
      ['section_end:42:a', { kind: 'end', time: 42, name: 'a', collapsed: false }],
      ['section_start:1:a[collapsed=true]', { kind: 'start', time: 1, name: 'a', collapsed: true }],
      ['section_start:1:a[collapsed=false]', { kind: 'start', time: 1, name: 'a', collapsed: false }],
      ['section_start:1:a[]', { kind: 'start', time: 1, name: 'a', collapsed: false }],
      [
        'section_start:1:a[hide_duration=true,collapsed=true]',
        { kind: 'start', time: 1, name: 'a', collapsed: true },
      ],
      [
        'section_start:1:a[collapsed=true,hide_duration=true]',
        { kind: 'start', time: 1, name: 'a', collapsed: true },
      ],
      ['section_start:1:a[ collapsed=true ]', { kind: 'start', time: 1, name: 'a', collapsed: true }],
      ['section_start:1:a[,collapsed=true]', { kind: 'start', time: 1, name: 'a', collapsed: true }],
      ['section_start:1:a[collapsed=truex]', { kind: 'start', time: 1, name: 'a', collapsed: false }],
      ['section_start:1:a[xcollapsed=true]', { kind: 'start', time: 1, name: 'a', collapsed: false }],
      ['section_start:1:a[collapsed=true', undefined],
      ['section_start:1:a[collapsed=true]x', undefined],
      ['section_end:1:a[collapsed=true]', undefined],
      ['section_start:1:a b', undefined],
      ['section_start:1:', undefined],
      ['section_start::a', undefined],
      ['section_start:1a:a', undefined],
      ['section_start:12ab', undefined],
      ['section_start:1', undefined],
      ['section_start:', undefined],
      ['section_middle:1:a', undefined],
      ['section_star:1:a', undefined],
      ['section_start:0123:a', { kind: 'start', time: 123, name: 'a', collapsed: false }],
    ];
    for (const [text, expected] of table) assert.deepEqual(parseSectionMarker(text, 0), expected, text);
  });

  it('a marker ends at a CR; the header is the next line; an end closes the innermost section of its name', () => {
    assertReads(
      `${ESC}[0Ksection_start:10:outer[collapsed=true]\r${ESC}[0Kouter header\n` +
        `section_start:11:inner\rinner header\nbody\n` +
        `section_end:15:inner\rsection_end:20:outer\rafter\n`,
      ['outer header', 'inner header', 'body', 'after'],
      ['outer:0-2 collapsed "outer header" 10+10', 'inner:1-2 "inner header" 11+4'],
    );
  });

  it('a line that held only a marker is no line, as in GitLab: `echo -e "\\e[0Ksection_end:…\\r\\e[0K"` leaves no blank line', () => {
    // The form GitLab's documentation gives for sections written by a job's own script.
    assertReads(
      `${ESC}[0Ksection_start:1:mine\r${ESC}[0KHeader\n` +
        'hidden when collapsed\n' +
        `${ESC}[0Ksection_end:2:mine\r${ESC}[0K\n` +
        'after\n',
      ['Header', 'hidden when collapsed', 'after'],
      ['mine:0-1 "Header" 1+1'],
    );
  });

  it('a blank line after a marker-only line is kept: only the marker line goes', () => {
    assertReads(`a\nsection_end:2:s\r${ESC}[0K\n\nb\n`, ['a', '', 'b']);
    // Text beside the marker makes it a line; a CR that then overwrites it leaves a blank line.
    assertReads(`a\nx section_end:2:s\r\r${ESC}[0K\nb\n`, ['a', '', 'b']);
    const at = (second: number): string => `2024-05-14T11:19:0${String(second)}Z 00O `;
    assertReads(`${at(1)}a\n${at(2)}section_end:2:s\r${ESC}[0K\n${at(3)}\n${at(4)}b\n`, [
      '@2024-05-14T11:19:01Z a',
      '@2024-05-14T11:19:03Z ',
      '@2024-05-14T11:19:04Z b',
    ]);
  });

  it('text before a start marker becomes a line of its own; an end marker ends the line, as in GitLab', () => {
    assertReads(
      'before section_start:1:s\rheader\nbody section_end:3:s\r tail\nafter\n',
      ['before ', 'header', 'body ', ' tail', 'after'],
      ['s:1-2 "header" 1+2'],
    );
  });

  it('a marker whose text has several styles is removed, keeping the styled text before it', () => {
    assertReads(
      `${ESC}[1mbold ${ESC}[0msection_start:1:s\rheader\nx${ESC}[1my${ESC}[0msection_end:2:s\rz\n`,
      ['{b}bold ', 'header', 'x{b}y', 'z'],
      ['s:1-2 "header" 1+1'],
    );
    assertReads(
      `a${ESC}[1mb${ESC}[0mc section_${ESC}[1mstart:1:s\rh\n`,
      ['a{b}bc ', '{b}h'],
      ['s:1-undefined "h" 1+undefined'],
    );
  });

  it('an end of an unknown name is ignored, an end closes the sections opened inside it, durations are never negative', () => {
    assertReads(
      'section_start:10:a\rA\nsection_start:11:b\rB\nsection_end:9:nobody\rsection_end:5:a\rafter\n',
      ['A', 'B', 'after'],
      ['a:0-1 "A" 10+0', 'b:1-1 "B" 11+0'],
    );
  });

  it('a section that ends before its header line completes keeps the header line', () => {
    assertReads('section_start:1:s\rsection_end:2:s\rx\n', ['x'], ['s:0-0 "" 1+1']);
  });

  it('a CR after text that cannot end a marker is an overwrite', () => {
    assertReads('section_start:1:s \rx\n', ['x'], []);
    assertReads('section_start:1:s[\rx\n', ['x'], []);
    assertReads('section_start:1:s]\rx\n', ['x'], []);
  });

  it('a CR right after a style change ends a marker written before the change', () => {
    assertReads(`section_start:1:s${ESC}[0m\rheader\n`, ['header'], ['s:0-undefined "header" 1+undefined']);
  });

  it('without retained lines, sections are the open ones', () => {
    const parser = parseChunks(['section_start:1:a\rA\nsection_start:2:b\rB\nsection_end:3:b\r'], {
      retainLines: false,
    });
    assert.deepEqual(
      parser.sections.map((section) => section.name),
      ['a'],
    );
  });
});

describe('Trace grammar: runner timestamps', () => {
  const STAMP = '2024-05-14T11:19:19.899359Z';

  it('reads `<time> <2 hex><O|E>` then a space or `+`, and nothing else', () => {
    const table: [string, ReturnType<typeof readTimestampPrefix>][] = [
      [`${STAMP} 00O x`, { time: STAMP, continuation: false, end: STAMP.length + 5 }],
      [`${STAMP} 00E x`, { time: STAMP, continuation: false, end: STAMP.length + 5 }],
      // GitLab's runner writes `+` in the space's place: the text starts right after it.
      [`${STAMP} 00O+ x`, { time: STAMP, continuation: true, end: STAMP.length + 5 }],
      [`${STAMP} 00O+x`, { time: STAMP, continuation: true, end: STAMP.length + 5 }],
      [`${STAMP} 9aO x`, { time: STAMP, continuation: false, end: STAMP.length + 5 }],
      [`${STAMP} afO x`, { time: STAMP, continuation: false, end: STAMP.length + 5 }],
      [`${STAMP} AFO x`, { time: STAMP, continuation: false, end: STAMP.length + 5 }],
      [`${STAMP} fAO x`, { time: STAMP, continuation: false, end: STAMP.length + 5 }],
      ['2024-05-14T11:19:19Z 01O x', { time: '2024-05-14T11:19:19Z', continuation: false, end: 25 }],
      ['2024-05-14T11:19:19.1Z 01O x', { time: '2024-05-14T11:19:19.1Z', continuation: false, end: 27 }],
      [
        '2024-05-14T11:19:19.123456789Z 01O x',
        { time: '2024-05-14T11:19:19.123456789Z', continuation: false, end: 35 },
      ],
      ['2024-05-14T11:19:19.1234567890Z 01O x', undefined],
      ['2024-05-14T11:19:19.Z 01O x', undefined],
      ['2024-05-14T11:19:19 01O x', undefined],
      [`${STAMP} 0gO x`, undefined],
      [`${STAMP} g0O x`, undefined],
      [`${STAMP} 0GO x`, undefined],
      [`${STAMP} 0\`O x`, undefined],
      [`${STAMP} 0@O x`, undefined],
      [`${STAMP} 0/O x`, undefined],
      [`${STAMP} 0:O x`, undefined],
      [`${STAMP} 00X x`, undefined],
      [`${STAMP} 00o x`, undefined],
      [`${STAMP} 00Ox`, undefined],
      [`${STAMP} 00O-x`, undefined],
      [`${STAMP}  00O x`, undefined],
      [`${STAMP}\t00O x`, undefined],
      ['2024/05-14T11:19:19Z 00O x', undefined],
      ['2024-05/14T11:19:19Z 00O x', undefined],
      ['2024-05-14 11:19:19Z 00O x', undefined],
      ['2024-05-14T11-19:19Z 00O x', undefined],
      ['2024-05-14T11:19-19Z 00O x', undefined],
      ['2024-05-14T11:19:1xZ 00O x', undefined],
      ['x024-05-14T11:19:19Z 00O x', undefined],
      ['2x24-05-14T11:19:19Z 00O x', undefined],
      ['2024-x5-14T11:19:19Z 00O x', undefined],
      ['2024-05-14T11:19:19z 00O x', undefined],
      ['Running with gitlab-runner', undefined],
    ];
    for (const [text, expected] of table) assert.deepEqual(readTimestampPrefix(text, 0), expected, text);
  });

  it('a prefix cut anywhere is `partial`, never a wrong answer', () => {
    const full = `${STAMP} 00O+x`;
    for (let length = 1; length < full.length - 1; length++) {
      assert.equal(readTimestampPrefix(full.slice(0, length), 0), 'partial', full.slice(0, length));
    }
    assert.equal(readTimestampPrefix('', 0), 'partial');
    assert.equal(readTimestampPrefix('2024-05-14T11:19:19', 0), 'partial');
  });

  it('reads at an offset', () => {
    assert.deepEqual(readTimestampPrefix(`xx${STAMP} 00O x`, 2), {
      time: STAMP,
      continuation: false,
      end: STAMP.length + 7,
    });
  });

  it('prefixes come off every line, `+` continues the line before, a marker-only line is no line', () => {
    const at = (second: number, stream = '00O', plus = ''): string =>
      // The runner writes `+` in the space's place.
      `2024-05-14T11:19:${String(second).padStart(2, '0')}.5Z ${stream}${plus || ' '}`;
    assertReads(
      `${at(1)}first\n${at(2)}second part\n${at(3, '00O', '+')} continued\n` +
        `${at(4)}section_start:1:s\r\n${at(5)}header\n${at(6)}body\n${at(7, '01E')}err\n`,
      [
        '@2024-05-14T11:19:01.5Z first',
        '@2024-05-14T11:19:02.5Z second part continued',
        '@2024-05-14T11:19:05.5Z header',
        '@2024-05-14T11:19:06.5Z body',
        '@2024-05-14T11:19:07.5Z err',
      ],
      ['s:2-undefined "header" 1+undefined'],
    );
  });

  it('a line without a prefix in a timestamped trace still ends the line before', () => {
    assertReads(`2024-05-14T11:19:01Z 00O a\nplain\n2024-05-14T11:19:02Z 00O b\n`, [
      '@2024-05-14T11:19:01Z a',
      '@2024-05-14T11:19:01Z plain',
      '@2024-05-14T11:19:02Z b',
    ]);
  });

  it('a line that only looks like a prefix at first is text', () => {
    assertReads('2024 was a year\n12:00 lunch\n', ['2024 was a year', '12:00 lunch']);
  });
});

describe('Trace grammar: spans and sections at their edges', () => {
  it('a snapshot of the open line keeps what it showed when more of the line arrives', () => {
    const parser = new TraceParser();
    // After a style change the open line's text is all in finished spans.
    const first = parser.push(`a${ESC}[1m`);
    const shown = first.lines.at(-1);
    assert.ok(shown && !first.lastLineComplete);
    assert.deepEqual(
      shown.spans.map((span) => span.text),
      ['a'],
    );
    parser.push(`b${ESC}[0mc`);
    assert.deepEqual(
      shown.spans.map((span) => span.text),
      ['a'],
      'the earlier snapshot is not changed by later text',
    );
  });

  it('a marker in a styled span ends at a CR after a style change, and leaves no empty span', () => {
    assertReads(
      `${ESC}[1msection_start:1:s${ESC}[0m\rheader\n`,
      ['header'],
      ['s:0-undefined "header" 1+undefined'],
    );
    assertReads(`a${ESC}[1msection_start:1:s\rh\n`, ['a', '{b}h'], ['s:1-undefined "h" 1+undefined']);
    const parser = parseChunks([`a${ESC}[1msection_end:2:none\r`]);
    assert.deepEqual(
      parser.lines[0]?.spans.map((span) => span.text),
      ['a'],
      'the removed marker leaves no empty span behind',
    );
  });

  it('the open line shown mid-push has no empty span after a style change', () => {
    const parser = parseChunks([`a${ESC}[1m`]);
    assert.deepEqual(
      parser.lines[0]?.spans.map((span) => span.text),
      ['a'],
    );
  });

  it('a section closed before its header line leaves the sections around it waiting for theirs', () => {
    assertReads(
      'section_start:1:a\rsection_start:2:b\rsection_end:3:b\rheader\n',
      ['header'],
      ['a:0-undefined "header" 1+undefined', 'b:0-0 "" 2+1'],
    );
  });

  it('only `start:` and `end:` follow `section_`', () => {
    assert.equal(parseSectionMarker('section_abcd1:a', 0), undefined);
    assert.equal(parseSectionMarker('section_xend:1:a', 0), undefined);
  });
});

describe('Trace grammar: a timestamp only at the start of a runner line', () => {
  it('text shaped like a timestamp after an escape in the middle of a line is text', () => {
    assertReads(`a${ESC}[1m2024-05-14T11:19:19Z 00O b\n`, ['a{b}2024-05-14T11:19:19Z 00O b']);
  });
});
