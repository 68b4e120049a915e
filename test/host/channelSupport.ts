// The set-up the channel suites share: a fake forge, the extension's API and its Channel view, a
// scratch folder, every log line captured (to look for the password), and, when asked, a channel
// account on the forge. Helpers read the Channel view as a person sees it.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ForgeWorkbenchApi } from '../../src/extension';
import type { ChannelTreeProvider } from '../../src/features/channel';
import { type FakeForge, type RecordedRequest, startFakeForge } from '../server';
import { childByLabel, childrenOf, eventually, label, type Row, workbenchApi } from './support';

type LogMethod = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'appendLine' | 'append';
const LOG_METHODS: readonly LogMethod[] = ['trace', 'debug', 'info', 'warn', 'error', 'appendLine', 'append'];

interface Started {
  forge: FakeForge;
  api: ForgeWorkbenchApi;
  tree: ChannelTreeProvider;
  tmp: string;
}

export class ChannelSession {
  private started: Started | undefined;
  /** The channel account the set-up added, or the one a test added and named here. */
  accountId = '';
  /** Every line the extension logged since the set-up. */
  readonly logged: string[] = [];

  set(started: Started): void {
    this.started = started;
  }

  private get ready(): Started {
    if (!this.started) throw new Error('The channel session is used before its set-up ran.');
    return this.started;
  }

  get forge(): FakeForge {
    return this.ready.forge;
  }

  get api(): ForgeWorkbenchApi {
    return this.ready.api;
  }

  get tree(): ChannelTreeProvider {
    return this.ready.tree;
  }

  get tmp(): string {
    return this.ready.tmp;
  }

  readonly channelRequests = (path: string, method?: string): RecordedRequest[] =>
    this.forge.requests.filter(
      (request) =>
        request.path === `/api/z/1.0${path}` && (method === undefined || request.method === method),
    );

  /** The folders of our account: the tree shows them at the top when it is the only account. */
  readonly folders = async (): Promise<Row[]> => {
    const top = await childrenOf(this.tree);
    if (this.api.channelAccounts.list().length === 1) return top;
    const ours = top.find(({ item }) => item.id === `channel/${this.accountId}`);
    assert.ok(ours, 'our account is in the view');
    return childrenOf(this.tree, ours.node);
  };

  readonly folder = async (name: string): Promise<Row> => {
    const found = (await this.folders()).find(({ item }) => label(item) === name);
    assert.ok(found, `no folder ${name}`);
    return found;
  };

  readonly streamSource = async (name: 'My channel' | 'Network'): Promise<Row> =>
    childByLabel(this.tree, (await this.folder('Stream')).node, name);

  readonly descendants = (rows: Row[], provider = this.tree): Promise<Row[]> =>
    Promise.all(
      rows.map(async (row) => [row, ...(await this.descendants(await childrenOf(provider, row.node)))]),
    ).then((nested) => nested.flat());

  /** The row of a thread in the Network folder, loading more pages until it is there. */
  readonly networkThread = async (mid: string): Promise<Row> => {
    const network = (await this.streamSource('Network')).node;
    for (let page = 0; page < 10; page++) {
      const rows = await childrenOf(this.tree, network);
      const found = rows.find(({ item }) => item.id?.endsWith(`/item/${mid}`));
      if (found) return found;
      const more = rows.at(-1);
      assert.equal(label(more?.item ?? {}), 'Load more…', `thread ${mid} is not in the Network folder`);
      await vscode.commands.executeCommand('forge.tree.loadMore', more?.node);
      await eventually(async () =>
        assert.notEqual((await childrenOf(this.tree, network)).length, rows.length),
      );
    }
    assert.fail(`thread ${mid} is not in the Network folder`);
  };

  /** The next `times` requests that `match` fail with a 500. */
  readonly failNext = (match: (request: { method?: string; url?: string }) => boolean, times = 1): void => {
    let left = times;
    this.forge.onRequest((request, response) => {
      if (left > 0 && match(request)) {
        left -= 1;
        response.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"boom"}');
        return true;
      }
      return false;
    });
  };

  readonly assertNoPassword = (text: string, where: string): void => {
    assert.ok(!text.includes(this.forge.channel.password), `the password appears in ${where}`);
  };
}

/**
 * Mocha hooks of the calling `describe`: the set-up before (with a channel account signed in as
 * wren when `withAccount`), and after, the log restored, every channel account removed, the forge
 * stopped and the scratch folder deleted.
 */
export function useChannelSession(withAccount: boolean): ChannelSession {
  const session = new ChannelSession();
  const originals = new Map<LogMethod, unknown>();
  let forge: FakeForge | undefined;
  let api: ForgeWorkbenchApi | undefined;
  let tmp: string | undefined;
  before(async () => {
    forge = await startFakeForge({ seed: 'small' });
    api = await workbenchApi();
    tmp = mkdtempSync(join(tmpdir(), 'forge-channel-host-'));
    const log = api.log as unknown as Record<LogMethod, (...args: unknown[]) => void>;
    const writes = api.log;
    for (const method of LOG_METHODS) {
      const original = log[method];
      originals.set(method, original);
      log[method] = (...args: unknown[]) => {
        session.logged.push(args.map((arg) => (arg instanceof Error ? arg.message : String(arg))).join(' '));
        original.apply(writes, args);
      };
    }
    session.set({ forge, api, tree: api.treeProviders['forge.channel'], tmp });
    if (withAccount) {
      const account = await api.channelAccounts.add({
        serverUrl: forge.url,
        login: forge.channel.nickname,
        password: forge.channel.password,
      });
      session.accountId = account.id;
    }
  });
  after(async () => {
    forge?.onRequest(undefined);
    if (api) {
      const log = api.log as unknown as Record<string, unknown>;
      for (const [method, original] of originals) log[method] = original;
      for (const account of api.channelAccounts.list()) await api.channelAccounts.remove(account.id);
    }
    await forge?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });
  return session;
}
