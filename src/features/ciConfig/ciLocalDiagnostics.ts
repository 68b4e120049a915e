import * as vscode from 'vscode';
import type { CiLocalProblem } from '../../domain/ciLocalChecks';
import type { CiCheckThread } from './ciCheckThread';
import { isCiFile } from './ciLintChecks';
import type { CiSchemaSource } from './ciSchemaSource';
import { PerDocumentDebounce } from './perDocumentDebounce';

/** Typing pauses shorter than this are one check. */
const TYPING_DEBOUNCE_MS = 200;

/**
 * The CI file's reference checks (`domain/ciLocalChecks.ts`, errors, source "Forge CI check") and
 * GitLab's schema (`domain/ciSchemaCheck.ts`, warnings: the schema can lag behind the server, source
 * "GitLab CI schema") as the user types, in the Problems view. Once the server has given its verdict
 * on the file's very text, they step aside: the server's are the ones to read, and the same mistake
 * is not listed twice. The schema's step aside too when Red Hat's YAML extension checks with it.
 */
export class CiLocalDiagnostics implements vscode.Disposable {
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('forge-ci-local');
  private readonly typing = new PerDocumentDebounce(TYPING_DEBOUNCE_MS);
  private readonly disposables: vscode.Disposable[] = [this.diagnostics];
  /** The text of each file the server last gave its verdict on. */
  private readonly verdictText = new Map<string, string>();

  constructor(
    private readonly schemaSource: CiSchemaSource,
    private readonly thread: CiCheckThread,
  ) {
    this.disposables.push(
      vscode.workspace.onDidOpenTextDocument((document) => this.schedule(document)),
      vscode.workspace.onDidChangeTextDocument(({ document }) => this.schedule(document)),
      vscode.workspace.onDidCloseTextDocument((document) => {
        this.diagnostics.delete(document.uri);
        this.verdictText.delete(document.uri.toString());
      }),
    );
    for (const document of vscode.workspace.textDocuments) this.schedule(document);
  }

  dispose(): void {
    this.typing.dispose();
    for (const disposable of this.disposables) disposable.dispose();
  }

  /**
   * The server is checking the file's text: the check as typed waits (it would be replaced by the
   * verdict, and would only hold up the answer's handling); `serverFailed` brings it back.
   */
  serverChecking(document: vscode.TextDocument): void {
    this.typing.cancel(document);
  }

  serverFailed(document: vscode.TextDocument): void {
    this.schedule(document);
  }

  /** The server answered for `content`: while the file still reads so, its verdict stands alone. */
  serverChecked(document: vscode.TextDocument, content: string): void {
    this.verdictText.set(document.uri.toString(), content);
    if (document.getText() === content) this.diagnostics.delete(document.uri);
  }

  private schedule(document: vscode.TextDocument): void {
    if (isCiFile(document)) this.typing.schedule(document, () => void this.check(document));
  }

  /** Checks the document's text now, on the checks' own thread; resolves once its diagnostics are set. */
  async check(document: vscode.TextDocument): Promise<void> {
    const text = document.getText();
    const { references, schema } = await this.thread.check(text, !this.schemaSource.schemaHandledElsewhere);
    if (document.isClosed || document.getText() !== text) return;
    // A check that waited out the server's answer on this very text has nothing to add.
    if (this.verdictText.get(document.uri.toString()) === document.getText()) {
      this.diagnostics.delete(document.uri);
      return;
    }
    this.diagnostics.set(document.uri, [
      ...references.map((problem) =>
        diagnosticOf(problem, vscode.DiagnosticSeverity.Error, vscode.l10n.t('Forge CI check')),
      ),
      ...schema.map((problem) =>
        diagnosticOf(problem, vscode.DiagnosticSeverity.Warning, vscode.l10n.t('GitLab CI schema')),
      ),
    ]);
  }
}

function diagnosticOf(
  { message, range }: CiLocalProblem,
  severity: vscode.DiagnosticSeverity,
  source: string,
): vscode.Diagnostic {
  const diagnostic = new vscode.Diagnostic(
    new vscode.Range(range.startLine, range.startCharacter, range.endLine, range.endCharacter),
    message,
    severity,
  );
  diagnostic.source = source;
  return diagnostic;
}
