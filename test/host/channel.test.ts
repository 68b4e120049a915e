// The channel in a real VS Code, against a fake forge started in this extension host: channel
// accounts (password in secret storage only, clear sign-in errors), the Channel view (stream with
// nested comments and "Load more", files with a filter, albums, privacy groups, connections, error
// rows with retry) and every forge.channel.* command, checked through what the fake server received.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ForgeWorkbenchApi } from '../../src/extension';
import { ChannelAccountManager } from '../../src/platform/channelAccounts';
import type { ChannelPostPanel, ChannelTreeProvider } from '../../src/features/channel';
import { seedPostBurst } from '../server/channel/seed';
import { type FakeForge, type RecordedRequest, startFakeForge } from '../server';
import { assertRefused, childByLabel, childrenOf, eventually, iconId, label, type Row } from './support';

const HOSTILE = '<img src=x onerror=alert(1)>';

type LogMethod = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'appendLine' | 'append';

describe('channel: accounts, view and commands', function () {
  this.timeout(60_000);
  let forge: FakeForge;
  let api: ForgeWorkbenchApi;
  let tree: ChannelTreeProvider;
  let accountId: string;
  let tmp: string;
  const logged: string[] = [];
  const originals = new Map<LogMethod, unknown>();

  before(async () => {
    forge = await startFakeForge({ seed: 'small' });
    const extension = vscode.extensions.getExtension<ForgeWorkbenchApi>('forge-workbench.forge-workbench');
    assert.ok(extension);
    api = await extension.activate();
    const provider = api.treeProviders['forge.channel'];
    tree = provider;
    tmp = mkdtempSync(join(tmpdir(), 'forge-channel-host-'));
    // Every line the extension writes to its log, whatever the log level, to look for the password.
    const log = api.log as unknown as Record<LogMethod, (...args: unknown[]) => void>;
    for (const method of ['trace', 'debug', 'info', 'warn', 'error', 'appendLine', 'append'] as const) {
      const original = log[method];
      originals.set(method, original);
      log[method] = (...args: unknown[]) => {
        logged.push(args.map((arg) => (arg instanceof Error ? arg.message : String(arg))).join(' '));
        original.apply(api.log, args);
      };
    }
  });

  after(async () => {
    forge?.onRequest(undefined);
    const log = api.log as unknown as Record<string, unknown>;
    for (const [method, original] of originals) log[method] = original;
    for (const account of api.channelAccounts.list()) await api.channelAccounts.remove(account.id);
    await forge?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  const channelRequests = (path: string, method?: string): RecordedRequest[] =>
    forge.requests.filter(
      (request) =>
        request.path === `/api/z/1.0${path}` && (method === undefined || request.method === method),
    );

  /** The folders of our account: the tree shows them at the top when it is the only account. */
  async function folders(): Promise<Row[]> {
    const top = await childrenOf(tree);
    if (api.channelAccounts.list().length === 1) return top;
    const ours = top.find(({ item }) => item.id === `channel/${accountId}`);
    assert.ok(ours, 'our account is in the view');
    return childrenOf(tree, ours.node);
  }

  async function folder(name: string): Promise<Row> {
    const found = (await folders()).find(({ item }) => label(item) === name);
    assert.ok(found, `no folder ${name}`);
    return found;
  }

  async function streamSource(name: 'My channel' | 'Network'): Promise<Row> {
    return childByLabel(tree, (await folder('Stream')).node, name);
  }

  function descendants(rows: Row[], provider = tree): Promise<Row[]> {
    return Promise.all(
      rows.map(async (row) => [row, ...(await descendants(await childrenOf(provider, row.node)))]),
    ).then((nested) => nested.flat());
  }

  /** The row of a thread in the Network folder, loading more pages until it is there. */
  async function networkThread(mid: string): Promise<Row> {
    const network = (await streamSource('Network')).node;
    for (let page = 0; page < 10; page++) {
      const rows = await childrenOf(tree, network);
      const found = rows.find(({ item }) => item.id?.endsWith(`/item/${mid}`));
      if (found) return found;
      const more = rows.at(-1);
      assert.equal(label(more?.item ?? {}), 'Load more…', `thread ${mid} is not in the Network folder`);
      await vscode.commands.executeCommand('forge.tree.loadMore', more?.node);
      await eventually(async () => assert.notEqual((await childrenOf(tree, network)).length, rows.length));
    }
    assert.fail(`thread ${mid} is not in the Network folder`);
  }

  function failNext(match: (request: { method?: string; url?: string }) => boolean, times = 1): void {
    let left = times;
    forge.onRequest((request, response) => {
      if (left > 0 && match(request)) {
        left -= 1;
        response.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"boom"}');
        return true;
      }
      return false;
    });
  }

  function assertNoPassword(text: string, where: string): void {
    assert.ok(!text.includes(forge.channel.password), `the password appears in ${where}`);
  }

  describe('channel accounts', () => {
    it('checks the address before any request', async () => {
      forge.clearRequests();
      await assert.rejects(
        api.channelAccounts.add({ serverUrl: 'not a url at all', login: 'wren', password: 'x' }),
        /not a valid address/,
      );
      await assert.rejects(
        api.channelAccounts.add({ serverUrl: 'ftp://hub.example.org', login: 'wren', password: 'x' }),
        /must start with https:\/\/ or http:\/\//,
      );
      assert.equal(forge.requests.length, 0, 'nothing was sent');
    });

    it('says clearly when the server refuses the login (401), saves nothing', async () => {
      const wrong = 'not-the-password-123';
      const error = await api.channelAccounts
        .add({ serverUrl: forge.url, login: forge.channel.nickname, password: wrong })
        .then(
          () => undefined,
          (caught: unknown) => caught,
        );
      assert.ok(error instanceof Error);
      assert.match(error.message, /refused the login "wren" \(401\)\. Check the channel nickname/);
      assert.ok(!error.message.includes(wrong), 'the password is not in the message');
      assert.equal(api.channelAccounts.list().length, 0);
      assert.equal(channelRequests('/channel/export/basic').at(-1)?.status, 401);
    });

    it('points to the nickname when the login is the channel address, which hubs refuse', async () => {
      const address = `${forge.channel.nickname}@${new URL(forge.url).host}`;
      const error = await api.channelAccounts
        .add({ serverUrl: forge.url, login: address, password: forge.channel.password })
        .then(
          () => undefined,
          (caught: unknown) => caught,
        );
      assert.ok(error instanceof Error);
      assert.match(error.message, new RegExp(`sign in with its nickname "${forge.channel.nickname}"`));
    });

    it('says clearly when the server answers an empty body, `false` or has no channel API', async () => {
      for (const [body, status, pattern] of [
        ['', 200, /did not confirm the login "wren": it answered with an empty reply/],
        ['false', 200, /did not confirm the login "wren": it answered with `false`/],
        ['{"error":"not implemented"}', 404, /has no channel API/],
      ] as const) {
        forge.onRequest((request, response) => {
          if (!request.url?.startsWith('/api/z/1.0/channel/export/basic')) return false;
          response.writeHead(status, { 'content-type': 'application/json' }).end(body);
          return true;
        });
        await assert.rejects(
          api.channelAccounts.add({
            serverUrl: forge.url,
            login: forge.channel.nickname,
            password: forge.channel.password,
          }),
          (error: unknown) => {
            assert.ok(error instanceof Error);
            assert.match(error.message, pattern);
            assertNoPassword(error.message, 'the sign-in error');
            return true;
          },
        );
      }
      forge.onRequest(undefined);
      assert.equal(api.channelAccounts.list().length, 0);
    });

    it('adds an account: the server checks the login, the password goes to secret storage only', async () => {
      forge.clearRequests();
      const result = await vscode.commands.executeCommand<{ added: boolean; accountId: string }>(
        'forge.channel.addAccount',
        {
          serverUrl: `${forge.url}/api/z/1.0/`,
          login: forge.channel.nickname,
          password: forge.channel.password,
        },
      );
      assert.equal(result?.added, true);
      accountId = result.accountId;
      const [account] = api.channelAccounts.list();
      assert.equal(account?.serverUrl, forge.url, '/api/z/1.0 is dropped from the address');
      assert.equal(account?.channel?.name, 'Wren Forge');
      assert.equal(account?.label, `Wren Forge (wren@${new URL(forge.url).host})`);
      const check = channelRequests('/channel/export/basic')[0];
      assert.deepEqual(check?.query, { sections: 'channel' });
      assert.equal(
        check?.headers['authorization'],
        `Basic ${Buffer.from(`${forge.channel.nickname}:${forge.channel.password}`).toString('base64')}`,
      );
      const context = api.services.context;
      assert.equal(await context.secrets.get(`forge.channel.${accountId}.password`), forge.channel.password);
      assertNoPassword(JSON.stringify(context.globalState.get('forge.channelAccounts')), 'global state');
      assertNoPassword(JSON.stringify(vscode.workspace.getConfiguration('forge')), 'the settings');
    });

    it('reads an account from FORGE_CHANNEL_URL / _USER / _PASSWORD without storing it', async () => {
      const manager = new ChannelAccountManager(api.services.context, api.log, {
        FORGE_CHANNEL_URL: forge.url,
        FORGE_CHANNEL_USER: forge.channel.email,
        FORGE_CHANNEL_PASSWORD: forge.channel.password,
      });
      try {
        const environment = manager.list().find((account) => account.fromEnvironment);
        assert.ok(environment);
        assert.match(environment.label, /\(from environment\)$/);
        const groups = await (await manager.client(environment.id)).listGroups();
        assert.ok(groups.length >= 4);
        let announced = 0;
        const listening = manager.onDidChange(() => announced++);
        assert.equal((await manager.profile(environment.id)).nickname, 'wren');
        listening.dispose();
        // Learned while a view loads: kept for the session, and told to no one (the view would reload).
        assert.equal(manager.get(environment.id)?.channel?.nickname, 'wren');
        assert.equal(announced, 0);
        const stored = api.services.context.globalState.get<{ id: string }[]>('forge.channelAccounts') ?? [];
        assert.ok(!stored.some((account) => account.id === environment.id), 'not stored');
        const incomplete = new ChannelAccountManager(api.services.context, api.log, {
          FORGE_CHANNEL_URL: forge.url,
        });
        assert.ok(!incomplete.list().some((account) => account.fromEnvironment));
        incomplete.dispose();
      } finally {
        manager.dispose();
      }
    });
  });

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

    it('lists the channel’s own stream newest first, comments nested, with Load more', async () => {
      const fx = forge.channel.fixtures;
      const own = await streamSource('My channel');
      const first = await childrenOf(tree, own.node);
      const last = first.at(-1);
      assert.equal(label(last?.item ?? {}), 'Load more…');
      assert.equal(last?.item.description, `10 of ${fx.ownThreads}`);
      const state = forge.channel.state;
      const newest = state
        .threadTops()
        .filter((top) => top.ownerXchan === state.channel.hash && top.itemWall === 1)
        .sort((a, b) => b.created.localeCompare(a.created));
      assert.deepEqual(
        first.slice(0, -1).map(({ item }) => item.id),
        newest.slice(0, 10).map((top) => `channel/${accountId}/stream/own/item/${top.mid}`),
      );
      assert.ok(
        first.slice(0, -1).every(({ item }) => /^channelItem top own\b/.test(String(item.contextValue))),
      );
      await vscode.commands.executeCommand('forge.tree.loadMore', last?.node);
      const all = await eventually(async () => {
        const rows = await childrenOf(tree, own.node);
        assert.equal(rows.length, fx.ownThreads);
        return rows;
      });
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
      const first = await childrenOf(tree, network.node);
      assert.equal(label(first.at(-1)?.item ?? {}), 'Load more…');
      // Read in large pages (ties of one second swap places between requests), shown ten at a time.
      assert.deepEqual(channelRequests('/network/stream')[0]?.query, { start: '0', records: '200' });
      let all = first;
      for (let page = 0; page < 10 && label(all.at(-1)?.item ?? {}) === 'Load more…'; page++) {
        const before = all.length;
        await vscode.commands.executeCommand('forge.tree.loadMore', all.at(-1)?.node);
        all = await eventually(async () => {
          const rows = await childrenOf(tree, network.node);
          assert.notEqual(rows.length, before);
          return rows;
        });
      }
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
          for (let page = 0; page < 100 && label(rows.at(-1)?.item ?? {}) === 'Load more…'; page++) {
            const before = rows.length;
            await vscode.commands.executeCommand('forge.tree.loadMore', rows.at(-1)?.node);
            rows = await eventually(async () => {
              const loaded = await childrenOf(tree, source.node);
              assert.notEqual(loaded.length, before);
              return loaded;
            });
          }
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

  describe('channel commands', () => {
    let postedId: number;

    it('refuses wrong arguments and options, saying which, before any request', async () => {
      forge.clearRequests();
      const refusals: [string, unknown[], RegExp][] = [
        ['forge.channel.filterFiles', [undefined, { filename: 42 }], /argument 2 \(filename\): /],
        ['forge.channel.downloadFile', [undefined, { chunkSize: -1 }], /argument 2 \(chunkSize\): /],
        ['forge.channel.post', [undefined, { audience: 'everyone' }], /argument 2 \(audience\): /],
        ['forge.channel.lookupIdentity', [undefined, { query: 'x', show: 'loud' }], /argument 2 \(show\): /],
        [
          'forge.channel.comment',
          [42],
          /argument 1: expected a row of the Channel view or expected a channel account id/,
        ],
        ['forge.channel.export', [undefined, { destinaton: '/tmp/x' }], /argument 2: .*destinaton/],
      ];
      await assertRefused(refusals);
      assert.deepEqual(forge.requests, []);
    });

    it('posts with a title, categories, an audience and comments off; the tree shows hostile text as text', async () => {
      const fx = forge.channel.fixtures;
      forge.clearRequests();
      const result = await vscode.commands.executeCommand<{
        posted: boolean;
        itemId: number;
        mid: string;
        audience: string;
      }>('forge.channel.post', undefined, {
        body: `Hello from VS Code ${HOSTILE}`,
        title: HOSTILE,
        categories: 'forge, vscode',
        audience: { allow: ['Friends', 'grace@social.example.org'], deny: ['Ken Thompson'] },
        nocomment: true,
      });
      assert.equal(result?.posted, true);
      postedId = result.itemId;
      assert.equal(result.audience, 'only Friends, Grace Hopper except Ken Thompson');
      const sent = channelRequests('/item/update', 'POST')[0];
      assert.deepEqual(sent?.body, {
        body: `Hello from VS Code ${HOSTILE}`,
        title: HOSTILE,
        'contact_allow[]': fx.connections.grace.hash,
        'group_allow[]': fx.groups.friends.hash,
        'contact_deny[]': fx.connections.ken.hash,
        nocomment: '1',
        category: 'forge,vscode',
      });
      const own = await childrenOf(tree, (await streamSource('My channel')).node);
      const row = own.find(({ item }) => item.id?.endsWith(`/item/${result.mid}`));
      assert.ok(row, 'the new post is in the tree');
      assert.equal(own[0], row, 'newest first');
      assert.equal(label(row.item), HOSTILE, 'shown as the text it is');
      assert.equal(row.item.contextValue, 'channelItem top own');
      assert.equal(iconId(row.item), 'lock');
      const tooltip = row.item.tooltip;
      assert.ok(tooltip instanceof vscode.MarkdownString);
      assert.notEqual(tooltip.supportHtml, true);
      assert.notEqual(tooltip.isTrusted, true);
      // appendText escapes the text (spaces become &nbsp;, `>` is escaped): it is never markup.
      assert.ok(tooltip.value.includes('categories:&nbsp;forge,&nbsp;vscode'), tooltip.value);
      assert.ok(!tooltip.value.includes(HOSTILE));
    });

    it('posts publicly or to the channel’s default audience and says who sees it', async () => {
      forge.clearRequests();
      const open = await vscode.commands.executeCommand<{ posted: boolean; audience: string }>(
        'forge.channel.post',
        undefined,
        { body: 'For everyone', audience: 'public' },
      );
      assert.equal(open?.audience, 'everyone (public)');
      assert.deepEqual(channelRequests('/item/update')[0]?.body, { body: 'For everyone', contact_allow: '' });
      const byDefault = await vscode.commands.executeCommand<{ posted: boolean; audience: string }>(
        'forge.channel.post',
        undefined,
        { body: 'For the default audience' },
      );
      assert.equal(byDefault?.audience, "only Friends (the channel's default audience)");
      assert.deepEqual(channelRequests('/item/update')[1]?.body, { body: 'For the default audience' });
      // Hubs send an empty public_scope on every item: the public post is shown as public all the same.
      const source = await streamSource('My channel');
      await vscode.commands.executeCommand('forge.channel.refresh', source.node);
      const rows = await eventually(async () => {
        const loaded = await childrenOf(tree, source.node);
        assert.ok(loaded.some(({ item }) => label(item) === 'For everyone'));
        return loaded;
      });
      const publicRow = rows.find(({ item }) => label(item) === 'For everyone');
      assert.notEqual(iconId(publicRow?.item ?? {}), 'lock', 'no lock on a public post');
      const publicTooltip = publicRow?.item.tooltip;
      assert.ok(publicTooltip instanceof vscode.MarkdownString);
      assert.ok(!publicTooltip.value.includes('restricted'), publicTooltip.value);
      const restrictedRow = rows.find(({ item }) => label(item) === 'For the default audience');
      assert.equal(iconId(restrictedRow?.item ?? {}), 'lock', 'the post for Friends only has its lock');
    });

    it('posts a text file as the body and any other file as an attachment (multipart)', async () => {
      const markdown = join(tmp, 'notes.md');
      writeFileSync(markdown, '# Release notes\n\n- faster\n');
      const picture = join(tmp, 'pic.png');
      writeFileSync(picture, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 4]));
      forge.clearRequests();
      const text = await vscode.commands.executeCommand<{ posted: boolean }>(
        'forge.channel.post',
        undefined,
        {
          file: markdown,
          audience: 'public',
        },
      );
      assert.equal(text?.posted, true);
      assert.deepEqual(channelRequests('/item/update')[0]?.body, {
        body: '# Release notes\n\n- faster\n',
        contact_allow: '',
        mimetype: 'text/markdown',
      });
      // From the explorer's context menu the file comes as the first argument.
      const media = await vscode.commands.executeCommand<{ posted: boolean; itemId: number }>(
        'forge.channel.post',
        vscode.Uri.file(picture),
        { audience: 'public', title: 'A picture' },
      );
      assert.equal(media?.posted, true);
      const upload = channelRequests('/item/update')[1];
      assert.match(String(upload?.headers['content-type']), /^multipart\/form-data; boundary=/);
      assert.deepEqual(upload?.body, {
        fields: [
          ['body', 'pic.png'],
          ['title', 'A picture'],
          ['contact_allow', ''],
        ],
        files: [{ field: 'media', filename: 'pic.png', contentType: 'image/png', size: 9 }],
      });
      assert.match(
        forge.channel.state.findItem(media.itemId)?.body ?? '',
        /\[attachment\][0-9a-f]{64},0\[\/attachment\]$/,
      );
    });

    it('posts the selection of the editor', async () => {
      const document = await vscode.workspace.openTextDocument({
        content: 'before\nThe selected line.\nafter',
        language: 'plaintext',
      });
      const editor = await vscode.window.showTextDocument(document);
      editor.selection = new vscode.Selection(1, 0, 1, 18);
      forge.clearRequests();
      const result = await vscode.commands.executeCommand<{ posted: boolean }>(
        'forge.channel.post',
        undefined,
        {
          source: 'selection',
          audience: 'public',
        },
      );
      assert.equal(result?.posted, true);
      assert.deepEqual(channelRequests('/item/update')[0]?.body, {
        body: 'The selected line.',
        contact_allow: '',
      });
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    });

    it('keeps a post that failed as a draft and sends it the next time', async () => {
      failNext((request) => request.method === 'POST' && request.url === '/api/z/1.0/item/update');
      forge.clearRequests();
      const failed = await vscode.commands.executeCommand<{
        posted: boolean;
        reason: string;
        draftKept: boolean;
        message: string;
      }>('forge.channel.post', undefined, {
        body: 'A post that must not be lost',
        title: 'Important',
        categories: ['keep'],
        audience: 'public',
      });
      assert.equal(failed?.posted, false);
      assert.equal(failed.reason, 'failed');
      assert.equal(failed.draftKept, true);
      assert.match(failed.message, /kept as a draft: run "Forge: Post to Channel" again/);
      assertNoPassword(failed.message, 'the failure message');
      assert.equal(channelRequests('/item/update')[0]?.status, 500);
      assert.equal(channelRequests('/item/update').length, 1, 'a post is never retried silently');
      const drafts =
        api.services.context.globalState.get<Record<string, { body: string; title?: string }>>(
          'forge.channelDrafts',
        );
      assert.equal(drafts?.[`${accountId}|post`]?.body, 'A post that must not be lost');
      assert.equal(drafts?.[`${accountId}|post`]?.title, 'Important');

      forge.onRequest(undefined);
      forge.clearRequests();
      const restored = await vscode.commands.executeCommand<{ posted: boolean; restoredDraft: boolean }>(
        'forge.channel.post',
        undefined,
        {},
      );
      assert.equal(restored?.posted, true);
      assert.equal(restored.restoredDraft, true);
      assert.deepEqual(channelRequests('/item/update')[0]?.body, {
        body: 'A post that must not be lost',
        title: 'Important',
        contact_allow: '',
        category: 'keep',
      });
      assert.equal(
        api.services.context.globalState.get<Record<string, unknown>>('forge.channelDrafts')?.[
          `${accountId}|post`
        ],
        undefined,
        'the draft is gone once the server has the post',
      );
      // Nothing to send: nothing is sent.
      forge.clearRequests();
      assert.equal(await vscode.commands.executeCommand('forge.channel.post', undefined, {}), undefined);
      assert.equal(channelRequests('/item/update').length, 0);
    });

    it('says when the hub suppressed a post as a duplicate, and keeps the draft', async () => {
      const post = { body: 'Said twice within a minute', audience: 'public' };
      const first = await vscode.commands.executeCommand<{ posted: boolean }>(
        'forge.channel.post',
        undefined,
        post,
      );
      assert.equal(first?.posted, true);
      const second = await vscode.commands.executeCommand<{
        posted: boolean;
        draftKept: boolean;
        message: string;
      }>('forge.channel.post', undefined, post);
      assert.equal(second?.posted, false);
      assert.equal(second.draftKept, true);
      assert.match(second.message, /suppressed this post as a duplicate/);
      assert.match(second.message, /kept as a draft/);
      const drafts =
        api.services.context.globalState.get<Record<string, { body: string }>>('forge.channelDrafts');
      assert.equal(drafts?.[`${accountId}|post`]?.body, post.body);
      await api.services.context.globalState.update('forge.channelDrafts', {});
    });

    it('comments on an item from the tree and from the palette; a failed comment is kept', async () => {
      const fx = forge.channel.fixtures;
      const post = await networkThread(fx.networkPost.mid);
      forge.clearRequests();
      const result = await vscode.commands.executeCommand<{ posted: boolean; mid: string }>(
        'forge.channel.comment',
        post.node,
        { body: 'Nice one!' },
      );
      assert.equal(result?.posted, true);
      assert.deepEqual(channelRequests('/item/update')[0]?.body, {
        body: 'Nice one!',
        parent_mid: fx.networkPost.mid,
      });
      await eventually(async () => {
        const rows = await childrenOf(tree, (await streamSource('Network')).node);
        const again = rows.find(({ item }) => item.id?.endsWith(`/item/${fx.networkPost.mid}`));
        const comments = await childrenOf(tree, again?.node);
        assert.ok(comments.some(({ item }) => item.id?.endsWith(`/item/${result.mid}`)));
      });

      failNext((request) => request.method === 'POST' && request.url === '/api/z/1.0/item/update');
      const failed = await vscode.commands.executeCommand<{ posted: boolean; draftKept: boolean }>(
        'forge.channel.comment',
        undefined,
        { mid: fx.ownPost.mid, body: 'Second thoughts' },
      );
      assert.equal(failed?.draftKept, true);
      forge.onRequest(undefined);
      forge.clearRequests();
      const resent = await vscode.commands.executeCommand<{ posted: boolean; restoredDraft: boolean }>(
        'forge.channel.comment',
        undefined,
        { mid: fx.ownPost.mid },
      );
      assert.equal(resent?.restoredDraft, true);
      assert.deepEqual(channelRequests('/item/update')[0]?.body, {
        body: 'Second thoughts',
        parent_mid: fx.ownPost.mid,
      });
    });

    it('refuses to comment where comments are off', async () => {
      const closed = forge.channel.state.threadTops().find((top) => top.itemNocomment === 1);
      assert.ok(closed);
      forge.clearRequests();
      const result = await vscode.commands.executeCommand<{ posted: boolean; message: string }>(
        'forge.channel.comment',
        undefined,
        { mid: closed.mid, body: 'Hello?' },
      );
      assert.equal(result?.posted, false);
      assert.match(result.message, /Comments are turned off/);
      assert.equal(channelRequests('/item/update').length, 0);
    });

    it('opens a conversation in a reading pane: the post, its comments and a reply box', async () => {
      const fx = forge.channel.fixtures;
      const post = await networkThread(fx.networkPost.mid);
      assert.equal(post.item.command?.command, 'forge.channel.openPost', 'a click opens the pane');
      const panel = await vscode.commands.executeCommand<ChannelPostPanel>(
        'forge.channel.openPost',
        post.node,
      );
      type Sent = ChannelPostPanel['host']['sent'][number];
      const snapshots = (): Extract<Sent, { type: 'snapshot' }>[] =>
        panel.host.sent.filter(
          (message): message is Extract<Sent, { type: 'snapshot' }> => message.type === 'snapshot',
        );
      const results = (): Extract<Sent, { type: 'replyResult' }>[] =>
        panel.host.sent.filter(
          (message): message is Extract<Sent, { type: 'replyResult' }> => message.type === 'replyResult',
        );
      try {
        await eventually(() => assert.ok(snapshots().length > 0, 'the page loaded'), 20_000);
        const first = snapshots().at(-1);
        assert.equal(first?.post.mid, fx.networkPost.mid);
        const treeComments = (await descendants(await childrenOf(tree, post.node))).length;
        assert.equal(first?.comments.length, treeComments, 'every comment of the conversation');
        assert.ok(first && !/\[\/?(b|i|url)\b/.test(first.post.text), 'the text without BBCode markup');

        // A reply the hub refuses stays in the box, and says so.
        failNext((request) => request.method === 'POST' && request.url === '/api/z/1.0/item/update');
        await panel.host.receive({ type: 'reply', body: 'From the reading pane' });
        forge.onRequest(undefined);
        assert.equal(results().at(-1)?.ok, false);
        assert.match(results().at(-1)?.message ?? '', /kept/i);

        forge.clearRequests();
        await panel.host.receive({ type: 'reply', body: 'From the reading pane' });
        assert.deepEqual(channelRequests('/item/update')[0]?.body, {
          body: 'From the reading pane',
          parent_mid: fx.networkPost.mid,
        });
        assert.equal(results().at(-1)?.ok, true);
        assert.ok(
          snapshots()
            .at(-1)
            ?.comments.some((comment) => comment.text === 'From the reading pane'),
        );
        assert.deepEqual(panel.host.violations, [], 'no CSP violation');
      } finally {
        panel.dispose();
      }
    });

    it('edits your own items, and only those', async () => {
      const fx = forge.channel.fixtures;
      const own = await childrenOf(tree, (await streamSource('My channel')).node);
      const mine = own.find(({ item }) => label(item) === HOSTILE);
      assert.ok(mine);
      forge.clearRequests();
      const edited = await vscode.commands.executeCommand<{ edited: boolean; itemId: number }>(
        'forge.channel.editItem',
        mine.node,
        { body: 'Edited body', title: 'Edited title' },
      );
      assert.equal(edited?.edited, true);
      assert.equal(edited.itemId, postedId);
      assert.deepEqual(channelRequests('/item/update')[0]?.body, {
        body: 'Edited body',
        title: 'Edited title',
        post_id: String(postedId),
      });
      await eventually(async () => {
        const rows = await childrenOf(tree, (await streamSource('My channel')).node);
        assert.ok(rows.some(({ item }) => label(item) === 'Edited title'));
      });

      // A seeded post: the stream does not carry its number, so it has to be given.
      forge.clearRequests();
      assert.equal(
        await vscode.commands.executeCommand('forge.channel.editItem', undefined, {
          mid: fx.ownPost.mid,
          body: 'x',
        }),
        undefined,
      );
      assert.equal(channelRequests('/item/update').length, 0);
      const seeded = await vscode.commands.executeCommand<{ edited: boolean }>(
        'forge.channel.editItem',
        undefined,
        {
          mid: fx.ownPost.mid,
          body: 'Edited seeded post',
          itemId: fx.ownPost.id,
        },
      );
      assert.equal(seeded?.edited, true);
      assert.equal(forge.channel.state.findItem(fx.ownPost.id)?.body, 'Edited seeded post');

      // Someone else's post.
      forge.clearRequests();
      assert.equal(
        await vscode.commands.executeCommand('forge.channel.editItem', undefined, {
          mid: fx.networkPost.mid,
          body: 'Not mine',
          itemId: fx.networkPost.id,
        }),
        undefined,
      );
      assert.equal(channelRequests('/item/update').length, 0);
    });

    it('looks up an identity by address, hash or guid', async () => {
      const { ada } = forge.channel.fixtures.connections;
      const byAddress = await vscode.commands.executeCommand<{
        found: boolean;
        by: string;
        xchan: { name: string };
      }>('forge.channel.lookupIdentity', undefined, { query: ada.address, show: 'none' });
      assert.equal(byAddress?.by, 'address');
      assert.equal(byAddress.xchan.name, 'Ada Lovelace');
      const byHash = await vscode.commands.executeCommand<{ by: string }>(
        'forge.channel.lookupIdentity',
        undefined,
        {
          query: ada.hash,
          show: 'none',
        },
      );
      assert.equal(byHash?.by, 'hash');
      forge.clearRequests();
      const byGuid = await vscode.commands.executeCommand<{ by: string; document: string }>(
        'forge.channel.lookupIdentity',
        undefined,
        { query: ada.guid, show: 'json' },
      );
      assert.equal(byGuid?.by, 'guid');
      // A guid looks like a hash: the hash is asked first (the server says `false`), then the guid.
      assert.deepEqual(
        channelRequests('/xchan').map((request) => Object.keys(request.query)),
        [['hash'], ['guid']],
      );
      const document = vscode.workspace.textDocuments.find((each) => each.uri.toString() === byGuid.document);
      assert.equal(document?.languageId, 'json');
      assert.equal((JSON.parse(document?.getText() ?? '{}') as { address?: string }).address, ada.address);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');

      const missing = await vscode.commands.executeCommand<{ found: boolean }>(
        'forge.channel.lookupIdentity',
        undefined,
        {
          query: 'nobody@nowhere.example',
          show: 'none',
        },
      );
      assert.equal(missing?.found, false);
      const connection = (await childrenOf(tree, (await folder('Connections')).node))[0];
      const fromNode = await vscode.commands.executeCommand<{ by: string; xchan: { name: string } }>(
        'forge.channel.lookupIdentity',
        connection?.node,
        { show: 'none' },
      );
      assert.equal(fromNode?.xchan.name, 'Ada Lovelace');
    });

    it('checks permissions of a connection, a group member or an address', async () => {
      const { grace } = forge.channel.fixtures.connections;
      const connections = await childrenOf(tree, (await folder('Connections')).node);
      const ada = connections.find(({ item }) => label(item) === 'Ada Lovelace');
      const one = await vscode.commands.executeCommand<{ results: { perm: string; allowed: boolean }[] }>(
        'forge.channel.checkPermission',
        ada?.node,
        { perm: 'view_stream', show: false },
      );
      assert.deepEqual(one?.results, [{ perm: 'view_stream', allowed: true }]);
      const ken = connections.find(({ item }) => label(item) === 'Ken Thompson');
      const kens = await vscode.commands.executeCommand<{ results: { allowed: boolean }[] }>(
        'forge.channel.checkPermission',
        ken?.node,
        { show: false },
      );
      assert.equal(kens?.results.length, 18);
      assert.ok(kens.results.every((row) => !row.allowed));
      forge.clearRequests();
      const all = await vscode.commands.executeCommand<{ results: { allowed: boolean }[] }>(
        'forge.channel.checkPermission',
        undefined,
        { address: grace.address, perm: 'all', show: false },
      );
      assert.equal(all?.results.filter((row) => row.allowed).length, 5);
      // Asked by address, real hubs answer wrongly: the address is looked up as a connection first.
      const graceRow = forge.channel.state.abook.find((abook) => abook.xchan === grace.hash);
      assert.deepEqual(channelRequests('/perm_allowed')[0]?.query, { abook_id: String(graceRow?.id) });
      forge.clearRequests();
      const stranger = await vscode.commands.executeCommand<{ reliable: boolean; message?: string }>(
        'forge.channel.checkPermission',
        undefined,
        { address: forge.channel.fixtures.connections.barbara.address, perm: 'view_stream', show: false },
      );
      assert.equal(stranger?.reliable, false, 'not a connection: the answer is marked unreliable');
      assert.deepEqual(channelRequests('/perm_allowed')[0]?.query, {
        address: forge.channel.fixtures.connections.barbara.address,
        perm: 'view_stream',
      });
    });

    it('exports chosen sections, with or without posts, to a JSON file', async () => {
      const destination = join(tmp, 'export.json');
      forge.clearRequests();
      const result = await vscode.commands.executeCommand<{ path: string; sections: string[] }>(
        'forge.channel.export',
        undefined,
        { sections: ['channel', 'connections'], posts: false, destination },
      );
      assert.equal(result?.path, destination);
      assert.deepEqual(channelRequests('/channel/export/basic')[0]?.query, {
        sections: 'channel,connections',
        posts: '0',
      });
      const exported = JSON.parse(readFileSync(destination, 'utf8')) as Record<string, unknown>;
      assert.ok('channel' in exported && 'abook' in exported);
      assert.ok(!('config' in exported));
      assert.ok(!existsSync(`${destination}.part`));
      // The hub sends the channel's private key; it is left out unless asked for, and the file is
      // readable by the user alone either way.
      assert.equal(statSync(destination).mode & 0o777, 0o600);
      assert.ok(!readFileSync(destination, 'utf8').includes('PRIVATE KEY'), 'the private key was left out');
      assert.ok('channel_pubkey' in (exported['channel'] as Record<string, unknown>));
      const withKey = join(tmp, 'export-with-key.json');
      const keyed = await vscode.commands.executeCommand<{ privateKeyIncluded: boolean }>(
        'forge.channel.export',
        undefined,
        { sections: ['channel'], posts: false, destination: withKey, includePrivateKey: true },
      );
      assert.equal(keyed?.privateKeyIncluded, true);
      assert.ok(readFileSync(withKey, 'utf8').includes('PRIVATE KEY'));
      assert.equal(statSync(withKey).mode & 0o777, 0o600);
      const withPosts = await vscode.commands.executeCommand<{ sections: string[] }>(
        'forge.channel.export',
        undefined,
        { posts: true, destination: join(tmp, 'with-posts.json') },
      );
      assert.equal(channelRequests('/channel/export/basic')[2]?.query['posts'], '1');
      assert.ok(withPosts?.sections.includes('item'), withPosts?.sections.join(', '));
      // The hub ignored `posts` (as real hubs do): the posts were read from item/export_page.
      assert.ok(channelRequests('/item/export_page').length > 0);
      const { state } = forge.channel;
      const own = state.items.filter(
        (item) => item.itemDeleted === 0 && item.ownerXchan === state.channel.hash,
      );
      const written = JSON.parse(readFileSync(join(tmp, 'with-posts.json'), 'utf8')) as { item?: unknown[] };
      assert.equal(written.item?.length, own.length, 'every post of the channel, once');
    });

    it('downloads a file in chunks; a broken download leaves no complete-looking file and resumes', async () => {
      const fx = forge.channel.fixtures;
      const documents = (await childrenOf(tree, (await folder('Files')).node)).find(
        ({ item }) => label(item) === 'Documents',
      );
      const archive = (await childrenOf(tree, documents?.node)).find(
        ({ item }) => label(item) === 'archive.bin',
      );
      assert.ok(archive);
      const destination = join(tmp, 'archive.bin');
      // The third chunk fails: two chunks are kept for the next attempt, no final file appears.
      let requests = 0;
      forge.onRequest((request, response) => {
        if (!request.url?.startsWith('/api/z/1.0/filedata')) return false;
        requests += 1;
        if (requests !== 3) return false;
        response.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"boom"}');
        return true;
      });
      const failed = await vscode.commands.executeCommand('forge.channel.downloadFile', archive.node, {
        destination,
        chunkSize: 64 * 1024,
      });
      assert.equal(failed, undefined, 'the command reported the failure');
      assert.ok(!existsSync(destination), 'no complete-looking file');
      assert.equal(statSync(`${destination}.part`).size, 2 * 64 * 1024);
      forge.onRequest(undefined);
      forge.clearRequests();
      const result = await vscode.commands.executeCommand<{
        path: string;
        bytes: number;
        chunks: number;
        resumedFromBytes: number;
      }>('forge.channel.downloadFile', archive.node, { destination, chunkSize: 64 * 1024 });
      assert.equal(result?.resumedFromBytes, 2 * 64 * 1024);
      assert.equal(result.bytes, fx.binaryFile.size);
      assert.equal(
        createHash('sha256').update(readFileSync(destination)).digest('hex'),
        fx.binaryFile.sha256,
      );
      assert.equal(channelRequests('/filedata')[0]?.query['start'], String(2 * 64 * 1024));
      assert.ok(!existsSync(`${destination}.part`));
    });

    it('opens a file and a photo in the editor, from a private cache', async () => {
      const fx = forge.channel.fixtures;
      const documents = (await childrenOf(tree, (await folder('Files')).node)).find(
        ({ item }) => label(item) === 'Documents',
      );
      const notes = (await childrenOf(tree, documents?.node)).find(({ item }) => label(item) === 'notes.txt');
      const first = await vscode.commands.executeCommand<{ path: string; cached: boolean }>(
        'forge.channel.openFile',
        notes?.node,
      );
      assert.equal(first?.cached, false);
      assert.ok(first.path.startsWith(api.services.context.globalStorageUri.fsPath));
      const text = forge.channel.state.findFile(fx.textFile.hash)?.content.toString('utf8');
      await eventually(() => assert.equal(vscode.window.activeTextEditor?.document.getText(), text));
      const second = await vscode.commands.executeCommand<{ cached: boolean }>(
        'forge.channel.openFile',
        notes?.node,
      );
      assert.equal(second?.cached, true);
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

      const albums = await childrenOf(tree, (await folder('Photo albums')).node);
      const photos = await childrenOf(tree, albums.find(({ item }) => label(item) === '2024-05')?.node);
      const photo = await vscode.commands.executeCommand<{ path: string }>(
        'forge.channel.openFile',
        photos[0]?.node,
      );
      assert.ok(photo?.path.endsWith('sunrise.jpg'));
      assert.equal(readFileSync(photo.path)[0], 0xff);
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    });

    it('refreshes the view', async () => {
      forge.clearRequests();
      await vscode.commands.executeCommand('forge.channel.refresh');
      const connections = await childrenOf(tree, (await folder('Connections')).node);
      assert.equal(connections.length, 5);
      assert.ok(channelRequests('/abook').length >= 1, 'the connections were asked for again');
    });

    it('never writes the password to the log or to the extension’s log files', () => {
      assert.ok(logged.length > 0, 'lines were logged');
      assert.ok(
        logged.some((line) => /\/(filedata|item\/update)\b/.test(line)),
        'channel requests were logged',
      );
      for (const line of logged) assertNoPassword(line, `the log line "${line}"`);
      const logDir = api.services.context.logUri.fsPath;
      const files = existsSync(join(logDir, '..'))
        ? readdirSync(join(logDir, '..'), { recursive: true, withFileTypes: true }).filter((entry) =>
            entry.isFile(),
          )
        : [];
      for (const file of files) {
        const path = join(file.parentPath, file.name);
        assertNoPassword(readFileSync(path, 'utf8'), path);
      }
    });

    it('removes the account and its password', async () => {
      const result = await vscode.commands.executeCommand<{ removed: boolean }>(
        'forge.channel.removeAccount',
        accountId,
        { confirmed: true },
      );
      assert.equal(result?.removed, true);
      assert.equal(await api.services.context.secrets.get(`forge.channel.${accountId}.password`), undefined);
      assert.equal(api.channelAccounts.list().length, 0);
      assert.deepEqual(await childrenOf(tree), [], 'an empty view shows the welcome button');
    });
  });
});
