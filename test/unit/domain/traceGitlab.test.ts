// Job logs as GitLab renders them (design.md section 3, 2026-11): runner timestamps and their
// continuations, section names that contain `section_`, `section_end` in the middle of a line, and
// the SGR attributes GitLab shows. Each trace is also parsed split at every position and must come
// out as the one-chunk parse.
import assert from 'node:assert/strict';
import { DEFAULT_STYLE, TraceParser, plainText } from '../../../src/domain/trace';

const ESC = '\x1b';

function parse(...chunks: string[]): TraceParser {
  const parser = new TraceParser();
  for (const chunk of chunks) parser.push(chunk);
  return parser;
}

function texts(parser: TraceParser): string[] {
  return parser.lines.map(plainText);
}

function assertSameAtEverySplit(trace: string): void {
  const expected = parse(trace);
  for (let split = 0; split <= trace.length; split++) {
    const two = parse(trace.slice(0, split), trace.slice(split));
    assert.deepEqual(two.lines, expected.lines, `split at ${split}`);
    assert.deepEqual(two.sections, expected.sections, `split at ${split}`);
  }
  const oneByOne = parse(...trace);
  assert.deepEqual(oneByOne.lines, expected.lines, 'one character at a time');
}

const TIMESTAMPED = [
  `2024-05-14T11:19:19.899359Z 00O Running with gitlab-runner 17.0.0\n`,
  `2024-05-14T11:19:20.100000Z 00O ${ESC}[0Ksection_start:1715685560:prepare_script[collapsed=true]\r${ESC}[0KPreparing\n`,
  `2024-05-14T11:19:21.5Z 01E warning: a long line that the runner cut \n`,
  `2024-05-14T11:19:21.6Z 01E+into two fragments\n`,
  `2024-05-14T11:19:22.000001Z 00O ${ESC}[0Ksection_end:1715685562:prepare_script\r${ESC}[0K\n`,
  `2024-05-14T11:19:23Z 00O ${ESC}[32;1mJob succeeded${ESC}[0;m\n`,
].join('');

describe('GitLab job logs: runner timestamps', () => {
  it('takes the timestamp prefix off each line and keeps the time per line', () => {
    const parser = parse(TIMESTAMPED);
    assert.deepEqual(texts(parser), [
      'Running with gitlab-runner 17.0.0',
      'Preparing',
      'warning: a long line that the runner cut into two fragments',
      'Job succeeded',
    ]);
    assert.deepEqual(
      parser.lines.map((line) => line.time),
      [
        '2024-05-14T11:19:19.899359Z',
        '2024-05-14T11:19:20.100000Z',
        '2024-05-14T11:19:21.5Z',
        '2024-05-14T11:19:23Z',
      ],
    );
  });

  it('still opens and closes sections after the prefix', () => {
    const [section] = parse(TIMESTAMPED).sections;
    assert.equal(section?.name, 'prepare_script');
    assert.equal(section?.header, 'Preparing');
    assert.equal(section?.collapsed, true);
    assert.equal(section?.durationSeconds, 2);
    assert.equal(section?.endLine, 2);
  });

  it('reports a line as open while a continuation may still come', () => {
    const parser = new TraceParser();
    const first = parser.push(`2024-05-14T11:19:21.5Z 01E cut here \n`);
    assert.equal(first.lastLineComplete, false, 'the next fragment may continue it');
    const second = parser.push(`2024-05-14T11:19:21.6Z 01E+and joined\n2024-05-14T11:19:22Z 00O next\n`);
    assert.equal(second.firstChangedLine, 0);
    assert.deepEqual(texts(parser), ['cut here and joined', 'next']);
  });

  it('leaves lines without a prefix alone, and a line that only looks like one', () => {
    const parser = parse('2024-05-14 not a stamp\n2024-05-14T11:19:19Z 0O short stream\nplain\n');
    assert.deepEqual(texts(parser), [
      '2024-05-14 not a stamp',
      '2024-05-14T11:19:19Z 0O short stream',
      'plain',
    ]);
    assert.ok(parser.lines.every((line) => line.time === undefined));
  });

  it('parses the same at every split', () => {
    assertSameAtEverySplit(TIMESTAMPED);
  });
});

