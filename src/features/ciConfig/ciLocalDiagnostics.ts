import * as vscode from 'vscode';
import { checkCiReferences } from '../../domain/ciLocalChecks';
import { isCiFile } from './ciLintChecks';
import { PerDocumentDebounce } from './perDocumentDebounce';

/** Typing pauses shorter than this are one check. */
const TYPING_DEBOUNCE_MS = 200;

/**
 * The CI file's reference checks (`domain/ciLocalChecks.ts`) as the user types, in the Problems view
 * with the source "Forge CI check". Once the server has given its verdict on the file's very text,
 * they step aside: the server's are the ones to read, and the same mistake is not listed twice.
 */
export class CiLocalDiagnostics implements vscode.Disposable {
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('forge-ci-local');
  private readonly typing = new PerDocumentDebounce(TYPING_DEBOUNCE_MS);
  private readonly disposables: vscode.Disposable[] = [this.diagnostics];
  /** The text of each file the server last gave its verdict on. */
  private readonly verdictText = new Map<string, string>();

  constructor() {
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

  /** The server answered for `content`: while the file still reads so, its verdict stands alone. */
  serverChecked(document: vscode.TextDocument, content: string): void {
    this.verdictText.set(document.uri.toString(), content);
    if (document.getText() === content) this.diagnostics.delete(document.uri);
  }

  private schedule(document: vscode.TextDocument): void {
    if (isCiFile(document)) this.typing.schedule(document, () => this.check(document));
  }

  private check(document: vscode.TextDocument): void {
    if (document.isClosed) return;
    // A check that waited out the server's answer on this very text has nothing to add.
    if (this.verdictText.get(document.uri.toString()) === document.getText()) {
      this.diagnostics.delete(document.uri);
      return;
    }
    const source = vscode.l10n.t('Forge CI check');
    this.diagnostics.set(
      document.uri,
      checkCiReferences(document.getText()).map(({ message, range }) => {
        const diagnostic = new vscode.Diagnostic(
          new vscode.Range(range.startLine, range.startCharacter, range.endLine, range.endCharacter),
          message,
          vscode.DiagnosticSeverity.Error,
        );
        diagnostic.source = source;
        return diagnostic;
      }),
    );
  }
}
