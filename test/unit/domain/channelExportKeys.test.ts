import assert from 'node:assert/strict';
import { exportHoldsPrivateKey, withoutPrivateKeys } from '../../../src/domain/channel';

describe('channel export and its private key', () => {
  it('knows which exports hold the key: the channel section, also by default', () => {
    assert.equal(exportHoldsPrivateKey(undefined), true);
    assert.equal(exportHoldsPrivateKey([]), true);
    assert.equal(exportHoldsPrivateKey(['channel', 'mail']), true);
    assert.equal(exportHoldsPrivateKey(['connections', 'mail']), false);
  });

  it('leaves out every private key field, at any depth, and keeps the rest', () => {
    const exported = {
      channel: { channel_name: 'Wren', channel_prvkey: 'PEM', channel_pubkey: 'pub' },
      xchan: [{ xchan_hash: 'h', xchan_prvkey: 'PEM' }],
      config: [{ k: 'prvkey', v: 'a value named prvkey stays' }],
    };
    assert.deepEqual(withoutPrivateKeys(exported), {
      channel: { channel_name: 'Wren', channel_pubkey: 'pub' },
      xchan: [{ xchan_hash: 'h' }],
      config: [{ k: 'prvkey', v: 'a value named prvkey stays' }],
    });
  });
});
