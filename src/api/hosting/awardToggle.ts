import * as l10n from '@vscode/l10n';
import { HttpError } from '../http';
import type { HostingClient } from './client';
import type { Awardable } from './hostingTypes';

/**
 * Adds or removes the caller's award emoji `name` on `awardable`. Adding one the caller already gave
 * is done, not an error (GitLab answers "has already been taken" when a second click raced the
 * first); removing needs the id of the caller's own award, which the caller read with the list.
 */
export async function setOwnAward(
  client: HostingClient,
  awardable: Awardable,
  name: string,
  add: boolean,
  ownAwardId: number | undefined,
): Promise<void> {
  if (add) {
    try {
      await client.awardEmoji(awardable, name);
    } catch (error) {
      const taken =
        error instanceof HttpError && /already been taken/i.test(JSON.stringify(error.fieldErrors ?? {}));
      if (!taken) throw error;
    }
    return;
  }
  if (ownAwardId === undefined) throw new Error(l10n.t('You have not reacted with :{0}: here.', name));
  await client.deleteAwardEmoji(awardable, ownAwardId);
}
