// Helpers every host suite uses: the extension's API, and trees read as a person sees them.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ForgeWorkbenchApi } from '../../src/extension';
import type { TreeNode } from '../../src/platform/tree/treeNode';

export interface Row {
  node: TreeNode;
  item: vscode.TreeItem;
}

export async function workbenchApi(): Promise<ForgeWorkbenchApi> {
  const extension = vscode.extensions.getExtension<ForgeWorkbenchApi>('forge-workbench.forge-workbench');
  assert.ok(extension, 'the extension is installed');
  return extension.activate();
}

export function label(item: vscode.TreeItem): string {
  return typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
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
