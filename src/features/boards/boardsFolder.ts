import * as vscode from 'vscode';
import { tooltipMarkdown } from '../../platform/serverMarkdown';
import type { z } from 'zod';
import type { ListRequest } from '../../api/http';
import type { Board, BoardList, HostingClient } from '../../api/hosting';
import { type BoardTriggerCapabilities, boardTriggerCapabilities } from '../../domain/boardsAndTriggers';
import { MessageNode, type TreeNode } from '../../platform/tree/treeNode';
import { ProjectFolder, type ProjectNode } from '../projects';

type FolderContext = ConstructorParameters<typeof ProjectFolder>[1];

/** A project's issue boards; each board lists its label lists (backlog and closed are not lists). */
export class BoardsFolder extends ProjectFolder<Board> {
  readonly menuName = vscode.l10n.t('Boards');
  readonly label = vscode.l10n.t('Boards');
  readonly icon = 'project';
  readonly emptyMessage = vscode.l10n.t('No boards');

  /** Boards belong to issues: no folder when the project has issues turned off. */
  override get shown(): boolean {
    return this.owner.project.issues_enabled !== false;
  }

  get capabilities(): BoardTriggerCapabilities {
    return boardTriggerCapabilities(this.owner.project, this.owner.account.isAdmin);
  }

  get nodeId(): string {
    return this.folderId;
  }

  protected override request(client: HostingClient, projectId: number): ListRequest<z.ZodType<Board>> {
    return client.listBoards(projectId);
  }

  protected toNodes(items: readonly Board[]): TreeNode[] {
    return items.map((board) => new BoardNode(this, board));
  }
}

export function createBoardsFolder(owner: ProjectNode, context: FolderContext): BoardsFolder {
  return new BoardsFolder(owner, context);
}

export function boardTitle(board: Board): string {
  return board.name || vscode.l10n.t('Board {0}', board.id);
}

/** What a list is about: its label, or the milestone or assignee of other list kinds. */
export function boardListTitle(list: BoardList): string {
  return (
    list.label?.name ?? list.milestone?.title ?? list.assignee?.name ?? vscode.l10n.t('List {0}', list.id)
  );
}

export class BoardNode implements TreeNode {
  constructor(
    readonly folder: BoardsFolder,
    readonly board: Board,
  ) {}

  get owner(): ProjectNode {
    return this.folder.owner;
  }

  /** The board's lists by position. */
  get lists(): BoardList[] {
    return [...this.board.lists].sort((a, b) => a.position - b.position);
  }

  getTreeItem(): vscode.TreeItem {
    const count = this.board.lists.length;
    const item = new vscode.TreeItem(boardTitle(this.board), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `${this.folder.nodeId}/board/${this.board.id}`;
    item.description = count === 1 ? vscode.l10n.t('1 list') : vscode.l10n.t('{0} lists', count);
    item.iconPath = new vscode.ThemeIcon('project');
    item.contextValue = ['board', this.folder.capabilities.editBoardLists ? 'editable' : ''].join(' ').trim();
    return item;
  }

  getChildren(): Promise<TreeNode[]> {
    const lists = this.lists;
    if (lists.length === 0)
      return Promise.resolve([new MessageNode(vscode.l10n.t('No lists; add one from a label'))]);
    return Promise.resolve(lists.map((list) => new BoardListNode(this, list, lists.length)));
  }
}

export class BoardListNode implements TreeNode {
  constructor(
    readonly boardNode: BoardNode,
    readonly list: BoardList,
    /** How many lists the board has (positions are 0..count-1). */
    readonly count: number,
  ) {}

  get folder(): BoardsFolder {
    return this.boardNode.folder;
  }

  getTreeItem(): vscode.TreeItem {
    const { list } = this;
    const title = boardListTitle(list);
    const item = new vscode.TreeItem(title);
    item.id = `${this.folder.nodeId}/board/${this.boardNode.board.id}/list/${list.id}`;
    const color = list.label?.color;
    item.description = [color, vscode.l10n.t('position {0}', list.position)].filter(Boolean).join(' · ');
    const tooltip = tooltipMarkdown();
    tooltip.appendMarkdown('**').appendText(title).appendMarkdown('**');
    if (list.label?.description) tooltip.appendMarkdown('\n\n').appendText(list.label.description);
    tooltip
      .appendMarkdown('\n\n')
      .appendText(
        [
          color ? vscode.l10n.t('Colour {0}', color) : undefined,
          vscode.l10n.t('Position {0} of 0–{1}', list.position, this.count - 1),
        ]
          .filter(Boolean)
          .join(' · '),
      );
    item.tooltip = tooltip;
    item.iconPath = new vscode.ThemeIcon(
      list.label ? 'symbol-color' : list.milestone ? 'milestone' : 'person',
    );
    const capabilities = this.folder.capabilities;
    item.contextValue = [
      'boardList',
      capabilities.editBoardLists && this.count > 1 ? 'movable' : '',
      capabilities.deleteBoardLists ? 'deletable' : '',
    ]
      .filter(Boolean)
      .join(' ');
    return item;
  }
}
