// GitLab's documented example responses of the endpoints beyond the seed spec (review, draft notes,
// discussions, approvals, versions, diffs, rebase) are the least a schema must accept, nulls
// included (issue 36): every one parses, and what the review reads of it is right.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import {
  BridgeSchema,
  CiLintSchema,
  ProjectVariableSchema,
  DiscussionSchema,
  DraftNoteSchema,
  IssueSchema,
  JobSchema,
  MergeRequestApprovalsSchema,
  MergeRequestDiffSchema,
  MergeRequestVersionSchema,
  PipelineDetailsSchema,
  PipelineVariableSchema,
  RebaseReplySchema,
  RepositoryCompareSchema,
  RepositoryTreeEntrySchema,
  TestReportSummarySchema,
} from '../../src/api/hosting/schemas';
import { assertFieldsChecked, isRecord, itemSchema } from '../support/schemaFields';

const DOCS_DIR = path.join(__dirname, '..', 'fixtures', 'gitlab-api-docs');
const CLIENTS_DIR = path.join(__dirname, '..', 'fixtures', 'gitlab-docs');

/** Every documented response, by its path under `gitlab-api-docs`, with the schema it must parse with. */
const DOCUMENTED: Record<string, z.ZodType> = {
  'review/GLD-draft_notes_list.json': z.array(DraftNoteSchema),
  'review/GLD-draft_note_get.json': z.array(DraftNoteSchema),
  'review/GLD-mr_discussions.json': z.array(DiscussionSchema),
  'review/GLD-mr_discussions_diff.json': z.array(DiscussionSchema),
  'review/GLD-mr_approvals.json': MergeRequestApprovalsSchema,
  'review/GLD-mr_rebase.json': RebaseReplySchema,
  'pipelines/GLD-pipelines_list.json': z.array(PipelineDetailsSchema),
  'pipelines/GLD-pipeline_get.json': PipelineDetailsSchema,
  'pipelines/GLD-pipeline_create.json': PipelineDetailsSchema,
  'pipelines/GLD-pipeline_retry.json': PipelineDetailsSchema,
  'pipelines/GLD-pipeline_cancel.json': PipelineDetailsSchema,
  'pipelines/GLD-pipeline_variables.json': z.array(PipelineVariableSchema),
  'pipelines/GLD-pipeline_test_report_summary.json': TestReportSummarySchema,
  'pipelines/GLD-pipeline_bridges.json': z.array(BridgeSchema),
  'ciConfig/GLD-ci_lint_project_valid.json': CiLintSchema,
  'ciConfig/GLD-ci_lint_project_invalid.json': CiLintSchema,
  'ciConfig/GLD-ci_lint_committed_invalid.json': CiLintSchema,
  'ciConfig/GLD-project_variables_list.json': z.array(ProjectVariableSchema),
  'jobs/GLD-job_get.json': JobSchema,
  'review/GLD-commit_diff.json': z.array(MergeRequestDiffSchema),
  'review/GLD-repository_compare.json': RepositoryCompareSchema,
  'review/GLD-repository_tree.json': z.array(RepositoryTreeEntrySchema),
  'issues/GLD-issues_list.json': z.array(IssueSchema),
  'issues/GLD-issue_discussions.json': z.array(DiscussionSchema),
};

/** Documented payloads of the same endpoints that public clients keep (the `gitlab-docs` copy). */
const FROM_CLIENTS: Record<string, z.ZodType> = {
  'mr_changes/G4J-merge-request-versions.json': z.array(MergeRequestVersionSchema),
  'mr_changes/G4J-merge-request-diff.json': MergeRequestVersionSchema,
  'mr_changes/NK-merge_request_diff_version.json': MergeRequestVersionSchema,
  'mr_changes/GO-list_merge_request_diff.json': z.array(MergeRequestDiffSchema),
  'mr_changes/NK-merge_request_diffs.json': z.array(MergeRequestDiffSchema),
};

