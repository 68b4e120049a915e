import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import {
  ApiErrorBodySchema,
  AwardEmojiSchema,
  BoardListSchema,
  BoardSchema,
  BranchSchema,
  BroadcastMessageSchema,
  CiTemplateSchema,
  CiTemplateSummarySchema,
  ClosesIssueSchema,
  CommitCommentSchema,
  isAwardEmoji,
  isKnownJobStatus,
  JOB_STATUSES,
  JobSchema,
  MergeRequestChangesSchema,
  MergeRequestDiffSchema,
  MergeRequestDiffVersionSchema,
  MergeRequestSchema,
  NoteOrAwardSchema,
  NoteSchema,
  PipelineSchema,
  ProjectEventSchema,
  ProjectMemberSchema,
  ProjectSchema,
  ProtectedBranchSchema,
  SnippetNoteResponseSchema,
  SshKeySchema,
  SystemHookSchema,
  SystemHookTestSchema,
  TodoSchema,
  TriggerSchema,
  UserSchema,
} from '../../src/api/hosting/schemas';

import { assertFieldsChecked, isRecord, objectShape } from '../support/schemaFields';

const FIXTURES_DIR = path.join(__dirname, '..', 'fixtures', 'gitlab-docs');
/** The shared original the copy above was made from, in `../shared` beside the project (as on CI); absent in a user's clone. */
const SHARED_FIXTURES_DIR = path.join(__dirname, '..', '..', '..', 'shared', 'fixtures', 'gitlab-docs');
/** Files in the fixture folder that are not payloads. */
const NON_FIXTURE_FILES = new Set(['MANIFEST.json', 'LICENSES.md']);

type Shape = 'object' | 'array';

/** The fixture is a payload of this schema, alone or as a list. */
interface Parses {
  kind: 'parses';
  schema: z.ZodType;
  shape: Shape;
  /** Why a neighbouring shape is checked against this schema. */
  note?: string;
}

/** The fixture is a shape none of our schemas should describe. */
interface Unrelated {
  kind: 'unrelated';
  reason: string;
}

type Expectation = Parses | Unrelated;

const one = (schema: z.ZodType, note?: string): Parses => ({ kind: 'parses', schema, shape: 'object', note });
const list = (schema: z.ZodType, note?: string): Parses => ({ kind: 'parses', schema, shape: 'array', note });
/** Kept short on purpose: every neighbouring shape found so far has a schema it parses with. */
const UNRELATED: Record<string, Unrelated> = {};