describe('GitLab job logs: sections', () => {
  const trace = [
    `${ESC}[0Ksection_start:1700000000:my_section_2\r${ESC}[0KHeader one\n`,
    `inside one\n`,
    `${ESC}[0Ksection_start:1700000001:section_tests[collapsed=true]\r${ESC}[0KHeader two\n`,
    `inside two\n`,
    `${ESC}[0Ksection_end:1700000005:section_tests\r${ESC}[0K`,
    `${ESC}[0Ksection_end:1700000009:my_section_2\r${ESC}[0K`,
    `after\n`,
  ].join('');

  it('folds sections whose names contain section_, with their durations', () => {
    const parser = parse(trace);
    assert.deepEqual(
      parser.sections.map((section) => [section.name, section.header, section.durationSeconds]),
      [
        ['my_section_2', 'Header one', 9],
        ['section_tests', 'Header two', 4],
      ],
    );
    assert.deepEqual(texts(parser), ['Header one', 'inside one', 'Header two', 'inside two', 'after']);
  });

  it('closes a section at a section_end in the middle of a line, which ends the line there', () => {
    const parser = parse(
      `${ESC}[0Ksection_start:1:build\r${ESC}[0KBuilding\n`,
      `compiled${ESC}[0Ksection_end:3:build\r${ESC}[0K and linked\n`,
      `next\n`,
    );
    assert.deepEqual(texts(parser), ['Building', 'compiled', ' and linked', 'next']);
    assert.equal(parser.sections[0]?.durationSeconds, 2);
    assert.equal(parser.sections[0]?.endLine, 1);
  });

  it('drops an end marker of a section that never opened', () => {
    const parser = parse(`one\n${ESC}[0Ksection_end:5:never_opened\r${ESC}[0Ktwo\n`);
    assert.deepEqual(texts(parser), ['one', 'two']);
    assert.equal(parser.sections.length, 0);
  });

  it('parses the same at every split', () => {
    assertSameAtEverySplit(trace);
  });
});

describe('GitLab job logs: SGR attributes', () => {
  function styleOf(sgr: string): unknown {
    const line = parse(`${ESC}[${sgr}mx\n`).lines[0];
    return line?.spans[0]?.style;
  }

  it('strikethrough 9 and 29, conceal 8 and 28, both reset by 0', () => {
    assert.equal((styleOf('9') as { strike: boolean }).strike, true);
    assert.equal((styleOf('9;29') as { strike: boolean }).strike, false);
    assert.equal((styleOf('8') as { conceal: boolean }).conceal, true);
    assert.equal((styleOf('8;28') as { conceal: boolean }).conceal, false);
    assert.equal(styleOf('9;8;0'), DEFAULT_STYLE);
  });

  it('38;1 and 48;1 do not swallow the code after them', () => {
    assert.deepEqual({ ...(styleOf('38;1;4') as object) }, { ...DEFAULT_STYLE, bold: true, underline: true });
    assert.deepEqual({ ...(styleOf('48;1') as object) }, { ...DEFAULT_STYLE, bold: true });
  });
});

