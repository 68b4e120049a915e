import { type PathParams } from './endpoints';
import {
  AwardEmojiSchema,
  ClosesIssueSchema,
  MergeRequestChangesSchema,
  MergeRequestCommitSchema,
  type MergeRequest,
  MergeRequestSchema,
  NoteOrAwardSchema,
  NoteSchema,
  SnippetNoteResponseSchema,
  TodoSchema,
} from './schemas';
import {
  type ProjectRef,
  type CallOptions,
  type NoteParent,
  type Awardable,
  type MergeRequestListFilter,
  type CreateMergeRequestInput,
  type UpdateMergeRequestInput,
  type MergeInput,
} from './hostingTypes';
import { awardEndpoint, awardableParams, noteEndpoint, noteParentParams, projectParam } from './hostingCore';
import { ProjectEndpoints } from './projectEndpoints';
import * as l10n from '@vscode/l10n';

/** Merge requests, notes (on merge requests, issues and snippets) and award emoji. */
export class MergeRequestEndpoints extends ProjectEndpoints {
  // ---- merge requests -------------------------------------------------------------------------

  listMergeRequests(project: ProjectRef, filter: MergeRequestListFilter = {}) {
    return this.list('mergeRequests.list', { id: projectParam(project) }, MergeRequestSchema, {
      iid: filter.iid,
      iids: filter.iids,
      state: filter.state,
      order_by: filter.orderBy,
      sort: filter.sort,
    });
  }

  /** With `includeRebaseInProgress`, the reply says whether a rebase is still running (`rebase_in_progress`). */
  getMergeRequest(
    project: ProjectRef,
    iid: number,
    options: CallOptions & { includeRebaseInProgress?: boolean } = {},
  ) {
    return this.call('mergeRequests.get', this.mrParams(project, iid), MergeRequestSchema, {
      signal: options.signal,
      ...(options.includeRebaseInProgress ? { query: { include_rebase_in_progress: true } } : {}),
    });
  }

  listMergeRequestCommits(project: ProjectRef, iid: number) {
    return this.list('mergeRequests.commits', this.mrParams(project, iid), MergeRequestCommitSchema);
  }

  getMergeRequestChanges(project: ProjectRef, iid: number, options?: CallOptions) {
    return this.call(
      'mergeRequests.changes',
      this.mrParams(project, iid),
      MergeRequestChangesSchema,
      options,
    );
  }

  createMergeRequest(project: ProjectRef, input: CreateMergeRequestInput, options?: CallOptions) {
    return this.call('mergeRequests.create', { id: projectParam(project) }, MergeRequestSchema, {
      body: input,
      ...options,
    });
  }

  updateMergeRequest(
    project: ProjectRef,
    iid: number,
    input: UpdateMergeRequestInput,
    options?: CallOptions,
  ): Promise<MergeRequest> {
    if (Object.values(input).every((value) => value === undefined)) {
      // Rejected, not thrown: callers chaining .catch() on the promise must see it too.
      return Promise.reject(new Error(l10n.t('Nothing to update: give at least one field')));
    }
    return this.call('mergeRequests.update', this.mrParams(project, iid), MergeRequestSchema, {
      body: input,
      ...options,
    });
  }

  deleteMergeRequest(project: ProjectRef, iid: number, options?: CallOptions) {
    return this.callNoContent('mergeRequests.delete', this.mrParams(project, iid), options);
  }

  /** Merges; send the `sha` the user saw so a branch that moved is refused (409) instead of merged. */
  mergeMergeRequest(project: ProjectRef, iid: number, input: MergeInput = {}, options?: CallOptions) {
    return this.call('mergeRequests.merge', this.mrParams(project, iid), MergeRequestSchema, {
      body: input,
      ...options,
    });
  }

  cancelMergeWhenPipelineSucceeds(project: ProjectRef, iid: number, options?: CallOptions) {
    return this.call(
      'mergeRequests.cancelMergeWhenPipelineSucceeds',
      this.mrParams(project, iid),
      MergeRequestSchema,
      options,
    );
  }

