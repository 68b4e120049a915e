/**
 * What a panel's first paint (a header written into its HTML, drawn before the app's stylesheets
 * load) needs of those stylesheets, so that it looks the same before and after: the page, muted
 * text, and the header with its title, number and facts line.
 */
export const FIRST_PAINT_HEADER_STYLE = `
body { margin: 0; padding: 0 16px 24px; line-height: 1.45; color: var(--vscode-foreground);
  background: var(--vscode-editor-background); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
.fp-muted { color: var(--vscode-descriptionForeground); }
.fp-header { padding: 12px 0 8px; border-bottom: 1px solid var(--vscode-panel-border, var(--vscode-contrastBorder, transparent)); }
.fp-title { display: flex; align-items: center; gap: 8px; margin: 0 0 6px; font-size: 1.4em; font-weight: 600; overflow-wrap: anywhere; }
.fp-iid { color: var(--vscode-descriptionForeground); }
.fp-meta { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; margin-bottom: 8px; }
`;
