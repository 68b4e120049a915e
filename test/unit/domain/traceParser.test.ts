import assert from 'node:assert/strict';
import {
  DEFAULT_STYLE,
  findFirstError,
  parseSectionMarker,
  plainText,
  stripAnsi,
  TraceParser,
  type TraceLine,
} from '../../../src/domain/trace';

const ESC = '\x1b';

function parse(...chunks: string[]): TraceParser {
  const parser = new TraceParser();
  for (const chunk of chunks) parser.push(chunk);
  return parser;
}

function texts(parser: TraceParser): string[] {
  return parser.lines.map(plainText);
}

function sectionStart(time: number, name: string, header: string, options = ''): string {
  return `${ESC}[0Ksection_start:${time}:${name}${options}\r${ESC}[0K${header}\n`;
}

function sectionEnd(time: number, name: string): string {
  return `${ESC}[0Ksection_end:${time}:${name}\r${ESC}[0K`;
}

/** A trace shaped like a GitLab runner's: sections, colours, a progress bar, CSI and OSC noise. */
function realisticTrace(): string {
  return [
    `${ESC}[0KRunning with gitlab-runner 17.0.0 (abc)${ESC}[0;m\n`,
    sectionStart(
      1700000000,
      'prepare_executor',
      `${ESC}[0K${ESC}[36;1mPreparing the "docker" executor${ESC}[0;m`,
    ),
    `Using Docker executor with image ${ESC}[38;5;208mnode:20${ESC}[0m ...\r\n`,
    `Pulling ${ESC}]8;;https://example.com${ESC}\\image${ESC}]8;;${ESC}\\ 10%\r`,
    `Pulling image 50%\r`,
    `${ESC}[KPulling image 100% ✅ 𝄞\n`,
    sectionEnd(1700000004, 'prepare_executor'),
    sectionStart(1700000004, 'step_script', 'Executing "step_script" stage', '[collapsed=true]'),
    `$ npm test\n`,
    `${ESC}[1m${ESC}[3mbold italic${ESC}[22m just italic${ESC}[0m\n`,
    `${ESC}[38;2;255;0;128mpink${ESC}[39m ${ESC}[48;5;17mnavy${ESC}[49m ${ESC}[4munder${ESC}[24m\n`,
    `${ESC}[2A${ESC}[?25lcursor noise${ESC}[?25h\n`,
    `${ESC}[31;1mERROR: Job failed: exit code 1${ESC}[0;m\n`,
    sectionEnd(1700000010, 'step_script'),
    `tail without newline`,
  ].join('');
}

describe('TraceParser styles', () => {
  it('reads 8/16 colours, bold, italic, underline and resets', () => {
    const parser = parse(`${ESC}[31mred${ESC}[1;94mbright bold${ESC}[0mplain ${ESC}[3;4;42mdeco${ESC}[m\n`);
    const spans = parser.lines[0]?.spans ?? [];
    assert.deepEqual(
      spans.map((span) => [span.text, span.style.fg, span.style.bg, span.style.bold]),
      [
        ['red', 1, undefined, false],
        ['bright bold', 12, undefined, true],
        ['plain ', undefined, undefined, false],
        ['deco', undefined, 2, false],
      ],
    );
    assert.equal(spans[2]?.style, DEFAULT_STYLE);
    assert.equal(spans[3]?.style.italic, true);
    assert.equal(spans[3]?.style.underline, true);
  });

  it('reads 256-colour and truecolor, in semicolon and colon forms', () => {
    const parser = parse(
      `${ESC}[38;5;208ma${ESC}[48;2;1;2;255mb${ESC}[0;38:2::16:32:48mc${ESC}[38:5:9;49md${ESC}[39;22me\n`,
    );
    const styles = parser.lines[0]?.spans.map((span) => [span.text, span.style.fg, span.style.bg]);
    assert.deepEqual(styles, [
      ['a', 208, undefined],
      ['b', 208, '#0102ff'],
      ['c', '#102030', undefined],
      ['d', 9, undefined],
      ['e', undefined, undefined],
    ]);
  });

  it('shares one style object per distinct style and merges spans when a sequence changes nothing', () => {
    const parser = parse(`${ESC}[32mone${ESC}[32m two${ESC}[0m x ${ESC}[32mthree\n`);
    const spans = parser.lines[0]?.spans ?? [];
    assert.deepEqual(
      spans.map((span) => span.text),
      ['one two', ' x ', 'three'],
    );
    assert.equal(spans[0]?.style, spans[2]?.style);
    assert.ok(Object.isFrozen(spans[0]?.style));
  });

  it('stays correct past the cache of known sequences (a truecolor gradient)', () => {
    let line = '';
    for (let index = 0; index < 1500; index++)
      line += `${ESC}[38;2;${index % 256};${index >> 8};0m${index % 10}`;
    const spans = parse(line + '\n').lines[0]?.spans ?? [];
    assert.equal(spans.length, 1500);
    assert.equal(spans[1499]?.style.fg, '#db0500');
    assert.equal(spans[300]?.style.fg, '#2c0100');
  });

  it('keeps the style across lines until reset', () => {
    const parser = parse(`${ESC}[33mfirst\nsecond${ESC}[0m\nthird\n`);
    assert.equal(parser.lines[1]?.spans[0]?.style.fg, 3);
    assert.equal(parser.lines[2]?.spans[0]?.style, DEFAULT_STYLE);
  });
});