  listMergeRequestClosesIssues(project: ProjectRef, iid: number) {
    return this.list('mergeRequests.closesIssues', this.mrParams(project, iid), ClosesIssueSchema);
  }

  subscribeToMergeRequest(project: ProjectRef, iid: number, options?: CallOptions) {
    return this.callStateChange(
      'mergeRequests.subscribe',
      this.mrParams(project, iid),
      MergeRequestSchema,
      options,
    );
  }

  unsubscribeFromMergeRequest(project: ProjectRef, iid: number, options?: CallOptions) {
    return this.callStateChange(
      'mergeRequests.unsubscribe',
      this.mrParams(project, iid),
      MergeRequestSchema,
      options,
    );
  }

  createMergeRequestTodo(project: ProjectRef, iid: number, options?: CallOptions) {
    return this.callStateChange('mergeRequests.createTodo', this.mrParams(project, iid), TodoSchema, options);
  }

  protected mrParams(project: ProjectRef, iid: number): PathParams {
    return { id: projectParam(project), merge_request_iid: iid };
  }

  // ---- notes ----------------------------------------------------------------------------------

  private noteSchema(parent: NoteParent) {
    // The snippet note sample has a snippet-like shape.
    return parent.kind === 'snippet' ? SnippetNoteResponseSchema : NoteSchema;
  }

  listNotes(parent: NoteParent) {
    return this.list(noteEndpoint(parent.kind, 'list'), noteParentParams(parent), this.noteSchema(parent));
  }

  getNote(parent: NoteParent, noteId: number, options?: CallOptions) {
    return this.call(
      noteEndpoint(parent.kind, 'get'),
      { ...noteParentParams(parent), note_id: noteId },
      this.noteSchema(parent),
      options,
    );
  }

  /** A body that is only an award emoji (`:thumbsup:`) comes back as an award emoji. */
  createNote(parent: NoteParent, body: string, options: CallOptions & { createdAt?: string } = {}) {
    return this.call(noteEndpoint(parent.kind, 'create'), noteParentParams(parent), NoteOrAwardSchema, {
      body: { body, created_at: parent.kind === 'issue' ? options.createdAt : undefined },
      signal: options.signal,
    });
  }

  updateNote(parent: NoteParent, noteId: number, body: string, options?: CallOptions) {
    return this.call(
      noteEndpoint(parent.kind, 'update'),
      { ...noteParentParams(parent), note_id: noteId },
      this.noteSchema(parent),
      { body: { body }, ...options },
    );
  }

  deleteNote(parent: NoteParent, noteId: number, options?: CallOptions) {
    return this.callNoContent(
      noteEndpoint(parent.kind, 'delete'),
      { ...noteParentParams(parent), note_id: noteId },
      options,
    );
  }

  // ---- award emoji ----------------------------------------------------------------------------

  listAwardEmoji(target: Awardable) {
    return this.list(awardEndpoint(target.kind, 'list'), awardableParams(target), AwardEmojiSchema);
  }

  getAwardEmoji(target: Awardable, awardId: number, options?: CallOptions) {
    return this.call(
      awardEndpoint(target.kind, 'get'),
      { ...awardableParams(target), award_id: awardId },
      AwardEmojiSchema,
      options,
    );
  }

  /** `name` without colons, e.g. `thumbsup`. */
  awardEmoji(target: Awardable, name: string, options?: CallOptions) {
    return this.call(awardEndpoint(target.kind, 'create'), awardableParams(target), AwardEmojiSchema, {
      body: { name: name.replace(/^:|:$/g, '') },
      ...options,
    });
  }

  deleteAwardEmoji(target: Awardable, awardId: number, options?: CallOptions) {
    return this.callNoContent(
      awardEndpoint(target.kind, 'delete'),
      { ...awardableParams(target), award_id: awardId },
      options,
    );
  }
}
