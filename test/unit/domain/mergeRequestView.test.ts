import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'diff2html';
import {
  type ChangeFacts,
  type PanelMergeRequestFacts,
  canChangeNote,
  diffRefs,
  diffStats,
  displayPath,
  fileBadge,
  headerActions,
  isCommitSha,
  mergeRequestPanelKey,
  readyTitle,
  summarizeAwards,
  unifiedDiff,
} from '../../../src/domain/mergeRequestView';

const SHA = '0123456789abcdef0123456789abcdef01234567';

function mr(fields: Partial<PanelMergeRequestFacts> = {}): PanelMergeRequestFacts {
  return {
    iid: 1,
    title: 'Add a login form',
    state: 'opened',
    source_branch: 'feature/login',
    target_branch: 'master',
    merge_status: 'can_be_merged',
    sha: SHA,
    ...fields,
  };
}

function change(fields: Partial<ChangeFacts> = {}): ChangeFacts {
  return {
    old_path: 'src/a.ts',
    new_path: 'src/a.ts',
    a_mode: '100644',
    b_mode: '100644',
    diff: '@@ -1,2 +1,2 @@\n-old\n+new\n context\n',
    new_file: false,
    renamed_file: false,
    deleted_file: false,
    ...fields,
  };
}

describe('headerActions', () => {
  it('says what the server reports blocks the merge, and offers "Mark as ready" on a draft', () => {
    const waiting = headerActions(mr({ sha: 'abc123', detailed_merge_status: 'not_approved' }));
    assert.equal(waiting.merge, false);
    assert.match(waiting.mergeBlockedReason ?? '', /needs approval first/);
    assert.equal(waiting.markReady, false);
    const threads = headerActions(mr({ sha: 'abc123', detailed_merge_status: 'discussions_not_resolved' }));
    assert.match(threads.mergeBlockedReason ?? '', /unresolved discussions/);
    assert.equal(headerActions(mr({ sha: 'abc123', detailed_merge_status: 'mergeable' })).merge, true);
    assert.equal(headerActions(mr({ sha: 'abc123', detailed_merge_status: 'ci_still_running' })).merge, true);
    const draft = headerActions(mr({ sha: 'abc123', title: 'Draft: Dark mode' }));
    assert.equal(draft.markReady, true);
    assert.equal(headerActions(mr({ state: 'closed', title: 'Draft: Dark mode' })).markReady, false);
  });

  it('offers the fix of what blocks the merge: a rebase, the unresolved threads', () => {
    const behind = headerActions(mr({ sha: 'abc123', detailed_merge_status: 'need_rebase' }));
    assert.equal(behind.merge, false);
    assert.equal(behind.rebase, true);
    assert.equal(behind.openThreads, false);
    const threads = headerActions(mr({ sha: 'abc123', detailed_merge_status: 'discussions_not_resolved' }));
    assert.equal(threads.openThreads, true);
    assert.equal(threads.rebase, false);
    const fine = headerActions(mr({ sha: 'abc123', detailed_merge_status: 'mergeable' }));
    assert.deepEqual([fine.rebase, fine.openThreads, fine.openFailingJob], [false, false, false]);
    const failing = headerActions(
      mr({
        sha: 'abc123',
        detailed_merge_status: 'ci_must_pass',
        head_pipeline: { id: 7, status: 'failed' },
      }),
    );
    assert.equal(failing.merge, false);
    assert.match(failing.mergeBlockedReason ?? '', /pipeline to pass/);
    assert.equal(failing.openFailingJob, true);
    const running = headerActions(
      mr({
        sha: 'abc123',
        detailed_merge_status: 'ci_still_running',
        head_pipeline: { id: 7, status: 'running' },
      }),
    );
    assert.equal(running.merge, true, 'the server takes "merge when the pipeline succeeds"');
    assert.equal(running.openFailingJob, false);
    const closed = headerActions(
      mr({ state: 'closed', sha: 'abc123', detailed_merge_status: 'need_rebase' }),
    );
    assert.equal(closed.rebase, false);
  });

  it('takes every draft mark GitLab knows off a title, and nothing else', () => {
    for (const title of [
      'Draft: Dark mode',
      '[Draft] Dark mode',
      '(Draft) Dark mode',
      'WIP: Dark mode',
      ' [wip]Dark mode',
    ])
      assert.equal(readyTitle(title), 'Dark mode', title);
    assert.equal(readyTitle('Drafting: a plan'), 'Drafting: a plan');
  });

  it('offers a reopened merge request every action of an open one', () => {
    const actions = headerActions(mr({ state: 'reopened', sha: 'abc123' }));
    assert.equal(actions.close, true);
    assert.equal(actions.reopen, false);
    assert.equal(actions.merge, true);
    assert.equal(actions.mergeBlockedReason, undefined);
  });

  it('offers merge, close and the subscription the user does not have on an open, clean request', () => {
    const actions = headerActions(mr({ subscribed: true }));
    assert.equal(actions.merge, true);
    assert.equal(actions.mergeBlockedReason, undefined);
    assert.equal(actions.close, true);
    assert.equal(actions.reopen, false);
    assert.equal(actions.subscribe, false);
    assert.equal(actions.unsubscribe, true);
    assert.equal(actions.cancelMergeWhenPipelineSucceeds, false);
    assert.equal(actions.addTodo, true);
    assert.deepEqual(headerActions(mr({ subscribed: false })).subscribe, true);
    assert.deepEqual(headerActions(mr({ subscribed: false })).unsubscribe, false);
  });

  it('offers both subscription buttons when the server did not say', () => {
    const actions = headerActions(mr());
    assert.equal(actions.subscribe, true);
    assert.equal(actions.unsubscribe, true);
  });

  it('says why a draft, a conflicting or a scheduled request cannot be merged', () => {
    const draft = headerActions(mr({ title: 'Draft: Dark mode' }));
    assert.equal(draft.merge, false);
    assert.match(draft.mergeBlockedReason ?? '', /draft/);
    assert.equal(headerActions(mr({ work_in_progress: true })).merge, false);
    const conflicts = headerActions(mr({ merge_status: 'cannot_be_merged' }));
    assert.equal(conflicts.merge, false);
    assert.match(conflicts.mergeBlockedReason ?? '', /conflicts/);
    const scheduled = headerActions(mr({ merge_when_pipeline_succeeds: true }));
    assert.equal(scheduled.merge, false);
    assert.equal(scheduled.cancelMergeWhenPipelineSucceeds, true);
  });

  it('needs the head SHA to merge (it is the guard sent with the merge)', () => {
    const actions = headerActions(mr({ sha: null }));
    assert.equal(actions.merge, false);
    assert.match(actions.mergeBlockedReason ?? '', /head/);
  });

  it('offers reopen on a closed request and neither on a merged one', () => {
    const closed = headerActions(mr({ state: 'closed' }));
    assert.equal(closed.reopen, true);
    assert.equal(closed.close, false);
    assert.equal(closed.merge, false);
    const merged = headerActions(mr({ state: 'merged', merge_when_pipeline_succeeds: true }));
    assert.equal(merged.reopen, false);
    assert.equal(merged.close, false);
    assert.equal(merged.merge, false);
    assert.equal(merged.cancelMergeWhenPipelineSucceeds, false);
  });

  it('takes the merge form defaults from the request', () => {
    assert.deepEqual(headerActions(mr()).mergeDefaults, { squash: false, removeSourceBranch: false });
    assert.deepEqual(headerActions(mr({ squash: true, force_remove_source_branch: true })).mergeDefaults, {
      squash: true,
      removeSourceBranch: true,
    });
    assert.equal(
      headerActions(mr({ should_remove_source_branch: true })).mergeDefaults.removeSourceBranch,
      true,
    );
  });
});

