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