// GitLab's job-log suites, the cases that still differed (design.md section 3, 2026-11-28).
describe('GitLab job logs: the last differences', () => {
  const T1 = '2024-05-14T11:19:19.899359Z';
  const T2 = '2024-05-14T11:19:20.000001Z';

  it('drops a timestamp prefix written after a carriage return, with the overwritten text', () => {
    const trace = `${T1} 00O Hello \r${T2} 00O world!\n${T2} 00O next\n`;
    assert.deepEqual(texts(parse(trace)), ['world!', 'next']);
    assertSameAtEverySplit(trace);
  });

  it('joins a continuation fragment to the line a newline ended, also across pushes', () => {
    const trace = `${T1} 00O Hello \n${T2} 00O+world!\n${T2} 01E other\n`;
    assert.deepEqual(texts(parse(trace)), ['Hello world!', 'other']);
    assertSameAtEverySplit(trace);
  });

  it('ends the line at a section_end: text after it is a line of its own, outside the section', () => {
    const trace = [
      `${ESC}[0Ksection_start:1:build\r${ESC}[0KBuilding\n`,
      `compiled${ESC}[0Ksection_end:3:build\r${ESC}[0Kand linked\n`,
      `next\n`,
    ].join('');
    const parser = parse(trace);
    assert.deepEqual(texts(parser), ['Building', 'compiled', 'and linked', 'next']);
    assert.equal(parser.sections[0]?.endLine, 1);
    assert.deepEqual(
      parser.lines.map((line) => line.sectionDepth),
      [1, 1, 0, 0],
    );
    assertSameAtEverySplit(trace);
  });

  it('keeps the header line of a section opened and closed on one line', () => {
    const trace = `before\n${ESC}[0Ksection_start:1:quick\r${ESC}[0Kdone at once${ESC}[0Ksection_end:2:quick\r${ESC}[0K\nafter\n`;
    const parser = parse(trace);
    assert.deepEqual(texts(parser), ['before', 'done at once', 'after']);
    const [quick] = parser.sections;
    assert.equal(quick?.header, 'done at once');
    assert.equal(quick?.startLine, 1);
    assert.equal(quick?.endLine, 1);
    assert.equal(parser.lines[1]?.section, quick, 'the line is the section’s header');
    assertSameAtEverySplit(trace);
  });

  it('marks the first line of a nested section as that section’s header', () => {
    const trace = [
      `${ESC}[0Ksection_start:1:outer\r${ESC}[0KOuter\n`,
      `${ESC}[0Ksection_start:2:inner\r${ESC}[0KInner\n`,
      `inside\n`,
      `${ESC}[0Ksection_end:3:inner\r${ESC}[0K`,
      `${ESC}[0Ksection_end:4:outer\r${ESC}[0K`,
      `${ESC}[0Ksection_start:5:a\r${ESC}[0K${ESC}[0Ksection_start:5:b\r${ESC}[0KB first\n`,
      `in b\n`,
      `${ESC}[0Ksection_end:6:b\r${ESC}[0K${ESC}[0Ksection_end:6:a\r${ESC}[0K`,
    ].join('');
    const parser = parse(trace);
    const byName = new Map(parser.sections.map((section) => [section.name, section]));
    assert.equal(parser.lines[0]?.section, byName.get('outer'));
    assert.equal(parser.lines[1]?.section, byName.get('inner'));
    assert.equal(byName.get('inner')?.header, 'Inner');
    // Opened together: the line is the innermost one's header.
    assert.equal(parser.lines[3]?.section, byName.get('b'));
    assert.equal(byName.get('b')?.header, 'B first');
    assertSameAtEverySplit(trace);
  });

  it('reads the options it knows beside ones it does not', () => {
    for (const options of [
      'collapsed=true,unused_option=123',
      'unused_option=123,collapsed=true',
      'collapsed=true, x=1',
    ]) {
      const trace = `${ESC}[0Ksection_start:1:opts[${options}]\r${ESC}[0KHeader\nbody\n`;
      assert.equal(parse(trace).sections[0]?.collapsed, true, options);
    }
  });

  it('reads SGR 21 as bold off, as GitLab does', () => {
    const line = parse(`${ESC}[1mbold${ESC}[21mplain\n`).lines[0];
    assert.deepEqual(
      line?.spans.map((span) => [span.text, span.style.bold]),
      [
        ['bold', true],
        ['plain', false],
      ],
    );
    assertSameAtEverySplit(`${ESC}[1mbold${ESC}[21mplain\n`);
  });
});
