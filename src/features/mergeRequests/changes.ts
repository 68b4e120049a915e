import type { HostingClient } from '../../api/hosting';
import { MethodNotAllowedError, NotAcceptableError } from '../../api/http';
import { isOpenState } from '../../domain/mergeRequestStatus';

/*
 * The one-click changes to a merge request, without any UI: the commands and the merge request
 * panel's header both run them and show the sentence they return.
 */

export type MergeRequestChange =
  'close' | 'reopen' | 'subscribe' | 'unsubscribe' | 'cancelMergeWhenPipelineSucceeds' | 'addTodo';

export interface ChangeOutcome {
  /** What the command returns (tests and automation). */
  result: Record<string, unknown>;
  /** The sentence shown. */
  message: string;
  /** Whether the views showing the merge request need a reload. */
  changedMergeRequest: boolean;
  /** Whether the Todos view needs a reload. */
  changedTodos: boolean;
}

const outcome = (
  result: Record<string, unknown>,
  message: string,
  changedMergeRequest: boolean,
  changedTodos = false,
): ChangeOutcome => ({ result, message, changedMergeRequest, changedTodos });

export async function changeMergeRequest(
  client: HostingClient,
  projectId: number,
  mr: { iid: number; title: string },
  change: MergeRequestChange,
): Promise<ChangeOutcome> {
  switch (change) {
    case 'close':
    case 'reopen': {
      const updated = await client.updateMergeRequest(projectId, mr.iid, { state_event: change });
      const done = change === 'close' ? updated.state === 'closed' : isOpenState(updated.state);
      const verb = change === 'close' ? 'Closed' : 'Reopened';
      return outcome(
        { state: updated.state },
        done ? `${verb} !${mr.iid} ${mr.title}` : `!${mr.iid} is ${updated.state}.`,
        true,
      );
    }
    case 'subscribe':
    case 'unsubscribe': {
      const subscribe = change === 'subscribe';
      const { changed } = subscribe
        ? await client.subscribeToMergeRequest(projectId, mr.iid)
        : await client.unsubscribeFromMergeRequest(projectId, mr.iid);
      if (!changed)
        return outcome(
          { changed },
          subscribe ? `Already subscribed to !${mr.iid}` : `You are not subscribed to !${mr.iid}`,
          false,
        );
      return outcome(
        { changed },
        subscribe
          ? `Subscribed to !${mr.iid}: you will be notified of its activity.`
          : `Unsubscribed from !${mr.iid}`,
        true,
      );
    }
    case 'cancelMergeWhenPipelineSucceeds':
      try {
        await client.cancelMergeWhenPipelineSucceeds(projectId, mr.iid);
        return outcome(
          { cancelled: true },
          `!${mr.iid} will no longer merge when the pipeline succeeds.`,
          true,
        );
      } catch (error) {
        if (!(error instanceof MethodNotAllowedError || error instanceof NotAcceptableError)) throw error;
        const notOpen = error instanceof MethodNotAllowedError;
        return outcome(
          { cancelled: false, reason: notOpen ? 'not-open' : 'not-scheduled' },
          notOpen
            ? `!${mr.iid} is already merged or closed.`
            : `!${mr.iid} was not set to merge when the pipeline succeeds.`,
          true,
        );
      }
    case 'addTodo': {
      const added = await client.createMergeRequestTodo(projectId, mr.iid);
      if (!added.changed) return outcome({ changed: false }, `You already have a todo for !${mr.iid}`, false);
      return outcome(
        { changed: true, todoId: added.value.id },
        `Added !${mr.iid} to your todos.`,
        false,
        true,
      );
    }
  }
}
