import * as vscode from 'vscode';
import { type CiNames, ciCompletionKind, ciCompletions, ciNames } from '../../domain/ciCompletion';

const SELECTOR: vscode.DocumentSelector = { scheme: 'file', pattern: '**/.gitlab-ci.yml' };

/**
 * Completion in the CI file: job names in `needs:` and `dependencies:`, templates and jobs in
 * `extends:`, stages in `stage:` (`domain/ciCompletion.ts`). A file being typed may not parse: the
 * names of its last reading that did are offered meanwhile.
 */
export function registerCiCompletion(): vscode.Disposable {
  const lastNames = new Map<string, CiNames>();
  const provider: vscode.CompletionItemProvider = {
    provideCompletionItems(document, position) {
      const lines = document.getText().split(/\r?\n/);
      const kind = ciCompletionKind(lines, position.line, position.character);
      if (kind === undefined) return undefined;
      const key = document.uri.toString();
      // The line being typed is often what keeps the file from parsing (`needs: [`): without it.
      const names =
        ciNames(document.getText()) ??
        ciNames(lines.filter((_, index) => index !== position.line).join('\n')) ??
        lastNames.get(key);
      if (!names) return undefined;
      lastNames.set(key, names);
      const detail =
        kind === 'stage'
          ? vscode.l10n.t('stage')
          : kind === 'job'
            ? vscode.l10n.t('job')
            : vscode.l10n.t('template or job');
      return ciCompletions(names, kind).map((name) => {
        const item = new vscode.CompletionItem(
          name,
          kind === 'stage' ? vscode.CompletionItemKind.EnumMember : vscode.CompletionItemKind.Reference,
        );
        item.detail = detail;
        return item;
      });
    },
  };
  return vscode.languages.registerCompletionItemProvider(SELECTOR, provider, ' ', '[', ',');
}
