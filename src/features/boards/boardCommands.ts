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
    rowOf(BoardNode, 'a board'),
    rowOf(BoardListNode, 'a board list'),
    rowOf(BoardsFolder, 'a Boards folder'),
    rowOf(ProjectNode, 'a project'),
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
  const target = await projectTarget(services, folder ? folder.owner : arg, 'Project whose board to change');
  if (!target) return undefined;
  const client = await services.accounts.client(target.account.id);
  const boards = client
    .listBoards(target.project.id)
    .page({ perPage: 100 })
    .then((page) => {
      if (page.items.length === 0) {
        void showInformation(`${projectLabel(target)} has no issue board.`);
      }
      return page.items.map((board) => ({
        label: boardTitle(board),
        description: `${board.lists.length} lists`,
        board,
      }));
    });
  const picked = await pickOne(boards, { placeHolder: 'Board' });
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
    void showInformation(`The board "${boardTitle(target.board)}" has no lists.`);
    return undefined;
  }
  const picked = await pickOne(
    lists.map((list) => ({
      label: boardListTitle(list),
      description: `position ${list.position}`,
      list,
    })),
    { placeHolder: 'List' },
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
          title: `Add a list to "${boardTitle(target.board)}"`,
          prompt:
            'Id of the project label the new list shows (Project → Manage → Labels lists the ids)' +
            (known.length > 0 ? `. Already lists: ${known.join(', ')}` : ''),
          placeHolder: 'e.g. 12',
          validateInput: (value) =>
            parseId(value) === undefined ? 'A label id: a positive whole number' : undefined,
        });
        if (typed === undefined) return undefined;
        labelId = parseId(typed);
      }
      if (labelId === undefined) return undefined;
      const client = await services.accounts.client(target.account.id);
      let created: BoardList;
      try {
        created = await inProjectsView('Adding the board list…', () =>
          client.createBoardList(target.project.id, target.board.id, labelId),
        );
      } catch (error) {
        if (error instanceof NotFoundError && /label/i.test(error.serverMessage)) {
          void showError(`No label with id ${labelId} in ${projectLabel(target)}.`);
          return undefined;
        }
        throw error;
      }
      refresh(services, target.folder);
      void showInformation(`Added the list "${boardListTitle(created)}" to "${boardTitle(target.board)}".`);
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
            label: `Position ${index}`,
            description: list.id === target.list.id ? 'where it is now' : `now "${boardListTitle(list)}"`,
            position: index,
          })),
          { title: `Move "${boardListTitle(target.list)}"`, placeHolder: 'New position (0 is leftmost)' },
        );
        if (!picked) return undefined;
        position = picked.position;
      }
      if (parsePosition(String(position), lists.length) === undefined) {
        throw new Error(`The position must be between 0 and ${lists.length - 1}.`);
      }
      if (position === target.list.position) {
        void showInformation(`"${boardListTitle(target.list)}" is already at position ${position}.`);
        return undefined;
      }
      const client = await services.accounts.client(target.account.id);
      const moved = await inProjectsView('Moving the board list…', () =>
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
          `Delete the list "${title}" from the board "${boardTitle(target.board)}"?`,
          { modal: true, detail: 'Issues keep their labels; only the column goes away.' },
          'Delete List',
        );
        if (answer !== 'Delete List') return false;
      }
      const client = await services.accounts.client(target.account.id);
      await inProjectsView('Deleting the board list…', () =>
        client.deleteBoardList(target.project.id, target.board.id, target.list.id),
      );
      refresh(services, target.folder);
      return true;
    },
  });
}
