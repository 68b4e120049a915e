import assert from 'node:assert/strict';
import { TraceBytes, takeBytes } from '../../../src/domain/trace';

const bytes = (...values: number[]): Uint8Array => Uint8Array.from(values);

describe('TraceBytes: the raw trace kept as bytes', () => {
  it('keeps copies in blocks, and the views it returns cover exactly what was appended', () => {
    const trace = new TraceBytes(4);
    const source = bytes(1, 2, 3);
    const first = trace.append(source);
    source[0] = 99; // the caller's buffer is reused: what was kept does not change
    assert.deepEqual(
      first.map((view) => [...view]),
      [[1, 2, 3]],
    );
    const second = trace.append(bytes(4, 5, 6, 7, 8, 9, 10));
    // The last block's free byte, then a new block: a piece longer than a block gets one of its size.
    assert.deepEqual(
      second.map((view) => [...view]),
      [[4], [5, 6, 7, 8, 9, 10]],
    );
    assert.equal(trace.size, 10);
    assert.deepEqual(
      trace.parts().map((view) => [...view]),
      [
        [1, 2, 3, 4],
        [5, 6, 7, 8, 9, 10],
      ],
    );
    assert.deepEqual([...trace.whole()], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    trace.append(bytes(11));
    assert.deepEqual(
      trace.parts().map((view) => [...view]),
      [[1, 2, 3, 4], [5, 6, 7, 8, 9, 10], [11]],
    );
  });

  it('fills a new block only with what is left of the piece', () => {
    const trace = new TraceBytes(8);
    trace.append(bytes(1, 2, 3, 4, 5, 6));
    const kept = trace.append(bytes(7, 8, 9, 10));
    assert.deepEqual(
      kept.map((view) => [...view]),
      [
        [7, 8],
        [9, 10],
      ],
    );
    assert.equal(trace.size, 10);
    assert.deepEqual([...trace.whole()], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('starts over on clear, leaving the views it handed out as they were', () => {
    const trace = new TraceBytes(8);
    const [kept] = trace.append(bytes(1, 2));
    trace.clear();
    assert.equal(trace.size, 0);
    assert.deepEqual(trace.parts(), []);
    assert.equal(trace.whole().length, 0);
    trace.append(bytes(7));
    assert.deepEqual([...(kept ?? [])], [1, 2]);
    assert.deepEqual([...trace.whole()], [7]);
  });

  it('appends nothing for an empty piece', () => {
    const trace = new TraceBytes(8);
    assert.deepEqual(trace.append(new Uint8Array(0)), []);
    assert.deepEqual(trace.parts(), []);
  });
});

describe('takeBytes', () => {
  it('takes up to the size across parts, into an array of its own, leaving the rest', () => {
    const backing = bytes(0, 1, 2, 3, 4, 5);
    const parts = [backing.subarray(1, 3), backing.subarray(3, 6)];
    const taken = takeBytes(parts, 3);
    assert.deepEqual([...taken], [1, 2, 3]);
    assert.equal(taken.byteOffset, 0);
    assert.equal(taken.buffer.byteLength, 3, 'not a view of a larger buffer');
    assert.deepEqual(
      parts.map((part) => [...part]),
      [[4, 5]],
    );
    assert.deepEqual([...takeBytes(parts, 10)], [4, 5]);
    assert.deepEqual(parts, []);
    assert.equal(takeBytes(parts, 10).length, 0);
  });

  it('cuts inside a character when asked: the reader decodes as a stream', () => {
    const parts = [new TextEncoder().encode('a✓b')];
    const head = takeBytes(parts, 2);
    const decoder = new TextDecoder();
    assert.equal(decoder.decode(head, { stream: true }), 'a');
    assert.equal(decoder.decode(takeBytes(parts, 100)), '✓b');
  });
});
