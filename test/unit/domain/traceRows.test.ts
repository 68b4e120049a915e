import assert from 'node:assert/strict';
import { TraceParser } from '../../../src/domain/trace';
import { TraceRows } from '../../../src/domain/trace/traceRows';

const ESC = '\x1b';
const utf8 = new TextEncoder();

function start(name: string, time: number, collapsed = false): string {
  return `${ESC}[0Ksection_start:${time}:${name}${collapsed ? '[collapsed=true]' : ''}\r${ESC}[0K`;
}
function end(name: string, time: number): string {
  return `${ESC}[0Ksection_end:${time}:${name}\r${ESC}[0K`;
}

/** Folded and open sections, one nested in a folded one, an error line, an open last line. */
function sampleTrace(): string {
  const parts = ['Running with gitlab-runner ✓\n'];
  for (let part = 0; part < 5; part++) {
    parts.push(
      start(`part_${part}`, 1700000000 + part, part % 2 === 0),
      `${ESC}[36;1mPart ${part}${ESC}[0;m\n`,
    );
    if (part === 2) parts.push(start('inner', 1700000050), 'Inner\nnested line\n');
    for (let line = 0; line < 30; line++) parts.push(`${ESC}[32mok${ESC}[0m test ${part}.${line} passed\n`);
    if (part === 2) parts.push(end('inner', 1700000060));
    if (part === 3) parts.push(`${ESC}[31;1mERROR: Job failed: exit code 1${ESC}[0;m\n`);
    parts.push(end(`part_${part}`, 1700000010 + part));
  }
  parts.push('the last line, still open');
  return parts.join('');
}

/** The lines a view shows, worked out from the whole parse: those in no folded section. */
function visibleLines(text: string, unfolded: ReadonlySet<number> = new Set()): number[] {
  const parser = new TraceParser();
  parser.push(text);
  const folded = parser.sections.filter((section) => section.collapsed && !unfolded.has(section.startLine));
  const lines: number[] = [];
  for (let index = 0; index < parser.lines.length; index++) {
    const hidden = folded.some(
      (section) => index > section.startLine && (section.endLine === undefined || index <= section.endLine),
    );
    if (!hidden) lines.push(index);
  }
  return lines;
}

function feedInPieces(rows: TraceRows, bytes: Uint8Array, sizes: readonly number[]): number[] {
  const changed: number[] = [];
  let offset = 0;
  for (let index = 0; offset < bytes.length; index++) {
    const size = sizes[index % sizes.length] ?? 1;
    changed.push(rows.pushBytes(bytes.subarray(offset, offset + size)));
    offset += size;
  }
  return changed;
}