describe('TraceParser control sequences', () => {
  it('collapses a carriage-return progress bar to its last state', () => {
    const parser = parse('start\n 10% [=>   ]\r 50% [==>  ]\r100% [=====]\ndone\n');
    assert.deepEqual(texts(parser), ['start', '100% [=====]', 'done']);
  });

  it('treats \\r\\n (and \\r\\r\\n) as a plain newline', () => {
    assert.deepEqual(texts(parse('a\r\nb\r\r\nc\r\n')), ['a', 'b', 'c']);
  });

  it('drops erase-line, cursor movement, private CSI and OSC sequences without losing text', () => {
    const trace =
      `a${ESC}[0Kb${ESC}[Kc${ESC}[3;4Hd${ESC}[?1049he` +
      `${ESC}]0;window title\x07f${ESC}]8;;https://x.example${ESC}\\g${ESC}(Bh${ESC}=i\n`;
    assert.deepEqual(texts(parse(trace)), ['abcdefghi']);
  });

  it('does not let an unterminated OSC swallow the following lines', () => {
    assert.deepEqual(texts(parse(`a${ESC}]0;title never ends\nnext\n`)), ['a', 'next']);
  });

  it('keeps tabs and drops other control characters', () => {
    assert.deepEqual(texts(parse('a\tb\x07c\x00d\x08\n')), ['a\tbcd']);
  });
});

