import type * as vscode from 'vscode';
import type { TreeNode } from './platform/tree/treeNode';

/*
 * What the small entry module (extension.ts) creates at activation and hands to the core
 * (core.ts) when the core first loads. Types and constants only: the two are separate bundles, and
 * nothing with state may be shared between them except through these objects.
 */

/** The tree views, created at activation with a stand-in provider; the core attaches the real one. */
export interface Shell {
  treeView(viewId: string, provider: vscode.TreeDataProvider<TreeNode>): vscode.TreeView<TreeNode>;
}

/** Where the accounts are kept (global state): the entry only asks whether there is one. */
export const STORED_ACCOUNTS_KEY = 'forge.accounts';

/** The scheme of the review's diff sides; the entry registers it, so that restored diff tabs load. */
export const REVIEW_SCHEME = 'forge-review';

/** A command handler the core registered; the entry's stand-in command calls it. */
export type CommandHandler = (...args: unknown[]) => Promise<unknown>;
