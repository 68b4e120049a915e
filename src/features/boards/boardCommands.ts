import * as z from 'zod';
import type { Board, BoardList } from '../../api/hosting';
import { NotFoundError } from '../../api/http';
import { parsePosition } from '../../domain/boardsAndTriggers';
import { parseId } from '../../domain/projectActions';
import type { Services } from '../../services';
import { BoardsFolder, BoardListNode, BoardNode, boardListTitle, boardTitle } from './boardsFolder';
import type { TreeNode } from '../../platform/tree/treeNode';
import { type ProjectTarget, projectTarget, ProjectNode } from '../projects';
import { type CommandDeclaration, defineCommand, rowOf } from '../../platform/commands/defineCommand';
import {
  askText,
  pickOne,
  showError,
  showInformation,
  showWarning,
  withProgress,
} from '../../platform/userMessages';
import * as l10n from '@vscode/l10n';

/** Trailing options of the board commands, for tests and automation: they skip the prompts. */
const BoardOptionsSchema = z
  .strictObject({
    /** forge.board.addList: the label to add a list for. */
    labelId: z.number().int().positive().optional(),
    /** forge.board.moveList: the new 0-based position. */
    position: z.number().int().optional(),
    /** forge.board.deleteList: skip the confirmation. */
    confirmed: z.boolean().optional(),
  })
  .optional();

/** A board's or a list's row, the Boards folder, a project's row, or nothing (pick a project). */
const BoardArgumentSchema = z
  .union([
    rowOf(BoardNode, l10n.t('a board')),
    rowOf(BoardListNode, l10n.t('a board list')),
    rowOf(BoardsFolder, l10n.t('a Boards folder')),
    rowOf(ProjectNode, l10n.t('a project')),
  ])
  .optional();
type BoardArgument = z.output<typeof BoardArgumentSchema>;

interface BoardTarget extends ProjectTarget {
  board: Board;
  /** The tree folder to refresh afterwards, when the command ran from the tree. */
  folder?: BoardsFolder;
}

interface BoardListTarget extends BoardTarget {
  list: BoardList;
}

function projectLabel(target: ProjectTarget): string {
  return target.project.path_with_namespace ?? target.project.name ?? String(target.project.id);
}

/** The board of a board node, or one picked from a project (the node's, or one the user picks). */
async function boardTarget(services: Services, arg: BoardArgument): Promise<BoardTarget | undefined> {
  if (arg instanceof BoardNode) {
    return {
      account: arg.owner.account,
      project: arg.owner.project,
      board: arg.board,
      folder: arg.folder,
    };
  }
  const folder = arg instanceof BoardsFolder ? arg : undefined;
  const target = await projectTarget(
    services,
    folder ? folder.owner : arg,
    l10n.t('Project whose board to change'),
  );
  if (!target) return undefined;
  const client = await services.accounts.client(target.account.id);
  const boards = client
    .listBoards(target.project.id)
    .page({ perPage: 100 })
    .then((page) => {
      if (page.items.length === 0) {
        void showInformation(l10n.t('{0} has no issue board.', projectLabel(target)));
      }
      return page.items.map((board) => ({
        label: boardTitle(board),
        description: l10n.t('{0} lists', board.lists.length),
        board,
      }));
    });
  const picked = await pickOne(boards, { placeHolder: l10n.t('Board') });
  return picked ? { ...target, board: picked.board, folder } : undefined;
}

async function boardListTarget(services: Services, arg: BoardArgument): Promise<BoardListTarget | undefined> {
  if (arg instanceof BoardListNode) {
    const board = arg.boardNode;
    return {
      account: board.owner.account,
      project: board.owner.project,
      board: board.board,
      list: arg.list,
      folder: board.folder,
    };
  }
  const target = await boardTarget(services, arg);
  if (!target) return undefined;
  const lists = sortedLists(target.board);
  if (lists.length === 0) {
    void showInformation(l10n.t('The board "{0}" has no lists.', boardTitle(target.board)));
    return undefined;
  }
  const picked = await pickOne(
    lists.map((list) => ({
      label: boardListTitle(list),
      description: l10n.t('position {0}', list.position),
      list,
    })),
    { placeHolder: l10n.t('List') },
  );
  return picked ? { ...target, list: picked.list } : undefined;
}

function sortedLists(board: Board): BoardList[] {
  return [...board.lists].sort((a, b) => a.position - b.position);
}

function refresh(services: Services, folder: TreeNode | undefined): void {
  if (folder) services.afterAction(folder);
  else services.projects.refresh();
}

function inProjectsView<T>(title: string, work: () => Promise<T>): Thenable<T> {
  return withProgress({ location: { viewId: 'forge.projects' }, title }, work);
}