describe('TraceParser sections', () => {
  const trace =
    sectionStart(100, 'outer', `${ESC}[36;1mOuter header${ESC}[0m`, '[collapsed=true]') +
    'outer body\n' +
    sectionStart(103, 'inner', 'Inner header') +
    'inner body\n' +
    sectionEnd(110, 'inner') +
    sectionEnd(120, 'never_started') +
    'outer again\n' +
    sectionEnd(130, 'outer') +
    'after\n' +
    sectionStart(140, 'open', 'Still running') +
    'work\n';

  it('records names, headers, line ranges, durations and the collapsed option', () => {
    const parser = parse(trace);
    assert.deepEqual(texts(parser), [
      'Outer header',
      'outer body',
      'Inner header',
      'inner body',
      'outer again',
      'after',
      'Still running',
      'work',
    ]);
    assert.deepEqual(
      parser.sections.map((section) => ({ ...section })),
      [
        {
          name: 'outer',
          header: 'Outer header',
          startLine: 0,
          endLine: 4,
          startedAt: 100,
          endedAt: 130,
          durationSeconds: 30,
          collapsed: true,
        },
        {
          name: 'inner',
          header: 'Inner header',
          startLine: 2,
          endLine: 3,
          startedAt: 103,
          endedAt: 110,
          durationSeconds: 7,
          collapsed: false,
        },
        {
          name: 'open',
          header: 'Still running',
          startLine: 6,
          endLine: undefined,
          startedAt: 140,
          endedAt: undefined,
          durationSeconds: undefined,
          collapsed: false,
        },
      ],
    );
  });

  it('gives each line its depth and marks header lines', () => {
    const parser = parse(trace);
    assert.deepEqual(
      parser.lines.map((line) => line.sectionDepth),
      [1, 1, 2, 2, 1, 0, 1, 1],
    );
    assert.equal(parser.lines[0]?.section?.name, 'outer');
    assert.equal(parser.lines[2]?.section?.name, 'inner');
    assert.equal(parser.lines[1]?.section, undefined);
  });

  it('keeps text before a marker on its own line, and closes inner sections with their parent', () => {
    const parser = parse(
      `before section_start:1:a\r${ESC}[0KA\n` + sectionStart(2, 'b', 'B') + 'body\n' + sectionEnd(5, 'a'),
    );
    assert.deepEqual(texts(parser), ['before ', 'A', 'B', 'body']);
    assert.deepEqual(
      parser.sections.map((section) => [section.name, section.startLine, section.endLine, section.endedAt]),
      [
        ['a', 1, 3, 5],
        ['b', 2, 3, 5],
      ],
    );
  });

  it('leaves text that only looks like a marker alone', () => {
    const parser = parse('section_start:x:name\r\nsection_start:1:bad name\r\n');
    assert.deepEqual(texts(parser), ['section_start:x:name', 'section_start:1:bad name']);
    assert.equal(parser.sections.length, 0);
  });

  it('parses marker text by hand', () => {
    assert.deepEqual(parseSectionMarker('section_start:12:a.b-c_d[collapsed=true,x=1]', 0), {
      kind: 'start',
      time: 12,
      name: 'a.b-c_d',
      collapsed: true,
    });
    assert.equal(parseSectionMarker('section_end:12:name trailing', 0), undefined);
  });
});

