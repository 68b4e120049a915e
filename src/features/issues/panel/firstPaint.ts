/*
 * The issue panel's first paint: the issue as it was picked (number, title, state, project), written
 * into the page's HTML so that the first frame shows it before the page's script and stylesheet
 * load. Every value goes through `html`, which escapes it. Pure: no `vscode`.
 */
import * as l10n from '@vscode/l10n';
import { FIRST_PAINT_HEADER_STYLE } from '../../../webviews/shared/firstPaintStyle';
import { type SafeHtml, html } from '../../../webviews/shared/safeHtml';

export function issueFirstPaint(
  issue: { iid: number; title: string; state?: string | undefined },
  projectPath: string,
): SafeHtml {
  const state = issue.state === 'closed' ? l10n.t('Closed') : l10n.t('Open');
  return html`<header class="fp-header">
    <h1 class="fp-title"><span class="fp-iid">#${issue.iid}</span><span>${issue.title}</span></h1>
    <div class="fp-meta fp-muted"><span>${state}</span><span>${projectPath}</span></div>
    <p class="fp-muted">${l10n.t('Loading…')}</p>
  </header>`;
}

export const ISSUE_FIRST_PAINT_STYLE = FIRST_PAINT_HEADER_STYLE;