export function boardCommands(services: Services): CommandDeclaration[] {
  return [addListCommand(services), moveListCommand(services), deleteListCommand(services)];
}

function addListCommand(services: Services): CommandDeclaration {
  return defineCommand({
    id: 'forge.board.addList',
    args: [BoardArgumentSchema, BoardOptionsSchema],
    run: async (arg, options = {}): Promise<BoardList | undefined> => {
      const target = await boardTarget(services, arg);
      if (!target) return undefined;
      let labelId = options.labelId;
      if (labelId === undefined) {
        const known = target.board.lists
          .map((list) => list.label)
          .filter((label) => label?.id !== undefined)
          .map((label) => `${label?.name} = ${label?.id}`);
        const typed = await askText({
          title: l10n.t('Add a list to "{0}"', boardTitle(target.board)),
          prompt:
            known.length > 0
              ? l10n.t(
                  'Id of the project label the new list shows (Project → Manage → Labels lists the ids). Already lists: {0}',
                  known.join(', '),
                )
              : l10n.t(
                  'Id of the project label the new list shows (Project → Manage → Labels lists the ids)',
                ),
          placeHolder: l10n.t('e.g. 12'),
          validateInput: (value) =>
            parseId(value) === undefined ? l10n.t('A label id: a positive whole number') : undefined,
        });
        if (typed === undefined) return undefined;
        labelId = parseId(typed);
      }
      if (labelId === undefined) return undefined;
      const client = await services.accounts.client(target.account.id);
      let created: BoardList;
      try {
        created = await inProjectsView(l10n.t('Adding the board list…'), () =>
          client.createBoardList(target.project.id, target.board.id, labelId),
        );
      } catch (error) {
        if (error instanceof NotFoundError && /label/i.test(error.serverMessage)) {
          void showError(l10n.t('No label with id {0} in {1}.', labelId, projectLabel(target)));
          return undefined;
        }
        throw error;
      }
      refresh(services, target.folder);
      void showInformation(
        l10n.t('Added the list "{0}" to "{1}".', boardListTitle(created), boardTitle(target.board)),
      );
      return created;
    },
  });
}

function moveListCommand(services: Services): CommandDeclaration {
  return defineCommand({
    id: 'forge.board.moveList',
    args: [BoardArgumentSchema, BoardOptionsSchema],
    run: async (arg, options = {}): Promise<BoardList | undefined> => {
      const target = await boardListTarget(services, arg);
      if (!target) return undefined;
      const lists = sortedLists(target.board);
      let position = options.position;
      if (position === undefined) {
        const picked = await pickOne(
          lists.map((list, index) => ({
            label: l10n.t('Position {0}', index),
            description:
              list.id === target.list.id
                ? l10n.t('where it is now')
                : l10n.t('now "{0}"', boardListTitle(list)),
            position: index,
          })),
          {
            title: l10n.t('Move "{0}"', boardListTitle(target.list)),
            placeHolder: l10n.t('New position (0 is leftmost)'),
          },
        );
        if (!picked) return undefined;
        position = picked.position;
      }
      if (parsePosition(String(position), lists.length) === undefined) {
        throw new Error(l10n.t('The position must be between 0 and {0}.', lists.length - 1));
      }
      if (position === target.list.position) {
        void showInformation(
          l10n.t('"{0}" is already at position {1}.', boardListTitle(target.list), position),
        );
        return undefined;
      }
      const client = await services.accounts.client(target.account.id);
      const moved = await inProjectsView(l10n.t('Moving the board list…'), () =>
        client.moveBoardList(target.project.id, target.board.id, target.list.id, position),
      );
      refresh(services, target.folder);
      return moved;
    },
  });
}

function deleteListCommand(services: Services): CommandDeclaration {
  return defineCommand({
    id: 'forge.board.deleteList',
    args: [BoardArgumentSchema, BoardOptionsSchema],
    run: async (arg, options = {}): Promise<boolean> => {
      const target = await boardListTarget(services, arg);
      if (!target) return false;
      const title = boardListTitle(target.list);
      if (!options.confirmed) {
        const answer = await showWarning(
          l10n.t('Delete the list "{0}" from the board "{1}"?', title, boardTitle(target.board)),
          { modal: true, detail: l10n.t('Issues keep their labels; only the column goes away.') },
          l10n.t('Delete List'),
        );
        if (answer !== l10n.t('Delete List')) return false;
      }
      const client = await services.accounts.client(target.account.id);
      await inProjectsView(l10n.t('Deleting the board list…'), () =>
        client.deleteBoardList(target.project.id, target.board.id, target.list.id),
      );
      refresh(services, target.folder);
      return true;
    },
  });
}