describe('TraceParser incremental pushes', () => {
  it('produces the one-chunk result for every split of a realistic trace into two and three chunks', () => {
    const trace = realisticTrace();
    const expected = parse(trace);
    assert.ok(expected.sections.length === 2 && expected.lines.length > 10);
    for (let first = 0; first <= trace.length; first++) {
      const twoChunks = parse(trace.slice(0, first), trace.slice(first));
      assert.deepEqual(twoChunks.lines, expected.lines, `split at ${first}`);
      assert.deepEqual(twoChunks.sections, expected.sections, `split at ${first}`);
      const second = first + ((first * 7919) % (trace.length - first + 1));
      const threeChunks = parse(trace.slice(0, first), trace.slice(first, second), trace.slice(second));
      assert.deepEqual(threeChunks.lines, expected.lines, `split at ${first} and ${second}`);
    }
  });

  it('matches the one-chunk parse when fed one character at a time', () => {
    const trace = realisticTrace();
    const expected = parse(trace);
    const parser = parse(...trace);
    assert.deepEqual(parser.lines, expected.lines);
    assert.deepEqual(parser.sections, expected.sections);
  });

  it('reports deltas that rebuild the same lines when applied in order', () => {
    const trace = realisticTrace().repeat(20);
    const random = seededRandom(42);
    const parser = new TraceParser();
    const view: TraceLine[] = [];
    let offset = 0;
    while (offset < trace.length) {
      const size = 1 + Math.floor(random() * 40);
      const delta = parser.push(trace.slice(offset, offset + size));
      offset += size;
      assert.ok(delta.firstChangedLine <= view.length);
      view.length = delta.firstChangedLine;
      view.push(...delta.lines);
      // An open last line is always in the delta, because it may change again.
      if (!delta.lastLineComplete) assert.ok(delta.lines.length > 0);
    }
    assert.deepEqual(view, parse(trace).lines);
  });

  it('never shows half a surrogate pair, and joins the halves across chunks', () => {
    const parser = new TraceParser();
    const clef = '𝄞';
    const first = parser.push(`note ${clef[0] ?? ''}`);
    assert.deepEqual(first.lines.map(plainText), ['note ']);
    const second = parser.push(`${clef[1] ?? ''} end\n`);
    assert.equal(second.firstChangedLine, 0);
    assert.deepEqual(texts(parser), [`note ${clef} end`]);
  });

  it('shows the open line until it completes, and lists nothing for a line that is still empty', () => {
    const parser = new TraceParser();
    const partial = parser.push('done\nhalf');
    assert.deepEqual(partial.lines.map(plainText), ['done', 'half']);
    assert.equal(partial.lastLineComplete, false);
    const progress = parser.push(' way\r50%');
    assert.equal(progress.firstChangedLine, 1);
    assert.deepEqual(progress.lines.map(plainText), ['50%']);
    const finished = parser.push(`\n${ESC}[32m`);
    assert.deepEqual(finished.lines.map(plainText), ['50%']);
    assert.equal(finished.lastLineComplete, true);
    assert.deepEqual(parser.push(''), {
      firstChangedLine: 2,
      lines: [],
      lastLineComplete: true,
      changedSections: [],
    });
    assert.deepEqual(texts(parser), ['done', '50%']);
  });

  it('lists sections changed by a push', () => {
    const parser = new TraceParser();
    const opened = parser.push(sectionStart(1, 'build', 'Build'));
    assert.deepEqual(
      opened.changedSections.map((section) => [section.name, section.endLine]),
      [['build', undefined]],
    );
    const closed = parser.push('compile\n' + sectionEnd(4, 'build'));
    assert.deepEqual(
      closed.changedSections.map((section) => [section.name, section.endLine, section.durationSeconds]),
      [['build', 1, 3]],
    );
    assert.equal(parser.push('').changedSections.length, 0);
  });

  it('parses a 5 MB trace in 50 KB chunks to the same lines as in one chunk', function () {
    this.timeout(10_000);
    const trace = largeTrace(5 * 1024 * 1024);
    const whole = parse(trace);
    const chunked = new TraceParser();
    for (let offset = 0; offset < trace.length; offset += 50 * 1024) {
      chunked.push(trace.slice(offset, offset + 50 * 1024));
    }
    assert.equal(chunked.lines.length, whole.lines.length);
    assert.deepEqual(chunked.lines, whole.lines);
    assert.deepEqual(chunked.sections, whole.sections);
  });
});

