/**
 * Channel conversations: stream items grouped into threads (each comment under the item it answers)
 * and walked in thread order.
 */
import { readStreamEntry, type StreamEntry } from './channel';

/** One item of a thread with the answers to it, oldest first. */
export interface StreamThreadNode {
  entry: StreamEntry;
  replies: StreamThreadNode[];
}

/** A conversation: its top item and every comment nested under the item it answers. */
export interface StreamThread {
  top: StreamThreadNode;
  /** Items in the thread, the top included. */
  size: number;
  /** The latest creation date in the thread (comments included). */
  lastActivity: string;
}

/**
 * Groups stream items into threads, in the order their top items first appear (or, with
 * `newestFirst`, by the top item's creation, newest first). Comments go under the item they answer,
 * or under the top when that item is not in the list; comments are oldest first. Duplicates (a thread
 * seen twice while paging) count once; comments whose top is missing become threads of their own.
 */
export function buildThreads(
  items: readonly Record<string, unknown>[],
  options: { newestFirst?: boolean } = {},
): StreamThread[] {
  const entries = new Map<string, StreamEntry>();
  for (const item of items) {
    const entry = readStreamEntry(item);
    if (entry && !entries.has(entry.mid)) entries.set(entry.mid, entry);
  }
  const nodes = new Map<string, StreamThreadNode>();
  for (const entry of entries.values()) nodes.set(entry.mid, { entry, replies: [] });
  const roots: StreamThreadNode[] = [];
  for (const node of nodes.values()) {
    const { entry } = node;
    if (entry.mid === entry.top) {
      roots.push(node);
      continue;
    }
    const parent = nodes.get(entry.parent) ?? nodes.get(entry.top);
    if (parent && parent !== node) parent.replies.push(node);
    else roots.push(node);
  }
  const byCreated = (a: StreamThreadNode, b: StreamThreadNode): number =>
    (a.entry.created ?? '').localeCompare(b.entry.created ?? '');
  const threads = roots.map((root): StreamThread => {
    let size = 0;
    let lastActivity = root.entry.created ?? '';
    walkThread(root, (node) => {
      size++;
      if ((node.entry.created ?? '') > lastActivity) lastActivity = node.entry.created ?? '';
      node.replies.sort(byCreated);
    });
    return { top: root, size, lastActivity };
  });
  if (options.newestFirst) {
    threads.sort((a, b) => (b.top.entry.created ?? '').localeCompare(a.top.entry.created ?? ''));
  }
  return threads;
}

/**
 * Every node under `root` (itself first), each followed by its replies in their order, with its
 * depth (the root's is 0). An explicit stack: a reply chain thousands deep (a hostile hub's) would
 * overflow the call stack of a recursive walk. `visit` may reorder a node's replies before they are
 * walked.
 */
export function walkThread(
  root: StreamThreadNode,
  visit: (node: StreamThreadNode, depth: number) => void,
): void {
  const stack: [StreamThreadNode, number][] = [[root, 0]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [node, depth] = next;
    visit(node, depth);
    for (let index = node.replies.length - 1; index >= 0; index--) {
      const reply = node.replies[index];
      if (reply) stack.push([reply, depth + 1]);
    }
  }
}
