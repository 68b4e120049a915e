import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  type MergeRequestFacts,
  defaultMergeCommitMessage,
  describeMergeStatus,
  describeVotes,
  firstLine,
  groupMergeRequests,
  mergeBlocker,
  mergeFailure,
  mergeRequestAppearance,
  isOpenState,
  mergeRequestCapabilities,
  normalizeEmojiName,
  normalizeLabels,
} from '../../../src/domain/mergeRequestStatus';
import { projectPath } from '../../support/projectRoot';

function mr(fields: Partial<MergeRequestFacts> = {}): MergeRequestFacts {
  return {
    iid: 1,
    title: 'Add a login form',
    state: 'opened',
    source_branch: 'feature/login',
    target_branch: 'master',
    merge_status: 'can_be_merged',
    ...fields,
  };
}

describe('mergeRequestCapabilities', () => {
  it('marks an open, clean request mergeable and says whether the user is subscribed', () => {
    assert.deepEqual(mergeRequestCapabilities(mr({ subscribed: true })), [
      'mergeRequest',
      'opened',
      'mergeable',
      'subscribed',
    ]);
    assert.deepEqual(mergeRequestCapabilities(mr({ subscribed: false })).slice(-1), ['unsubscribed']);
  });

  it('is not mergeable with conflicts, as a draft, once merged, or while set to merge later', () => {
    assert.ok(!mergeRequestCapabilities(mr({ merge_status: 'cannot_be_merged' })).includes('mergeable'));
    assert.ok(mergeRequestCapabilities(mr({ merge_status: 'cannot_be_merged' })).includes('conflicts'));
    const draft = mergeRequestCapabilities(mr({ title: 'Draft: Dark mode' }));
    assert.ok(draft.includes('draft') && !draft.includes('mergeable'));
    assert.ok(!mergeRequestCapabilities(mr({ draft: true })).includes('mergeable'));
    assert.deepEqual(mergeRequestCapabilities(mr({ state: 'merged' })), ['mergeRequest', 'merged']);
    const mwps = mergeRequestCapabilities(mr({ merge_when_pipeline_succeeds: true }));
    assert.ok(mwps.includes('mwps') && !mwps.includes('mergeable'));
  });
});

describe('mergeRequestAppearance and status text', () => {
  it('gives each state its icon and colour', () => {
    assert.equal(mergeRequestAppearance(mr()).codicon, 'git-pull-request');
    assert.equal(mergeRequestAppearance(mr()).color, 'charts.green');
    assert.equal(mergeRequestAppearance(mr({ draft: true })).codicon, 'git-pull-request-draft');
    assert.equal(mergeRequestAppearance(mr({ state: 'merged' })).color, 'charts.purple');
    assert.equal(mergeRequestAppearance(mr({ state: 'closed' })).codicon, 'git-pull-request-closed');
    assert.equal(mergeRequestAppearance(mr({ state: 'reopened-someday' })).label, 'reopened-someday');
  });

  it('describes the merge status and votes briefly', () => {
    assert.equal(describeMergeStatus(mr()), 'mergeable');
    assert.equal(describeMergeStatus(mr({ merge_status: 'cannot_be_merged' })), 'conflicts');
    assert.equal(describeMergeStatus(mr({ merge_status: 'unchecked' })), 'checking');
    assert.equal(describeMergeStatus(mr({ merge_status: 'cannot_be_merged_recheck' })), 'checking');
    assert.equal(describeMergeStatus(mr({ merge_status: 'cannot_be_merged_rechecking' })), 'checking');
    assert.equal(
      describeMergeStatus(mr({ merge_when_pipeline_succeeds: true })),
      'merges when pipeline succeeds',
    );
    assert.equal(describeMergeStatus(mr({ state: 'merged' })), '');
    assert.equal(describeMergeStatus(mr({ merge_status: 'ci_still_running' })), 'ci still running');
    // What the server says blocks it (GitLab 15.6+), in a word or two; conflicts and drafts first.
    assert.equal(describeMergeStatus(mr({ detailed_merge_status: 'not_approved' })), 'needs approval');
    assert.equal(describeMergeStatus(mr({ detailed_merge_status: 'need_rebase' })), 'needs rebase');
    assert.equal(
      describeMergeStatus(mr({ detailed_merge_status: 'discussions_not_resolved' })),
      'unresolved threads',
    );
    assert.equal(describeMergeStatus(mr({ detailed_merge_status: 'ci_must_pass' })), 'pipeline must pass');
    assert.equal(describeMergeStatus(mr({ detailed_merge_status: 'mergeable' })), 'mergeable');
    assert.equal(
      describeMergeStatus(mr({ merge_status: 'cannot_be_merged', detailed_merge_status: 'not_approved' })),
      'conflicts',
    );
    assert.equal(describeVotes(mr({ upvotes: 2, downvotes: 1 })), '👍2 👎1');
    assert.equal(describeVotes(mr()), '👍0 👎0');
  });
});

