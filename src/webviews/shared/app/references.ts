/*
 * `#12` and `!3` in rendered Markdown become links to the issue or merge request of the same project,
 * as on the server's page. They are made after sanitising, from the text nodes only (not inside a
 * link or code), with the reference's own characters as their text: nothing from the server is
 * parsed as HTML here. The page hands a click (or Enter) to the host, which opens the panel.
 */
import { type ReferenceKind, findReferences } from '../../../domain/references';
import * as l10n from '@vscode/l10n';

const SKIP = new Set(['A', 'CODE', 'PRE']);

/** Replaces references in the text of `root` with links; returns how many. */
export function linkReferences(root: Node): number {
  const texts: Text[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => {
      for (let parent = node.parentNode; parent && parent !== root; parent = parent.parentNode)
        if (SKIP.has(parent.nodeName)) return NodeFilter.FILTER_REJECT;
      return NodeFilter.FILTER_ACCEPT;
    },
  });
  for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node as Text);
  let count = 0;
  for (const text of texts) {
    const value = text.data;
    const found = findReferences(value);
    if (found.length === 0) continue;
    const parts: Node[] = [];
    let at = 0;
    for (const reference of found) {
      if (reference.start > at) parts.push(document.createTextNode(value.slice(at, reference.start)));
      parts.push(referenceLink(value.slice(reference.start, reference.end), reference.kind, reference.iid));
      at = reference.end;
      count++;
    }
    if (at < value.length) parts.push(document.createTextNode(value.slice(at)));
    text.replaceWith(...parts);
  }
  return count;
}

function referenceLink(text: string, kind: ReferenceKind, iid: number): HTMLAnchorElement {
  const link = document.createElement('a');
  link.className = 'reference-link';
  link.href = '#';
  link.textContent = text;
  link.dataset['referenceKind'] = kind;
  link.dataset['referenceIid'] = String(iid);
  link.title = kind === 'issue' ? l10n.t('Open issue #{0}', iid) : l10n.t('Open merge request !{0}', iid);
  return link;
}

/** Hands clicks on reference links below `root` to `open` (one listener for the whole page). */
export function onReferenceClick(root: HTMLElement, open: (kind: ReferenceKind, iid: number) => void): void {
  root.addEventListener('click', (event) => {
    const link = (event.target as Element | null)?.closest<HTMLElement>('a.reference-link');
    if (!link) return;
    event.preventDefault();
    const kind = link.dataset['referenceKind'];
    const iid = Number(link.dataset['referenceIid']);
    if ((kind === 'issue' || kind === 'mergeRequest') && Number.isSafeInteger(iid) && iid > 0)
      open(kind, iid);
  });
}
