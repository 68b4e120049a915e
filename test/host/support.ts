// Helpers every host suite uses: the extension's API, a fake forge with an account (useForgeSession),
// and trees read as a person sees them.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { marked } from 'marked';
import type { ForgeWorkbenchApi } from '../../src/extension';
import type { TreeNode } from '../../src/platform/tree/treeNode';
import type { AccountInfo } from '../../src/platform/accounts';
import { type FakeForge, type RecordedRequest, startFakeForge } from '../server';

export interface Row {
  node: TreeNode;
  item: vscode.TreeItem;
}

export async function workbenchApi(): Promise<ForgeWorkbenchApi> {
  const extension = vscode.extensions.getExtension<ForgeWorkbenchApi>('forge-workbench.forge-workbench');
  assert.ok(extension, 'the extension is installed');
  return extension.activate();
}

/** A fake forge, the extension's API and an account on that forge, for one suite. */
export class ForgeSession {
  private started: { forge: FakeForge; api: ForgeWorkbenchApi; account: AccountInfo } | undefined;
  /** Run at the start of the clean-up, while the forge and the accounts are still there. */
  readonly cleanUps: (() => unknown)[] = [];

  set(started: { forge: FakeForge; api: ForgeWorkbenchApi; account: AccountInfo }): void {
    this.started = started;
  }

  private get ready(): { forge: FakeForge; api: ForgeWorkbenchApi; account: AccountInfo } {
    if (!this.started) throw new Error('The forge session is used before its set-up ran.');
    return this.started;
  }

  get forge(): FakeForge {
    return this.ready.forge;
  }

  get api(): ForgeWorkbenchApi {
    return this.ready.api;
  }

  get account(): AccountInfo {
    return this.ready.account;
  }
}

/**
 * The set-up host suites share, as mocha hooks of the calling `describe`: before, a fake forge
 * (seeded small unless told), the extension's API and an account with alice's token (or the
 * administrator's); after, the suite's `cleanUps`, then every account on that forge removed and the
 * forge stopped, also when the set-up failed half-way. Hooks the suite registers after this one run
 * after it.
 */
export function useForgeSession(
  options: { seed?: 'small' | 'large'; token?: 'user' | 'admin' } = {},
): ForgeSession {
  const session = new ForgeSession();
  let forge: FakeForge | undefined;
  let api: ForgeWorkbenchApi | undefined;
  before(async () => {
    forge = await startFakeForge({ seed: options.seed ?? 'small' });
    api = await workbenchApi();
    const account = await api.accounts.add({
      serverUrl: forge.url,
      token: options.token === 'admin' ? forge.adminToken : forge.userToken,
      tokenKind: 'private-token',
    });
    session.set({ forge, api, account });
  });
  after(async () => {
    for (const cleanUp of session.cleanUps) await cleanUp();
    if (!forge) return;
    forge.onRequest(undefined);
    const url = forge.url;
    for (const added of api?.accounts.list().filter((candidate) => candidate.serverUrl === url) ?? []) {
      await api?.accounts.remove(added.id);
    }
    await forge.close();
  });
  return session;
}

export function label(item: vscode.TreeItem): string {
  return typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
}

/** A tooltip's text as VS Code's renderer (marked, GitHub flavour) shows it. */
export function shownTooltip(item: Pick<vscode.TreeItem, 'tooltip'> | undefined): string {
  const tooltip = item?.tooltip;
  if (typeof tooltip === 'string') return tooltip;
  return marked
    .parse(tooltip?.value ?? '', { async: false, gfm: true })
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");
}

export function iconId(item: vscode.TreeItem): string | undefined {
  return item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : undefined;
}

export async function childrenOf(
  provider: vscode.TreeDataProvider<TreeNode>,
  node?: TreeNode,
): Promise<Row[]> {
  const children = (await provider.getChildren(node)) ?? [];
  return Promise.all(
    children.map(async (child) => ({ node: child, item: await provider.getTreeItem(child) })),
  );
}

export async function childByLabel(
  provider: vscode.TreeDataProvider<TreeNode>,
  parent: TreeNode | undefined,
  wanted: string | RegExp,
): Promise<Row> {
  const children = await childrenOf(provider, parent);
  const found = children.find(({ item }) =>
    typeof wanted === 'string' ? label(item) === wanted : wanted.test(label(item)),
  );
  assert.ok(
    found,
    `no child "${String(wanted)}" among ${children.map(({ item }) => label(item)).join(', ')}`,
  );
  return found;
}

/** The first child whose tree item satisfies `wanted`; `what` names it in the failure message. */
export async function childWhere(
  provider: vscode.TreeDataProvider<TreeNode>,
  parent: TreeNode | undefined,
  wanted: (item: vscode.TreeItem) => boolean,
  what: string,
): Promise<Row> {
  const children = await childrenOf(provider, parent);
  const found = children.find(({ item }) => wanted(item));
  assert.ok(found, `no ${what} among ${children.map(({ item }) => label(item)).join(', ')}`);
  return found;
}

/** Retries `check` until it passes: the tree reloads in the background after an action. */
/**
 * The row of pipeline `pipelineId` in a project's Jobs folder. The folder may still show its list from
 * before the pipeline was made (a refresh in flight answers its older read): it waits for the row.
 */
export async function pipelineRowIn(
  provider: vscode.TreeDataProvider<TreeNode>,
  project: TreeNode,
  pipelineId: number,
): Promise<Row> {
  const jobs = await childWhere(provider, project, (item) => label(item) === 'Jobs', 'Jobs folder');
  return eventually(
    () =>
      childWhere(
        provider,
        jobs.node,
        (item) => item.id?.endsWith(`/pipeline/${pipelineId}`) === true,
        `pipeline #${pipelineId}`,
      ),
    10_000,
  );
}

