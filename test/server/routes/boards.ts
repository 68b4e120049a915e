import type { Handler, RequestContext } from '../context';
import { alreadyDeleted, created, errors, noContent, ok, type ApiResponse } from '../http';
import type { Router } from '../router';
import { ACCESS, type Board, type BoardList, type Project } from '../state';

/** Every board call needs authentication (no PUBLIC option); private projects stay 404 to non-members. */
export function registerBoardRoutes(router: Router<Handler>): void {
  router.get('/projects/:id/boards', listBoards);
  router.get('/projects/:id/boards/:board_id/lists', listLists);
  router.get('/projects/:id/boards/:board_id/lists/:list_id', getList);
  router.post('/projects/:id/boards/:board_id/lists', createList);
  router.put('/projects/:id/boards/:board_id/lists/:list_id', moveList);
  router.delete('/projects/:id/boards/:board_id/lists/:list_id', deleteList);
}

function findBoard(ctx: RequestContext, project: Project): Board {
  const board = ctx.state.boards.get(ctx.pathInt('board_id'));
  if (!board || board.projectId !== project.id) throw errors.notFound('Board');
  return board;
}

function findList(ctx: RequestContext, board: Board): BoardList {
  const list = board.lists.find((candidate) => candidate.id === ctx.pathInt('list_id'));
  if (!list) throw errors.notFound('List');
  return list;
}

function ordered(board: Board): BoardList[] {
  return [...board.lists].sort((a, b) => a.position - b.position);
}

/** Positions are 0-based indexes, as on real servers. */
function renumber(lists: BoardList[]): void {
  lists.forEach((list, index) => (list.position = index));
}

function listBoards(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const boards = [...ctx.state.boards.values()]
    .filter((board) => board.projectId === project.id)
    .sort((a, b) => a.id - b.id);
  return ctx.list(boards, (board) => ctx.present.board(board));
}

/** Label lists only: the backlog and closed lists are never included. */
function listLists(ctx: RequestContext): ApiResponse {
  const board = findBoard(ctx, ctx.project());
  return ctx.list(ordered(board), (list) => ctx.present.boardList(list));
}

function getList(ctx: RequestContext): ApiResponse {
  const board = findBoard(ctx, ctx.project());
  return ok(ctx.present.boardList(findList(ctx, board)));
}

function createList(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  ctx.requireWrite(project, ACCESS.reporter);
  const board = findBoard(ctx, project);
  ctx.params.require('label_id');
  const label = ctx.state.labels.get(ctx.params.integer('label_id') as number);
  if (!label || label.projectId !== project.id) throw errors.notFound('Label');
  if (board.lists.some((list) => list.labelId === label.id))
    throw errors.validation({ label: ['has already been taken'] });
  const list: BoardList = {
    id: ctx.state.nextId('boardList'),
    labelId: label.id,
    position: board.lists.length,
  };
  board.lists.push(list);
  return created(ctx.present.boardList(list));
}

function moveList(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  ctx.requireWrite(project, ACCESS.reporter);
  const board = findBoard(ctx, project);
  const list = findList(ctx, board);
  ctx.params.require('position');
  const position = ctx.params.integer('position') as number;
  const others = ordered(board).filter((candidate) => candidate !== list);
  others.splice(Math.max(0, Math.min(position, others.length)), 0, list);
  renumber(others);
  return ok(ctx.present.boardList(list));
}

/** Administrators and project owners; 204, or 200 when the list was already gone. */
function deleteList(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const board = findBoard(ctx, project);
  const list = board.lists.find((candidate) => candidate.id === ctx.pathInt('list_id'));
  if (!list) return alreadyDeleted();
  ctx.requireOwner(project);
  board.lists = board.lists.filter((candidate) => candidate !== list);
  renumber(ordered(board));
  return noContent();
}
