import type { Handler } from '../context';
import { Router } from '../router';
import { registerAwardEmojiRoutes } from './awardEmoji';
import { registerBoardRoutes } from './boards';
import { registerBranchRoutes } from './branches';
import { registerBroadcastMessageRoutes } from './broadcastMessages';
import { registerJobRoutes } from './jobs';
import { registerKeyRoutes } from './keys';
import { registerMergeRequestRoutes } from './mergeRequests';
import { registerApprovalRoutes } from './approvals';
import { registerDiscussionRoutes } from './discussions';
import { registerDraftNoteRoutes } from './draftNotes';
import { registerSuggestionRoutes } from './suggestions';
import { registerVersionRoutes } from './versions';
import { registerRepositoryFileRoutes } from './repositoryFiles';
import { registerMiscRoutes } from './misc';
import { registerNoteRoutes } from './notes';
import { registerProjectRoutes } from './projects';
import { registerSystemHookRoutes } from './systemHooks';
import { registerTemplateRoutes } from './templates';
import { registerTodoRoutes } from './todos';
import { registerTriggerRoutes } from './triggers';

/** Every route of the v4 API the fake forge serves. */
export function buildRouter(): Router<Handler> {
  const router = new Router<Handler>();
  registerJobRoutes(router);
  registerProjectRoutes(router);
  registerBranchRoutes(router);
  registerMergeRequestRoutes(router);
  registerApprovalRoutes(router);
  registerDiscussionRoutes(router);
  registerDraftNoteRoutes(router);
  registerSuggestionRoutes(router);
  registerVersionRoutes(router);
  registerRepositoryFileRoutes(router);
  registerNoteRoutes(router);
  registerAwardEmojiRoutes(router);
  registerBoardRoutes(router);
  registerTriggerRoutes(router);
  registerSystemHookRoutes(router);
  registerTodoRoutes(router);
  registerBroadcastMessageRoutes(router);
  registerTemplateRoutes(router);
  registerKeyRoutes(router);
  registerMiscRoutes(router);
  return router;
}
