// The line store at its edges: indices out of range and lines dropped by a rewrite, matches at the
// start of a line or a block, lines that outgrow the preallocated arrays, and runs of red.
import assert from 'node:assert/strict';
import { TraceLineStore } from '../../../src/domain/trace';

const ESC = '\x1b';

function storeOf(...chunks: string[]): TraceLineStore {
  const store = new TraceLineStore();
  for (const chunk of chunks) store.push(chunk);
  return store;
}

describe('TraceLineStore edges', () => {
  it('answers nothing for indices before the first line and from the count on', () => {
    const store = storeOf('2024-05-14T11:19:19Z 00O one\n2024-05-14T11:19:20Z 00O two\n');
    assert.equal(store.length, 2);
    for (const index of [-1, 2, 3]) {
      assert.equal(store.text(index), '', `text ${index}`);
      assert.equal(store.line(index), undefined, `line ${index}`);
      assert.equal(store.timeAt(index), undefined, `time ${index}`);
      assert.equal(store.sectionDepth(index), 0, `depth ${index}`);
    }
    assert.equal(store.timeAt(0), Date.parse('2024-05-14T11:19:19Z'));
    assert.equal(storeOf('no time\n').timeAt(0), undefined);
  });

  it('forgets an open line that a carriage return emptied, its text, time, depth, header and error included', () => {
    const store = storeOf(
      'section_start:1:s\rheader\n',
      '2024-05-14T11:19:19Z 00O ok\n2024-05-14T11:19:20Z 00O section_start:2:t\r',
      'Error: about to be rewritten',
    );
    const dropped = store.length - 1;
    assert.equal(store.text(dropped), 'Error: about to be rewritten');
    assert.equal(store.sectionAt(dropped)?.name, 't');
    assert.equal(store.findFirstError(), dropped);
    store.push(`\r${ESC}[0K`);
    assert.equal(store.length, dropped);
    assert.equal(store.text(dropped), '');
    assert.equal(store.line(dropped), undefined);
    assert.equal(store.timeAt(dropped), undefined);
    assert.equal(store.sectionDepth(dropped), 0);
    assert.equal(store.sectionAt(dropped), undefined, 'the header line is gone with it');
    assert.equal(store.findFirstError(), -1, 'the rewritten error is not found');
    assert.deepEqual(store.findAll('rewritten'), []);
  });

  it('finds the first of two lines of the same rank, and red on the very first line', () => {
    assert.equal(storeOf('ok\nError: one\nError: two\n').findFirstError(), 1);
    assert.equal(storeOf(`${ESC}[31mboom${ESC}[0m\nError: later\n`).findFirstError(), 0);
    assert.equal(storeOf(`plain ${ESC}[31mboom${ESC}[0m\nError: later\n`).findFirstError(), 0);
    assert.equal(storeOf('ok\nError: one\nError: two\n').findFirstError(2), 2);
  });

  it('finds matches at the start of the trace, at the start of a line and on the last line', () => {
    assert.deepEqual(storeOf('needle first\nnothing\n').findAll('needle'), [0]);
    assert.deepEqual(storeOf('aaaa\nneedle\nbbbb\n').findAll('needle'), [1]);
    assert.deepEqual(storeOf('needle\nneedle').findAll('needle'), [0, 1]);
    assert.deepEqual(storeOf('x\nneedle\nx\nneedle\n').findAll('NEEDLE'), [1, 3]);
  });

  it('maps matches to lines when the first span of a line has a later style', () => {
    const store = storeOf(
      `${ESC}[32mgreen${ESC}[0m ${ESC}[33myellow${ESC}[0m ${ESC}[34mblue${ESC}[0m\n`,
      'aaaa\n',
      `${ESC}[34mneedle${ESC}[0m\n`,
      'bbbb\n',
      `${ESC}[33mneedle${ESC}[0m and more\n`,
    );
    assert.deepEqual(store.findAll('needle'), [2, 4]);
  });

  it('maps matches to lines in a block where lower case changes lengths', () => {
    const store = storeOf(`${'İ'.repeat(50)}\nneedle\nshort\nxx\nyy\nzz\n${'x'.repeat(40)}\nlast needle`);
    assert.deepEqual(store.findAll('needle'), [1, 7]);
    assert.deepEqual(storeOf('İstanbul\nneedle').findAll('needle'), [1]);
  });

  it('keeps every run of a line with thousands of spans', () => {
    const spans = Array.from(
      { length: 5000 },
      (_, index) => `${ESC}[${index % 2 === 0 ? 31 : 32}m${index % 10}`,
    );
    const store = storeOf(`${spans.join('')}\n`);
    const line = store.line(0);
    assert.equal(line?.spans.length, 5000);
    assert.equal(line.spans[4999]?.text, '9');
    assert.equal(line.spans[4999]?.style.fg, 2);
  });

  it('keeps the time of every line past the preallocated thousand', () => {
    const lines = Array.from(
      { length: 1100 },
      (_, index) =>
        `2024-05-14T11:${String(Math.floor(index / 60) % 60).padStart(2, '0')}:${String(index % 60).padStart(2, '0')}Z 00O line ${index}\n`,
    );
    const store = storeOf(lines.join(''));
    assert.equal(store.length, 1100);
    for (const index of [1023, 1024, 1025, 1099]) {
      assert.equal(store.timeAt(index), Date.parse(lines[index]?.slice(0, 20) ?? ''), `line ${index}`);
      assert.equal(store.text(index), `line ${index}`);
    }
  });

  it('stores a line longer than a block in characters of three bytes whole', () => {
    const long = '日'.repeat(30_000);
    const store = storeOf(`before\n${long}\nafter\n`);
    assert.equal(store.text(1), long);
    assert.equal(store.text(2), 'after');
    assert.deepEqual(store.findAll('after'), [2]);
  });
});