function read(dir: string, file: string): unknown {
  return JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as unknown;
}

function payloadFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const relative = prefix === '' ? entry : `${prefix}/${entry}`;
    if (statSync(path.join(dir, entry)).isDirectory()) return payloadFiles(path.join(dir, entry), relative);
    return entry.endsWith('.json') && entry !== 'MANIFEST.json' ? [relative] : [];
  });
}

describe("GitLab's documented responses beyond the seed spec", () => {
  it('has a schema for every documented file, and every file in the manifest with its licence', () => {
    const files = payloadFiles(DOCS_DIR).sort();
    assert.deepEqual(files, Object.keys(DOCUMENTED).sort());
    const manifest = z
      .array(z.looseObject({ file: z.string(), path: z.string(), license: z.string() }))
      .parse(read(DOCS_DIR, 'MANIFEST.json'));
    assert.deepEqual(manifest.map((entry) => entry.file).sort(), files);
    const licences = readFileSync(path.join(DOCS_DIR, 'LICENSES.md'), 'utf8');
    for (const entry of manifest) assert.ok(licences.includes(entry.license), entry.license);
  });

  for (const [file, schema] of [
    ...Object.entries(DOCUMENTED).map(([file, schema]) => [DOCS_DIR, file, schema] as const),
    ...Object.entries(FROM_CLIENTS).map(([file, schema]) => [CLIENTS_DIR, file, schema] as const),
  ].map(([dir, file, schema]) => [file, () => schema.safeParse(read(dir, file))] as const)) {
    it(`parses ${file}`, () => {
      const result = schema();
      assert.ok(
        result.success,
        result.error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
      );
    });
  }

  it('reads a draft without a position of its own (all nulls) as having none', () => {
    const [draft] = z.array(DraftNoteSchema).parse(read(DOCS_DIR, 'review/GLD-draft_notes_list.json'));
    assert.ok(draft);
    assert.equal(draft.note, 'Example title');
    assert.equal(draft.position, undefined);
    assert.equal(draft.discussion_id, null);
  });

  it('keeps the position of a diff comment, its line range ends without lines', () => {
    const [discussion] = z
      .array(DiscussionSchema)
      .parse(read(DOCS_DIR, 'review/GLD-mr_discussions_diff.json'));
    const position = discussion?.notes[0]?.position;
    assert.equal(position?.new_path, 'package.json');
    assert.equal(position?.new_line, 27);
    assert.equal(position?.line_range?.start.new_line, undefined);
  });

  it('reads general threads and single comments, and who approved', () => {
    const discussions = z.array(DiscussionSchema).parse(read(DOCS_DIR, 'review/GLD-mr_discussions.json'));
    assert.deepEqual(
      discussions.map((discussion) => [discussion.individual_note, discussion.notes.length]),
      [
        [false, 2],
        [true, 1],
      ],
    );
    assert.equal(discussions[0]?.notes[0]?.position, undefined);
    const approvals = MergeRequestApprovalsSchema.parse(read(DOCS_DIR, 'review/GLD-mr_approvals.json'));
    assert.equal(approvals.approvals_left, 1);
    assert.equal(approvals.approved_by?.[0]?.user.username, 'root');
  });
  it('reads what a pipeline row shows, the pipeline a trigger job started, and variables without a type', () => {
    const pipeline = PipelineDetailsSchema.parse(read(DOCS_DIR, 'pipelines/GLD-pipeline_get.json'));
    assert.deepEqual(
      [
        pipeline.name,
        pipeline.source,
        pipeline.duration,
        pipeline.detailed_status?.text,
        pipeline.user?.username,
      ],
      ['Build pipeline', 'push', 34, 'passed', 'root'],
    );
    const created = PipelineDetailsSchema.parse(read(DOCS_DIR, 'pipelines/GLD-pipeline_create.json'));
    assert.equal(created.name, undefined);
    assert.equal(created.queued_duration, 0.01);
    const [bridge] = z.array(BridgeSchema).parse(read(DOCS_DIR, 'pipelines/GLD-pipeline_bridges.json'));
    assert.equal(bridge?.downstream_pipeline?.id, 5);
    assert.equal(
      bridge?.downstream_pipeline?.web_url,
      'https://example.com/diaspora/diaspora-client/pipelines/5',
    );
    const variables = z
      .array(PipelineVariableSchema)
      .parse(read(DOCS_DIR, 'pipelines/GLD-pipeline_variables.json'));
    assert.deepEqual(
      variables.map((variable) => [variable.key, variable.variable_type ?? 'env_var']),
      [
        ['RUN_NIGHTLY_BUILD', 'env_var'],
        ['foo', 'env_var'],
      ],
    );
  });
});

