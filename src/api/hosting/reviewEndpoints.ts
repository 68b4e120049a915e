import { type CallOptions, type ProjectRef } from './hostingTypes';
import { projectParam } from './hostingCore';
import { MergeRequestEndpoints } from './mergeRequestEndpoints';
import {
  type DiffPosition,
  DiscussionNoteSchema,
  DiscussionSchema,
  DraftNoteSchema,
  MergeRequestApprovalsSchema,
  MergeRequestDiffSchema,
  MergeRequestVersionSchema,
  RebaseReplySchema,
  RepositoryCompareSchema,
  RepositoryTreeEntrySchema,
  SuggestionSchema,
} from './schemas';

/**
 * Reviewing a merge request beyond the seed spec (`beyondSpecEndpoints.ts`): approvals, rebase and
 * discussions (threads, comments on lines of the diff, replies, resolving), and a review held as
 * draft notes until it is published at once.
 * A server without an endpoint answers 404 (`NotFoundError`); callers say what is unavailable.
 */
export class ReviewEndpoints extends MergeRequestEndpoints {
  /** Who approved, and how many approvals are still needed. */
  getApprovals(project: ProjectRef, iid: number, options?: CallOptions) {
    return this.call(
      'mergeRequests.approvals',
      this.mrParams(project, iid),
      MergeRequestApprovalsSchema,
      options,
    );
  }

  /**
   * Approves as the caller. With `sha`, only if it is still the head (409 otherwise): the approval
   * is for what the reviewer saw.
   */
  approve(project: ProjectRef, iid: number, options: CallOptions & { sha?: string } = {}) {
    return this.call('mergeRequests.approve', this.mrParams(project, iid), MergeRequestApprovalsSchema, {
      body: options.sha === undefined ? {} : { sha: options.sha },
      signal: options.signal,
    });
  }

  /** Withdraws the caller's approval. */
  unapprove(project: ProjectRef, iid: number, options?: CallOptions) {
    return this.callNoContent('mergeRequests.unapprove', this.mrParams(project, iid), options);
  }

  /** Starts a rebase of the source branch onto the target; the merge request reports when it ends. */
  rebase(project: ProjectRef, iid: number, options: CallOptions & { skipCi?: boolean } = {}) {
    return this.call('mergeRequests.rebase', this.mrParams(project, iid), RebaseReplySchema, {
      body: options.skipCi === undefined ? {} : { skip_ci: options.skipCi },
      signal: options.signal,
    });
  }

  /** Every thread of the merge request, diff threads with their positions. */
  listDiscussions(project: ProjectRef, iid: number) {
    return this.list('mergeRequests.discussions', this.mrParams(project, iid), DiscussionSchema);
  }

  /** Starts a thread; with a `position`, on a line of the diff (400 when the diff does not show it). */
  createDiscussion(
    project: ProjectRef,
    iid: number,
    input: { body: string; position?: DiffPosition },
    options?: CallOptions,
  ) {
    return this.call('mergeRequests.createDiscussion', this.mrParams(project, iid), DiscussionSchema, {
      body: input.position ? { body: input.body, position: input.position } : { body: input.body },
      signal: options?.signal,
    });
  }

  replyToDiscussion(
    project: ProjectRef,
    iid: number,
    discussionId: string,
    body: string,
    options?: CallOptions,
  ) {
    return this.call(
      'mergeRequests.replyToDiscussion',
      { ...this.mrParams(project, iid), discussion_id: discussionId },
      DiscussionNoteSchema,
      { body: { body }, signal: options?.signal },
    );
  }

  resolveDiscussion(
    project: ProjectRef,
    iid: number,
    discussionId: string,
    resolved: boolean,
    options?: CallOptions,
  ) {
    return this.call(
      'mergeRequests.resolveDiscussion',
      { ...this.mrParams(project, iid), discussion_id: discussionId },
      DiscussionSchema,
      { body: { resolved }, signal: options?.signal },
    );
  }

  /** Commits a suggested change on the source branch; 400 when applied already or outdated. */
  applySuggestion(suggestionId: number, options: CallOptions & { commitMessage?: string } = {}) {
    return this.call('suggestions.apply', { id: suggestionId }, SuggestionSchema, {
      body: options.commitMessage === undefined ? {} : { commit_message: options.commitMessage },
      signal: options.signal,
    });
  }

  /** The caller's review comments not published yet. */
  listDraftNotes(project: ProjectRef, iid: number) {
    return this.list('mergeRequests.draftNotes', this.mrParams(project, iid), DraftNoteSchema);
  }

  /** Holds a comment for the review: on a line (`position`), as a reply, or on the merge request. */
  createDraftNote(
    project: ProjectRef,
    iid: number,
    input: { note: string; position?: DiffPosition; inReplyToDiscussionId?: string },
    options?: CallOptions,
  ) {
    return this.call('mergeRequests.createDraftNote', this.mrParams(project, iid), DraftNoteSchema, {
      body: {
        note: input.note,
        ...(input.position ? { position: input.position } : {}),
        ...(input.inReplyToDiscussionId ? { in_reply_to_discussion_id: input.inReplyToDiscussionId } : {}),
      },
      signal: options?.signal,
    });
  }

  deleteDraftNote(project: ProjectRef, iid: number, draftNoteId: number, options?: CallOptions) {
    return this.callNoContent(
      'mergeRequests.deleteDraftNote',
      { ...this.mrParams(project, iid), draft_note_id: draftNoteId },
      options,
    );
  }

  /** Publishes every draft of the caller at once: the review is submitted. */
  publishDraftNotes(project: ProjectRef, iid: number, options?: CallOptions) {
    return this.callNoContent('mergeRequests.publishDraftNotes', this.mrParams(project, iid), options);
  }

  /** The versions (one per push), newest first: the SHAs of each diff. */
  listVersions(project: ProjectRef, iid: number) {
    return this.list('mergeRequests.versions', this.mrParams(project, iid), MergeRequestVersionSchema);
  }

  /** A file's bytes at a commit, branch or tag; 404 when the commit or the file is not there. */
  getRawFile(project: ProjectRef, filePath: string, ref: string, options?: CallOptions) {
    return this.callBytes(
      'repository.rawFile',
      { id: projectParam(project), file_path: filePath },
      { query: { ref }, signal: options?.signal },
    );
  }

  /** A commit's changed files against its first parent, a page at a time. */
  listCommitDiff(project: ProjectRef, sha: string) {
    return this.list('repository.commitDiff', { id: projectParam(project), sha }, MergeRequestDiffSchema);
  }

  /** What changed from `from` to `to` (through their merge base unless `straight`). */
  compare(project: ProjectRef, from: string, to: string, options: CallOptions & { straight?: boolean } = {}) {
    return this.call('repository.compare', { id: projectParam(project) }, RepositoryCompareSchema, {
      query: { from, to, ...(options.straight === undefined ? {} : { straight: options.straight }) },
      signal: options.signal,
    });
  }

  /** The files and folders of `path` at `ref`; 404 when the folder is not there. */
  listRepositoryTree(project: ProjectRef, path: string, ref?: string) {
    return this.list('repository.tree', { id: projectParam(project) }, RepositoryTreeEntrySchema, {
      path,
      ...(ref === undefined ? {} : { ref }),
    });
  }

  /** The changed files a page at a time (GitLab 15.7+; older servers answer 404: use `.../changes`). */
  listDiffs(project: ProjectRef, iid: number) {
    return this.list('mergeRequests.diffs', this.mrParams(project, iid), MergeRequestDiffSchema);
  }
}
