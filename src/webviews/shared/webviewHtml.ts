import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

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
}

/**
 * The page shell: a strict Content-Security-Policy (scripts only with this page's nonce, styles and
 * fonts only from the extension, images only from the extension or data: URLs, workers only from
 * blob: URLs and only when the page asks for them, nothing remote), the
 * codicon stylesheet that `vscode-icon` looks up by id, and the app. Server content never goes into
 * this HTML: the app receives it as data through postMessage and renders it as text.
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
    `style-src ${source}`,
    `font-src ${source}`,
    `img-src ${source} data:`,
    ...(page.workers ? ['worker-src blob:'] : []),
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset('codicon.css')}" id="vscode-codicon-stylesheet">
<link rel="stylesheet" href="${asset(`${page.app}.css`)}">
<title>${escapeHtml(page.title)}</title>
</head>
<body>
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

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