/** Every fixture file, by its path under the fixture folder. A file missing here fails the suite. */
const FIXTURE_TABLE: Record<string, Expectation> = {
  ...UNRELATED,

  'award_emoji/G4J-award-emoji.json': one(AwardEmojiSchema),
  'award_emoji/GO-TestAwardEmojiService_ListIssueAwardEmoji-L86.json': list(AwardEmojiSchema),
  'award_emoji/GO-TestAwardEmojiService_ListMergeRequestAwardEmoji-L16.json': list(AwardEmojiSchema),
  'award_emoji/NK-issue_award_emoji.json': one(AwardEmojiSchema),
  'award_emoji/NK-issue_award_emojis.json': list(AwardEmojiSchema),
  'award_emoji/NK-merge_request_award_emoji.json': one(AwardEmojiSchema),
  'award_emoji/NK-merge_request_award_emojis.json': list(AwardEmojiSchema),
  'award_emoji/NK-note_award_emoji.json': one(AwardEmojiSchema),
  'award_emoji/NK-note_award_emojis.json': list(AwardEmojiSchema),
  'award_emoji/NK-snippet_award_emoji.json': one(AwardEmojiSchema),

  'board/G4J-group-board.json': list(BoardSchema, 'group boards share the project board shape'),
  'board/G4J-project-board.json': list(BoardSchema),
  'board/GO-TestIssueBoardsService_CreateIssueBoard-L16.json': one(BoardSchema),
  'board/GO-TestIssueBoardsService_GetIssueBoard-L300.json': one(BoardSchema),
  'board/GO-TestIssueBoardsService_ListIssueBoards-L170.json': list(BoardSchema),
  'board/GO-TestIssueBoardsService_UpdateIssueBoard-L81.json': one(BoardSchema),
  'board/NK-board.json': one(BoardSchema),
  'board/NK-boards.json': list(BoardSchema),
  'board/NK-group_board.json': one(BoardSchema, 'group boards share the project board shape'),
  'board/NK-updated_board.json': one(BoardSchema),

  'board_list/GO-TestIssueBoardsService_GetIssueBoardList-L524.json': one(BoardListSchema),
  'board_list/GO-TestIssueBoardsService_GetIssueBoardLists-L429.json': list(BoardListSchema),
  'board_list/NK-board_list.json': one(BoardListSchema),
  'board_list/NK-board_lists.json': list(BoardListSchema),

  'branch/G4J-branch.json': one(BranchSchema),
  'branch/GO-get_branch.json': one(BranchSchema),
  'branch/GO-list_branches.json': list(BranchSchema),
  'branch/NK-branch.json': one(BranchSchema, 'older servers: commit without short_id and title'),
  'branch/NK-branches.json': list(BranchSchema, 'older servers: commit without short_id and title'),
  'branch/NK-protected_branch.json': one(ProtectedBranchSchema),
  'branch/NK-protected_branches.json': list(ProtectedBranchSchema),

  'broadcast_message/GO-TestCreateBroadcastMessages-L155.json': one(BroadcastMessageSchema),
  'broadcast_message/GO-TestGetBroadcastMessages-L106.json': one(BroadcastMessageSchema),
  'broadcast_message/GO-TestListBroadcastMessages-L32.json': list(BroadcastMessageSchema),
  'broadcast_message/GO-TestUpdateBroadcastMessages-L214.json': one(BroadcastMessageSchema),
  'broadcast_message/NK-broadcast_message.json': one(BroadcastMessageSchema),
  'broadcast_message/NK-broadcast_messages.json': list(BroadcastMessageSchema),

  'error/NK-error_already_exists.json': one(ApiErrorBodySchema),
  'error/NK-error_project_not_found.json': one(ApiErrorBodySchema),

  'event/G4J-event.json': one(ProjectEventSchema),
  'event/G4J-events.json': list(ProjectEventSchema),
  'event/G4J-project-events.json': list(ProjectEventSchema),
  'event/GO-TestEventsService_ListCurrentUserContributionEvents-L98.json': list(
    ProjectEventSchema,
    'user contribution events share the project event shape',
  ),
  'event/GO-TestEventsService_ListProjectVisibleEvents-L184.json': list(ProjectEventSchema),
  'event/GO-TestUsersService_ListUserContributionEvents-L16.json': list(
    ProjectEventSchema,
    'user contribution events share the project event shape',
  ),
  'event/NK-project_events.json': list(ProjectEventSchema),
  'event/NK-user_contribution_events.json': list(
    ProjectEventSchema,
    'user contribution events share the project event shape',
  ),
  'event/NK-user_events.json': list(ProjectEventSchema, 'user events share the project event shape'),

  'job/G4J-job.json': one(JobSchema),
  'job/NK-build_retry.json': one(JobSchema, 'retry shape: no pipeline'),
  'job/NK-job.json': one(JobSchema),
  'job/NK-jobs.json': list(JobSchema),
  'job/NK-runner_jobs.json': list(JobSchema, 'jobs of a runner: the project job shape plus project'),

  'merge_request/NK-milestone_merge_requests.json': list(MergeRequestSchema),

  'mr_changes/G4J-merge-request-diff.json': one(MergeRequestDiffVersionSchema),
  'mr_changes/G4J-merge-request-versions.json': list(MergeRequestDiffVersionSchema),
  'mr_changes/GO-list_merge_request_diff.json': list(MergeRequestDiffSchema),
  'mr_changes/NK-merge_request_changes.json': one(MergeRequestChangesSchema),
  'mr_changes/NK-merge_request_diff_version.json': one(MergeRequestDiffVersionSchema),
  'mr_changes/NK-merge_request_diffs.json': list(MergeRequestDiffSchema),

  'note/G4J-merge-request-note.json': one(NoteSchema),
  'note/G4J-note.json': one(NoteSchema, 'a snippet note in the current note shape'),
  'note/GO-TestGetEpicNote-L31.json': one(
    NoteSchema,
    'trimmed stub: fields it lacks are optional in the schema',
  ),
  'note/NK-merge_request_comments.json': list(
    CommitCommentSchema,
    'the legacy merge request comments endpoint answers with the commit comment shape',
  ),
  'note/NK-merge_request_discussion_note.json': one(NoteSchema),
  'note/NK-project_commit_comments.json': list(CommitCommentSchema),

  'pipeline/G4J-pipeline.json': one(
    PipelineSchema,
    'the full pipeline record parses with the embedded shape',
  ),

  'project/G4J-project.json': one(ProjectSchema),
  'project/GO-TestEditProject-L308.json': one(
    ProjectSchema,
    'trimmed stub: fields it lacks are optional in the schema',
  ),
  'project/GO-TestGetProjectByID-L367.json': one(
    ProjectSchema,
    'trimmed stub: fields it lacks are optional in the schema',
  ),
  'project/GO-TestGetProjectWithOptions-L439.json': one(
    ProjectSchema,
    'trimmed stub: fields it lacks are optional in the schema',
  ),
  'project/NK-group_projects.json': list(ProjectSchema),
  'project/NK-project_fork.json': one(ProjectSchema),
  'project/NK-project_forked_for_user.json': one(ProjectSchema),
  'project/NK-project_star.json': one(ProjectSchema),
  'project/NK-project_unstar.json': one(ProjectSchema),
  'project/NK-user_projects.json': list(ProjectSchema),

  'ssh_key/G4J-key.json': one(SshKeySchema),
  'ssh_key/G4J-sshkey.json': one(SshKeySchema, 'own key of a user: no embedded user'),
  'ssh_key/GO-TestGetKeyWithUser-L32.json': one(SshKeySchema),
  'ssh_key/NK-key.json': one(SshKeySchema, 'own key of a user: no embedded user'),
  'ssh_key/NK-keys.json': list(SshKeySchema, 'key list of a user'),
  'ssh_key/NK-project_key.json': one(SshKeySchema, 'a project deploy key: an SSH key plus can_push'),

  'system_hook/G4J-system-hook.json': one(SystemHookSchema),
  'system_hook/GO-TestSystemHooksService_AddHook-L89.json': one(SystemHookSchema),
  'system_hook/GO-TestSystemHooksService_GetHook-L54.json': one(SystemHookSchema),
  'system_hook/GO-TestSystemHooksService_ListHooks-L17.json': list(SystemHookSchema),
  'system_hook/GO-TestSystemHooksService_TestHook-L108.json': one(SystemHookTestSchema),
  'system_hook/NK-system_hook.json': one(SystemHookSchema),
  'system_hook/NK-system_hooks.json': list(SystemHookSchema),

  'template/G4J-gitlab-ci-template-elements.json': list(CiTemplateSummarySchema),
  'template/G4J-gitlab-ci-template.json': one(CiTemplateSchema),
  'template/GO-TestGetTemplate-L84.json': one(CiTemplateSchema),
  'template/GO-TestListAllTemplates-L31.json': list(CiTemplateSummarySchema),
  'template/NK-dockerfile_templates.json': list(
    CiTemplateSummarySchema,
    'Dockerfile template list, same shape',
  ),
  'template/NK-gitignore_template.json': one(CiTemplateSchema, '.gitignore template: {name, content}'),
  'template/NK-gitlab_ci_yml_template.json': one(CiTemplateSchema),
  'template/NK-gitlab_ci_yml_templates.json': list(CiTemplateSummarySchema),
  'template/NK-license_template.json': one(CiTemplateSchema, 'licence template: {name, content} and more'),

  'todo/G4J-todos.json': list(TodoSchema),
  'todo/GO-list_todos.json': list(TodoSchema, 'trimmed stub: fields it lacks are optional in the schema'),
  'todo/NK-todo.json': one(TodoSchema),
  'todo/NK-todos.json': list(TodoSchema),

  'trigger/G4J-trigger.json': one(TriggerSchema),
  'trigger/NK-trigger.json': one(TriggerSchema),
  'trigger/NK-triggers.json': list(TriggerSchema),

  'user/GO-get_user.json': one(UserSchema),
};