describe('canChangeNote', () => {
  it('lets the author (any case) and administrators change a note', () => {
    const note = { author: { username: 'Alice' } };
    assert.equal(canChangeNote(note, { username: 'alice' }), true);
    assert.equal(canChangeNote(note, { username: 'bob' }), false);
    assert.equal(canChangeNote(note, { username: 'bob', isAdmin: true }), true);
    assert.equal(canChangeNote(note, {}), false);
    assert.equal(canChangeNote({}, { username: 'alice' }), false);
  });
});

describe('file badges and paths', () => {
  it('tells added, deleted, renamed and modified files apart', () => {
    assert.equal(fileBadge(change({ new_file: true })), 'added');
    assert.equal(fileBadge(change({ deleted_file: true })), 'deleted');
    assert.equal(fileBadge(change({ renamed_file: true, old_path: 'a', new_path: 'b' })), 'renamed');
    assert.equal(fileBadge(change({ old_path: 'a', new_path: 'b' })), 'renamed');
    assert.equal(fileBadge(change()), 'modified');
    assert.equal(
      displayPath(change({ deleted_file: true, old_path: 'gone.js', new_path: 'gone.js' })),
      'gone.js',
    );
    assert.equal(displayPath(change({ old_path: 'a', new_path: 'b' })), 'b');
  });
});

