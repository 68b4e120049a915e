import * as z from 'zod';
import { type HttpClientOptions, HttpTransport } from '../http';
import {
  BoardListSchema,
  BoardSchema,
  BroadcastMessageSchema,
  CiTemplateSchema,
  CiTemplateSummarySchema,
  SshKeySchema,
  SystemHookSchema,
  SystemHookTestSchema,
  TodoSchema,
  TriggerSchema,
} from './schemas';
import {
  type ProjectRef,
  type CallOptions,
  type TodoFilter,
  type CreateSystemHookInput,
  type BroadcastMessageInput,
} from './hostingTypes';
import { projectParam } from './hostingCore';
import { IssueEndpoints } from './issueEndpoints';

export * from './hostingTypes';
export type { IssueFilter, IssueInput } from './issueEndpoints';

const SystemHookCreateReplySchema = z.union([SystemHookSchema, z.array(SystemHookSchema).length(1)]);

/**
 * The project-hosting REST API v4. Every endpoint of the spec has one method, in a group of its
 * resource: `projectEndpoints.ts` (jobs, projects, branches), `mergeRequestEndpoints.ts` (merge
 * requests, notes, award emoji), `reviewEndpoints.ts` (approvals, rebase: beyond the spec), and here (boards, triggers, system hooks, todos, broadcast
 * messages, CI templates, SSH keys). Paths come from the registry in `endpoints.ts`; the plumbing is
 * `HostingCore`. A new endpoint goes into its resource's group.
 */
export class HostingClient extends IssueEndpoints {
  static create(options: Omit<HttpClientOptions, 'apiPrefix'>): HostingClient {
    return new HostingClient(new HttpTransport({ ...options, apiPrefix: '/api/v4' }));
  }

  // ---- boards ---------------------------------------------------------------------------------

  listBoards(project: ProjectRef) {
    return this.list('boards.list', { id: projectParam(project) }, BoardSchema);
  }

  listBoardLists(project: ProjectRef, boardId: number) {
    return this.list('boardLists.list', { id: projectParam(project), board_id: boardId }, BoardListSchema);
  }

  getBoardList(project: ProjectRef, boardId: number, listId: number, options?: CallOptions) {
    return this.call(
      'boardLists.get',
      { id: projectParam(project), board_id: boardId, list_id: listId },
      BoardListSchema,
      options,
    );
  }

  createBoardList(project: ProjectRef, boardId: number, labelId: number, options?: CallOptions) {
    return this.call('boardLists.create', { id: projectParam(project), board_id: boardId }, BoardListSchema, {
      body: { label_id: labelId },
      ...options,
    });
  }

  moveBoardList(
    project: ProjectRef,
    boardId: number,
    listId: number,
    position: number,
    options?: CallOptions,
  ) {
    return this.call(
      'boardLists.move',
      { id: projectParam(project), board_id: boardId, list_id: listId },
      BoardListSchema,
      { body: { position }, ...options },
    );
  }

  deleteBoardList(project: ProjectRef, boardId: number, listId: number, options?: CallOptions) {
    return this.callNoContent(
      'boardLists.delete',
      { id: projectParam(project), board_id: boardId, list_id: listId },
      options,
    );
  }

  // ---- pipeline triggers ----------------------------------------------------------------------

  listTriggers(project: ProjectRef) {
    return this.list('triggers.list', { id: projectParam(project) }, TriggerSchema);
  }

  getTrigger(project: ProjectRef, triggerId: number, options?: CallOptions) {
    return this.call(
      'triggers.get',
      { id: projectParam(project), trigger_id: triggerId },
      TriggerSchema,
      options,
    );
  }

  createTrigger(project: ProjectRef, description: string, options?: CallOptions) {
    return this.call('triggers.create', { id: projectParam(project) }, TriggerSchema, {
      body: { description },
      ...options,
    });
  }

  updateTrigger(
    project: ProjectRef,
    triggerId: number,
    description: string | undefined,
    options?: CallOptions,
  ) {
    return this.call('triggers.update', { id: projectParam(project), trigger_id: triggerId }, TriggerSchema, {
      body: { description },
      ...options,
    });
  }

  takeTriggerOwnership(project: ProjectRef, triggerId: number, options?: CallOptions) {
    return this.call(
      'triggers.takeOwnership',
      { id: projectParam(project), trigger_id: triggerId },
      TriggerSchema,
      options,
    );
  }

  deleteTrigger(project: ProjectRef, triggerId: number, options?: CallOptions) {
    return this.callNoContent(
      'triggers.delete',
      { id: projectParam(project), trigger_id: triggerId },
      options,
    );
  }

  // ---- system hooks (administrators) ----------------------------------------------------------

  listSystemHooks() {
    return this.list('systemHooks.list', {}, SystemHookSchema);
  }

  /** The sample reply is an array of one hook; both shapes are accepted. */
  async createSystemHook(input: CreateSystemHookInput, options?: CallOptions) {
    const reply = await this.call('systemHooks.create', {}, SystemHookCreateReplySchema, {
      body: input,
      ...options,
    });
    return Array.isArray(reply) ? (reply[0] as z.infer<typeof SystemHookSchema>) : reply;
  }

  /** Asks the server for a sample event of the hook. */
  testSystemHook(hookId: number, options?: CallOptions) {
    return this.call('systemHooks.test', { id: hookId }, SystemHookTestSchema, options);
  }

  deleteSystemHook(hookId: number, options?: CallOptions) {
    return this.callNoContent('systemHooks.delete', { id: hookId }, options);
  }

  // ---- todos ----------------------------------------------------------------------------------

  listTodos(filter: TodoFilter = {}) {
    return this.list('todos.list', {}, TodoSchema, {
      action: filter.action,
      author_id: filter.authorId,
      project_id: filter.projectId,
      state: filter.state,
      type: filter.type,
    });
  }

  markTodoAsDone(todoId: number, options?: CallOptions) {
    return this.call('todos.markAsDone', { id: todoId }, TodoSchema, options);
  }

  markAllTodosAsDone(options?: CallOptions) {
    return this.callNoContent('todos.markAllAsDone', {}, options);
  }

  // ---- broadcast messages (administrators) ----------------------------------------------------

  listBroadcastMessages() {
    return this.list('broadcastMessages.list', {}, BroadcastMessageSchema);
  }

  getBroadcastMessage(messageId: number, options?: CallOptions) {
    return this.call('broadcastMessages.get', { id: messageId }, BroadcastMessageSchema, options);
  }

  createBroadcastMessage(input: BroadcastMessageInput & { message: string }, options?: CallOptions) {
    return this.call('broadcastMessages.create', {}, BroadcastMessageSchema, { body: input, ...options });
  }

  updateBroadcastMessage(messageId: number, input: BroadcastMessageInput, options?: CallOptions) {
    return this.call('broadcastMessages.update', { id: messageId }, BroadcastMessageSchema, {
      body: input,
      ...options,
    });
  }

  deleteBroadcastMessage(messageId: number, options?: CallOptions) {
    return this.callNoContent('broadcastMessages.delete', { id: messageId }, options);
  }

  // ---- CI templates and keys ------------------------------------------------------------------

  listCiTemplates() {
    return this.list('ciTemplates.list', {}, CiTemplateSummarySchema);
  }

  getCiTemplate(key: string, options?: CallOptions) {
    return this.call('ciTemplates.get', { key }, CiTemplateSchema, options);
  }

  /** Administrators only. */
  getSshKey(keyId: number, options?: CallOptions) {
    return this.call('keys.get', { id: keyId }, SshKeySchema, options);
  }
}
