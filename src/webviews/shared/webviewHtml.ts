import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { type SafeHtml, escapeHtml } from './safeHtml';

/** Where the bundled webview apps, their styles and the codicon font live inside the extension. */
export function webviewRoot(extensionUri: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(extensionUri, 'dist', 'webviews');
}

/** Options every panel gets: scripts on, and nothing readable outside the bundled apps. */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: [webviewRoot(extensionUri)],
    enableFindWidget: false,
  };
}

export interface WebviewPage {
  webview: vscode.Webview;
  extensionUri: vscode.Uri;
  /** The app's bundle name: dist/webviews/<app>.js and <app>.css. */
  app: string;
  /** The page title (escaped here). */
  title: string;
  /** Lets the page start workers from blob: URLs it made itself (its own bundled code). */
  workers?: boolean;
  /** What the page shows before its script runs; the app removes `#first-paint` when it draws. */
  firstPaint?: FirstPaint;
  /** When the host created the panel (epoch ms), if it set the page later (a benchmark reads it). */
  panelCreatedAt?: number;
}

export interface FirstPaint {
  markup: SafeHtml;
  /** The extension's own CSS for it (never server text), inlined with the page's nonce. */
  style: string;
}

/**
 * Notes when the first frame is drawn (a benchmark times panels from it). Neither this nor the app
 * overwrites the other's mark: on a busy machine the app can draw before this frame's callback runs.
 */
const MARK_FIRST_PAINT =
  'document.documentElement.dataset.navigationStartAt = String(Math.round(performance.timeOrigin)); ' +
  'document.documentElement.dataset.firstPaintParsedAt = String(Date.now()); ' +
  'requestAnimationFrame(function () { var marks = document.documentElement.dataset; ' +
  'marks.firstPaintAt = marks.firstPaintAt || String(Date.now()); });';

/**
 * The page shell: a strict Content-Security-Policy (scripts only with this page's nonce, styles and
 * fonts only from the extension, images only from the extension or data: URLs, workers only from
 * blob: URLs and only when the page asks for them, nothing remote), the
 * codicon stylesheet that `vscode-icon` looks up by id, and the app. The app receives server content
 * as data through postMessage and renders it as text; the only server text in this HTML is a
 * panel's first paint, which `SafeHtml` has escaped. The first paint comes before the stylesheets
 * and the script, so that it is drawn in the page's first frame, as an empty page would be.
 */
export function webviewHtml(page: WebviewPage): string {
  const nonce = randomBytes(18).toString('base64');
  const root = webviewRoot(page.extensionUri);
  const asset = (name: string): string =>
    page.webview.asWebviewUri(vscode.Uri.joinPath(root, name)).toString();
  const source = page.webview.cspSource;
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${source}${page.firstPaint ? ` 'nonce-${nonce}'` : ''}`,
    `font-src ${source}`,
    `img-src ${source} data:`,
    ...(page.workers ? ['worker-src blob:'] : []),
  ].join('; ');
  // When the host set the page, for a benchmark timing the steps between a command and the first frame.
  return `<!DOCTYPE html>
<html lang="en"${page.panelCreatedAt === undefined ? '' : ` data-panel-created-at="${page.panelCreatedAt}"`} data-host-set-at="${Date.now()}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${page.firstPaint ? `<style nonce="${nonce}">${page.firstPaint.style}</style>\n` : ''}<title>${escapeHtml(page.title)}</title>
</head>
<body>
${page.firstPaint ? `<div id="first-paint">${page.firstPaint.markup.markup}</div>\n<script nonce="${nonce}">${MARK_FIRST_PAINT}</script>\n` : ''}<link rel="stylesheet" href="${asset('codicon.css')}" id="vscode-codicon-stylesheet">
<link rel="stylesheet" href="${asset(`${page.app}.css`)}">
<div id="app" data-nonce-checked="true"${translation()}></div>
<script nonce="${nonce}" src="${asset(`${page.app}.js`)}"></script>
</body>
</html>`;
}

/** The bundle VS Code loaded for its language, for the page's `l10n.t` (nothing in English). */
function translation(): string {
  const bundle = vscode.l10n.bundle;
  return bundle ? ` data-l10n="${escapeHtml(JSON.stringify(bundle))}"` : '';
}
