/**
 * The one door for server Markdown into VS Code's renderer (comment threads): not trusted (no
 * command links), no HTML, no theme icons, and written back from a CommonMark parse with only web
 * links (`domain/safeMarkdown.ts`); images are links unless `forge.comments.loadImages` is on. The
 * lint refuses `new vscode.MarkdownString` anywhere else; tooltips build theirs with `tooltipMarkdown`.
 */
import * as vscode from 'vscode';
import { plainTextMarkdown, safeMarkdown, type SafeMarkdownOptions } from '../domain/safeMarkdown';

/** Markdown whose `appendText` shows server text as text: no autolinked address or URL in it. */
class TooltipMarkdown extends vscode.MarkdownString {
  override appendText(value: string): this {
    this.appendMarkdown(plainTextMarkdown(value));
    return this;
  }
}

/** The one way to build a tooltip or hover: our Markdown with `appendMarkdown`, server text with `appendText`. */
export function tooltipMarkdown(): vscode.MarkdownString {
  const markdown = new TooltipMarkdown();
  markdown.isTrusted = false;
  markdown.supportHtml = false;
  markdown.supportThemeIcons = false;
  return markdown;
}

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
