import * as vscode from 'vscode';
import { type CiNames, ciCompletionKind, ciCompletions, ciNames } from '../../domain/ciCompletion';
import { ciCursorAt } from '../../domain/ciCursor';
import { ciPredefinedVariables, type CiVariableAvailability } from '../../domain/ciPredefinedVariables';
import { LIST_ITEM } from '../../domain/ciSchema';
import { serverMarkdown, tooltipMarkdown } from '../../platform/serverMarkdown';
import type { CiProjectVariables } from './ciProjectVariables';
import type { CiSchemaSource } from './ciSchemaSource';

export const CI_FILE_SELECTOR: vscode.DocumentSelector = { scheme: 'file', pattern: '**/.gitlab-ci.yml' };

/** The file's names, from its last reading that parsed (a file being typed often does not). */
export class CiFileNames {
  private readonly last = new Map<string, CiNames>();

  of(document: vscode.TextDocument, skipLine?: number): CiNames | undefined {
    const text = document.getText();
    const names =
      ciNames(text) ??
      (skipLine === undefined
        ? undefined
        : ciNames(
            text
              .split(/\r?\n/)
              .filter((_, index) => index !== skipLine)
              .join('\n'),
          )) ??
      this.last.get(document.uri.toString());
    if (names) this.last.set(document.uri.toString(), names);
    return names;
  }
}

export function availabilityText(availability: CiVariableAvailability): string {
  switch (availability) {
    case 'pre-pipeline':
      return vscode.l10n.t('predefined, set before the pipeline is created');
    case 'pipeline':
      return vscode.l10n.t('predefined, set when the pipeline is created');
    case 'job':
      return vscode.l10n.t('predefined, set in the job only');
  }
}

/**
 * Completion in the CI file: job names in `needs:` and `dependencies:`, templates and jobs in
 * `extends:`, stages in `stage:` (`domain/ciCompletion.ts`); after `$`, GitLab's predefined variables,
 * the file's own and the project's (`ciProjectVariables.ts`); keywords and their listed values from
 * GitLab's schema where the cursor is (`domain/ciCursor.ts`), unless Red Hat's YAML extension offers
 * those from the same schema.
 */
export function registerCiCompletion(
  names: CiFileNames,
  schemaSource: CiSchemaSource,
  projectVariables: CiProjectVariables,
): vscode.Disposable {
  const provider: vscode.CompletionItemProvider = {
    async provideCompletionItems(document, position) {
      const lines = document.getText().split(/\r?\n/);
      const kind = ciCompletionKind(lines, position.line, position.character);
      if (kind !== undefined) {
        const known = names.of(document, position.line);
        return known && nameItems(ciCompletions(known, kind), kind);
      }
      const cursor = ciCursorAt(lines, position.line, position.character);
      if (!cursor) return undefined;
      if (cursor.kind === 'variable')
        return variableItems(names.of(document, position.line), await projectVariables.namesFor(document));
      if (schemaSource.schemaHandledElsewhere) return undefined;
      const schema = await schemaSource.schema();
      if (!schema) return undefined;
      const items: vscode.CompletionItem[] = [];
      if (cursor.kind === 'value' || cursor.kind === 'item')
        for (const value of schema.valuesAt(cursor.path)) {
          const item = new vscode.CompletionItem(value, vscode.CompletionItemKind.EnumMember);
          item.detail = vscode.l10n.t('value');
          items.push(item);
        }
      if (cursor.kind === 'key' || cursor.kind === 'item') {
        // At the top, a key is a job's name as often as a keyword: only GitLab's own keywords.
        const parents = cursor.path.filter((segment) => segment !== LIST_ITEM);
        for (const keyword of schema.keywordsAt(cursor.path)) {
          if (parents.length === 0 && keyword.name === 'pages') continue;
          const item = new vscode.CompletionItem(keyword.name, vscode.CompletionItemKind.Property);
          item.insertText = `${keyword.name}: `;
          item.detail = vscode.l10n.t('keyword');
          if (keyword.description) item.documentation = serverMarkdown(keyword.description);
          items.push(item);
        }
      }
      return items;
    },
  };
  return vscode.languages.registerCompletionItemProvider(CI_FILE_SELECTOR, provider, ' ', '[', ',', '$', '{');
}

function nameItems(offered: readonly string[], kind: string): vscode.CompletionItem[] {
  const detail =
    kind === 'stage'
      ? vscode.l10n.t('stage')
      : kind === 'job'
        ? vscode.l10n.t('job')
        : vscode.l10n.t('template or job');
  return offered.map((name) => {
    const item = new vscode.CompletionItem(
      name,
      kind === 'stage' ? vscode.CompletionItemKind.EnumMember : vscode.CompletionItemKind.Reference,
    );
    item.detail = detail;
    return item;
  });
}

function variableItems(
  names: CiNames | undefined,
  projectVariables: readonly {
    key: string;
    description?: string | null;
    environment_scope?: string | null;
  }[],
): vscode.CompletionItem[] {
  const items = new Map<string, vscode.CompletionItem>();
  const add = (name: string, detail: string, description: string | undefined, sortGroup: string): void => {
    if (items.has(name)) return;
    const item = new vscode.CompletionItem(name, vscode.CompletionItemKind.Variable);
    item.detail = detail;
    item.sortText = `${sortGroup}${name}`;
    if (description) item.documentation = tooltipMarkdown().appendText(description);
    items.set(name, item);
  };
  for (const variable of names?.variables ?? [])
    add(
      variable.name,
      variable.setIn === 'variables'
        ? vscode.l10n.t('variable of this file')
        : vscode.l10n.t('variable of job {0}', variable.setIn),
      variable.description,
      '0',
    );
  for (const variable of projectVariables)
    add(
      variable.key,
      variable.environment_scope && variable.environment_scope !== '*'
        ? vscode.l10n.t("project's CI/CD variable (environments {0})", variable.environment_scope)
        : vscode.l10n.t("project's CI/CD variable"),
      variable.description ?? undefined,
      '1',
    );
  for (const variable of ciPredefinedVariables())
    add(variable.name, availabilityText(variable.availability), variable.description, '2');
  return [...items.values()];
}
