import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TraceLineStore, TraceParser, findFirstError, plainText } from '../../../src/domain/trace';

const ESC = '\x1b';

/** Sections, colours, a progress bar rewritten with `\r`, nested sections, an error line. */
function sampleTrace(): string {
  const lines: string[] = [`${ESC}[0KRunning with gitlab-runner 17.0.0${ESC}[0;m\n`];
  for (let part = 0; part < 6; part++) {
    lines.push(
      `${ESC}[0Ksection_start:${1700000000 + part}:part_${part}[collapsed=${part % 2 === 0}]\r${ESC}[0K`,
    );
    lines.push(`${ESC}[36;1mPart ${part}${ESC}[0;m\n`);
    if (part === 3) lines.push(`${ESC}[0Ksection_start:1700000100:inner\r${ESC}[0KInner\nnested line\n`);
    for (let line = 0; line < 40; line++) {
      lines.push(`${ESC}[32mok${ESC}[0m test ${part}.${line} ${ESC}[38;5;208mpassed${ESC}[0m ✓\n`);
    }
    lines.push('Downloading 10%\rDownloading 50%\rDownloading 100%\n');
    if (part === 3) lines.push(`${ESC}[0Ksection_end:1700000101:inner\r${ESC}[0K`);
    if (part === 4) lines.push(`${ESC}[31;1mERROR: Job failed: exit code 1${ESC}[0;m\n`);
    lines.push(`${ESC}[0Ksection_end:${1700000010 + part}:part_${part}\r${ESC}[0K`);
  }
  lines.push('the last line, still open');
  return lines.join('');
}

function feed(store: TraceLineStore, text: string, sizes: readonly number[]): void {
  let offset = 0;
  for (let index = 0; offset < text.length; index++) {
    const size = sizes[index % sizes.length] ?? 1;
    store.push(text.slice(offset, offset + size));
    offset += size;
  }
}

function assertSameAsRetainingParser(store: TraceLineStore, text: string): void {
  const parser = new TraceParser();
  parser.push(text);
  assert.equal(store.length, parser.lines.length);
  parser.lines.forEach((expected, index) => {
    const actual = store.line(index);
    assert.ok(actual, `line ${index}`);
    assert.equal(store.text(index), plainText(expected), `text of line ${index}`);
    assert.deepEqual(
      actual.spans.map((span) => [span.text, { ...span.style }]),
      expected.spans.map((span) => [span.text, { ...span.style }]),
      `spans of line ${index}`,
    );
    assert.equal(actual.sectionDepth, expected.sectionDepth, `depth of line ${index}`);
    assert.equal(actual.section?.name, expected.section?.name, `section of line ${index}`);
    assert.equal(store.sectionDepth(index), expected.sectionDepth);
  });
  const sectionShape = (section: {
    name: string;
    startLine: number;
    endLine: number | undefined;
    header: string;
    durationSeconds: number | undefined;
    collapsed: boolean;
  }) => ({
    name: section.name,
    startLine: section.startLine,
    endLine: section.endLine,
    header: section.header,
    durationSeconds: section.durationSeconds,
    collapsed: section.collapsed,
  });
  assert.deepEqual(store.sections.map(sectionShape), parser.sections.map(sectionShape));
  assert.equal(store.findFirstError(), findFirstError(parser.lines));
}

