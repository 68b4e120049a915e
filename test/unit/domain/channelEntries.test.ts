// How a stream item from a Hubzilla-compatible hub becomes what the Channel view shows, field by
// field: the portable encoding (`message_id`, `author`…) and the row encoding (`mid`, `id`…), the
// fallbacks between them, and values hubs really send (numbers for ids, empty strings, 0/1 flags).
import assert from 'node:assert/strict';
import {
  CHANNEL_PERMISSIONS,
  FILE_TYPE_CHOICES,
  describePermission,
  identityQueryKinds,
  isOwnEntry,
  parseAclText,
  readStreamEntry,
  safeFileName,
  type StreamEntry,
} from '../../../src/domain/channel';

function entry(item: Record<string, unknown>): StreamEntry {
  const read = readStreamEntry(item);
  assert.ok(read, JSON.stringify(item));
  return read;
}

describe('channel stream entries, field by field', () => {
  it('says every permission in words, each its own', () => {
    const texts = CHANNEL_PERMISSIONS.map((perm) => describePermission(perm));
    assert.deepEqual(texts, [
      'see my stream and posts',
      'see my profile',
      'see my connections',
      'see my files and photos',
      'see my web pages',
      'see my wikis',
      'send me their posts',
      'post on my channel page',
      'comment on my posts',
      'send me private mail',
      'like my posts',
      'deliver to me through tags',
      'join my chat rooms',
      'change my files and photos',
      'change my web pages',
      'change my wikis',
      'republish my posts',
      'act as me (delegation)',
    ]);
  });

  it('offers the file types by name', () => {
    assert.deepEqual(
      FILE_TYPE_CHOICES.map(({ label, filetype }) => `${label}=${filetype}`),
      [
        'Images=image/',
        'Text=text/',
        'PDF documents=application/pdf',
        'Folders=multipart/mixed',
        'Other binary files=application/octet-stream',
      ],
    );
  });

  it('reads ids given as numbers or text, and only whole numbers as item ids', () => {
    assert.equal(entry({ mid: 7 }).mid, '7');
    assert.equal(entry({ mid: 'm', id: 12 }).itemId, 12);
    assert.equal(entry({ mid: 'm', item_id: '12', id: 13 }).itemId, 12, 'item_id before id');
    assert.equal(entry({ mid: 'm', id: '12a' }).itemId, undefined);
    assert.equal(entry({ mid: 'm', id: 'a12' }).itemId, undefined);
    assert.equal(entry({ mid: 'm', id: '' }).itemId, undefined);
    assert.equal(readStreamEntry({ mid: '' }), undefined, 'an empty message id is no id');
    assert.equal(readStreamEntry({ mid: true }), undefined);
    assert.equal(entry({ message_id: 'portable', mid: 'row' }).mid, 'portable');
  });

  it('finds the thread: top and parent from either encoding, else the item itself', () => {
    const alone = entry({ mid: 'm' });
    assert.equal(alone.top, 'm');
    assert.equal(alone.parent, 'm');
    const row = entry({ mid: 'm', parent_mid: 'top', thr_parent: 'parent' });
    assert.deepEqual([row.top, row.parent], ['top', 'parent']);
    const portable = entry({ message_id: 'm', message_top: 'top', message_parent: 'parent' });
    assert.deepEqual([portable.top, portable.parent], ['top', 'parent']);
    const topOnly = entry({ mid: 'm', message_top: 'top' });
    assert.equal(topOnly.parent, 'top', 'a comment without a parent answers the top');
    const emptyParent = entry({ mid: 'm', parent_mid: 'top', thr_parent: '' });
    assert.equal(emptyParent.parent, 'top');
  });

  it('keeps title, body, type, date and link, empty when the hub sends nothing', () => {
    const full = entry({
      mid: 'm',
      title: 'T',
      body: 'B',
      mimetype: 'text/bbcode',
      created: '2024-01-01 00:00:00',
      plink: 'https://hub.example/item/m',
    });
    assert.deepEqual(
      [full.title, full.body, full.mimetype, full.created, full.permalink],
      ['T', 'B', 'text/bbcode', '2024-01-01 00:00:00', 'https://hub.example/item/m'],
    );
    assert.equal(entry({ mid: 'm', permalink: 'p', plink: 'q' }).permalink, 'p');
    const bare = entry({ mid: 'm', title: '', body: null });
    assert.deepEqual(
      [bare.title, bare.body, bare.mimetype, bare.created, bare.permalink],
      ['', '', undefined, undefined, undefined],
    );
  });

  it('reads author and owner from objects or falls back to the hash the row names', () => {
    const portable = entry({
      mid: 'm',
      author: { name: 'Ada', address: 'ada@hub', guid: 'g1', url: 'https://hub/channel/ada' },
      owner: { xchan_name: 'Bob', xchan_addr: 'bob@hub', xchan_guid: 'g2', xchan_url: 'https://hub/b' },
    });
    assert.deepEqual(portable.author, {
      name: 'Ada',
      address: 'ada@hub',
      guid: 'g1',
      url: 'https://hub/channel/ada',
    });
    assert.deepEqual(portable.owner, { name: 'Bob', address: 'bob@hub', guid: 'g2', url: 'https://hub/b' });
    const row = entry({ mid: 'm', author_xchan: 'hashA', owner_xchan: 'hashO' });
    assert.deepEqual(row.author, { name: 'hashA', address: '', guid: undefined, url: undefined });
    assert.deepEqual(row.owner, { name: 'hashO', address: '', guid: undefined, url: undefined });
    const nothing = entry({ mid: 'm', author: ['not', 'a', 'record'], owner: null });
    assert.deepEqual(nothing.author, { name: '', address: '', guid: undefined, url: undefined });
    assert.deepEqual(nothing.owner, { name: '', address: '', guid: undefined, url: undefined });
    const empty = entry({ mid: 'm', author: {} });
    assert.deepEqual(empty.author, { name: '', address: '', guid: undefined, url: undefined });
  });

  it('reads categories from the tags, skipping other tags and empty names', () => {
    const read = entry({
      mid: 'm',
      tags: [
        { type: 'category', tag: 'news' },
        { type: 'hashtag', tag: 'not-a-category' },
        { type: 'category', tag: '' },
        { type: 'category' },
        'category',
        null,
        { type: 'category', tag: 'events' },
      ],
    });
    assert.deepEqual(read.categories, ['news', 'events']);
    assert.deepEqual(entry({ mid: 'm', tags: 'category' }).categories, []);
  });

  it('marks restricted and closed items from flags or row fields, 1 and true alike', () => {
    const cases: [Record<string, unknown>, boolean, boolean][] = [
      [{}, false, false],
      [{ flags: ['private'] }, true, false],
      [{ flags: ['nocomment'] }, false, true],
      [{ flags: ['private', 'nocomment', 7] }, true, true],
      [{ flags: 'private' }, false, false],
      [{ item_private: 1 }, true, false],
      [{ item_private: '1' }, true, false],
      [{ item_private: true }, true, false],
      [{ item_private: 0 }, false, false],
      [{ item_private: '0' }, false, false],
      [{ item_private: 2 }, false, false],
      [{ comment_scope: 'none' }, false, true],
      [{ comment_scope: 'public' }, false, false],
      [{ item_nocomment: 1 }, false, true],
      [{ item_nocomment: '1' }, false, true],
      [{ item_nocomment: false }, false, false],
    ];
    for (const [fields, restricted, closed] of cases) {
      const read = entry({ mid: 'm', ...fields });
      assert.deepEqual([read.restricted, read.commentsClosed], [restricted, closed], JSON.stringify(fields));
    }
  });

  it('tells own entries by guid when both have one, else by a non-empty address', () => {
    const by = (guid: string | undefined, address: string) =>
      entry({ mid: 'm', author: { name: 'A', address, ...(guid ? { guid } : {}) } });
    assert.equal(isOwnEntry(by('g', 'a@hub'), { guid: 'g', address: 'other@hub' }), true);
    assert.equal(isOwnEntry(by('g', 'a@hub'), { guid: 'h', address: 'a@hub' }), false, 'guids decide');
    assert.equal(isOwnEntry(by(undefined, 'a@hub'), { guid: 'g', address: 'a@hub' }), true);
    assert.equal(isOwnEntry(by('g', 'a@hub'), { address: 'a@hub' }), true);
    assert.equal(isOwnEntry(by('g', 'a@hub'), { guid: '', address: 'a@hub' }), true);
    assert.equal(isOwnEntry(by(undefined, 'b@hub'), { address: 'a@hub' }), false);
    assert.equal(isOwnEntry(by(undefined, ''), { address: '' }), false, 'no address is nobody');
    assert.equal(isOwnEntry(by(undefined, ''), {}), false);
    assert.equal(isOwnEntry(by('g', 'a@hub'), undefined), false);
  });

  it('reads access lists, skipping empty hashes', () => {
    assert.deepEqual(parseAclText('<a><b>'), ['a', 'b']);
    assert.deepEqual(parseAclText('<a><><b>'), ['a', 'b']);
    assert.deepEqual(parseAclText('no brackets'), []);
    assert.deepEqual(parseAclText(''), []);
    assert.deepEqual(parseAclText(null), []);
  });

  it('names identity lookups from what was typed, spaces ignored', () => {
    assert.deepEqual(identityQueryKinds('  ada@hub.example  '), ['address']);
    assert.deepEqual(identityQueryKinds(' abc123 '), ['hash', 'guid']);
  });

  it('keeps only the last part of a file name, whichever slash came before it', () => {
    assert.equal(safeFileName('a/b\\c.txt'), 'c.txt');
    assert.equal(safeFileName('dir/'), 'download');
    assert.equal(safeFileName('/'), 'download');
  });
});
