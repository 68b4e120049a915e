import { createHash } from 'node:crypto';
import assert from 'node:assert/strict';
import {
  countViewed,
  viewedFileKey,
  viewedFileOf,
  viewedFilePath,
  viewedMergeRequestKey,
} from '../../../src/domain/viewedFiles';
import {
  MAX_VIEWED_MERGE_REQUESTS,
  ViewedFilesStore,
  type ViewedMemento,
} from '../../../src/state/viewedFiles';

function memoryMemento(): ViewedMemento & { data: Map<string, unknown>; writes: number } {
  const data = new Map<string, unknown>();
  const memento = {
    data,
    writes: 0,
    get: <T>(key: string) => data.get(key) as T | undefined,
    update: (key: string, value: unknown) => {
      memento.writes += 1;
      if (value === undefined) data.delete(key);
      else data.set(key, JSON.parse(JSON.stringify(value)));
      return Promise.resolve();
    },
  };
  return memento;
}

const HEAD = 'a'.repeat(40);
const NEXT_HEAD = 'b'.repeat(40);

function change(
  path: string,
  diff: string,
  flags: Partial<Record<'new_file' | 'deleted_file' | 'renamed_file', boolean>> = {},
) {
  return {
    old_path: path,
    new_path: path,
    diff,
    new_file: false,
    deleted_file: false,
    renamed_file: false,
    ...flags,
  };
}