describe('TraceLineStore', () => {
  it('reports the header line of a section that ends as changed, for a view to draw it again', () => {
    const store = new TraceLineStore();
    assert.equal(store.push(`intro\n${ESC}[0Ksection_start:1700000000:build\r${ESC}[0KBuild\n`), 0);
    assert.equal(store.push('one\ntwo\n'), 2, 'only the new lines while the section is open');
    const ended = store.push(`${ESC}[0Ksection_end:1700000042:build\r${ESC}[0Kafter\n`);
    assert.equal(ended, 1, 'the header, which now shows the duration');
    assert.equal(store.line(1)?.section?.durationSeconds, 42);
    assert.equal(store.push('more\n'), 5);
  });

  it('holds the same lines, spans, depths and sections as a parser that retains its lines', () => {
    const text = sampleTrace();
    const store = new TraceLineStore();
    store.push(text);
    assertSameAsRetainingParser(store, text);
    assert.ok(store.findFirstError() > 0, 'the error line is found');
  });

  it('gives the same result for chunks split anywhere, escape sequences and \\r included', () => {
    const text = sampleTrace();
    for (const sizes of [[1], [7], [64, 3, 200], [1024]]) {
      const store = new TraceLineStore();
      feed(store, text, sizes);
      assertSameAsRetainingParser(store, text);
    }
  });

  it('replaces the open last line as it grows, and reports the first changed line', () => {
    const store = new TraceLineStore();
    assert.equal(store.push('first\nsec'), 0);
    assert.equal(store.length, 2);
    assert.equal(store.text(1), 'sec');
    assert.equal(store.push('ond\nthird'), 1);
    assert.deepEqual(
      [0, 1, 2].map((index) => store.text(index)),
      ['first', 'second', 'third'],
    );
    assert.equal(store.line(3), undefined);
  });

  it('holds ten thousand lines the same way, sections, an error and an open last line included', () => {
    const parts: string[] = [];
    for (let line = 0; line < 10_000; line++) {
      if (line % 700 === 0) parts.push(`${ESC}[0Ksection_start:${1700000000 + line}:s${line}\r${ESC}[0K`);
      parts.push(line % 3 === 0 ? `${ESC}[33mline ${line} ✓${ESC}[0m\n` : `plain line ${line}\n`);
      if (line % 1400 === 699)
        parts.push(`${ESC}[0Ksection_end:${1700000100 + line}:s${line - 699}\r${ESC}[0K`);
      if (line === 9_000) parts.push('ERROR: something broke\n');
    }
    parts.push('open');
    const text = parts.join('');
    for (const sizes of [[4096], [65_536, 17]]) {
      const store = new TraceLineStore();
      feed(store, text, sizes);
      assertSameAsRetainingParser(store, text);
      assert.ok(store.length > 10_000);
      assert.equal(store.text(store.length - 1), 'open');
      assert.equal(store.findFirstError(9_500), -1);
    }
  });

  it('takes UTF-8 pieces cut inside a character, and spreads lines over many blocks', () => {
    /** `lines` lines (every fifth with 2-, 3- and 4-byte characters), one longer than a block, an open last line. */
    const traceOf = (lines: number, longLine: number): string => {
      const parts: string[] = [];
      for (let line = 0; line < lines; line++) {
        parts.push(line % 5 === 0 ? `${ESC}[35mzażółć 日本 😀 ${line}${ESC}[0m\n` : `line ${line} ok\n`);
      }
      parts.push(`${'x'.repeat(longLine)} long\n`, 'ending…');
      return parts.join('');
    };
    // Pieces of 3 and 5 bytes cut inside every kind of character (a few hundred lines show them all,
    // and cost a pushBytes call each); big pieces over many blocks.
    for (const [size, lines, longLine] of [
      [3, 600, 62_000],
      [5, 600, 62_000],
      [4096, 6_000, 150_000],
      [70_001, 6_000, 150_000],
    ] as const) {
      const text = traceOf(lines, longLine);
      const bytes = new TextEncoder().encode(text);
      const store = new TraceLineStore();
      for (let start = 0; start < bytes.length; start += size)
        store.pushBytes(bytes.subarray(start, start + size));
      assertSameAsRetainingParser(store, text);
      assert.equal(store.text(lines).length, longLine + 5);
      assert.equal(store.text(lines + 1), 'ending…');
    }
  });

  it('finds every line with a query in any case, once per line, across blocks', () => {
    const parts: string[] = [];
    const expected: number[] = [];
    for (let line = 0; line < 20_000; line++) {
      if (line % 997 === 0) {
        parts.push(`step ${line}: Needle here and NEEDLE again\n`);
        expected.push(line);
      } else if (line % 1999 === 0) {
        // Lower case changes the length of İ: the block is searched line by line.
        parts.push(`İstanbul ${ESC}[1mneedle${ESC}[0m\n`);
        expected.push(line);
      } else {
        parts.push(`step ${line}: nothing to see, need le\n`);
      }
    }
    const store = new TraceLineStore();
    feed(store, parts.join(''), [8192]);
    assert.deepEqual(store.findAll('nEEdle'), expected);
    assert.deepEqual(store.findAll('le\nstep'), [], 'a match never spans two lines');
    assert.deepEqual(store.findAll(''), []);
    assert.equal(store.findFirstError(), -1);
  });

  it('drops the open last line cleanly when it starts a new block and is then replaced', () => {
    const store = new TraceLineStore();
    // 60 lines of 1,023 characters and their separators fill a 60 KiB block exactly.
    const filler = `${'a'.repeat(1023)}\n`;
    store.push(filler.repeat(60));
    const before = store.length;
    store.push('grow');
    store.push('ing, then ERROR: failed\nnext');
    assert.equal(store.text(before), 'growing, then ERROR: failed');
    assert.equal(store.text(before + 1), 'next');
    assert.equal(store.findFirstError(), before);
    assert.equal(store.text(0), 'a'.repeat(1023));
    assert.equal(store.text(before - 1), 'a'.repeat(1023));
  });

  it('reads a recorded runner trace the same way', () => {
    const text = readFileSync(
      join(__dirname, '..', '..', 'fixtures', 'traces', 'node-test-failure.log'),
      'utf8',
    );
    const store = new TraceLineStore();
    feed(store, text, [333]);
    assertSameAsRetainingParser(store, text);
  });
});

describe('First error, as a person reading a failed job means it', () => {
  const ESC_ = '\x1b';
  const trace = [
    'Running with gitlab-runner 17.0.0',
    ...Array.from({ length: 14 }, (_, index) => `setup step ${index}`),
    `${ESC_}[0;33mWARNING: Failed to extract cache${ESC_}[0;m`,
    'Failed to extract cache',
    'Tests: 12 passed, 0 failed',
    ...Array.from({ length: 15 }, (_, index) => `ok test ${index}`),
    'not ok 16 - logs in',
    'npm error code 1',
    `${ESC_}[31mTypeError: cannot read properties of undefined${ESC_}[0m`,
    `${ESC_}[31;1mERROR: Job failed: exit code 1${ESC_}[0;m`,
  ].join('\n');

  it('goes to the job’s red failure output, never to a WARNING line or a harmless "failed"', () => {
    const store = new TraceLineStore();
    store.push(`${trace}\n`);
    const line = store.findFirstError();
    assert.equal(store.text(line), 'TypeError: cannot read properties of undefined');
    const parser = new TraceParser();
    parser.push(`${trace}\n`);
    assert.equal(findFirstError(parser.lines), line, 'the store and the parser agree');
  });

  it('ranks a failing test above the word error, and the runner’s own line last', () => {
    const store = new TraceLineStore();
    store.push(
      'WARNING: Failed to extract cache\nnpm error code 1\nnot ok 3 - login\nERROR: Job failed: exit code 1\n',
    );
    assert.equal(store.text(store.findFirstError()), 'not ok 3 - login');
    const bare = new TraceLineStore();
    bare.push('WARNING: something failed\nall good\nERROR: Job failed: exit code 1\n');
    assert.equal(bare.text(bare.findFirstError()), 'ERROR: Job failed: exit code 1');
  });
});
