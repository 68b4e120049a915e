// Every forge.channel.* command in a real VS Code, checked through what the fake server received.
// Set-up in channelSupport.ts.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { marked } from 'marked';
import type { ForgeWorkbenchApi } from '../../src/extension';
import type { ChannelPostPanel, ChannelTreeProvider } from '../../src/features/channel';
import type { FakeForge } from '../server';
import { useChannelSession } from './channelSupport';
import { assertRefused, childrenOf, eventually, iconId, label } from './support';

const HOSTILE = '<img src=x onerror=alert(1)>';

describe('channel commands', function () {
  this.timeout(60_000);
  const session = useChannelSession(true);
  let forge: FakeForge;
  let api: ForgeWorkbenchApi;
  let tree: ChannelTreeProvider;
  let tmp: string;
  let accountId: string;
  before(() => {
    ({ forge, api, tree, tmp, accountId } = session);
  });
  const {
    logged,
    channelRequests,
    folder,
    streamSource,
    descendants,
    networkThread,
    failNext,
    assertNoPassword,
  } = session;

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
      // Server text is text: never markup, and the author's address (`name@hub`) no mail link, as
      // VS Code's renderer (marked, GitHub flavour) shows it.
      const shown = marked.parse(tooltip.value, { async: false, gfm: true });
      assert.doesNotMatch(shown, /<a |href=/, shown);
      assert.match(shown, /categories: forge, vscode/);
      assert.match(shown, /\(\w+@[\w.:-]+\)/, 'the address is shown as written');
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
