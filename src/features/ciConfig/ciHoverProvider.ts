import * as vscode from 'vscode';
import { ciCompletionKind } from '../../domain/ciCompletion';
import { ciKeyPathAt } from '../../domain/ciCursor';
import { ciJobStages } from '../../domain/ciLocalChecks';
import { predefinedVariable } from '../../domain/ciPredefinedVariables';
import { CI_GLOBAL_KEYWORDS } from '../../domain/ciYaml';
import { serverMarkdown, tooltipMarkdown } from '../../platform/serverMarkdown';
import { availabilityText, CI_FILE_SELECTOR, type CiFileNames } from './ciCompletionProvider';
import type { CiProjectVariables } from './ciProjectVariables';
import type { CiSchemaSource } from './ciSchemaSource';

const VARIABLE_AT = /\$\{?[A-Za-z_][A-Za-z0-9_]*\}?/;
const NAME_AT = /[^\s,[\]{}'"#:]+(?: [^\s,[\]{}'"#:]+)*/;

/**
 * Hover in the CI file: a variable's meaning (predefined, the file's own, the project's), a job's
 * stage where the job is named (its key, `needs:`, `dependencies:`, `extends:`), and a keyword's
 * description from GitLab's schema (unless Red Hat's YAML extension shows that from the same schema).
 */
export function registerCiHover(
  names: CiFileNames,
  schemaSource: CiSchemaSource,
  projectVariables: CiProjectVariables,
): vscode.Disposable {
  const provider: vscode.HoverProvider = {
    async provideHover(document, position) {
      const variableRange = document.getWordRangeAtPosition(position, VARIABLE_AT);
      if (variableRange) {
        const name = document
          .getText(variableRange)
          .replace(/^\$\{?/, '')
          .replace(/\}$/, '');
        const markdown = await variableHover(document, name, names, projectVariables);
        return markdown && new vscode.Hover(markdown, variableRange);
      }
      const text = document.getText();
      const lines = text.split(/\r?\n/);
      const keyPath = ciKeyPathAt(lines, position.line, position.character);
      const nameRange = document.getWordRangeAtPosition(position, NAME_AT);
      const word = nameRange && document.getText(nameRange);
      const isJobKey = keyPath?.length === 1 && !CI_GLOBAL_KEYWORDS.has(keyPath[0] ?? '');
      const kind = nameRange && ciCompletionKind(lines, nameRange.end.line, nameRange.end.character);
      // The file is read for its jobs' stages only where a job's name can stand (a hover is frequent).
      if (word !== undefined && nameRange && (isJobKey || kind === 'job' || kind === 'template')) {
        const stage = ciJobStages(text)?.get(word);
        if (stage !== undefined)
          return new vscode.Hover(
            tooltipMarkdown().appendText(vscode.l10n.t('Job {0}, stage {1}', word, stage)),
            nameRange,
          );
      }
      if (!keyPath || isJobKey || schemaSource.schemaHandledElsewhere) return undefined;
      const description = (await schemaSource.schema())?.descriptionAt(keyPath);
      return description === undefined ? undefined : new vscode.Hover(serverMarkdown(description));
    },
  };
  return vscode.languages.registerHoverProvider(CI_FILE_SELECTOR, provider);
}

async function variableHover(
  document: vscode.TextDocument,
  name: string,
  names: CiFileNames,
  projectVariables: CiProjectVariables,
): Promise<vscode.MarkdownString | undefined> {
  const own = names.of(document)?.variables.find((variable) => variable.name === name);
  if (own)
    return tooltipMarkdown().appendText(
      [
        own.setIn === 'variables'
          ? vscode.l10n.t('{0}: variable of this file', name)
          : vscode.l10n.t('{0}: variable of job {1}', name, own.setIn),
        own.description ?? '',
      ]
        .filter((line) => line !== '')
        .join('\n\n'),
    );
  const predefined = predefinedVariable(name);
  if (predefined)
    return tooltipMarkdown().appendText(
      `${name}: ${predefined.description}\n\n(${availabilityText(predefined.availability)})`,
    );
  const project = (await projectVariables.namesFor(document)).find((variable) => variable.key === name);
  if (project)
    return tooltipMarkdown().appendText(
      [vscode.l10n.t("{0}: the project's CI/CD variable", name), project.description ?? '']
        .filter((line) => line !== '')
        .join('\n\n'),
    );
  return undefined;
}
