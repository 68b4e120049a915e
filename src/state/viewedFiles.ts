/**
 * The files a reviewer marked as viewed, per merge request, kept in the workspace's state (GitLab's
 * API does not store it), and the head a reviewer last reviewed (for "Changes since my last review").
 * Read once, written through: a tree of a thousand files asks for each row's state without a read
 * of the stored object per row.
 */
import type { ViewedFile } from '../domain/viewedFiles';

/** The part of VS Code's Memento the store needs (workspaceState satisfies it). */
export interface ViewedMemento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

interface MergeRequestViews {
  /** When the entry last changed (ISO time): the oldest entries go first beyond the cap. */
  at: string;
  /** Path → the key of the content it was viewed with. */
  files: Record<string, string>;
  /** The head commit when the reviewer last submitted a review or approved. */
  reviewedHead?: string;
}

const STORAGE_KEY = 'forge.review.viewedFiles';
/** Merge requests kept; the ones not touched longest are forgotten beyond this. */
export const MAX_VIEWED_MERGE_REQUESTS = 300;

function readEntry(value: unknown): MergeRequestViews | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  const files = record['files'];
  if (typeof record['at'] !== 'string' || !files || typeof files !== 'object') return undefined;
  const kept: Record<string, string> = {};
  for (const [path, key] of Object.entries(files as Record<string, unknown>)) {
    if (typeof key === 'string') kept[path] = key;
  }
  const reviewedHead = record['reviewedHead'];
  return {
    at: record['at'],
    files: kept,
    ...(typeof reviewedHead === 'string' ? { reviewedHead } : {}),
  };
}

export class ViewedFilesStore {
  private entries: Map<string, MergeRequestViews> | undefined;
  private readonly listeners = new Set<(mergeRequest: string) => void>();

  constructor(
    private readonly memento: ViewedMemento,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private all(): Map<string, MergeRequestViews> {
    if (this.entries) return this.entries;
    const stored = this.memento.get<unknown>(STORAGE_KEY);
    const entries = new Map<string, MergeRequestViews>();
    if (stored && typeof stored === 'object' && !Array.isArray(stored)) {
      for (const [key, value] of Object.entries(stored as Record<string, unknown>)) {
        const entry = readEntry(value);
        if (entry) entries.set(key, entry);
      }
    }
    this.entries = entries;
    return entries;
  }

  isViewed(mergeRequest: string, file: ViewedFile): boolean {
    return this.all().get(mergeRequest)?.files[file.path] === file.key;
  }

  /** Marks the files viewed (with their current keys) or not viewed. */
  async setViewed(mergeRequest: string, files: readonly ViewedFile[], viewed: boolean): Promise<void> {
    const entry = this.all().get(mergeRequest) ?? { at: '', files: {} };
    for (const file of files) {
      if (viewed) entry.files[file.path] = file.key;
      else delete entry.files[file.path];
    }
    await this.write(mergeRequest, entry);
  }

  reviewedHead(mergeRequest: string): string | undefined {
    return this.all().get(mergeRequest)?.reviewedHead;
  }

  /** Remembers the head the reviewer just reviewed (a submitted review, an approval). */
  async rememberReviewedHead(mergeRequest: string, headSha: string): Promise<void> {
    const entry = this.all().get(mergeRequest) ?? { at: '', files: {} };
    entry.reviewedHead = headSha;
    await this.write(mergeRequest, entry);
  }

  /** Called with the merge request's key after its entry changed. */
  onDidChange(listener: (mergeRequest: string) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private async write(mergeRequest: string, entry: MergeRequestViews): Promise<void> {
    const entries = this.all();
    entries.delete(mergeRequest);
    entry.at = this.now().toISOString();
    if (Object.keys(entry.files).length > 0 || entry.reviewedHead !== undefined)
      entries.set(mergeRequest, entry);
    const oldestFirst = [...entries].sort(([, a], [, b]) => a.at.localeCompare(b.at));
    for (const [key] of oldestFirst.slice(0, Math.max(0, entries.size - MAX_VIEWED_MERGE_REQUESTS)))
      entries.delete(key);
    for (const listener of this.listeners) listener(mergeRequest);
    await this.memento.update(STORAGE_KEY, entries.size > 0 ? Object.fromEntries(entries) : undefined);
  }
}
