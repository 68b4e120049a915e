/*
 * The merge request panel's first paint: the header of the merge request as it was picked, written
 * into the page's HTML so that the page's first frame shows it (the page script, its stylesheet and
 * the snapshot arrive after). Every value goes through `html`, which escapes it. Pure: no `vscode`.
 */
import * as l10n from '@vscode/l10n';
import { isOpenState } from '../../../domain/mergeRequestStatus';
import { projectPath } from '../../../domain/jobActions';
import { type SafeHtml, html } from '../../../webviews/shared/safeHtml';
import { FIRST_PAINT_HEADER_STYLE } from '../../../webviews/shared/firstPaintStyle';

export interface FirstPaintMergeRequest {
  iid: number;
  title: string;
  state: string;
  draft?: boolean | undefined;
  source_branch: string;
  target_branch: string;
}

export function mergeRequestFirstPaint(
  mergeRequest: FirstPaintMergeRequest,
  project: Parameters<typeof projectPath>[0],
): SafeHtml {
  const state = mergeRequest.draft && isOpenState(mergeRequest.state) ? 'draft' : mergeRequest.state;
  // Classes of its own: the app's header (`.mr-header`) is on the page too until the first snapshot.
  return html`<header class="fp-header">
    <h1 class="fp-title">
      <span class="fp-iid">!${mergeRequest.iid}</span><span>${mergeRequest.title}</span>
    </h1>
    <div class="fp-meta fp-muted">
      <span>${state}</span><span>${projectPath(project)}</span
      ><span class="fp-branch">${mergeRequest.source_branch}</span><span aria-hidden="true">→</span
      ><span class="fp-branch">${mergeRequest.target_branch}</span>
    </div>
    <p class="fp-muted">${l10n.t('Loading…')}</p>
  </header>`;
}

/** The rules of the app's stylesheets that the header above needs, so it looks the same before they load. */
export const MERGE_REQUEST_FIRST_PAINT_STYLE = `${FIRST_PAINT_HEADER_STYLE}
.fp-branch { font-family: var(--vscode-editor-font-family); font-size: 0.95em; padding: 0 4px; border-radius: 3px;
  background: var(--vscode-textCodeBlock-background); overflow-wrap: anywhere; }
`;
