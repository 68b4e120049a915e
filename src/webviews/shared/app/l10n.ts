/*
 * The page's translation: when VS Code runs in another language, the host puts its bundle on the
 * page (`data-l10n` of #app, see webviewHtml.ts) and `l10n.t` reads from it. Imported first by
 * every page, before any module makes its labels.
 */
import * as l10n from '@vscode/l10n';

const bundle = document.getElementById('app')?.dataset['l10n'];
if (bundle) l10n.config({ contents: JSON.parse(bundle) as Record<string, string> });
