// The description templates "Create Issue…" and "Create Merge Request…" offer, read from the fake
// forge as GitLab's forms read them: the Markdown files of the folder (any case of `.md`, no
// sub-folders, no other files), "Default" first and then by name, at most MAX_TEMPLATES of them, the
// project's own default description before them, and none where the folder is missing.
import assert from 'node:assert/strict';
import { HostingClient, type Project } from '../../../src/api/hosting';
import { MAX_TEMPLATES, readDescriptionTemplates } from '../../../src/api/hosting/descriptionTemplates';
import { type FakeForge, startFakeForge } from '../../server';
import { clientAs } from './harness';
import { newFile } from '../../server/seed';
import type { FileChange } from '../../server/state';

describe('readDescriptionTemplates', () => {
  let forge: FakeForge;
  let alice: HostingClient;
  let project: Project;

  before(async () => {
    forge = await startFakeForge({ seed: 'small' });
    alice = clientAs(forge, 'alice');
    project = await alice.getProject(forge.fixtures.projects.web);
    const folder = '.gitlab/issue_templates';
    pushToDefaultBranch(project, 'More issue templates', [
      newFile(`${folder}/Zeta.md`, ['zeta']),
      newFile(`${folder}/Default.md`, ['The default']),
      newFile(`${folder}/Shouting.MD`, ['upper case']),
      newFile(`${folder}/notes.txt`, ['not a template']),
      newFile(`${folder}/nested/Inner.md`, ['in a sub-folder']),
    ]);
  });

  /** A commit of `changes` on the project's default branch, as a push would land it. */
  function pushToDefaultBranch(target: Project, title: string, changes: FileChange[]): void {
    const branch = forge.state.projects.get(target.id)?.branches.get(target.default_branch ?? 'main');
    assert.ok(branch);
    branch.commitSha = forge.state.addCommit({
      parentIds: [branch.commitSha],
      title,
      message: title,
      by: { name: 'Alice', email: 'alice@example.com' },
      at: '2026-11-30T09:00:00Z',
      changes,
    });
  }

  after(async () => {
    await alice.close();
    await forge.close();
  });

  it('offers the Markdown files, "Default" first and then by name, with their text', async () => {
    const templates = await readDescriptionTemplates(alice, project, 'issue');
    assert.deepEqual(
      templates.map(({ name, text }) => [name, text.split('\n')[0]]),
      [
        ['Default', 'The default'],
        ['Bug', '## Steps to reproduce'],
        ['Feature', '## The idea'],
        ['Shouting', 'upper case'],
        ['Zeta', 'zeta'],
      ],
    );
    assert.ok(templates.every((template) => template.isProjectDefault === undefined));
  });

  it("puts the project's own default description first, named by its first line", async () => {
    const own = `${'A long first line '.repeat(5)}\n\nThe rest`;
    const templates = await readDescriptionTemplates(
      alice,
      { ...project, issues_template: own, merge_requests_template: '  ' },
      'issue',
    );
    assert.deepEqual(templates[0], {
      name: own.split('\n')[0]?.slice(0, 60),
      text: own,
      isProjectDefault: true,
    });
    assert.equal(templates[0]?.name.length, 60);
    assert.equal(templates[1]?.name, 'Default');
    // A blank default is none; the merge request kind reads its own key and folder.
    const forMergeRequests = await readDescriptionTemplates(
      alice,
      { ...project, issues_template: own, merge_requests_template: '  ' },
      'merge_request',
    );
    assert.deepEqual(
      forMergeRequests.map((template) => template.name),
      ['Default', 'Bug fix'],
    );
  });

  it('reads the default branch, and HEAD for a project that names none', async () => {
    const before = forge.requests.length;
    await readDescriptionTemplates(alice, project, 'merge_request');
    const reads = forge.requests.slice(before);
    assert.ok(reads.length === 3, `one listing and two files: ${reads.length}`);
    assert.ok(reads.every((request) => request.query['ref'] === project.default_branch));
    const headBefore = forge.requests.length;
    await readDescriptionTemplates(alice, { ...project, default_branch: null }, 'merge_request');
    const headReads = forge.requests.slice(headBefore);
    assert.equal(headReads[0]?.query['ref'], undefined, 'the listing asks for no ref');
    assert.deepEqual(
      headReads.slice(1).map((request) => request.query['ref']),
      ['HEAD', 'HEAD'],
    );
  });

  it(`reads ${MAX_TEMPLATES} files at most, and none where the folder is missing`, async () => {
    const other = await alice.getProject(forge.fixtures.projects.api);
    // GitLab answers 404 for a folder the branch does not have: no templates, not an error.
    assert.deepEqual(await readDescriptionTemplates(alice, other, 'merge_request'), []);
    const many = Array.from({ length: MAX_TEMPLATES + 5 }, (_, index) =>
      newFile(`.gitlab/merge_request_templates/T${String(index).padStart(2, '0')}.md`, [`t${index}`]),
    );
    pushToDefaultBranch(other, 'Many templates', many);
    const read = await readDescriptionTemplates(alice, other, 'merge_request');
    assert.equal(read.length, MAX_TEMPLATES);
  });
});