function readJson(relativePath: string): unknown {
  return JSON.parse(readFileSync(path.join(FIXTURES_DIR, relativePath), 'utf8')) as unknown;
}

/** A fixture that is a single JSON object, as a record the tests can copy and change. */
function fixtureObject(relativePath: string): Record<string, unknown> {
  const value = readJson(relativePath);
  assert.ok(
    typeof value === 'object' && value !== null && !Array.isArray(value),
    `${relativePath} is an object`,
  );
  return value as Record<string, unknown>;
}

/** Every file below `dir`, as paths relative to `dir` with `/` separators, sorted. */
function listFilesRecursively(dir: string, prefix = ''): string[] {
  return readdirSync(dir)
    .flatMap((entry) => {
      const relative = prefix === '' ? entry : `${prefix}/${entry}`;
      return statSync(path.join(dir, entry)).isDirectory()
        ? listFilesRecursively(path.join(dir, entry), relative)
        : [relative];
    })
    .sort();
}

function schemaFor(expectation: Parses): z.ZodType {
  return expectation.shape === 'array' ? z.array(expectation.schema) : expectation.schema;
}

/** Readable summary of a zod failure for assertion messages. */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
}

function issuePaths(result: { success: boolean; error?: z.ZodError }): PropertyKey[][] {
  assert.equal(result.success, false, 'expected the payload to be rejected');
  assert.ok(result.error);
  return result.error.issues.map((issue) => issue.path);
}