describe('unifiedDiff', () => {
  it('adds a git header to hunks sent without one, and diff2html reads the file', () => {
    const text = unifiedDiff(change());
    assert.equal(
      text,
      'diff --git a/src/a.ts b/src/a.ts\n--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,2 +1,2 @@\n-old\n+new\n context\n',
    );
    const [file] = parse(text);
    assert.equal(file?.oldName, 'src/a.ts');
    assert.equal(file?.newName, 'src/a.ts');
    assert.equal(file?.addedLines, 1);
    assert.equal(file?.deletedLines, 1);
  });

  it('replaces the server’s own ---/+++ lines, with /dev/null for added and deleted files', () => {
    const added = unifiedDiff(
      change({
        new_file: true,
        a_mode: '0',
        new_path: 'src/new.ts',
        old_path: 'src/new.ts',
        diff: '--- /dev/null\n+++ b/src/new.ts\n@@ -0,0 +1,2 @@\n+one\n+two',
      }),
    );
    assert.equal(
      added,
      'diff --git a/src/new.ts b/src/new.ts\nnew file mode 100644\n--- /dev/null\n+++ b/src/new.ts\n@@ -0,0 +1,2 @@\n+one\n+two\n',
    );
    const [file] = parse(added);
    assert.equal(file?.isNew, true);
    assert.equal(file?.newName, 'src/new.ts');
    const deleted = unifiedDiff(
      change({
        deleted_file: true,
        b_mode: '0',
        diff: '--- a/src/a.ts\n+++ /dev/null\n@@ -1 +0,0 @@\n-gone\n',
      }),
    );
    assert.match(
      deleted,
      /^diff --git a\/src\/a\.ts b\/src\/a\.ts\ndeleted file mode 100644\n--- a\/src\/a\.ts\n\+\+\+ \/dev\/null\n/,
    );
    assert.equal(parse(deleted)[0]?.isDeleted, true);
  });

  it('describes a rename without content and a mode change with header lines only', () => {
    const renamed = unifiedDiff(
      change({ renamed_file: true, old_path: 'src/styles.css', new_path: 'src/theme/light.css', diff: '' }),
    );
    assert.equal(
      renamed,
      'diff --git a/src/styles.css b/src/theme/light.css\nrename from src/styles.css\nrename to src/theme/light.css\n',
    );
    const [file] = parse(renamed);
    assert.equal(file?.isRename, true);
    assert.equal(file?.oldName, 'src/styles.css');
    assert.equal(file?.newName, 'src/theme/light.css');
    const mode = unifiedDiff(change({ b_mode: '100755', diff: '' }));
    assert.equal(mode, 'diff --git a/src/a.ts b/src/a.ts\nold mode 100644\nnew mode 100755\n');
  });

  it('keeps a path with HTML as it is and replaces control characters that would end the line', () => {
    const hostile = '<img src=x onerror=alert(1)>\n.ts';
    const text = unifiedDiff(change({ old_path: hostile, new_path: hostile }));
    assert.equal(
      text.split('\n')[0],
      'diff --git a/<img src=x onerror=alert(1)>?.ts b/<img src=x onerror=alert(1)>?.ts',
    );
    assert.equal(parse(text)[0]?.newName, '<img src=x onerror=alert(1)>?.ts');
  });

  it('gives every documented change a header diff2html parses into exactly that file', () => {
    const dir = path.join(__dirname, '..', '..', 'fixtures', 'gitlab-docs', 'mr_changes');
    const changes: ChangeFacts[] = [];
    const collect = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(collect);
      else if (value && typeof value === 'object') {
        const record = value as Record<string, unknown>;
        if (typeof record['diff'] === 'string' && typeof record['new_path'] === 'string') {
          changes.push(record as unknown as ChangeFacts);
        } else Object.values(record).forEach(collect);
      }
    };
    for (const name of readdirSync(dir).filter((file) => file.endsWith('.json'))) {
      collect(JSON.parse(readFileSync(path.join(dir, name), 'utf8')));
    }
    assert.ok(changes.length >= 3, `${changes.length} documented changes`);
    // One documented sample has a malformed hunk header ("@@ -1.9.7 +1.9.8"); diff2html logs it.
    const quiet = (text: string): ReturnType<typeof parse> => {
      const original = console.error;
      console.error = () => undefined;
      try {
        return parse(text);
      } finally {
        console.error = original;
      }
    };
    for (const documented of changes) {
      const files = quiet(unifiedDiff(documented));
      assert.equal(files.length, 1, documented.diff.slice(0, 80));
      assert.equal(files[0]?.newName, documented.deleted_file ? '/dev/null' : documented.new_path);
    }
  });
});

