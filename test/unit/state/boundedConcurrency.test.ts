import assert from 'node:assert/strict';
import { mapWithConcurrency } from '../../../src/state/boundedConcurrency';

describe('mapWithConcurrency', () => {
  it('never runs more than the limit at once and keeps the input order', async () => {
    let running = 0;
    let peak = 0;
    const results = await mapWithConcurrency([5, 1, 4, 2, 3, 0, 6, 2, 1], 4, async (delay, index) => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, delay * 3));
      running -= 1;
      return `${index}:${delay}`;
    });
    assert.equal(peak, 4);
    assert.deepEqual(results, ['0:5', '1:1', '2:4', '3:2', '4:3', '5:0', '6:6', '7:2', '8:1']);
  });

  it('handles an empty list, a limit above the count, and rejects on the first failure', async () => {
    assert.deepEqual(await mapWithConcurrency([], 4, () => Promise.resolve(1)), []);
    assert.deepEqual(await mapWithConcurrency([1, 2], 10, (value) => Promise.resolve(value * 2)), [2, 4]);
    await assert.rejects(
      mapWithConcurrency([1, 2, 3], 2, (value) =>
        value === 2 ? Promise.reject(new Error('boom')) : Promise.resolve(value),
      ),
      /boom/,
    );
  });
});
