import type { HostingClient } from '../../api/hosting';
import { MethodNotAllowedError, NotAcceptableError } from '../../api/http';
import { isOpenState } from '../../domain/mergeRequestStatus';
import * as l10n from '@vscode/l10n';

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
      const changed =
        change === 'close'
          ? l10n.t('Closed !{0} {1}', mr.iid, mr.title)
          : l10n.t('Reopened !{0} {1}', mr.iid, mr.title);
      return outcome(
        { state: updated.state },
        done ? changed : l10n.t('!{0} is {1}.', mr.iid, updated.state),
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
          subscribe
            ? l10n.t('Already subscribed to !{0}', mr.iid)
            : l10n.t('You are not subscribed to !{0}', mr.iid),
          false,
        );
      return outcome(
        { changed },
        subscribe
          ? l10n.t('Subscribed to !{0}: you will be notified of its activity.', mr.iid)
          : l10n.t('Unsubscribed from !{0}', mr.iid),
        true,
      );
    }
    case 'cancelMergeWhenPipelineSucceeds':
      try {
        await client.cancelMergeWhenPipelineSucceeds(projectId, mr.iid);
        return outcome(
          { cancelled: true },
          l10n.t('!{0} will no longer merge when the pipeline succeeds.', mr.iid),
          true,
        );
      } catch (error) {
        if (!(error instanceof MethodNotAllowedError || error instanceof NotAcceptableError)) throw error;
        const notOpen = error instanceof MethodNotAllowedError;
        return outcome(
          { cancelled: false, reason: notOpen ? 'not-open' : 'not-scheduled' },
          notOpen
            ? l10n.t('!{0} is already merged or closed.', mr.iid)
            : l10n.t('!{0} was not set to merge when the pipeline succeeds.', mr.iid),
          true,
        );
      }
    case 'addTodo': {
      const added = await client.createMergeRequestTodo(projectId, mr.iid);
      if (!added.changed)
        return outcome({ changed: false }, l10n.t('You already have a todo for !{0}', mr.iid), false);
      return outcome(
        { changed: true, todoId: added.value.id },
        l10n.t('Added !{0} to your todos.', mr.iid),
        false,
        true,
      );
    }
  }
}
