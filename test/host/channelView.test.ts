// The Channel view in a real VS Code: stream with nested comments and "Load more", files with a
// filter, albums, privacy groups, connections, error rows with retry. Set-up in channelSupport.ts.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChannelTreeProvider } from '../../src/features/channel';
import { seedPostBurst } from '../server/channel/seed';
import type { FakeForge } from '../server';
import { useChannelSession } from './channelSupport';
import { childrenOf, eventually, iconId, label } from './support';

describe('channel view', function () {
  this.timeout(60_000);
  const session = useChannelSession(true);
  let forge: FakeForge;
  let tree: ChannelTreeProvider;
  let accountId: string;
  before(() => {
    ({ forge, tree, accountId } = session);
  });
  const { channelRequests, folders, folder, streamSource, descendants, failNext } = session;

  describe('channel view', () => {
    it('shows Stream, Files, Photo albums, Privacy groups and Connections with theme icons', async () => {
      tree.refresh();
      const rows = await folders();
      assert.deepEqual(
        rows.map(({ item }) => label(item)),
        ['Stream', 'Files', 'Photo albums', 'Privacy groups', 'Connections'],
      );
      assert.deepEqual(
        rows.map(({ item }) => iconId(item)),
        ['comment-discussion', 'files', 'device-camera', 'organization', 'account'],
      );
    });

    it('lists the channel’s own stream newest first, fifty at a time, comments nested', async () => {
      const fx = forge.channel.fixtures;
      const own = await streamSource('My channel');
      // Fewer than fifty: all of them at once, no "Load more".
      const all = await childrenOf(tree, own.node);
      assert.equal(all.length, fx.ownThreads);
      const state = forge.channel.state;
      const newest = state
        .threadTops()
        .filter((top) => top.ownerXchan === state.channel.hash && top.itemWall === 1)
        .sort((a, b) => b.created.localeCompare(a.created));
      assert.deepEqual(
        all.map(({ item }) => item.id),
        newest.map((top) => `channel/${accountId}/stream/own/item/${top.mid}`),
      );
      assert.ok(all.every(({ item }) => /^channelItem top own\b/.test(String(item.contextValue))));
      const post = all.find(({ item }) => item.id?.endsWith(`/item/${fx.ownPost.mid}`));
      assert.ok(post);
      assert.equal(post.item.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
      const comments = await childrenOf(tree, post.node);
      assert.equal(comments.length, fx.ownPost.comments);
      assert.ok(comments.every(({ item }) => /^channelItem comment\b/.test(String(item.contextValue))));
      // The post with comments turned off (the eighth) offers no "Comment".
      const closed = state.threadTops().find((top) => top.itemNocomment === 1);
      const closedRow = all.find(({ item }) => item.id?.endsWith(`/item/${closed?.mid ?? '?'}`));
      assert.ok(closedRow);
      assert.ok(!/\bcommentable\b/.test(String(closedRow.item.contextValue)));
      assert.ok(
        channelRequests('/channel/stream').every((request) => request.query['mindate'] !== undefined),
      );
    });

    it('pages the network stream by thread and nests its comments', async () => {
      const fx = forge.channel.fixtures;
      const network = await streamSource('Network');
      forge.clearRequests();
      // Read in large pages (ties of one second swap places between requests), shown fifty at a time:
      // all 35 at once here.
      const all = await childrenOf(tree, network.node);
      assert.notEqual(label(all.at(-1)?.item ?? {}), 'Load more…');
      assert.deepEqual(channelRequests('/network/stream')[0]?.query, { start: '0', records: '200' });
      assert.deepEqual(
        channelRequests('/network/stream').map((request) => request.query['start']),
        ['0'],
      );
      assert.equal(all.length, fx.ownThreads + fx.networkThreads);
      const post = all.find(({ item }) => item.id?.endsWith(`/item/${fx.networkPost.mid}`));
      assert.ok(post);
      assert.ok(!/\bown\b/.test(String(post.item.contextValue)), 'someone else’s post');
      assert.equal((await childrenOf(tree, post.node)).length, fx.networkPost.comments);
    });

    it('shows every thread exactly once when hundreds share one second, in both streams', async () => {
      const { state } = forge.channel;
      const limit = state.channelStreamLimit;
      state.channelStreamLimit = 50;
      const burst = [
        ...seedPostBurst(state, { count: 260, created: '2024-07-02 09:00:00', own: false }),
        ...seedPostBurst(state, { count: 120, created: '2024-07-02 09:00:00', own: true }),
      ];
      try {
        const expectAll = async (name: 'My channel' | 'Network', tops: string[]): Promise<void> => {
          const source = await streamSource(name);
          await vscode.commands.executeCommand('forge.channel.refresh', source.node);
          let rows = await eventually(async () => {
            const loaded = await childrenOf(tree, source.node);
            assert.ok(loaded.length > 0);
            return loaded;
          });
          // "Load more" once, then "Load All" for the rest, with its count as it goes.
          assert.equal(label(rows.at(-1)?.item ?? {}), 'Load more…');
          assert.equal(rows.length, 51, 'fifty and "Load more"');
          const before = rows.length;
          await vscode.commands.executeCommand('forge.tree.loadMore', rows.at(-1)?.node);
          rows = await eventually(async () => {
            const loaded = await childrenOf(tree, source.node);
            assert.notEqual(loaded.length, before);
            return loaded;
          });
          if (label(rows.at(-1)?.item ?? {}) === 'Load more…') {
            const result = await vscode.commands.executeCommand<{ loaded: number }>(
              'forge.tree.loadAll',
              rows.at(-1)?.node,
            );
            assert.ok((result?.loaded ?? 0) >= tops.length, `Load All loaded ${result?.loaded}`);
            rows = await childrenOf(tree, source.node);
          }
          assert.notEqual(label(rows.at(-1)?.item ?? {}), 'Load more…', 'everything is loaded');
          const shown = rows.map(({ item }) => item.id ?? '').filter((id) => id.includes('/item/'));
          const mids = shown.map((id) => decodeURIComponent(id.slice(id.indexOf('/item/') + 6)));
          assert.equal(new Set(mids).size, mids.length, `${name}: no thread twice`);
          const missing = tops.filter(
            (mid) => !mids.includes(mid) && !mids.includes(encodeURIComponent(mid)),
          );
          assert.equal(missing.length, 0, `${name}: ${missing.length} of ${tops.length} threads never shown`);
        };
        const own = state
          .threadTops()
          .filter((top) => top.itemWall === 1 && top.ownerXchan === state.channel.hash)
          .map((top) => top.mid);
        await expectAll('My channel', own);
        await expectAll(
          'Network',
          state.threadTops().map((top) => top.mid),
        );
      } finally {
        state.items.splice(0, state.items.length, ...state.items.filter((item) => !burst.includes(item.mid)));
        state.channelStreamLimit = limit;
        const stream = await folder('Stream');
        await vscode.commands.executeCommand('forge.channel.refresh', stream.node);
      }
    });

    it('shows files as folders, expandable, and filters them by name and by type', async () => {
      const fx = forge.channel.fixtures;
      const files = await folder('Files');
      const top = await childrenOf(tree, files.node);
      const documents = top.find(({ item }) => label(item) === 'Documents');
      assert.equal(documents?.item.contextValue, 'channelFile folder');
      assert.equal(iconId(documents?.item ?? {}), 'folder');
      const inside = await childrenOf(tree, documents?.node);
      const names = inside.map(({ item }) => label(item));
      for (const name of ['notes.txt', 'archive.bin', 'design.md', 'empty.txt'])
        assert.ok(names.includes(name), name);
      const archive = inside.find(({ item }) => label(item) === 'archive.bin');
      assert.equal(archive?.item.contextValue, 'channelFile file');
      assert.match(String(archive?.item.description), /^300\.8 KB · application\/octet-stream$/);
      assert.equal(archive?.item.command?.command, 'forge.channel.openFile');

      forge.clearRequests();
      await vscode.commands.executeCommand('forge.channel.filterFiles', files.node, { filename: 'notes' });
      const filtered = await folder('Files');
      assert.equal(filtered.item.description, 'name contains "notes"');
      assert.equal(filtered.item.contextValue, 'channelFolder files filtered');
      assert.deepEqual(
        (await childrenOf(tree, filtered.node)).map(({ item }) => label(item)),
        ['notes.txt'],
      );
      assert.equal(channelRequests('/files')[0]?.query['filename'], 'notes');

      await vscode.commands.executeCommand('forge.channel.filterFiles', undefined, {
        filename: '',
        filetype: 'image/',
      });
      const images = await childrenOf(tree, (await folder('Files')).node);
      assert.equal(images.length, 5);
      assert.ok(images.every(({ item }) => iconId(item) === 'file-media'));

      await vscode.commands.executeCommand('forge.channel.filterFiles', undefined, { clear: true });
      const cleared = await folder('Files');
      assert.equal(cleared.item.description, '');
      const flat = await descendants(await childrenOf(tree, cleared.node));
      assert.equal(
        flat.filter(({ item }) => /^channelFile/.test(String(item.contextValue))).length,
        fx.fileCount,
      );
    });

    it('shows photo albums with one row per photo', async () => {
      const albums = await childrenOf(tree, (await folder('Photo albums')).node);
      assert.deepEqual(
        albums.map(({ item }) => label(item)),
        ['Not in an album', '2024-05', 'Cover Photos', 'Profile Photos'],
      );
      const may = albums.find(({ item }) => label(item) === '2024-05');
      const photos = await childrenOf(tree, may?.node);
      assert.deepEqual(
        photos.map(({ item }) => label(item)),
        ['sunrise', 'harbour'],
      );
      assert.equal(photos[0]?.item.description?.toString().startsWith('1600×1200'), true);
      assert.equal(photos[0]?.item.command?.command, 'forge.channel.openFile');
    });

    it('shows privacy groups with their members, and connections', async () => {
      const groups = await childrenOf(tree, (await folder('Privacy groups')).node);
      assert.deepEqual(
        groups.map(({ item }) => label(item)),
        ['Friends', 'Family', 'Co-workers', 'Empty'],
      );
      const friends = await childrenOf(tree, groups[0]?.node);
      assert.deepEqual(
        friends.map(({ item }) => label(item)),
        ['Ada Lovelace', 'Grace Hopper', 'Barbara Liskov'],
      );
      assert.match(String(friends[2]?.item.description), /not a connection/);
      assert.equal(label((await childrenOf(tree, groups[3]?.node))[0]?.item ?? {}), 'No members');

      const connections = await childrenOf(tree, (await folder('Connections')).node);
      assert.deepEqual(
        connections.map(({ item }) => label(item)),
        ['Ada Lovelace', 'Grace Hopper', 'Ken Thompson', 'Linus Feed', 'Margaret Hamilton'],
      );
      const ken = connections.find(({ item }) => label(item) === 'Ken Thompson');
      assert.equal(ken?.item.contextValue, 'channelConnection blocked');
      assert.equal(iconId(ken?.item ?? {}), 'circle-slash');
      assert.equal(iconId(connections.find(({ item }) => label(item) === 'Linus Feed')?.item ?? {}), 'rss');
    });

    it('shows a failed request as an error row, and Retry loads it', async () => {
      // Every try fails until the server is healthy again (the tree asks again when it is redrawn).
      failNext((request) => request.url === '/api/z/1.0/group', Number.POSITIVE_INFINITY);
      await vscode.commands.executeCommand('forge.channel.refresh', (await folder('Privacy groups')).node);
      const groups = await folder('Privacy groups');
      const rows = await childrenOf(tree, groups.node);
      assert.equal(rows.length, 1);
      assert.match(label(rows[0]?.item ?? {}), /^Could not load: /);
      assert.equal(rows[0]?.item.contextValue, 'error retryable');
      assert.equal(iconId(rows[0]?.item ?? {}), 'error');
      forge.onRequest(undefined);
      await vscode.commands.executeCommand('forge.tree.retry', rows[0]?.node);
      await eventually(async () => {
        assert.equal((await childrenOf(tree, groups.node)).length, 4);
      });
    });
  });
});
