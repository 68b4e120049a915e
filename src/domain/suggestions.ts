/**
 * Suggestions in review comments: a ```suggestion block (```suggestion:-1+2 reaches lines above
 * and below) is shown as the change it proposes, the server's `from_content` removed and its
 * `to_content` added, as GitLab shows it. The blocks are found by the Markdown parser
 * (`safeMarkdown`'s fence hook), not by a pattern over the text.
 */
import * as l10n from '@vscode/l10n';
import { fencedBlock } from './safeMarkdown';

export interface SuggestionFacts {
  from_line: number;
  to_line: number;
  applied: boolean;
  from_content: string;
  to_content: string;
}

const SUGGESTION_INFO = /^suggestion(?::-\d+\+\d+)?$/;

function diffLines(prefix: '-' | '+', content: string): string[] {
  if (content === '') return [];
  return content
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => `${prefix}${line}`);
}

function describe(suggestion: SuggestionFacts): string {
  const { from_line: from, to_line: to, applied } = suggestion;
  if (from === to)
    return applied
      ? l10n.t('**Suggested change** (line {0}, applied):', from)
      : l10n.t('**Suggested change** (line {0}):', from);
  return applied
    ? l10n.t('**Suggested change** (lines {0}–{1}, applied):', from, to)
    : l10n.t('**Suggested change** (lines {0}–{1}):', from, to);
}

/**
 * For `safeMarkdown`'s fence hook: the n-th suggestion block shown as the n-th suggestion's change;
 * blocks without their data stay code as written.
 */
export function suggestionFence(
  suggestions: readonly SuggestionFacts[],
): (info: string, content: string) => string | undefined {
  let index = 0;
  return (info) => {
    if (!SUGGESTION_INFO.test(info.trim())) return undefined;
    const suggestion = suggestions[index++];
    if (!suggestion) return undefined;
    const lines = [...diffLines('-', suggestion.from_content), ...diffLines('+', suggestion.to_content)];
    // The server's text inside a fence it cannot close.
    return [describe(suggestion), '', ...fencedBlock('diff', lines.join('\n'))].join('\n');
  };
}
