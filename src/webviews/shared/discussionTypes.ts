/** What a panel's Discussion shows of a comment, and what it asks of one (merge requests and issues). */
import type { AwardSummary } from '../../domain/mergeRequestView';
import type { NotePlace } from '../../domain/diffPositions';

export interface PersonView {
  name: string;
  username: string;
}

export interface NoteView {
  id: number;
  body: string;
  author?: PersonView;
  createdAt?: string;
  updatedAt?: string;
  system: boolean;
  /** The viewer may edit and delete it. */
  own: boolean;
  awards: AwardSummary[];
  /** A comment on a line of the diff: where, and whether it was written on an older version. */
  place?: NotePlace;
  /**
   * In a thread (or a single comment, which a reply makes a thread): its id, whether this is a reply
   * (shown under the thread's first comment), and for the first of a resolvable thread whether it is
   * resolved.
   */
  thread?: { id: string; reply: boolean; resolved?: boolean };
}

/** What the Discussion tab asked of a comment: post, edit, delete, a reply in its thread, resolving it. */
export type NoteAction = 'post' | 'edit' | 'delete' | 'reply' | 'resolve';

/** The outcome of an action, shown in the panel's status line. */
export interface StatusMessage {
  type: 'status';
  level: 'info' | 'error';
  text: string;
}

/** A post, edit or delete of a note finished; on failure the text stays in the box. */
export interface NoteResultMessage {
  type: 'noteResult';
  action: NoteAction;
  ok: boolean;
  noteId?: number;
  message?: string;
}
