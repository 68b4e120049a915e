/** Pure rules behind the Boards and Pipeline Triggers folders: who may do what, who owns a trigger. */
import { ACCESS_LEVEL, type ProjectAccessShape, accessLevelOf } from './projectActions';

export interface BoardTriggerCapabilities {
  /** List, create, edit and delete pipeline triggers: maintainers. */
  manageTriggers: boolean;
  /** Add and move board lists: reporters. */
  editBoardLists: boolean;
  /** Delete board lists: administrators and project owners. */
  deleteBoardLists: boolean;
}

/**
 * From the `permissions` sent with a project. Administrators may do everything; when the level is
 * unknown (a trimmed project shape), the action is offered and the server decides (403 is reported).
 */
export function boardTriggerCapabilities(
  project: ProjectAccessShape,
  isAdmin: boolean,
): BoardTriggerCapabilities {
  const level = accessLevelOf(project);
  const atLeast = (wanted: number): boolean => isAdmin || level === undefined || level >= wanted;
  return {
    manageTriggers: atLeast(ACCESS_LEVEL.maintainer),
    editBoardLists: atLeast(ACCESS_LEVEL.reporter),
    deleteBoardLists: atLeast(ACCESS_LEVEL.owner),
  };
}

interface TriggerShape {
  owner?: { id: number } | null | undefined;
  token?: string | undefined;
}

/** Newer servers show a trigger's whole token only to its owner; others see the first 4 characters. */
export function isFullTriggerToken(token: string | undefined): token is string {
  return token !== undefined && token.length >= 20 && !/[*…]|\.\.\./.test(token);
}

/**
 * Whether the caller owns a trigger: compared by id when the caller is known; otherwise a whole
 * token (which newer servers show only to the owner) counts as owning it. No owner: nobody owns it.
 */
export function triggerOwnership(trigger: TriggerShape, callerId: number | undefined): 'owned' | 'notOwned' {
  if (!trigger.owner) return 'notOwned';
  if (callerId !== undefined) return trigger.owner.id === callerId ? 'owned' : 'notOwned';
  return isFullTriggerToken(trigger.token) ? 'owned' : 'notOwned';
}

/** A board list position typed or picked by the user: a whole number in 0..count-1. */
export function parsePosition(value: string, count: number): number | undefined {
  const trimmed = value.trim();
  if (!/^\d+$/.test(trimmed)) return undefined;
  const position = Number(trimmed);
  return position < count ? position : undefined;
}
