// The changed-file badges of the merge request panel must be readable in the default themes: their
// text against what is behind it, at least 3:1 (WCAG's minimum for such text and for UI parts). The
// colours are VS Code's defaults (Dark Modern, Light Modern); the CSS says which colour goes where.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { projectPath } from '../../support/projectRoot';

const THEMES: Record<string, Record<string, string>> = {
  'Dark Modern': {
    'editor-background': '#1f1f1f',
    'badge-background': '#616161',
    'badge-foreground': '#f8f8f8',
    'gitDecoration-addedResourceForeground': '#81b88b',
    'gitDecoration-deletedResourceForeground': '#c74e39',
    'gitDecoration-renamedResourceForeground': '#73c991',
  },
  'Light Modern': {
    'editor-background': '#ffffff',
    'badge-background': '#cccccc',
    'badge-foreground': '#3b3b3b',
    'gitDecoration-addedResourceForeground': '#587c0c',
    'gitDecoration-deletedResourceForeground': '#ad0707',
    'gitDecoration-renamedResourceForeground': '#007100',
  },
};

function luminance(hex: string): number {
  const channels = [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16) / 255);
  const [r = 0, g = 0, b = 0] = channels.map((c) =>
    c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4,
  );
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

const css = readFileSync(
  projectPath('src', 'features', 'mergeRequests', 'panel', 'app', 'style.css'),
  'utf8',
).replace(/\/\*[\s\S]*?\*\//g, '');

/** The custom properties a `.badge-<kind>` sets, from every rule that names it. */
function badgeProperties(kind: string): Record<string, string> {
  const properties: Record<string, string> = {};
  for (const [, selectors = '', body = ''] of css.matchAll(/([^{}]+)\{([^}]*)\}/g)) {
    if (!selectors.split(',').some((selector) => selector.trim() === `.badge-${kind}`)) continue;
    for (const [, name = '', value = ''] of body.matchAll(/--vscode-([\w-]+):\s*([^;]+);/g))
      properties[name] = value.trim();
  }
  return properties;
}

/** A theme colour for `var(--vscode-x, …)`, `transparent` as the page behind it. */
function resolve(value: string | undefined, fallback: string, theme: Record<string, string>): string {
  if (value === undefined) return theme[fallback] ?? '';
  if (value === 'transparent') return theme['editor-background'] ?? '';
  const name = /^var\(--vscode-([\w-]+)/.exec(value)?.[1] ?? '';
  return theme[name] ?? '';
}

describe('changed-file badges in the default themes', () => {
  for (const kind of ['added', 'deleted', 'renamed']) {
    for (const [themeName, theme] of Object.entries(THEMES)) {
      it(`"${kind}" is readable in ${themeName}`, () => {
        const properties = badgeProperties(kind);
        const text = resolve(properties['badge-foreground'], 'badge-foreground', theme);
        const behind = resolve(properties['badge-background'], 'badge-background', theme);
        assert.ok(text && behind, `colours of .badge-${kind}`);
        const ratio = contrast(text, behind);
        assert.ok(ratio >= 3, `${text} on ${behind}: ${ratio.toFixed(2)}:1`);
      });
    }
  }
});