describe('groupMergeRequests', () => {
  const requests = [
    mr({
      iid: 1,
      author: { username: 'bob' },
      assignee: { username: 'alice' },
      updated_at: '2024-01-01T00:00:00Z',
    }),
    mr({ iid: 2, author: { username: 'Alice' }, assignee: null, updated_at: '2024-03-01T00:00:00Z' }),
    mr({ iid: 3, author: { username: 'bob' }, assignees: [{ username: 'carol' }, { username: 'alice' }] }),
    mr({ iid: 4, author: { username: 'carol' }, updated_at: '2024-02-01T00:00:00Z' }),
  ];

  it('splits by assignee and author (case-insensitive), newest update first', () => {
    const groups = groupMergeRequests(requests, 'alice');
    assert.deepEqual(
      groups.assigned.map((item) => item.iid),
      [1, 3],
    );
    assert.deepEqual(
      groups.created.map((item) => item.iid),
      [2],
    );
    assert.deepEqual(
      groups.all.map((item) => item.iid),
      [2, 4, 1, 3],
    );
  });

  it('fills only "all" without a known user', () => {
    const groups = groupMergeRequests(requests, undefined);
    assert.equal(groups.assigned.length, 0);
    assert.equal(groups.created.length, 0);
    assert.equal(groups.all.length, 4);
  });
});

describe('mergeFailure', () => {
  it('explains a moved source branch with the new head', () => {
    const failure = mergeFailure(409, mr(), {
      serverMessage: 'SHA does not match HEAD of source branch: 0123456789abcdef0123456789abcdef01234567',
    });
    assert.equal(failure?.reason, 'sha-changed');
    assert.equal(
      failure?.message,
      'The source branch changed since you looked (now 01234567). Review the new commits and merge again.',
    );
    assert.match(mergeFailure(409, mr(), { currentSha: 'fedcba9876543210' })?.message ?? '', /now fedcba98/);
  });

  it('maps 405, 406 and 401 and leaves other statuses to the generic error', () => {
    assert.equal(mergeFailure(405, mr())?.reason, 'cannot-be-merged');
    assert.equal(mergeFailure(406, mr())?.reason, 'not-open');
    assert.equal(mergeFailure(401, mr())?.reason, 'no-permission');
    assert.match(mergeFailure(401, mr())?.message ?? '', /into master/);
    assert.equal(mergeFailure(500, mr()), undefined);
    assert.equal(mergeFailure(404, mr()), undefined);
  });
});