describe('schemas beyond the seed spec: every declared field is checked', () => {
  // The first documented payload of each schema (a list's first item): the schema must refuse it
  // with any field it declares given the wrong type, nested objects included.
  // Every file, not only the first of each schema: a diff thread has a position a general one lacks.
  const firstSample = new Map<string, [z.ZodType, Record<string, unknown>]>();
  for (const [dir, table] of [
    [DOCS_DIR, DOCUMENTED],
    [CLIENTS_DIR, FROM_CLIENTS],
  ] as const) {
    for (const [file, schema] of Object.entries(table)) {
      const payload = read(dir, file);
      const sample: unknown = Array.isArray(payload) ? payload[0] : payload;
      if (isRecord(sample)) firstSample.set(file, [itemSchema(schema), sample]);
    }
  }

  /**
   * Nested objects whose documented payload has none of the fields the schema reads: GitLab 14 and
   * later send a job's `project` as `{ci_job_token_scope_enabled}` alone; the documentation's diff
   * thread gives its line range's ends as `{line_code, type}`.
   */
  const SENT_NONE: Record<string, readonly string[]> = {
    'jobs/GLD-job_get.json': ['project'],
    'pipelines/GLD-pipeline_bridges.json': ['project'],
    'review/GLD-mr_discussions_diff.json': [
      'notes[0].position.line_range.start',
      'notes[0].position.line_range.end',
    ],
  };

  it('covers every documented payload', () => {
    assert.equal(firstSample.size, Object.keys(DOCUMENTED).length + Object.keys(FROM_CLIENTS).length);
  });

  it('refuses a position with some of its place missing, and reads one with none as no position', () => {
    const [discussion] = z
      .array(DiscussionSchema)
      .parse(read(DOCS_DIR, 'review/GLD-mr_discussions_diff.json'));
    const note = discussion?.notes[0];
    assert.ok(note?.position);
    const withPosition = (position: unknown) => ({ ...discussion, notes: [{ ...note, position }] });
    const keys = ['base_sha', 'start_sha', 'head_sha', 'old_path', 'new_path'] as const;
    const none = Object.fromEntries(keys.map((key) => [key, null]));
    for (const key of keys) {
      const broken = withPosition({ ...note.position, [key]: null });
      assert.equal(DiscussionSchema.safeParse(broken).success, false, `${key} missing alone`);
      const onlyOne = withPosition({ ...note.position, ...none, [key]: note.position[key] });
      assert.equal(DiscussionSchema.safeParse(onlyOne).success, false, `only ${key} given`);
    }
    const placeless = withPosition({
      base_sha: null,
      start_sha: null,
      head_sha: null,
      old_path: null,
      new_path: null,
      position_type: 'text',
    });
    assert.equal(DiscussionSchema.parse(placeless).notes[0]?.position, undefined);
  });

  for (const [file, [schema, sample]] of firstSample) {
    it(`refuses each field of ${file} given the wrong type`, () => {
      const sentNone = new Set(SENT_NONE[file] ?? []);
      const checked = assertFieldsChecked(schema, schema, sample, undefined, '', sentNone);
      assert.ok(checked > 0, 'at least one field is checked');
    });
  }
});