/** The job rows of a pipeline row: under its stage rows (a pipeline without an id lists them directly). */
export async function jobRowsOf(
  provider: vscode.TreeDataProvider<TreeNode>,
  pipeline: TreeNode,
): Promise<Row[]> {
  const rows: Row[] = [];
  for (const row of await childrenOf(provider, pipeline)) {
    if (row.item.contextValue === 'stage') rows.push(...(await childrenOf(provider, row.node)));
    else if (String(row.item.contextValue).startsWith('job ')) rows.push(row);
  }
  return rows;
}

/** Whether a package.json menu entry for `command` (inline or in the context menu) shows on a row with this contextValue. */
export function offers(command: string, contextValue: string | undefined, inline = false): boolean {
  const extension = vscode.extensions.getExtension('forge-workbench.forge-workbench');
  const manifest = extension?.packageJSON as {
    contributes: { menus: Record<string, { command: string; when?: string; group?: string }[]> };
  };
  const patterns = (manifest.contributes.menus['view/item/context'] ?? [])
    .filter((entry) => entry.command === command && (entry.group ?? '').startsWith('inline') === inline)
    .map((entry) => /viewItem =~ \/(.*)\//.exec(entry.when ?? '')?.[1])
    .filter((source): source is string => source !== undefined);
  assert.ok(patterns.length > 0, `no ${inline ? 'inline' : 'context'} menu entry for ${command}`);
  return patterns.some((source) => new RegExp(source).test(contextValue ?? ''));
}

/**
 * Makes the test VS Code's folder a git clone of `projectPath` on the fake forge, on `branch`; the
 * returned function puts back the remote and branch it had (other suites use the same folder).
 */
export function makeWorkspaceAClone(forge: FakeForge, projectPath: string, branch: string): () => void {
  const workspaceFolder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(workspaceFolder, 'the test VS Code opens a folder');
  const folder = workspaceFolder.uri.fsPath;
  const git = (args: string[]): string => execFileSync('git', args, { cwd: folder, encoding: 'utf8' }).trim();
  let previousRemote: string | undefined;
  let previousBranch: string | undefined;
  let initialised = false;
  try {
    previousRemote = git(['remote', 'get-url', 'origin']);
    previousBranch = git(['symbolic-ref', '--short', 'HEAD']);
  } catch {
    initialised = !existsSync(join(folder, '.git'));
    if (initialised) git(['init', '-q']);
  }
  if (previousRemote === undefined) git(['remote', 'add', 'origin', `${forge.url}/${projectPath}.git`]);
  else git(['remote', 'set-url', 'origin', `${forge.url}/${projectPath}.git`]);
  git(['symbolic-ref', 'HEAD', `refs/heads/${branch}`]);
  // Left a clone, the folder would have the status bar ask the forge in later suites (through their proxy).
  return () => {
    if (initialised) rmSync(join(folder, '.git'), { recursive: true, force: true });
    else if (previousRemote === undefined) git(['remote', 'remove', 'origin']);
    else git(['remote', 'set-url', 'origin', previousRemote]);
    if (previousBranch !== undefined) git(['symbolic-ref', 'HEAD', `refs/heads/${previousBranch}`]);
  };
}

export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * Runs each command with its arguments and asserts that its argument check refused it (what
 * `defineCommand` returns through the command wrapper), naming the command and matching `message`.
 */
export async function assertRefused(refusals: readonly [string, unknown[], RegExp][]): Promise<void> {
  for (const [command, args, message] of refusals) {
    const refused = await vscode.commands.executeCommand<{ invalidInput?: boolean; message?: string }>(
      command,
      ...args,
    );
    assert.equal(refused?.invalidInput, true, command);
    assert.match(
      refused.message ?? '',
      new RegExp(`^The command ${command.replace(/\./g, '\\.')} cannot take its `),
      command,
    );
    assert.match(refused.message ?? '', message, command);
  }
}

/** The request the fake forge received with this method and path (the first one), or a failure naming what it got. */
const CLIPBOARD_TIMED_OUT = Symbol('timed out');

/**
 * Waits until the clipboard holds `text` (5 s at most, then fails naming what it held). In the
 * headless browser of the test VS Code a read may wait for a permission nobody grants: then it
 * returns false and the command's own result is all there is to check. A read right after a write
 * has been seen to give the text before it, which is why this waits for the text, not for a read.
 */
export async function clipboardHolds(text: string): Promise<boolean> {
  const read = (): Promise<string | typeof CLIPBOARD_TIMED_OUT> =>
    Promise.race([
      Promise.resolve(vscode.env.clipboard.readText()),
      new Promise<typeof CLIPBOARD_TIMED_OUT>((resolve) =>
        setTimeout(() => resolve(CLIPBOARD_TIMED_OUT), 1500),
      ),
    ]);
  return eventually(async () => {
    const held = await read();
    if (held === CLIPBOARD_TIMED_OUT) return false;
    assert.equal(held, text, 'the clipboard');
    return true;
  });
}

export function receivedRequest(forge: FakeForge, method: string, path: string): RecordedRequest {
  const found = forge.requests.find((request) => request.method === method && request.path === path);
  assert.ok(
    found,
    `${method} ${path} was not sent; got ${forge.requests.map((r) => `${r.method} ${r.path}`).join(', ')}`,
  );
  return found;
}