const fixtureFiles = listFilesRecursively(FIXTURES_DIR).filter((file) => !NON_FIXTURE_FILES.has(file));

describe('hosting schemas: documented fixtures', () => {
  it('has an entry in the fixture table for every fixture file, and no stale entries', () => {
    const inTable = Object.keys(FIXTURE_TABLE).sort();
    assert.deepEqual(
      fixtureFiles.filter((file) => !(file in FIXTURE_TABLE)),
      [],
      'fixture files missing from FIXTURE_TABLE',
    );
    assert.deepEqual(
      inTable.filter((file) => !fixtureFiles.includes(file)),
      [],
      'FIXTURE_TABLE entries with no file',
    );
    assert.ok(fixtureFiles.length > 0);
  });

  it('lists every fixture file in MANIFEST.json with its source and licence', () => {
    const manifest = z
      .array(z.looseObject({ file: z.string(), repo: z.string(), license: z.string(), commit: z.string() }))
      .parse(readJson('MANIFEST.json'));
    assert.deepEqual(manifest.map((entry) => entry.file).sort(), fixtureFiles);
    const licensesPage = readFileSync(path.join(FIXTURES_DIR, 'LICENSES.md'), 'utf8');
    for (const licence of new Set(manifest.map((entry) => entry.license))) {
      assert.ok(licensesPage.includes(licence), `LICENSES.md names ${licence}`);
    }
  });

  for (const [file, expectation] of Object.entries(FIXTURE_TABLE)) {
    if (expectation.kind === 'parses') {
      it(`parses ${file} as ${expectation.shape === 'array' ? 'a list' : 'one'}`, () => {
        const payload = readJson(file);
        assert.equal(Array.isArray(payload), expectation.shape === 'array', 'shape of the payload');
        const result = schemaFor(expectation).safeParse(payload);
        assert.ok(result.success, result.success ? '' : describeIssues(result.error));
        // Loose schemas hand back everything the server sent, not only the validated fields.
        assert.deepEqual(result.data, payload);
      });
    }
  }

  // Comparing with the shared original only makes sense where it exists; elsewhere the test is left out.
  if (existsSync(SHARED_FIXTURES_DIR)) {
    it('keeps the copy in test/fixtures identical to the shared fixtures', () => {
      const sharedFiles = listFilesRecursively(SHARED_FIXTURES_DIR);
      const copiedFiles = listFilesRecursively(FIXTURES_DIR).filter((file) => file !== 'LICENSES.md');
      assert.deepEqual(copiedFiles, sharedFiles);
      for (const file of sharedFiles) {
        assert.ok(
          readFileSync(path.join(FIXTURES_DIR, file)).equals(
            readFileSync(path.join(SHARED_FIXTURES_DIR, file)),
          ),
          `${file} differs from the shared copy`,
        );
      }
    });
  }
});

