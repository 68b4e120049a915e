import type * as vscode from 'vscode';

/**
 * What a screen reader says for a tree row. VS Code reads a row's string tooltip instead of its
 * label and description when the row has no `accessibilityInformation`, so an account row said only
 * its server's URL. Every row goes through here (the views' one provider, `LazyTreeView`): label,
 * description and tooltip, each once.
 */
export function withAccessibleLabel(item: vscode.TreeItem): vscode.TreeItem {
  if (item.accessibilityInformation || typeof item.tooltip !== 'string') return item;
  const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
  const description = typeof item.description === 'string' ? item.description : '';
  const parts: string[] = [];
  for (const part of [label, description, ...item.tooltip.split('\n')]) {
    const text = part.trim();
    if (text && !parts.some((said) => said.includes(text))) parts.push(text);
  }
  item.accessibilityInformation = { label: parts.join(', ') };
  return item;
}
