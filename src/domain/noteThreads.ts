/**
 * The Discussion tab's threads: which thread each comment is in (from `.../discussions`), and the
 * comments in thread order, each thread where its first comment is and its replies right after it.
 */

export interface ThreadPlace {
  discussionId: string;
  /** Not the thread's first comment. */
  reply: boolean;
  /** For a thread that can be resolved: whether it is. */
  resolved?: boolean;
}

interface DiscussionFacts {
  id: string;
  individual_note?: boolean;
  notes: readonly { id: number; resolvable?: boolean; resolved?: boolean }[];
}

/** Each comment of a thread and its place in it; a lone comment is the first of its own. */
export function threadPlaces(discussions: readonly DiscussionFacts[]): Map<number, ThreadPlace> {
  const places = new Map<number, ThreadPlace>();
  for (const discussion of discussions) {
    // A single comment: answering it makes it a thread (GitLab does so), nothing to resolve yet.
    if (discussion.individual_note === true) {
      const [only] = discussion.notes;
      if (only && discussion.notes.length === 1)
        places.set(only.id, { discussionId: discussion.id, reply: false });
      continue;
    }
    const resolvable = discussion.notes.some((note) => note.resolvable === true);
    const resolved = discussion.notes.every((note) => note.resolvable !== true || note.resolved === true);
    discussion.notes.forEach((note, index) => {
      places.set(note.id, {
        discussionId: discussion.id,
        reply: index > 0,
        ...(resolvable && index === 0 ? { resolved } : {}),
      });
    });
  }
  return places;
}

/** The comments with each thread's replies right after its first comment; the rest in order. */
export function inThreadOrder<T extends { id: number }>(
  notes: readonly T[],
  places: ReadonlyMap<number, ThreadPlace>,
): T[] {
  const byThread = new Map<string, T[]>();
  for (const note of notes) {
    const place = places.get(note.id);
    if (place) byThread.set(place.discussionId, [...(byThread.get(place.discussionId) ?? []), note]);
  }
  const ordered: T[] = [];
  const placed = new Set<string>();
  for (const note of notes) {
    const place = places.get(note.id);
    if (!place) ordered.push(note);
    else if (!placed.has(place.discussionId)) {
      placed.add(place.discussionId);
      ordered.push(...(byThread.get(place.discussionId) ?? []));
    }
  }
  return ordered;
}