describe('TraceRows (the trace page worker’s model)', () => {
  it('indexes the same rows fed in any pieces as the whole trace parsed at once, folded sections left out', () => {
    const text = sampleTrace();
    const expected = visibleLines(text);
    for (const sizes of [[1], [7, 3, 64], [4096], [text.length * 3]]) {
      const rows = new TraceRows();
      feedInPieces(rows, utf8.encode(text), sizes);
      assert.equal(rows.rowCount, expected.length, `pieces of ${sizes.join(',')}`);
      assert.deepEqual(
        rows.view(0, rows.rowCount).map((row) => row.line),
        expected,
        `pieces of ${sizes.join(',')}`,
      );
    }
  });

  it('gives each row its spans, depth and section header, and reports where rows changed', () => {
    const rows = new TraceRows();
    assert.equal(rows.pushBytes(utf8.encode(`intro\n${start('build', 1700000000)}Build\n`)), 0);
    const [intro, header] = rows.view(0, 2);
    assert.deepEqual(
      intro?.spans.map((span) => span.text),
      ['intro'],
    );
    assert.equal(intro?.section, undefined);
    assert.deepEqual(header?.section, { collapsed: false, durationSeconds: undefined });
    assert.equal(header?.sectionDepth, 1);
    // A new line below: the rows before it are unchanged.
    assert.equal(rows.pushBytes(utf8.encode(`${ESC}[31mred${ESC}[0m\n`)), 2);
    const [red] = rows.view(2, 3);
    assert.equal(red?.spans[0]?.text, 'red');
    assert.equal(red?.spans[0]?.style.fg, 1);
    // The section ends: its header (row 1) now shows how long it took.
    assert.equal(rows.pushBytes(utf8.encode(end('build', 1700000042))), 1);
    assert.equal(rows.view(1, 2)[0]?.section?.durationSeconds, 42);
    assert.deepEqual(rows.view(5, 10), [], 'rows past the end are none');
  });

  it('folds and unfolds a section, and reveals a line inside a folded one', () => {
    const text = sampleTrace();
    const rows = new TraceRows();
    rows.pushBytes(utf8.encode(text));
    const parser = new TraceParser();
    parser.push(text);
    const part0 = parser.sections.find((section) => section.name === 'part_0');
    const part1 = parser.sections.find((section) => section.name === 'part_1');
    assert.ok(part0 && part1 && part0.collapsed && !part1.collapsed);

    const headerRow = rows.rowOfLine(part0.startLine);
    assert.equal(rows.toggle(part0.startLine), headerRow);
    assert.equal(rows.isFolded(part0.startLine), false);
    assert.deepEqual(
      rows.view(0, rows.rowCount).map((row) => row.line),
      visibleLines(text, new Set([part0.startLine])),
    );
    assert.deepEqual(rows.toggleList, [[part0.startLine, false]]);
    rows.toggle(part0.startLine);
    assert.deepEqual(
      rows.view(0, rows.rowCount).map((row) => row.line),
      visibleLines(text),
    );
    assert.equal(rows.toggle(part0.startLine + 1), -1, 'not a header: nothing to fold');

    // A line inside the folded part_0 (and the nested section in folded part_2) becomes a row.
    const hidden = part0.startLine + 5;
    const { row, changedFrom } = rows.reveal(hidden);
    assert.equal(rows.view(row, row + 1)[0]?.line, hidden);
    assert.equal(changedFrom, headerRow);
    const inner = parser.sections.find((section) => section.name === 'inner');
    assert.ok(inner);
    const nested = rows.reveal(inner.startLine + 1);
    assert.equal(rows.view(nested.row, nested.row + 1)[0]?.line, inner.startLine + 1);
    assert.equal(rows.reveal(1).changedFrom, rows.rowCount, 'a line already shown changes nothing');
  });

  it('searches ignoring case, marks the matching rows, and finds the first error line', () => {
    const rows = new TraceRows();
    rows.pushBytes(utf8.encode(sampleTrace()));
    assert.equal(rows.search('TEST 1.2'), 11, 'test 1.2 and 1.20 to 1.29');
    const first = rows.matchLine(0);
    assert.ok(first > 0);
    assert.equal(rows.view(rows.rowOfLine(first), rows.rowOfLine(first) + 1)[0]?.match, true);
    assert.equal(rows.view(0, 1)[0]?.match, false);
    assert.equal(rows.matchLine(11), -1);
    assert.equal(rows.search(''), 0);
    assert.equal(rows.matchCount, 0);
    const error = rows.firstErrorLine();
    assert.ok(error > 0);
    assert.match(
      rows.view(rows.reveal(error).row, rows.reveal(error).row + 1)[0]?.spans[0]?.text ?? '',
      /^ERROR/,
    );
  });

  it('keeps the folds from before a reload for the first text, and drops them when the text starts over', () => {
    const text = sampleTrace();
    const parser = new TraceParser();
    parser.push(text);
    const part0 = parser.sections.find((section) => section.name === 'part_0');
    assert.ok(part0);
    const rows = new TraceRows([[part0.startLine, false]]);
    rows.clear();
    rows.pushBytes(utf8.encode(text));
    assert.deepEqual(
      rows.view(0, rows.rowCount).map((row) => row.line),
      visibleLines(text, new Set([part0.startLine])),
    );
    rows.search('passed');
    rows.clear();
    assert.equal(rows.rowCount, 0);
    assert.equal(rows.parsedBytes, 0);
    assert.equal(rows.matchCount, 0);
    rows.pushBytes(utf8.encode(text));
    assert.deepEqual(
      rows.view(0, rows.rowCount).map((row) => row.line),
      visibleLines(text),
    );
    assert.deepEqual(rows.toggleList, []);
  });
});

