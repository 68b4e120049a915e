import assert from 'node:assert/strict';
import {
  bbcodeToText,
  channelDateToIso,
  describeAudience,
  describeFileFilter,
  fileIcon,
  firstTextLine,
  identityQueryKinds,
  isOwnEntry,
  looksLikeText,
  normalizeChannelUrl,
  parseAclText,
  readStreamEntry,
  safeFileName,
} from '../../../src/domain/channel';
import { buildThreads, walkThread } from '../../../src/domain/channelThreads';
import { type FakeForge, startFakeForge } from '../../server';
import { ChannelClient } from '../../../src/api/channel';

/** A stream item in the portable encoding the streams use. */
function item(
  mid: string,
  top: string,
  parent: string,
  created: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    message_id: mid,
    message_top: top,
    message_parent: parent,
    created,
    title: '',
    body: `body of ${mid}`,
    author: { name: `Author ${mid}`, address: `${mid}@hub.test`, guid: `guid-${mid}` },
    owner: { name: 'Owner', address: 'owner@hub.test', guid: 'guid-owner' },
    flags: mid === top ? ['thread_parent'] : [],
    // Real hubs send an empty scope on every item, public or not (design.md section 3, 2026-11).
    public_scope: '',
    comment_scope: 'contacts',
    ...extra,
  };
}

