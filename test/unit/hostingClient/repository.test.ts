// A commit's diff, a comparison of two commits and a folder of the repository (beyond the seed spec,
// as GitLab has them) against the fake forge: what the review of a merge request commit by commit,
// version against version, and its templates read.
import assert from 'node:assert/strict';
import { HostingClient, readDescriptionTemplates } from '../../../src/api/hosting';
import { NotFoundError } from '../../../src/api/http';
import { commentableRanges } from '../../../src/domain/diffPositions';
import { type FakeForge, startFakeForge } from '../../server';
import { clientAs } from './harness';

describe('HostingClient: commits, comparisons and the repository tree (beyond the spec)', () => {
  let forge: FakeForge;
  let alice: HostingClient;
  let web: number;
  let iid: number;

  before(async () => {
    forge = await startFakeForge({ seed: 'small' });
    alice = clientAs(forge, 'alice');
    web = forge.fixtures.projects.web;
    iid = forge.fixtures.mergeRequests.opened;
  });

  after(async () => {
    await alice.close();
    await forge.close();
  });

  it("lists a merge request's commits with their parents, and each commit's own files", async () => {
    const commits = await alice.listMergeRequestCommits(web, iid).toArray();
    assert.ok(commits.length >= 2, 'the login form has several commits');
    const [newest, older] = commits;
    assert.ok(newest && older);
    assert.deepEqual(newest.parent_ids, [older.id], 'newest first, each on the one before');
    const perCommit = await Promise.all(
      commits.map((commit) => alice.listCommitDiff(web, commit.id).toArray()),
    );
    assert.ok(
      perCommit.every((files) => files.length > 0),
      'every commit changes something',
    );
    // Every file of the merge request is changed by one of its commits, on lines a comment can take.
    const touched = new Set(perCommit.flat().map((file) => file.new_path));
    const all = await alice.listDiffs(web, iid).toArray();
    for (const file of all) assert.ok(touched.has(file.new_path), file.new_path);
    for (const file of perCommit.flat())
      assert.ok(commentableRanges(file.diff, 'head').length > 0 || file.deleted_file, file.new_path);
  });

  it('compares two commits through their merge base, or straight', async () => {
    const commits = await alice.listMergeRequestCommits(web, iid).toArray();
    const newest = commits[0];
    const oldest = commits.at(-1);
    assert.ok(newest && oldest);
    const since = await alice.compare(web, oldest.id, newest.id);
    assert.deepEqual(
      since.commits?.map((commit) => commit.id),
      commits
        .slice(0, -1)
        .reverse()
        .map((commit) => commit.id),
      'the commits after `from`, oldest first',
    );
    const newestOwn = await alice.listCommitDiff(web, newest.id).toArray();
    if (commits.length === 2)
      assert.deepEqual(
        since.diffs.map((file) => file.new_path),
        newestOwn.map((file) => file.new_path).sort(),
      );
    const same = await alice.compare(web, newest.id, newest.id, { straight: true });
    assert.equal(same.compare_same_ref, true);
    assert.deepEqual(same.diffs, []);
    await assert.rejects(alice.compare(web, 'f'.repeat(40), newest.id), NotFoundError);
  });

  it('lists a folder of a ref, and answers 404 for a folder that is not there', async () => {
    const root = await alice.listRepositoryTree(web, '', 'master').toArray();
    assert.ok(root.some((entry) => entry.type === 'tree' && entry.name === 'src'));
    await assert.rejects(alice.listRepositoryTree(web, 'no/such/folder').toArray(), NotFoundError);
  });

  it("reads a project's merge request templates from its default branch, Default first", async () => {
    const project = await alice.getProject(web);
    const templates = await readDescriptionTemplates(alice, project, 'merge_request');
    assert.deepEqual(
      templates.map((template) => template.name),
      ['Default', 'Bug fix'],
    );
    assert.match(templates[0]?.text ?? '', /^## What does this change\?\n/);
    // Issue templates come from their own folder.
    assert.deepEqual(
      (await readDescriptionTemplates(alice, project, 'issue')).map((template) => template.name),
      ['Bug', 'Feature'],
    );
    // A project without the folder has none, not an error (the folder answers 404).
    const api = await alice.getProject('acme/api');
    assert.deepEqual(await readDescriptionTemplates(alice, api, 'issue'), []);
    // A project's own default description (Premium) comes first.
    const premium = { ...project, merge_requests_template: 'Describe the change.\n\nRisk:' };
    const withDefault = await readDescriptionTemplates(alice, premium, 'merge_request');
    assert.deepEqual(
      withDefault.map((template) => [template.name, template.isProjectDefault ?? false]),
      [
        ['Describe the change.', true],
        ['Default', false],
        ['Bug fix', false],
      ],
    );
  });

  it('reads a diff with the old `---`/`+++` header lines GitLab once sent, as without them', () => {
    const withHeader = '--- a/x\n+++ b/x\n@@ -1,2 +1,3 @@\n a\n+b\n c\n';
    const without = '@@ -1,2 +1,3 @@\n a\n+b\n c\n';
    assert.deepEqual(commentableRanges(withHeader, 'head'), commentableRanges(without, 'head'));
    assert.deepEqual(commentableRanges(withHeader, 'base'), commentableRanges(without, 'base'));
  });
});