describe('TraceRows with runner timestamps', () => {
  it('gives each row its time and the time since the line before', () => {
    const rows = new TraceRows();
    rows.pushBytes(
      utf8.encode(
        [
          '2024-05-14T11:19:19.899359Z 00O first\n',
          '2024-05-14T11:19:21.5Z 00O second\n',
          '2024-05-14T11:19:21.6Z 00O+ continued\n',
          '2024-05-14T11:19:25Z 01E third\n',
        ].join(''),
      ),
    );
    const views = rows.view(0, 10);
    assert.deepEqual(
      views.map((row) => [row.spans.map((span) => span.text).join(''), row.time, row.sincePrevious]),
      [
        ['first', Date.parse('2024-05-14T11:19:19.899Z'), undefined],
        ['second continued', Date.parse('2024-05-14T11:19:21.5Z'), 1601],
        ['third', Date.parse('2024-05-14T11:19:25Z'), 3500],
      ],
    );
  });

  it('gives no time to lines of a trace without timestamps', () => {
    const rows = new TraceRows();
    rows.pushBytes(utf8.encode('plain\nlines\n'));
    assert.ok(rows.view(0, 10).every((row) => row.time === undefined && row.sincePrevious === undefined));
  });
});

describe('TraceRows edges', () => {
  it('counts every byte fed', () => {
    const rows = new TraceRows();
    rows.pushBytes(utf8.encode('zażółć\n'));
    rows.pushBytes(utf8.encode('more'));
    assert.equal(rows.parsedBytes, utf8.encode('zażółć\nmore').length);
  });

  it('gives the first timestamped line after untimed ones no time since before', () => {
    const rows = new TraceRows();
    rows.pushBytes(utf8.encode('plain\n2024-05-14T11:19:19Z 00O timed\n2024-05-14T11:19:20Z 00O next\n'));
    assert.deepEqual(
      rows.view(0, 10).map((row) => [row.time, row.sincePrevious]),
      [
        [undefined, undefined],
        [Date.parse('2024-05-14T11:19:19Z'), undefined],
        [Date.parse('2024-05-14T11:19:20Z'), 1000],
      ],
    );
  });

  it('reveals lines inside a folded section only: not its header, not the line after its end, not other sections', () => {
    const text =
      `before\n${start('a', 1, true)}A\na1\na2\n${end('a', 2)}between\n` +
      `${start('b', 3, true)}B\nb1\n${end('b', 4)}after\n`;
    const lines = ['before', 'A', 'a1', 'a2', 'between', 'B', 'b1', 'after'];
    const fresh = (): TraceRows => {
      const rows = new TraceRows();
      rows.pushBytes(utf8.encode(text));
      return rows;
    };
    const shown = (rows: TraceRows): string[] =>
      rows.view(0, rows.rowCount).map((row) => lines[row.line] ?? '?');
    assert.deepEqual(shown(fresh()), ['before', 'A', 'between', 'B', 'after']);

    const header = fresh();
    assert.equal(header.isFolded(1), true);
    assert.equal(header.isFolded(0), false, 'a line that is no header');
    assert.equal(header.reveal(1).changedFrom, header.rowCount, 'a header is shown already');
    assert.equal(header.isFolded(1), true);

    const last = fresh();
    assert.equal(last.reveal(3).row, 3, 'the last line of the section');
    assert.deepEqual(shown(last), ['before', 'A', 'a1', 'a2', 'between', 'B', 'after']);
    assert.equal(last.isFolded(5), true, 'the other section stays folded');

    const outside = fresh();
    assert.equal(outside.reveal(4).changedFrom, outside.rowCount, 'the line after the end is outside');
    assert.deepEqual(shown(outside), ['before', 'A', 'between', 'B', 'after']);
  });
});