describe('channel domain', () => {
  it('normalizes channel server addresses and drops /api/z/1.0', () => {
    assert.deepEqual(normalizeChannelUrl('hub.example.org'), { url: 'https://hub.example.org' });
    assert.deepEqual(normalizeChannelUrl('http://127.0.0.1:8080/api/z/1.0/'), {
      url: 'http://127.0.0.1:8080',
    });
    assert.ok('problem' in normalizeChannelUrl(''));
    assert.ok('problem' in normalizeChannelUrl('ftp://hub.example.org'));
    assert.ok('problem' in normalizeChannelUrl('https://wren:secret@hub.example.org'));
  });

  it('reads channel dates as ISO and zero dates as nothing', () => {
    assert.equal(channelDateToIso('2024-02-01 08:00:00'), '2024-02-01T08:00:00Z');
    assert.equal(channelDateToIso('0001-01-01 00:00:00'), undefined);
    assert.equal(channelDateToIso('0000-00-00 00:00:00'), undefined);
    assert.equal(channelDateToIso(undefined), undefined);
  });

  it('shows bbcode as text and never as markup', () => {
    assert.equal(
      bbcodeToText('[b]Bold[/b] and [url=https://example.org]a link[/url] [img]https://x/y.png[/img]'),
      'Bold and a link (image)',
    );
    assert.equal(bbcodeToText('<img src=x onerror=alert(1)>'), '<img src=x onerror=alert(1)>');
    assert.equal(firstTextLine('\n\n  first line  \nsecond'), 'first line');
    assert.equal(firstTextLine('x'.repeat(100), 10), `${'x'.repeat(9)}…`);
  });

  it('reads both item shapes: the portable encoding and rows', () => {
    const encoded = readStreamEntry(
      item('a', 'a', 'a', '2024-01-01 00:00:00', {
        flags: ['thread_parent', 'private', 'nocomment'],
        tags: [
          { type: 'category', tag: 'forge' },
          { type: 'hashtag', tag: 'x' },
        ],
      }),
    );
    assert.equal(encoded?.restricted, true);
    assert.equal(encoded?.commentsClosed, true);
    assert.deepEqual(encoded?.categories, ['forge']);
    assert.equal(encoded?.itemId, undefined);
    const row = readStreamEntry({
      id: '12',
      mid: 'm',
      parent_mid: 'm',
      thr_parent: 'm',
      created: '2024-01-01 00:00:00',
      body: 'row',
      item_private: '0',
      item_nocomment: 1,
    });
    assert.equal(row?.itemId, 12);
    assert.equal(row?.restricted, false);
    assert.equal(row?.commentsClosed, true);
    assert.equal(readStreamEntry({ body: 'no id' }), undefined);
    // A public post: `public_scope` is empty as on every item; only `private` in flags restricts.
    assert.equal(readStreamEntry(item('p', 'p', 'p', '2024-01-01 00:00:00'))?.restricted, false);
  });

  it('builds threads with comments nested under the item they answer', () => {
    const items = [
      item('old', 'old', 'old', '2024-01-01 00:00:00'),
      item('c2', 'old', 'old', '2024-01-03 00:00:00'),
      item('c1', 'old', 'old', '2024-01-02 00:00:00'),
      item('reply', 'old', 'c1', '2024-01-04 00:00:00'),
      item('new', 'new', 'new', '2024-02-01 00:00:00'),
      item('orphan', 'missing', 'missing', '2024-01-05 00:00:00'),
      item('new', 'new', 'new', '2024-02-01 00:00:00'),
    ];
    const threads = buildThreads(items, { newestFirst: true });
    assert.deepEqual(
      threads.map((thread) => thread.top.entry.mid),
      ['new', 'orphan', 'old'],
    );
    const old = threads[2];
    assert.ok(old);
    assert.equal(old.size, 4);
    assert.equal(old.lastActivity, '2024-01-04 00:00:00');
    assert.deepEqual(
      old.top.replies.map((reply) => reply.entry.mid),
      ['c1', 'c2'],
    );
    assert.deepEqual(
      old.top.replies[0]?.replies.map((reply) => reply.entry.mid),
      ['reply'],
    );
    // Without newestFirst the order of the reply is kept (the network stream's latest activity first).
    assert.deepEqual(
      buildThreads(items).map((thread) => thread.top.entry.mid),
      ['old', 'new', 'orphan'],
    );
  });

  it('builds and walks a reply chain 5,000 deep without running out of stack', () => {
    const depth = 5_000;
    const items = [item('c0', 'c0', 'c0', '2024-01-01 00:00:00')];
    for (let index = 1; index <= depth; index++) {
      const second = String(index % 60).padStart(2, '0');
      items.push(item(`c${index}`, 'c0', `c${index - 1}`, `2024-01-02 00:${second}:00`));
    }
    const [thread] = buildThreads(items);
    assert.ok(thread);
    assert.equal(thread.size, depth + 1);
    const walked: [string, number][] = [];
    walkThread(thread.top, (node, level) => walked.push([node.entry.mid, level]));
    assert.equal(walked.length, depth + 1);
    assert.deepEqual(walked.at(-1), [`c${depth}`, depth]);
  });

  it('walks a thread top first, each item followed by its replies in order', () => {
    const [thread] = buildThreads([
      item('t', 't', 't', '2024-01-01 00:00:00'),
      item('b', 't', 't', '2024-01-03 00:00:00'),
      item('a', 't', 't', '2024-01-02 00:00:00'),
      item('a1', 't', 'a', '2024-01-04 00:00:00'),
    ]);
    assert.ok(thread);
    const walked: string[] = [];
    walkThread(thread.top, (node, level) => walked.push(`${node.entry.mid}@${level}`));
    assert.deepEqual(walked, ['t@0', 'a@1', 'a1@2', 'b@1']);
  });

  it('tells own items by guid, else by address', () => {
    const entry = readStreamEntry(item('a', 'a', 'a', '2024-01-01 00:00:00'));
    assert.ok(entry);
    assert.equal(isOwnEntry(entry, { guid: 'guid-a' }), true);
    assert.equal(isOwnEntry(entry, { guid: 'guid-b', address: 'a@hub.test' }), false);
    assert.equal(
      isOwnEntry({ ...entry, author: { ...entry.author, guid: undefined } }, { address: 'a@hub.test' }),
      true,
    );
    assert.equal(isOwnEntry(entry, undefined), false);
  });

  it('says who will see a post', () => {
    const names = (hash: string): string | undefined => ({ g1: 'Friends', c1: 'Ada', c2: 'Ken' })[hash];
    const none = { allowCid: '', allowGid: '', denyCid: '', denyGid: '' };
    assert.equal(describeAudience(none, names), 'everyone (public)');
    assert.equal(
      describeAudience({ ...none, allowGid: '<g1>', allowCid: '<c1>' }, names),
      'only Friends, Ada',
    );
    assert.equal(describeAudience({ ...none, denyCid: '<c2>' }, names), 'your connections except Ken');
    assert.equal(describeAudience({ ...none, allowCid: '<zz>' }, names), 'only someone');
    assert.deepEqual(parseAclText('<a><b>'), ['a', 'b']);
    assert.deepEqual(parseAclText(null), []);
  });

  it('makes server file names safe to save', () => {
    assert.equal(safeFileName('../../etc/passwd'), 'passwd');
    assert.equal(safeFileName('..\\..\\boot.ini'), 'boot.ini');
    assert.equal(safeFileName('a<b>:c"d|e?f*g\u0001.txt'), 'a_b__c_d_e_f_g_.txt');
    assert.equal(safeFileName('...'), 'download');
    assert.equal(safeFileName('.hidden'), 'hidden');
  });

  it('names identity lookups, icons, filters and text', () => {
    assert.deepEqual(identityQueryKinds('ada@hub.example.net'), ['address']);
    assert.deepEqual(identityQueryKinds('Xy12abc'), ['hash', 'guid']);
    assert.equal(fileIcon('multipart/mixed', true), 'folder');
    assert.equal(fileIcon('image/png', false), 'file-media');
    assert.equal(fileIcon('application/octet-stream', false), 'file-binary');
    assert.equal(
      describeFileFilter({ filename: 'notes', filetype: 'text/' }),
      'name contains "notes" · type text/',
    );
    assert.equal(describeFileFilter({}), '');
    assert.equal(looksLikeText(Buffer.from('héllo\nworld')), true);
    assert.equal(looksLikeText(Buffer.from([0x89, 0x50, 0x00, 0x47])), false);
    assert.equal(looksLikeText(Buffer.from([0xff, 0xfe, 0xfd])), false);
  });

  describe('against the fake channel server', () => {
    let forge: FakeForge;
    let client: ChannelClient;

    before(async () => {
      forge = await startFakeForge({ seed: 'small' });
      client = ChannelClient.create({
        baseUrl: forge.url,
        login: forge.channel.nickname,
        password: forge.channel.password,
      });
    });

    after(async () => {
      await client.close();
      await forge.close();
    });

    it('threads the whole own stream newest first with every comment under its post', async () => {
      const items = await client.channelStream({ mindate: '1970-01-01 00:00:00' }).toArray();
      const threads = buildThreads(items, { newestFirst: true });
      const fx = forge.channel.fixtures;
      assert.equal(threads.length, fx.ownThreads);
      const created = threads.map((thread) => thread.top.entry.created ?? '');
      assert.deepEqual(created, [...created].sort().reverse());
      const own = threads.find((thread) => thread.top.entry.mid === fx.ownPost.mid);
      assert.equal(own?.size, fx.ownPost.comments + 1);
    });
  });
});
