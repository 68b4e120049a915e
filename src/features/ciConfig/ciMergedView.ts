import * as path from 'node:path';
import * as vscode from 'vscode';
import * as z from 'zod';
import { NotFoundError } from '../../api/http';
import { type CiIncludeLine, ciMergedText } from '../../domain/ciMergedText';
import { checkWebLink } from '../../domain/webLinks';
import { defineCommand } from '../../platform/commands/defineCommand';
import { registerCommands } from '../../platform/commands/registerCommand';
import { withProgress } from '../../platform/userMessages';
import type { Services } from '../../services';
import { activeYamlFile, type CiLintChecks } from './ciLintChecks';

const SCHEME = 'forge-ci-merged';

interface Shown {
  text: string;
  includeLines: CiIncludeLine[];
  repositoryRoot: string;
}

/**
 * "Show Merged CI Configuration": the editor's CI file (as typed, not only as committed) sent to the
 * server's CI lint, and its `merged_yaml` shown in a read-only YAML document whose header lists the
 * included files as links: a local include opens the file in the clone, any other its web page.
 */
export function registerMergedConfiguration(services: Services, checks: CiLintChecks): vscode.Disposable {
  const shown = new Map<string, Shown>();
  const changed = new vscode.EventEmitter<vscode.Uri>();
  let opened = 0;
  const disposables: vscode.Disposable[] = [
    changed,
    vscode.workspace.registerTextDocumentContentProvider(SCHEME, {
      onDidChange: changed.event,
      provideTextDocumentContent: (uri) => shown.get(uri.toString())?.text ?? '',
    }),
    vscode.languages.registerDocumentLinkProvider(
      { scheme: SCHEME },
      {
        provideDocumentLinks: (document) => {
          const merged = shown.get(document.uri.toString());
          return merged ? merged.includeLines.flatMap((line) => linkOf(line, merged.repositoryRoot)) : [];
        },
      },
    ),
    vscode.workspace.onDidCloseTextDocument((document) => {
      if (document.uri.scheme === SCHEME) shown.delete(document.uri.toString());
    }),
  ];
  registerCommands(services.context, services.log, [
    defineCommand({
      id: 'forge.ciConfig.showMerged',
      args: [z.unknown()],
      run: async (): Promise<vscode.Uri> => {
        const { merged, found, fileName } = await mergedOfActiveEditor(services, checks);
        opened += 1;
        const uri = vscode.Uri.from({
          scheme: SCHEME,
          path: `/${found.project.path_with_namespace}/${fileName}`,
          query: String(opened),
        });
        shown.set(uri.toString(), { ...merged, repositoryRoot: found.repository.root });
        changed.fire(uri);
        const mergedDocument = await vscode.workspace.openTextDocument(uri);
        await vscode.languages.setTextDocumentLanguage(mergedDocument, 'yaml');
        await vscode.window.showTextDocument(mergedDocument, { preview: false });
        return uri;
      },
    }),
  ]);
  return vscode.Disposable.from(...disposables);
}

/** The active editor's CI file with its includes expanded by its project's server. */
async function mergedOfActiveEditor(services: Services, checks: CiLintChecks) {
  const document = activeYamlFile(
    vscode.l10n.t(
      'Open the CI file (.gitlab-ci.yml) in the editor first, then show its merged configuration.',
    ),
  );
  const found = await checks.projectOf(document);
  if (!found)
    throw new Error(
      vscode.l10n.t(
        "The merged configuration needs the server: this file's folder is not a clone of a project on your accounts.",
      ),
    );
  const client = await services.accounts.client(found.account.id);
  const answer = await withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Expanding the CI file’s includes'),
    },
    () => client.lintCiConfig(found.project.id, document.getText()),
  ).then(undefined, (error: unknown) => {
    if (error instanceof NotFoundError)
      throw new Error(
        vscode.l10n.t(
          'This server has no CI lint, which gives the merged configuration (GitLab 13.6 or later has it).',
        ),
        {
          cause: error,
        },
      );
    throw error;
  });
  if (!answer.merged_yaml)
    throw new Error(
      vscode.l10n.t(
        'The server gave no merged configuration: {0}',
        (answer.errors ?? []).join(' ') || vscode.l10n.t('it found the file invalid.'),
      ),
    );
  const fileName = path.basename(document.uri.fsPath);
  const merged = ciMergedText(fileName, answer.merged_yaml, answer.includes ?? []);
  return { merged, found, fileName };
}

/** A header line's link: a local include inside the clone, or a web page; nothing else is a link. */
function linkOf({ line, start, end, include }: CiIncludeLine, repositoryRoot: string): vscode.DocumentLink[] {
  const range = new vscode.Range(line, start, line, end);
  if (include.type === 'local' && include.location) {
    const file = path.resolve(repositoryRoot, `.${path.posix.sep}${include.location.replace(/^\/+/, '')}`);
    // A location that climbs out of the clone is no file of it.
    if (file === repositoryRoot || !file.startsWith(`${repositoryRoot}${path.sep}`)) return [];
    const link = new vscode.DocumentLink(range, vscode.Uri.file(file));
    link.tooltip = vscode.l10n.t('Open the included file');
    return [link];
  }
  const web = checkWebLink(include.blob ?? include.location);
  if (!web.ok) return [];
  const link = new vscode.DocumentLink(range, vscode.Uri.parse(web.url, true));
  link.tooltip = vscode.l10n.t('Open the included file on the web');
  return [link];
}
