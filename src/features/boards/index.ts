import { registerCommands } from '../../platform/commands/registerCommand';
import type { Services } from '../../services';
import { FOLDER_ORDER } from '../projects';
import { boardCommands } from './boardCommands';
import { createBoardsFolder } from './boardsFolder';
import { triggerCommands } from './triggerCommands';
import { createTriggersFolder } from './triggersFolder';

/*
 * Boards and pipeline triggers: a Boards and a Pipeline Triggers folder under each project of the
 * Projects view (added through `contributeFolder`, so the Projects view does not know them) and
 * their commands. This file is its only public face.
 */

export function createBoardsFeature(services: Services): void {
  services.projects.contributeFolder(createBoardsFolder, FOLDER_ORDER.boards);
  services.projects.contributeFolder(createTriggersFolder, FOLDER_ORDER.triggers);
  registerCommands(services.context, services.log, [
    ...boardCommands(services),
    ...triggerCommands(services),
  ]);
}
