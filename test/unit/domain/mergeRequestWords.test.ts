// Every word and icon a merge request is shown with: its state's look, what blocks a merge, the
// emoji offered, and the helpers for typed emoji names and first lines.
import assert from 'node:assert/strict';
import {
  COMMON_EMOJI,
  describeMergeStatus,
  firstLine,
  isDraft,
  mergeRequestAppearance,
  normalizeEmojiName,
} from '../../../src/domain/mergeRequestStatus';

const mr = (fields: Record<string, unknown>) =>
  ({ state: 'opened', title: 'Add login', ...fields }) as Parameters<typeof mergeRequestAppearance>[0];

describe('merge request words and looks', () => {
  it('looks like its state', () => {
    const looks: [Record<string, unknown>, [string, string, string]][] = [
      [{ state: 'merged' }, ['git-merge', 'charts.purple', 'merged']],
      [{ state: 'closed' }, ['git-pull-request-closed', 'charts.red', 'closed']],
      [{ state: 'locked' }, ['lock', 'charts.orange', 'locked']],
      [{ state: 'opened' }, ['git-pull-request', 'charts.green', 'opened']],
      [{ state: 'reopened' }, ['git-pull-request', 'charts.green', 'opened']],
      [{ state: 'opened', draft: true }, ['git-pull-request-draft', 'descriptionForeground', 'draft']],
      [
        { state: 'reopened', title: 'Draft: x' },
        ['git-pull-request-draft', 'descriptionForeground', 'draft'],
      ],
      [{ state: 'archived' }, ['git-pull-request', 'descriptionForeground', 'archived']],
    ];
    for (const [fields, [codicon, color, label]] of looks)
      assert.deepEqual(mergeRequestAppearance(mr(fields)), { codicon, color, label }, JSON.stringify(fields));
  });

  it('reads a draft from its title only at the start', () => {
    for (const title of ['Draft: x', '  [Draft] x', '(draft) x', 'WIP: x', '[wip] x'])
      assert.equal(isDraft(mr({ title })), true, title);
    for (const title of ['x Draft: y', 'x [wip]', 'Drafting x', 'wip x'])
      assert.equal(isDraft(mr({ title })), false, title);
  });

  it('says what blocks a merge, by the detailed status', () => {
    const blockers: [string, string][] = [
      ['not_approved', 'needs approval'],
      ['need_rebase', 'needs rebase'],
      ['discussions_not_resolved', 'unresolved threads'],
      ['ci_must_pass', 'pipeline must pass'],
      ['requested_changes', 'changes requested'],
      ['blocked_status', 'blocked'],
      ['mergeable', 'mergeable'],
      ['constructor', 'mergeable'],
    ];
    for (const [detailed, words] of blockers)
      assert.equal(
        describeMergeStatus(mr({ merge_status: 'can_be_merged', detailed_merge_status: detailed })),
        words,
        detailed,
      );
    assert.equal(
      describeMergeStatus(mr({ detailed_merge_status: 'requested_changes' })),
      'changes requested',
    );
    assert.equal(describeMergeStatus(mr({})), '', 'nothing known');
    assert.equal(describeMergeStatus(mr({ title: 'Draft: x' })), 'draft');
    assert.equal(describeMergeStatus(mr({ merge_status: 'checking' })), 'checking');
    assert.equal(describeMergeStatus(mr({ merge_status: 'cannot_be_merged_rechecking' })), 'checking');
    assert.equal(describeMergeStatus(mr({ merge_status: 'some_new_status' })), 'some new status');
  });

  it('offers eight common emoji, each with its glyph', () => {
    assert.deepEqual(
      COMMON_EMOJI.map((emoji) => `${emoji.name} ${emoji.glyph}`),
      [
        'thumbsup 👍',
        'thumbsdown 👎',
        'smile 😄',
        'tada 🎉',
        'heart ❤️',
        'rocket 🚀',
        'eyes 👀',
        'confused 😕',
      ],
    );
  });

  it('reads typed emoji names and first lines', () => {
    assert.equal(normalizeEmojiName('  :Tada:  '), 'tada');
    assert.equal(normalizeEmojiName(': +1 :'), '+1');
    assert.equal(normalizeEmojiName('thumbs up'), undefined);
    assert.equal(firstLine('\n  \n  First line  \nsecond'), 'First line');
    assert.equal(firstLine('abcdef', 4), 'abc…');
    assert.equal(firstLine('abcd', 4), 'abcd');
    assert.equal(firstLine(''), '');
  });
});