describe('diffStats', () => {
  it('counts added, removed and hunk lines, not the header or "no newline" markers', () => {
    assert.deepEqual(
      diffStats('--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n+d\n\\ No newline at end of file\n'),
      { added: 2, removed: 1, lines: 4 },
    );
    assert.deepEqual(diffStats(''), { added: 0, removed: 0, lines: 0 });
  });
});

describe('summarizeAwards', () => {
  it('groups awards by name in first-seen order and finds the viewer’s own', () => {
    const summary = summarizeAwards(
      [
        { id: 1, name: 'thumbsup', user: { username: 'bob', name: 'Bob Builder' } },
        { id: 2, name: 'tada', user: { username: 'alice', name: 'Alice Liddell' } },
        { id: 3, name: 'thumbsup', user: { username: 'Alice', name: 'Alice Liddell' } },
      ],
      { username: 'alice' },
    );
    assert.deepEqual(summary, [
      { name: 'thumbsup', count: 2, users: ['Bob Builder', 'Alice Liddell'], ownAwardId: 3 },
      { name: 'tada', count: 1, users: ['Alice Liddell'], ownAwardId: 2 },
    ]);
    assert.equal(summarizeAwards(summaryInput(), {})[0]?.ownAwardId, undefined);
  });

  function summaryInput() {
    return [{ id: 1, name: 'eyes', user: { username: 'alice' } }];
  }
});

describe('references and links', () => {
  it('keys a panel by account, project and iid', () => {
    assert.equal(mergeRequestPanelKey('acc', 12, 3), 'acc|12|3');
  });

  it('reads diff_refs only when both SHAs are commit ids', () => {
    assert.deepEqual(diffRefs({ diff_refs: { base_sha: SHA, head_sha: 'abcdef1', start_sha: SHA } }), {
      baseSha: SHA,
      headSha: 'abcdef1',
      startSha: SHA,
    });
    assert.equal(diffRefs({ diff_refs: { base_sha: SHA, head_sha: '--upload-pack=x' } }), undefined);
    assert.equal(diffRefs({ diff_refs: null }), undefined);
    assert.equal(diffRefs({}), undefined);
    assert.equal(diffRefs(null), undefined);
    assert.equal(isCommitSha('abc'), false);
    assert.equal(isCommitSha(SHA), true);
  });
});
