/**
 * GitLab's short references in Markdown: `#12` names an issue and `!3` a merge request of the same
 * project. The server renders them as links; the panels draw the server's Markdown themselves, so
 * they find them here (pure: the page's DOM walk and the unit tests share it).
 */
export type ReferenceKind = 'issue' | 'mergeRequest';

export interface FoundReference {
  /** Where the reference (`#12`) starts and ends in the text. */
  start: number;
  end: number;
  kind: ReferenceKind;
  iid: number;
}

// Not after a word character, `&` (an entity), `/` (a path or a cross-project reference) or another
// `#`/`!`; digits up to the next non-word character. At most 9 digits: an iid, not a hash.
const REFERENCE = /(?<![\w&/#!])([#!])(\d{1,9})(?!\w)/g;

export function findReferences(text: string): FoundReference[] {
  const found: FoundReference[] = [];
  for (const match of text.matchAll(REFERENCE)) {
    const iid = Number(match[2]);
    if (iid < 1) continue;
    found.push({
      start: match.index,
      end: match.index + match[0].length,
      kind: match[1] === '#' ? 'issue' : 'mergeRequest',
      iid,
    });
  }
  return found;
}

/** Whether one of `texts` names that issue or merge request (a page may open only what it shows). */
export function mentions(
  texts: Iterable<string | null | undefined>,
  kind: ReferenceKind,
  iid: number,
): boolean {
  for (const text of texts)
    if (text && findReferences(text).some((found) => found.kind === kind && found.iid === iid)) return true;
  return false;
}
