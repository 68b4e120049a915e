import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CiLint } from '../../api/hosting';
import { CancelledError, NotFoundError, UncertainWriteError } from '../../api/http';
import { ciMessagePlacer, type PlacedCiMessage } from '../../domain/ciLintPlaces';
import { describeError, InvalidInputError } from '../../platform/commands/registerCommand';
import { showStatusMessage, withProgress } from '../../platform/userMessages';
import type { Services } from '../../services';
import { type FolderProject, localRepository, projectOfRepository } from '../projects';

/** The CI file GitLab reads by default; other YAML files are checked on command only. */
const CI_FILE_NAME = '.gitlab-ci.yml';
const QUIET_NOTE_MS = 8_000;

/** What one check found (the command returns it; host tests read it). */
export interface CiCheckOutcome {
  valid: boolean;
  errors: readonly string[];
  warnings: readonly string[];
  /** The problems put on their lines (the diagnostics' ranges, 0-based). */
  placed: readonly { message: string; line: number }[];
  /**
   * The lint request from its start to its answer, and the whole check from its start (a save's
   * event) to the problems on their lines, in milliseconds.
   */
  timings?: { requestMs: number; shownMs: number };
}

/** What the checks as typed need to know of the server's. */
export interface CiServerCheckListener {
  serverChecking(document: vscode.TextDocument): void;
  serverFailed(document: vscode.TextDocument): void;
  serverChecked(document: vscode.TextDocument, content: string): void;
}

/** The YAML file on disk in the active editor; else the user is told `missing` (what to open first). */
export function activeYamlFile(missing: string): vscode.TextDocument {
  const document = vscode.window.activeTextEditor?.document;
  if (!document || document.languageId !== 'yaml' || document.uri.scheme !== 'file')
    throw new InvalidInputError(missing);
  return document;
}

export function isCiFile(document: vscode.TextDocument): boolean {
  return document.uri.scheme === 'file' && path.basename(document.uri.fsPath) === CI_FILE_NAME;
}

/**
 * The server's verdict on a CI file, on its lines in the Problems view: checked when it is saved
 * (`forge.ciConfig.checkOnSave`) and on command, at once, one request in flight per file (a newer
 * save cancels the older check). A server out of reach or without the lint endpoint is one quiet
 * status bar note, never a notification per save.
 */
export class CiLintChecks implements vscode.Disposable {
  readonly diagnostics = vscode.languages.createDiagnosticCollection('forge-ci-lint');
  private readonly checked = new vscode.EventEmitter<{ uri: vscode.Uri; outcome: CiCheckOutcome }>();
  /** Each check whose answer is on the file's lines (the benchmark reads its timings). */
  readonly onDidCheck = this.checked.event;
  private readonly inFlight = new Map<string, AbortController>();
  /** The project of each repository root, found once a session (until the accounts change). */
  private readonly projects = new Map<string, Promise<FolderProject | undefined>>();
  private readonly disposables: vscode.Disposable[] = [this.diagnostics, this.checked];
  /** The text each file's diagnostics are of. */
  private readonly checkedText = new Map<string, string>();

  constructor(
    private readonly services: Services,
    /** Told when the server starts checking a file, fails to, and gives its verdict on a text. */
    private readonly listener: CiServerCheckListener = {
      serverChecking: () => undefined,
      serverFailed: () => undefined,
      serverChecked: () => undefined,
    },
  ) {
    this.disposables.push(
      vscode.workspace.onDidSaveTextDocument((document) => {
        if (isCiFile(document) && this.checkOnSave(document)) this.schedule(document);
      }),
      services.accounts.onDidChange(() => this.projects.clear()),
    );
  }

  dispose(): void {
    for (const controller of this.inFlight.values()) controller.abort();
    for (const disposable of this.disposables) disposable.dispose();
  }

  private checkOnSave(document: vscode.TextDocument): boolean {
    return vscode.workspace
      .getConfiguration('forge.ciConfig', document.uri)
      .get<boolean>('checkOnSave', true);
  }

  private schedule(document: vscode.TextDocument): void {
    // At once: the verdict is wanted a moment after the save, not a pause later. A save while a
    // check is out cancels that check (`check`), so one request at most is in flight per file.
    void this.check(document, { onSave: true }).catch((error: unknown) => this.noteQuietly(document, error));
  }

  /** The project whose clone holds the document, found once per folder. */
  projectOf(document: vscode.TextDocument): Promise<FolderProject | undefined> {
    const folder = path.dirname(document.uri.fsPath);
    const known = this.projects.get(folder);
    if (known) return known;
    const finding = localRepository(folder).then((repository) =>
      repository ? projectOfRepository(this.services, repository) : undefined,
    );
    this.projects.set(folder, finding);
    return finding;
  }

