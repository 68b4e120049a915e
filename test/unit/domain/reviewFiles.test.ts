import assert from 'node:assert/strict';
import {
  MAX_SHOWN_BYTES,
  changeSides,
  diffTitle,
  isBinary,
  refsFromVersion,
  shownText,
} from '../../../src/domain/reviewFiles';
import { approvalsView, describeApprovals } from '../../../src/domain/mergeRequestView';

const refs = { baseSha: 'a'.repeat(40), headSha: 'b'.repeat(40) };
const change = (patch: Partial<Parameters<typeof changeSides>[0]>) => ({
  old_path: 'src/old.ts',
  new_path: 'src/new.ts',
  diff: '',
  new_file: false,
  renamed_file: false,
  deleted_file: false,
  ...patch,
});

describe('review files: the two sides of a changed file', () => {
  it('compares the old path at the base with the new path at the head', () => {
    assert.deepEqual(changeSides(change({ renamed_file: true }), refs), {
      base: { path: 'src/old.ts', sha: refs.baseSha },
      head: { path: 'src/new.ts', sha: refs.headSha },
    });
  });

  it('has no base for an added file and no head for a deleted one', () => {
    assert.equal(changeSides(change({ new_file: true }), refs).base.sha, undefined);
    assert.equal(changeSides(change({ new_file: true }), refs).head.sha, refs.headSha);
    assert.equal(changeSides(change({ deleted_file: true }), refs).head.sha, undefined);
    assert.equal(changeSides(change({ deleted_file: true }), refs).base.sha, refs.baseSha);
  });

  it('titles the diff with the file name, the merge request and the two commits', () => {
    assert.equal(diffTitle(change({}), 7, refs), 'new.ts (!7 aaaaaaaa ↔ bbbbbbbb)');
    assert.equal(diffTitle(change({ deleted_file: true }), 7, refs), 'old.ts (!7 aaaaaaaa ↔ bbbbbbbb)');
  });

  it('shows text as UTF-8, and says why a binary or huge side is not shown', () => {
    assert.equal(shownText('a.txt', new TextEncoder().encode('héllo\n')), 'héllo\n');
    assert.equal(isBinary(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1])), true);
    assert.equal(
      isBinary(new Uint8Array(9000).fill(65).fill(0, 8500)),
      false,
      'git looks at the first 8,000 bytes',
    );
    assert.match(
      shownText('logo.png', new Uint8Array([0x89, 0, 2])),
      /^logo\.png is a binary file \(3 bytes\)/,
    );
    assert.match(
      shownText('dump.sql', new Uint8Array(MAX_SHOWN_BYTES + 1)),
      /^dump\.sql is 20 MB, too large/,
    );
  });

  it('takes the commits from a version when the merge request has no diff_refs', () => {
    assert.deepEqual(refsFromVersion({ base_commit_sha: 'a', head_commit_sha: 'b', start_commit_sha: 'c' }), {
      baseSha: 'a',
      headSha: 'b',
      startSha: 'c',
    });
  });
});

describe('approvals as the panel says them', () => {
  it('names who approved and how many are still needed', () => {
    const view = approvalsView({
      approvals_left: 1,
      approved_by: [{ user: { name: 'Alice Liddell', username: 'alice' } }],
      user_has_approved: true,
      user_can_approve: true,
    });
    assert.deepEqual(view, { approvedBy: ['Alice Liddell'], left: 1, youApproved: true, canApprove: true });
    assert.equal(describeApprovals(view), 'Approved by Alice Liddell; 1 more needed');
    assert.equal(describeApprovals({ ...view, left: 0 }), 'Approved by Alice Liddell');
    assert.equal(describeApprovals({ ...view, approvedBy: [], left: 2 }), 'Not approved yet; 2 needed');
    assert.equal(describeApprovals({ ...view, approvedBy: [], left: 0 }), 'Not approved yet');
  });

  it('reads an older reply without user_can_approve as "may approve unless approved already"', () => {
    assert.equal(approvalsView({ user_has_approved: false }).canApprove, true);
    assert.equal(approvalsView({ user_has_approved: true }).canApprove, false);
    assert.equal(approvalsView({ approvals_left: -1 }).left, 0);
  });
});
