/* The comments both panels' snapshots show: their award emoji and what the page is told of each. */
import type { AwardEmoji, HostingClient, Note } from '../../api/hosting';
import { type Viewer, canChangeNote, summarizeAwards } from '../../domain/mergeRequestView';
import type { ThreadPlace } from '../../domain/noteThreads';
import { describeError } from '../../platform/commands/registerCommand';
import { mapWithConcurrency } from '../../state/boundedConcurrency';
import { firstItems } from '../../state/firstItems';
import type { NoteView, PersonView } from './discussionTypes';
import * as l10n from '@vscode/l10n';

/**
 * A reader of the parts of a snapshot that may fail: a part that fails is named in `errors` and
 * `fallback` stands in for it, so the rest still shows.
 */
export function settler(errors: string[]) {
  return async <T>(what: string, promise: Promise<T>, fallback: T): Promise<T> => {
    try {
      return await promise;
    } catch (error) {
      errors.push(`${what}: ${describeError(error)}`);
      return fallback;
    }
  };
}

export function personView(user: { name: string; username: string }): PersonView {
  return { name: user.name, username: user.username };
}

/**
 * The award emoji of the last `most` comments (one request each, a few at a time); a failure is
 * named once in `errors`.
 */
export async function loadNoteAwards(
  client: HostingClient,
  parent: { kind: 'mergeRequestNote' | 'issueNote'; project: number; iid: number },
  notes: readonly Note[],
  input: { most: number; errors: string[] },
): Promise<Map<number, AwardEmoji[]>> {
  const { most, errors } = input;
  const comments = notes.filter((note) => note.system !== true).slice(-most);
  const result = new Map<number, AwardEmoji[]>();
  let failed = false;
  await mapWithConcurrency(comments, 4, async (note) => {
    try {
      result.set(note.id, await firstItems(client.listAwardEmoji({ ...parent, noteId: note.id }), 200));
    } catch (error) {
      if (!failed) errors.push(l10n.t('Reactions on comments: {0}', describeError(error)));
      failed = true;
    }
  });
  return result;
}

/** The Discussion's comments: who wrote them, whether the viewer may change them, their thread. */
export function noteViews(
  notes: readonly Note[],
  input: {
    viewer: Viewer;
    noteAwards: ReadonlyMap<number, AwardEmoji[]>;
    places: ReadonlyMap<number, ThreadPlace>;
    /** More the panel says of a comment (a merge request's: where on the diff). */
    more?: (note: Note) => Partial<NoteView>;
  },
): NoteView[] {
  const { viewer, noteAwards, places, more } = input;
  return notes.map((note): NoteView => {
    const place = places.get(note.id);
    return {
      id: note.id,
      body: note.body,
      ...(note.author ? { author: personView(note.author) } : {}),
      ...(note.created_at ? { createdAt: note.created_at } : {}),
      ...(note.updated_at ? { updatedAt: note.updated_at } : {}),
      system: note.system === true,
      own: note.system !== true && canChangeNote(note, viewer),
      ...more?.(note),
      ...(place
        ? {
            thread: {
              id: place.discussionId,
              reply: place.reply,
              ...(place.resolved === undefined ? {} : { resolved: place.resolved }),
            },
          }
        : {}),
      awards: summarizeAwards(noteAwards.get(note.id) ?? [], viewer),
    };
  });
}
