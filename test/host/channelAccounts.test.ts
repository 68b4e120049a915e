// Channel accounts in a real VS Code: the password in secret storage only, clear sign-in errors,
// the account from the environment. Set-up in channelSupport.ts.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ForgeWorkbenchApi } from '../../src/extension';
import { ChannelAccountManager } from '../../src/platform/channelAccounts';
import type { FakeForge } from '../server';
import { useChannelSession } from './channelSupport';

describe('channel accounts', function () {
  this.timeout(60_000);
  const session = useChannelSession(false);
  let forge: FakeForge;
  let api: ForgeWorkbenchApi;
  let accountId: string;
  before(() => {
    ({ forge, api, accountId } = session);
  });
  const { channelRequests, assertNoPassword } = session;

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
      accountId = session.accountId = result.accountId;
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
});
