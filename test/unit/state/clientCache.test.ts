import assert from 'node:assert/strict';
import { ClientCache, accountOfSecret } from '../../../src/state/clientCache';

class FakeClient {
  closed = false;
  constructor(readonly id: string) {}
  close(): void {
    this.closed = true;
  }
}

describe('ClientCache', () => {
  it('builds one client per account on first use and shares it', async () => {
    const built: string[] = [];
    const cache = new ClientCache((id) => {
      built.push(id);
      return Promise.resolve(new FakeClient(id));
    });
    const [a, again, b] = await Promise.all([cache.get('a'), cache.get('a'), cache.get('b')]);
    assert.equal(a, again);
    assert.notEqual(a, b);
    assert.deepEqual(built, ['a', 'b']);
  });

  it('closes a dropped client and builds a new one next time; dropAll closes every one', async () => {
    const cache = new ClientCache((id) => Promise.resolve(new FakeClient(id)));
    const first = await cache.get('a');
    const other = await cache.get('b');
    cache.drop('a');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(first.closed, true);
    assert.equal(other.closed, false, 'only the dropped account');
    const second = await cache.get('a');
    assert.notEqual(second, first);
    cache.dropAll();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(second.closed, true);
    assert.equal(other.closed, true);
  });

  it('forgets a build that failed, so the next use tries again', async () => {
    let attempts = 0;
    const cache = new ClientCache((id) => {
      attempts += 1;
      return attempts === 1 ? Promise.reject(new Error('no token')) : Promise.resolve(new FakeClient(id));
    });
    await assert.rejects(cache.get('a'), /no token/);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal((await cache.get('a')).id, 'a');
    assert.equal(attempts, 2);
  });
});

describe('accountOfSecret', () => {
  it('names the account of its own secrets only', () => {
    assert.equal(accountOfSecret('forge.account.7.token', 'forge.account.', '.token'), '7');
    assert.equal(accountOfSecret('forge.channel.7.password', 'forge.account.', '.token'), undefined);
    assert.equal(accountOfSecret('forge.account..token', 'forge.account.', '.token'), undefined);
    assert.equal(accountOfSecret('forge.account.7.token', 'forge.channel.', '.password'), undefined);
  });
});
