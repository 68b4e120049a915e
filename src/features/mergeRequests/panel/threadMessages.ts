/** The Discussion tab's thread buttons: a reply in a thread, resolving it, by the thread's first comment. */
import * as vscode from 'vscode';
import type { HostingClient } from '../../../api/hosting';
import type { MergeRequestTarget } from '../mergeRequestTargets';
import type { MergeRequestPageMessage, MergeRequestSnapshot } from './protocol';

export type ThreadMessage = Extract<MergeRequestPageMessage, { type: 'replyToThread' | 'resolveThread' }>;

/** The request a thread message makes, for the thread the snapshot shows with that first comment. */
export function threadCall(
  snapshot: MergeRequestSnapshot | undefined,
  target: MergeRequestTarget,
  message: ThreadMessage,
): (client: HostingClient) => Promise<unknown> {
  const discussionId = snapshot?.notes.find((note) => note.id === message.noteId)?.thread?.id;
  const { project, mergeRequest } = target;
  return (client) => {
    if (!discussionId)
      return Promise.reject(new Error(vscode.l10n.t('That comment is not in a thread shown here.')));
    return message.type === 'replyToThread'
      ? client.replyToDiscussion(project.id, mergeRequest.iid, discussionId, message.body)
      : client.resolveDiscussion(project.id, mergeRequest.iid, discussionId, message.resolved);
  };
}