describe('viewed files', () => {
  describe('the key of a file', () => {
    it('stays for the same diff at a new head, and changes with the diff', () => {
      const before = change('src/a.ts', '@@ -1 +1 @@\n-a\n+b\n');
      assert.equal(viewedFileKey(before, HEAD), viewedFileKey(before, NEXT_HEAD));
      const pushed = change('src/a.ts', '@@ -1 +1 @@\n-a\n+c\n');
      assert.notEqual(viewedFileKey(before, HEAD), viewedFileKey(pushed, NEXT_HEAD));
    });

    it('keys a file without a diff (too large, binary) by the head: any push unmarks it', () => {
      const binary = change('logo.png', '');
      assert.equal(viewedFileKey(binary, HEAD), viewedFileKey(binary, HEAD));
      assert.notEqual(viewedFileKey(binary, HEAD), viewedFileKey(binary, NEXT_HEAD));
    });

    it('tells a rename, an added and a deleted file with the same diff apart', () => {
      const diff = '@@ -0,0 +1 @@\n+x\n';
      const keys = new Set([
        viewedFileKey(change('a', diff), HEAD),
        viewedFileKey(change('a', diff, { new_file: true }), HEAD),
        viewedFileKey(change('a', diff, { deleted_file: true }), HEAD),
        viewedFileKey({ ...change('a', diff, { renamed_file: true }), new_path: 'b' }, HEAD),
      ]);
      assert.equal(keys.size, 4);
    });

    it('keeps the stored key format, so that ticks made by an earlier version still count', () => {
      // sha256 of the kind letter, both paths and the diff (or the head), NUL-separated; 24 hex digits.
      const stored = (kind: string, oldPath: string, newPath: string, content: string) =>
        createHash('sha256').update(`${kind}\0${oldPath}\0${newPath}\0${content}`).digest('hex').slice(0, 24);
      const diff = '@@ -0,0 +1 @@\n+x\n';
      assert.deepEqual(
        [
          viewedFileKey(change('a', diff), HEAD),
          viewedFileKey(change('a', diff, { new_file: true }), HEAD),
          viewedFileKey(change('a', diff, { deleted_file: true }), HEAD),
          viewedFileKey(change('a', diff, { renamed_file: true }), HEAD),
          viewedFileKey(change('logo.png', ''), HEAD),
        ],
        [
          stored('M', 'a', 'a', diff),
          stored('A', 'a', 'a', diff),
          stored('D', 'a', 'a', diff),
          stored('R', 'a', 'a', diff),
          stored('M', 'logo.png', 'logo.png', `head:${HEAD}`),
        ],
      );
    });

    it('knows a deleted file by its old path, others by their new one', () => {
      assert.equal(viewedFilePath({ ...change('old', '', { deleted_file: true }), new_path: 'old' }), 'old');
      assert.equal(viewedFilePath({ ...change('old', '', { renamed_file: true }), new_path: 'new' }), 'new');
    });
  });

  describe('the store', () => {
    const mr = viewedMergeRequestKey('acc', 7, 3);

    it('keeps a tick per merge request and file, across a new store on the same state', async () => {
      const memento = memoryMemento();
      const store = new ViewedFilesStore(memento);
      const file = viewedFileOf(change('src/a.ts', '@@ -1 +1 @@\n-a\n+b\n'), HEAD);
      await store.setViewed(mr, [file], true);
      assert.equal(store.isViewed(mr, file), true);
      assert.equal(store.isViewed(viewedMergeRequestKey('acc', 7, 4), file), false);
      assert.equal(store.isViewed(viewedMergeRequestKey('other', 7, 3), file), false);
      assert.equal(new ViewedFilesStore(memento).isViewed(mr, file), true);
    });

    it('unmarks a file whose diff a later push changed, and keeps the others', async () => {
      const store = new ViewedFilesStore(memoryMemento());
      const a = change('a.ts', '@@ -1 +1 @@\n-a\n+b\n');
      const b = change('b.ts', '@@ -1 +1 @@\n-x\n+y\n');
      await store.setViewed(mr, [viewedFileOf(a, HEAD), viewedFileOf(b, HEAD)], true);
      const aPushed = change('a.ts', '@@ -1 +1 @@\n-a\n+c\n');
      const afterPush = [viewedFileOf(aPushed, NEXT_HEAD), viewedFileOf(b, NEXT_HEAD)];
      assert.deepEqual(
        afterPush.map((file) => store.isViewed(mr, file)),
        [false, true],
      );
      assert.deepEqual(
        countViewed(afterPush, (file) => store.isViewed(mr, file)),
        { viewed: 1, total: 2 },
      );
    });

    it('clears a tick, and forgets a merge request with nothing left', async () => {
      const memento = memoryMemento();
      const store = new ViewedFilesStore(memento);
      const file = viewedFileOf(change('a.ts', '+a\n'), HEAD);
      await store.setViewed(mr, [file], true);
      await store.setViewed(mr, [file], false);
      assert.equal(store.isViewed(mr, file), false);
      assert.equal(memento.data.size, 0);
    });

    it('marks a thousand files in one write', async () => {
      const memento = memoryMemento();
      const store = new ViewedFilesStore(memento);
      const files = Array.from({ length: 1000 }, (_, index) =>
        viewedFileOf(change(`f${index}.ts`, `+${index}\n`), HEAD),
      );
      await store.setViewed(mr, files, true);
      assert.equal(memento.writes, 1);
      assert.equal(countViewed(files, (file) => store.isViewed(mr, file)).viewed, 1000);
    });

    it('forgets the merge requests not touched longest beyond its cap', async () => {
      let clock = Date.parse('2026-01-01T00:00:00Z');
      const store = new ViewedFilesStore(memoryMemento(), () => new Date((clock += 1000)));
      const file = viewedFileOf(change('a.ts', '+a\n'), HEAD);
      for (let iid = 1; iid <= MAX_VIEWED_MERGE_REQUESTS + 2; iid += 1)
        await store.setViewed(viewedMergeRequestKey('acc', 1, iid), [file], true);
      assert.equal(store.isViewed(viewedMergeRequestKey('acc', 1, 1), file), false);
      assert.equal(store.isViewed(viewedMergeRequestKey('acc', 1, 2), file), false);
      assert.equal(store.isViewed(viewedMergeRequestKey('acc', 1, 3), file), true);
    });

    it('reads damaged or foreign state as nothing viewed', () => {
      const memento = memoryMemento();
      memento.data.set('forge.review.viewedFiles', { [mr]: { at: 3, files: 'x' }, other: 'y' });
      const store = new ViewedFilesStore(memento);
      assert.equal(store.isViewed(mr, { path: 'a', key: 'k' }), false);
      memento.data.set('forge.review.viewedFiles', [1, 2]);
      assert.equal(new ViewedFilesStore(memento).isViewed(mr, { path: 'a', key: 'k' }), false);
    });

    it('remembers the head last reviewed, and tells listeners which merge request changed', async () => {
      const store = new ViewedFilesStore(memoryMemento());
      const changed: string[] = [];
      const watch = store.onDidChange((key) => changed.push(key));
      await store.rememberReviewedHead(mr, HEAD);
      watch.dispose();
      await store.rememberReviewedHead(mr, NEXT_HEAD);
      assert.equal(store.reviewedHead(mr), NEXT_HEAD);
      assert.deepEqual(changed, [mr]);
    });
  });
});