describe('TraceParser without retained lines, and without styles', () => {
  /** Feeds `trace` in random pieces; returns the lines each push completed, in order, and the last open one. */
  function collect(parser: TraceParser, trace: string, seed: number): TraceLine[] {
    const random = seededRandom(seed);
    const completed: TraceLine[] = [];
    let open: TraceLine | undefined;
    let offset = 0;
    while (offset < trace.length) {
      const size = 1 + Math.floor(random() * 60);
      const delta = parser.push(trace.slice(offset, offset + size));
      offset += size;
      assert.equal(delta.firstChangedLine, completed.length, 'lines are numbered through the whole trace');
      assert.equal(parser.firstLineIndex, delta.firstChangedLine);
      assert.equal(parser.lines, delta.lines, 'the lines of this push only');
      const done = delta.lastLineComplete ? delta.lines : delta.lines.slice(0, -1);
      completed.push(...done);
      open = delta.lastLineComplete ? undefined : delta.lines.at(-1);
    }
    return open ? [...completed, open] : completed;
  }

  it('hands out the same lines, once each, while holding only the latest push', () => {
    const trace = realisticTrace().repeat(10);
    const expected = parse(trace);
    const parser = new TraceParser({ retainLines: false });
    const lines = collect(parser, trace, 7);
    assert.deepEqual(lines, expected.lines);
    assert.ok(parser.lines.length <= 2, `held ${parser.lines.length} lines after the last push`);
    // Closed sections are dropped; their line numbers still count from the start of the trace.
    assert.deepEqual(parser.sections, []);
    const lastHeader = lines.filter((line) => line.section !== undefined).at(-1)?.section;
    assert.equal(lastHeader?.startLine, expected.sections.at(-1)?.startLine);
    assert.equal(lastHeader?.endLine, expected.sections.at(-1)?.endLine);
  });

  it('keeps the open sections, which later lines still belong to', () => {
    const parser = new TraceParser({ retainLines: false });
    parser.push(`${sectionStart(1, 'outer', 'Outer')}${sectionStart(2, 'inner', 'Inner')}body
`);
    assert.deepEqual(
      parser.sections.map((section) => section.name),
      ['outer', 'inner'],
    );
    parser.push(`${sectionEnd(3, 'inner')}more
`);
    assert.deepEqual(
      parser.sections.map((section) => section.name),
      ['outer'],
    );
    assert.deepEqual(parser.lines.map(plainText), ['more']);
    assert.equal(parser.lines[0]?.sectionDepth, 1);
    assert.equal(parser.firstLineIndex, 3);
  });

  it('with styles off, gives the same text, depths and sections, every span in the default style', () => {
    const trace = realisticTrace().repeat(3);
    const styled = parse(trace);
    const plain = new TraceParser({ styles: false });
    plain.push(trace);
    assert.deepEqual(plain.lines.map(plainText), styled.lines.map(plainText));
    assert.deepEqual(
      plain.lines.map((line) => [line.sectionDepth, line.section?.name]),
      styled.lines.map((line) => [line.sectionDepth, line.section?.name]),
    );
    assert.deepEqual(plain.sections, styled.sections);
    assert.ok(plain.lines.every((line) => line.spans.every((span) => span.style === DEFAULT_STYLE)));
  });

  it('finds control characters anywhere in a chunk, and drops them, as the retained parser does', () => {
    const trace = `a\x07b\x00c\r\x08\nd${ESC}[31m\x7fe${ESC}[0m\n${ESC}]0;title\x07f\x1a\n`.repeat(5);
    const expected = parse(trace);
    // `\r` then a control character other than `\n` returns to the line start: `abc` is overwritten.
    assert.deepEqual(texts(expected).slice(0, 3), ['', 'de', 'f']);
    const parser = new TraceParser({ retainLines: false, styles: false });
    assert.deepEqual(collect(parser, trace, 3).map(plainText), texts(expected));
  });
});

describe('trace text helpers', () => {
  it('stripAnsi removes CSI, OSC and two-character escapes and keeps the rest', () => {
    assert.equal(
      stripAnsi(`${ESC}[31;1mred${ESC}[0m\r\n${ESC}]8;;u${ESC}\\link${ESC}]8;;\x07 ${ESC}(Bok${ESC}[2K`),
      'red\r\nlink ok',
    );
    assert.equal(stripAnsi('plain'), 'plain');
  });

  it('findFirstError finds the first line with error, failed or fatal as a word', () => {
    const lines = parse(
      [
        'Compiling with -Werror',
        'Tests: 12 passed, 0 failed',
        'no errors found',
        'error_log written',
        'fatal: could not read Username',
        'ERROR: Job failed: exit code 1',
      ].join('\n') + '\n',
    ).lines;
    assert.equal(findFirstError(lines), 4);
    assert.equal(findFirstError(lines, 5), 5);
    assert.equal(findFirstError(lines.slice(0, 4)), -1);
    assert.equal(findFirstError(parse(`${ESC}[31;1mJob failed${ESC}[0m\n`).lines), 0);
  });
});

/** Deterministic pseudo-random numbers (mulberry32) so failures reproduce. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

function largeTrace(size: number): string {
  const parts: string[] = [];
  let length = 0;
  let step = 0;
  while (length < size) {
    const block =
      sectionStart(1000 + step, `step_${step}`, `Step ${step}`, step % 2 ? '[collapsed=true]' : '') +
      `${ESC}[32;1m$ make target-${step}${ESC}[0;m\n` +
      `progress 0%\rprogress 50%\rprogress 100%\r\n`.repeat(3) +
      `${ESC}[38;5;${step % 256}mcompiling module ${step} ${'x'.repeat(step % 120)}${ESC}[0m\n`.repeat(40) +
      sectionEnd(1001 + step, `step_${step}`);
    parts.push(block);
    length += block.length;
    step++;
  }
  return parts.join('');
}