describe('small text helpers', () => {
  it('builds the default merge commit message', () => {
    assert.equal(
      defaultMergeCommitMessage(mr(), 'acme/web'),
      "Merge branch 'feature/login' into 'master'\n\nAdd a login form\n\nSee merge request acme/web!1",
    );
  });

  it('normalises emoji names and labels', () => {
    assert.equal(normalizeEmojiName(':Tada:'), 'tada');
    assert.equal(normalizeEmojiName(' +1 '), '+1');
    assert.equal(normalizeEmojiName('two words'), undefined);
    assert.equal(normalizeEmojiName('::'), undefined);
    assert.equal(normalizeLabels(' bug, ui ,, backend '), 'bug,ui,backend');
    assert.equal(normalizeLabels(''), '');
  });

  it('takes the first non-empty line of a note, shortened', () => {
    assert.equal(firstLine('\n\n  Hello there  \nsecond'), 'Hello there');
    assert.equal(firstLine('x'.repeat(100), 10), `${'x'.repeat(9)}…`);
  });
});

describe('reopened merge requests (real servers report the state `reopened`)', () => {
  it('are open: mergeable, with the opened token menus match, a status and an open look', () => {
    const reopened = mr({ state: 'reopened' });
    const tokens = mergeRequestCapabilities(reopened);
    assert.ok(
      tokens.includes('opened') && tokens.includes('reopened') && tokens.includes('mergeable'),
      tokens.join(' '),
    );
    assert.equal(describeMergeStatus(reopened), 'mergeable');
    assert.equal(mergeRequestAppearance(reopened).codicon, 'git-pull-request');
    assert.equal(isOpenState('reopened'), true);
    assert.equal(isOpenState('closed'), false);
  });

  it('no source compares a merge request state with "opened" except through isOpenState', () => {
    const root = projectPath('src');
    const offenders: string[] = [];
    const visit = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) visit(path);
        else if (entry.name.endsWith('.ts') && !path.endsWith(join('domain', 'mergeRequestStatus.ts'))) {
          const text = readFileSync(path, 'utf8');
          if (/state\s*[!=]==\s*'opened'|'opened'\s*[!=]==/.test(text)) offenders.push(path);
        }
      }
    };
    visit(root);
    assert.deepEqual(offenders, [], 'use isOpenState: a reopened merge request is open too');
  });
});

describe('mergeBlocker', () => {
  const base = mr();
  it('says why a merge request cannot merge, from detailed_merge_status first', () => {
    const cases: [Record<string, unknown>, RegExp | undefined][] = [
      [{ detailed_merge_status: 'mergeable' }, undefined],
      [{ detailed_merge_status: 'ci_must_pass' }, /needs its pipeline to pass first/],
      [{ detailed_merge_status: 'ci_still_running' }, undefined],
      [{ detailed_merge_status: 'checking' }, undefined],
      [{ detailed_merge_status: 'draft_status' }, /!1 is a draft: mark it as ready first/],
      [{ detailed_merge_status: 'broken_status' }, /!1 has conflicts with master/],
      [{ detailed_merge_status: 'conflict' }, /!1 has conflicts with master/],
      [{ detailed_merge_status: 'discussions_not_resolved' }, /unresolved discussions/],
      [{ detailed_merge_status: 'not_approved' }, /needs approval/],
      [{ detailed_merge_status: 'need_rebase' }, /needs a rebase onto master/],
      [{ detailed_merge_status: 'blocked_status' }, /blocked by another merge request/],
      // The server's word wins over a title that looks like a draft.
      [{ detailed_merge_status: 'mergeable', title: 'Draft: x' }, undefined],
      // Older servers: merge_status and the draft flags.
      [{ merge_status: 'cannot_be_merged' }, /has conflicts/],
      [{ has_conflicts: true }, /has conflicts/],
      [{ work_in_progress: true }, /is a draft/],
      [{ merge_status: 'unchecked' }, undefined],
      [{}, undefined],
    ];
    for (const [fields, expected] of cases) {
      const blocker = mergeBlocker({ ...base, ...fields });
      if (expected) assert.match(blocker?.message ?? '', expected, JSON.stringify(fields));
      else assert.equal(blocker, undefined, JSON.stringify(fields));
    }
    assert.equal(mergeBlocker({ ...base, detailed_merge_status: 'not_open' })?.reason, 'not-open');
  });
});
