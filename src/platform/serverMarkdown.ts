/**
 * The one door for server Markdown into VS Code's renderer (comment threads): not trusted (no
 * command links), no HTML, no theme icons, and written back from a CommonMark parse with only web
 * links (`domain/safeMarkdown.ts`); images are links unless `forge.comments.loadImages` is on. The
 * lint refuses `new vscode.MarkdownString(text)` anywhere else; tooltips build theirs with `appendText`.
 */
import * as vscode from 'vscode';
import { safeMarkdown, type SafeMarkdownOptions } from '../domain/safeMarkdown';

export function serverMarkdown(
  text: string,
  options: Pick<SafeMarkdownOptions, 'fence'> = {},
): vscode.MarkdownString {
  const loadImages = vscode.workspace.getConfiguration('forge').get<boolean>('comments.loadImages', false);
  const markdown = new vscode.MarkdownString(safeMarkdown(text, { ...options, loadImages }));
  markdown.isTrusted = false;
  markdown.supportHtml = false;
  markdown.supportThemeIcons = false;
  return markdown;
}
