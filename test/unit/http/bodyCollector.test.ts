import assert from 'node:assert/strict';
import { BodyCollector } from '../../../src/api/http/bodyCollector';

function collect(chunks: string[], keepFrom?: number): { text: string; offset: number; size: number } {
  const collector = new BodyCollector(keepFrom);
  for (const chunk of chunks) collector.add(Buffer.from(chunk));
  const { bytes, offset } = collector.finish();
  return { text: bytes.toString(), offset, size: collector.size };
}

describe('BodyCollector', () => {
  it('keeps the whole body without an offset', () => {
    assert.deepEqual(collect(['abc', 'def', 'g']), { text: 'abcdefg', offset: 0, size: 7 });
    assert.deepEqual(collect([]), { text: '', offset: 0, size: 0 });
  });

  it('drops the bytes before the offset, whether it falls inside a chunk or between two', () => {
    assert.deepEqual(collect(['abc', 'def', 'g'], 4), { text: 'efg', offset: 4, size: 7 });
    assert.deepEqual(collect(['abc', 'def', 'g'], 3), { text: 'defg', offset: 3, size: 7 });
    assert.deepEqual(collect(['abc', 'def', 'g'], 7), { text: '', offset: 7, size: 7 });
  });

  it('says where the body ended when it was shorter than the offset', () => {
    assert.deepEqual(collect(['abc', 'de'], 9), { text: '', offset: 5, size: 5 });
  });

  it('hands on a single kept chunk without copying it', () => {
    const chunk = Buffer.allocUnsafeSlow(6);
    chunk.write('abcdef');
    const collector = new BodyCollector(4);
    collector.add(Buffer.from('xy'));
    collector.add(chunk);
    const { bytes } = collector.finish();
    assert.equal(bytes.buffer, chunk.buffer);
    assert.equal(bytes.toString(), 'cdef');
  });
});
