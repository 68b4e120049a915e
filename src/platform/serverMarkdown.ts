/**
 * The one door for server Markdown into VS Code's renderer (comment threads): not trusted (no
 * command links), no HTML, no theme icons, and only web links (`domain/webLinksOnly.ts`). The lint
 * refuses `new vscode.MarkdownString(text)` anywhere else; tooltips build theirs with `appendText`.
 */
import * as vscode from 'vscode';
import { webLinksOnly } from '../domain/webLinksOnly';

export function serverMarkdown(text: string): vscode.MarkdownString {
  const markdown = new vscode.MarkdownString(webLinksOnly(text));
  markdown.isTrusted = false;
  markdown.supportHtml = false;
  markdown.supportThemeIcons = false;
  return markdown;
}