describe('hosting schemas: tolerance and strictness', () => {
  const job = fixtureObject('job/NK-job.json');
  const mergeRequest = fixtureObject('mr_changes/NK-merge_request_changes.json');
  const note = fixtureObject('note/NK-merge_request_discussion_note.json');

  it('passes unknown fields through, at the top and in nested objects', () => {
    const user = { ...(job.user as Record<string, unknown>), pronouns: 'they/them' };
    const parsed = JobSchema.parse({ ...job, user, queued_duration: 1.5, new_field: { nested: [1, 2] } });
    assert.equal(parsed.queued_duration, 1.5);
    assert.deepEqual(parsed.new_field, { nested: [1, 2] });
    assert.equal(parsed.user?.pronouns, 'they/them');

    const parsedMergeRequest = MergeRequestChangesSchema.parse({ ...mergeRequest, squash: true });
    assert.equal(parsedMergeRequest.squash, true);
  });

  it('names the missing field in the issue path', () => {
    const { id: _id, ...jobWithoutId } = job;
    assert.deepEqual(issuePaths(JobSchema.safeParse(jobWithoutId)), [['id']]);

    const { iid: _iid, ...mergeRequestWithoutIid } = mergeRequest;
    assert.deepEqual(issuePaths(MergeRequestSchema.safeParse(mergeRequestWithoutIid)), [['iid']]);

    const { username: _username, ...userWithoutUsername } = job.user as Record<string, unknown>;
    assert.deepEqual(issuePaths(JobSchema.safeParse({ ...job, user: userWithoutUsername })), [
      ['user', 'username'],
    ]);

    assert.deepEqual(issuePaths(z.array(JobSchema).safeParse([job, { ...job, status: 7 }])), [[1, 'status']]);
  });

  it('rejects a wrong type where an id is expected', () => {
    assert.deepEqual(issuePaths(JobSchema.safeParse({ ...job, id: '8' })), [['id']]);
    assert.deepEqual(issuePaths(JobSchema.safeParse({ ...job, id: 8.5 })), [['id']]);
  });

  it('accepts nulls where the spec marks a field nullable', () => {
    const parsedJob = JobSchema.parse({
      ...job,
      started_at: null,
      finished_at: null,
      artifacts_file: null,
      user: null,
      runner: null,
      coverage: null,
      download_url: null,
    });
    assert.equal(parsedJob.started_at, null);
    assert.equal(parsedJob.artifacts_file, null);
    assert.equal(parsedJob.user, null);

    const parsedMergeRequest = MergeRequestSchema.parse({ ...mergeRequest, assignee: null, milestone: null });
    assert.equal(parsedMergeRequest.assignee, null);
    assert.equal(parsedMergeRequest.milestone, null);

    const { assignee: _assignee, ...mergeRequestWithoutAssignee } = mergeRequest;
    assert.equal(MergeRequestSchema.parse(mergeRequestWithoutAssignee).assignee, undefined);
  });

  it('accepts a null, a number or a string as a note attachment, and keeps it', () => {
    for (const attachment of [null, 42, '/uploads/abc/file.png']) {
      assert.equal(NoteSchema.parse({ ...note, attachment }).attachment, attachment);
    }
    const { attachment: _attachment, ...noteWithoutAttachment } = note;
    assert.equal(NoteSchema.parse(noteWithoutAttachment).attachment, undefined);
    assert.deepEqual(issuePaths(NoteSchema.safeParse({ ...note, attachment: true })), [['attachment']]);
  });

  it('keeps job statuses it does not know, and names the ones it does', () => {
    for (const status of [
      'created',
      'pending',
      'running',
      'failed',
      'success',
      'canceled',
      'skipped',
      'manual',
    ]) {
      assert.ok(isKnownJobStatus(status), status);
    }
    assert.ok(JOB_STATUSES.includes('started'));
    assert.equal(JobSchema.parse({ ...job, status: 'teleporting' }).status, 'teleporting');
    assert.equal(isKnownJobStatus('teleporting'), false);
  });

  it('accepts the job shapes of cancel, retry and play, which have no pipeline', () => {
    const { pipeline: _pipeline, ...jobWithoutPipeline } = job;
    assert.equal(JobSchema.parse({ ...jobWithoutPipeline, status: 'started' }).pipeline, undefined);
  });

  it('accepts the simple project shape and a group project without owner', () => {
    const simple = {
      id: 4,
      name: 'Diaspora Client',
      path: 'diaspora-client',
      web_url: 'http://example.com/x',
    };
    assert.deepEqual(ProjectSchema.parse(simple), simple);
    const [groupProject] = z.array(ProjectSchema).parse(readJson('project/NK-user_projects.json'));
    assert.ok(groupProject);
    const { owner: _owner, ...withoutOwner } = groupProject;
    assert.equal(ProjectSchema.parse(withoutOwner).owner, undefined);
    assert.deepEqual(issuePaths(ProjectSchema.safeParse({ name: 'x', path: 'diaspora-client' })), [['id']]);
  });

  it('parses the project member shape with a null avatar', () => {
    const member = {
      id: 1,
      username: 'john_smith',
      name: 'John Smith',
      state: 'active',
      avatar_url: null,
      web_url: 'http://localhost:3000/john_smith',
    };
    assert.deepEqual(ProjectMemberSchema.parse(member), member);
    const { web_url: _webUrl, ...withoutWebUrl } = member;
    assert.deepEqual(issuePaths(ProjectMemberSchema.safeParse(withoutWebUrl)), [['web_url']]);
  });

  it('tells a created note from an award emoji returned by a note POST', () => {
    const createdNote = NoteOrAwardSchema.parse(note);
    assert.equal(isAwardEmoji(createdNote), false);
    const award = NoteOrAwardSchema.parse(readJson('award_emoji/NK-note_award_emoji.json'));
    assert.equal(isAwardEmoji(award), true);
    assert.equal(award.name, 'mood_bubble_lightning');
  });

  it('parses the snippet-like single snippet note response and a regular note', () => {
    const author = job.user;
    const snippetLike = {
      id: 52,
      title: 'Hello world',
      file_name: 'hello.rb',
      author,
      expires_at: null,
      updated_at: '2016-04-06T16:51:53.239Z',
      created_at: '2016-04-06T16:51:53.239Z',
    };
    assert.deepEqual(SnippetNoteResponseSchema.parse(snippetLike), snippetLike);
    assert.deepEqual(SnippetNoteResponseSchema.parse(note), note);
  });

  it('parses issues and external-tracker issues from closes_issues', () => {
    const issue = { id: 76, iid: 6, project_id: 8, title: 'Consequatur vero', state: 'opened' };
    const external = { id: 'PROJECT-123', title: 'Title of this issue' };
    assert.deepEqual(z.array(ClosesIssueSchema).parse([issue, external]), [issue, external]);
    assert.equal(ClosesIssueSchema.safeParse({ id: 'PROJECT-123' }).success, false);
  });

  it('parses the three error body shapes', () => {
    for (const body of [
      { message: '404 Branch Not Found' },
      { message: { name: ['has already been taken'] } },
      { error: 'title is missing' },
    ]) {
      assert.deepEqual(ApiErrorBodySchema.parse(body), body);
    }
  });

  it('accepts a todo whose target is a commit, identified by its hash', () => {
    const [todo] = z.array(TodoSchema).parse(readJson('todo/NK-todos.json'));
    assert.ok(todo);
    const commitTarget = { id: '1d76d1b2e3e886108f662765c97f4687f4134d8c', title: 'Fix the build' };
    const parsed = TodoSchema.parse({ ...todo, target_type: 'Commit', target: commitTarget });
    assert.equal(parsed.target?.id, commitTarget.id);
  });
});

describe('hosting schemas: every declared field is checked', () => {
  const firstSample = new Map<z.ZodType, [string, Record<string, unknown>]>();
  for (const [file, expectation] of Object.entries(FIXTURE_TABLE)) {
    if (expectation.kind !== 'parses' || firstSample.has(expectation.schema)) continue;
    if (!objectShape(expectation.schema)) continue;
    const payload = readJson(file);
    const sample: unknown = Array.isArray(payload) ? payload[0] : payload;
    if (isRecord(sample)) firstSample.set(expectation.schema, [file, sample]);
  }

  it('covers the object schemas that have a documented payload', () => {
    assert.ok(firstSample.size >= 20, `only ${firstSample.size} schemas`);
  });

  for (const [schema, [file, sample]] of firstSample) {
    it(`refuses each field of ${file} given the wrong type`, () => {
      const checked = assertFieldsChecked(schema, schema, sample);
      assert.ok(checked > 0, 'the schema checks at least one field the server sent');
    });
  }
});