  /**
   * Checks the document's text with its project's server and puts the answer on its lines. Throws
   * a sentence that says what to do when the file's folder is no clone of a project on the accounts
   * (after a save: nothing happens then), or when the server has no lint endpoint.
   */
  async check(
    document: vscode.TextDocument,
    { onSave = false }: { onSave?: boolean } = {},
  ): Promise<CiCheckOutcome | undefined> {
    const startedAt = performance.now();
    const key = document.uri.toString();
    this.inFlight.get(key)?.abort();
    const controller = new AbortController();
    this.inFlight.set(key, controller);
    try {
      const found = await this.projectOf(document);
      // A CI file of a project elsewhere: saving it is none of our business; the command says why.
      if (!found && onSave) return undefined;
      if (!found)
        throw new Error(
          vscode.l10n.t(
            'The CI file was not checked: its folder is not a clone of a project on your accounts (its git remote matches none of them).',
          ),
        );
      const content = document.getText();
      const client = await this.services.accounts.client(found.account.id);
      this.listener.serverChecking(document);
      let requestMs = 0;
      const answering = withProgress(
        {
          location: vscode.ProgressLocation.Window,
          title: vscode.l10n.t('Checking the CI file with the server'),
        },
        () => {
          const sentAt = performance.now();
          return client
            .lintCiConfig(found.project.id, content, { signal: controller.signal })
            .finally(() => (requestMs = performance.now() - sentAt));
        },
      ).then(
        (answer) => ({ answer }),
        (error: unknown) => ({ error }),
      );
      // The file's places are read while the server checks the same text, not after it answered.
      const place = await new Promise<(messages: readonly string[]) => PlacedCiMessage[]>((resolve) =>
        setImmediate(() => resolve(ciMessagePlacer(content))),
      );
      const outcome = await answering;
      if ('error' in outcome) {
        if (!controller.signal.aborted) this.listener.serverFailed(document);
        if (outcome.error instanceof NotFoundError)
          throw new Error(
            vscode.l10n.t(
              'The CI file was not checked: this server has no CI lint (GitLab 13.6 or later has it).',
            ),
            { cause: outcome.error },
          );
        throw outcome.error;
      }
      if (controller.signal.aborted) return undefined;
      const shown = this.show(document, content, outcome.answer, place);
      const checked = { ...shown, timings: { requestMs, shownMs: performance.now() - startedAt } };
      this.checked.fire({ uri: document.uri, outcome: checked });
      return checked;
    } finally {
      if (this.inFlight.get(key) === controller) this.inFlight.delete(key);
    }
  }

  private show(
    document: vscode.TextDocument,
    content: string,
    answer: CiLint,
    place: (messages: readonly string[]) => PlacedCiMessage[],
  ): CiCheckOutcome {
    const errors = answer.errors ?? [];
    const warnings = answer.warnings ?? [];
    const placed = [
      ...place(errors).map((placed) => ({ ...placed, severity: vscode.DiagnosticSeverity.Error })),
      ...place(warnings).map((placed) => ({ ...placed, severity: vscode.DiagnosticSeverity.Warning })),
    ];
    this.checkedText.set(document.uri.toString(), content);
    this.listener.serverChecked(document, content);
    this.diagnostics.set(
      document.uri,
      placed.map(({ message, range, severity }) => {
        const diagnostic = new vscode.Diagnostic(
          new vscode.Range(range.startLine, range.startCharacter, range.endLine, range.endCharacter),
          message,
          severity,
        );
        diagnostic.source = vscode.l10n.t('GitLab CI lint');
        return diagnostic;
      }),
    );
    return {
      valid: answer.valid,
      errors,
      warnings,
      placed: placed.map(({ message, range }) => ({ message, line: range.startLine })),
    };
  }

  /**
   * A check after a save that could not be made: one status bar note; the diagnostics stay when they
   * are of the file's text, and go when they are of text since changed.
   */
  private noteQuietly(document: vscode.TextDocument, error: unknown): void {
    if (error instanceof CancelledError) return;
    // Problems found in other text than the file's now would point at the wrong lines.
    if (this.checkedText.get(document.uri.toString()) !== document.getText()) {
      this.diagnostics.delete(document.uri);
      this.checkedText.delete(document.uri.toString());
    }
    this.services.log.warn(`CI lint: ${error instanceof Error ? error.message : String(error)}`);
    // A check changes nothing on the server: a broken connection is no uncertain write here.
    const reason =
      error instanceof UncertainWriteError
        ? vscode.l10n.t('The CI file was not checked: the server did not answer ({0}).', error.code)
        : describeError(error);
    showStatusMessage(reason, QUIET_NOTE_MS);
  }
}
