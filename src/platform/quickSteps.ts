/*
 * Quick picks and input boxes as steps of one command. VS Code hands the focus back to the editor
 * when a quick input closes; when that editor is a webview, the focus comes back late and closes the
 * next question as soon as it shows (microsoft/vscode#93950): "Show Job Trace" from a focused trace
 * panel lost its second question. So a question answered while a command runs stays on screen,
 * busy and disabled, until the command's next question replaces it (the focus never leaves the
 * quick input) or the command ends. Outside a command it closes at once, as VS Code's own would.
 * Callers give text already made inert (userMessages.ts does, and is the only caller).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import * as vscode from 'vscode';

/**
 * How long after it shows a command's first question comes back once (with what was typed) if it
 * closes unanswered while a webview is the active editor: the palette closing gives the focus back
 * to the webview, which takes it late and closes the question (the same VS Code behaviour, before
 * our first question). An Escape that soon needs pressing twice.
 */
const REFOCUS_WINDOW_MS = 1_500;

/** Whether the active editor is a webview (ours or another extension's). */
function webviewEditorActive(): boolean {
  return vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputWebview;
}

/** The answered question a running command keeps on screen until its next one shows. */
class CommandSteps {
  private held: vscode.QuickInput | undefined;
  /** How many questions the command has shown. */
  asked = 0;

  hold(input: vscode.QuickInput): void {
    input.busy = true;
    input.enabled = false;
    this.held = input;
  }

  /** Closes the held question; `except` is the one that just replaced it. */
  release(except?: vscode.QuickInput): void {
    const held = this.held;
    this.held = undefined;
    if (held !== undefined && held !== except) held.dispose();
  }

  forget(input: vscode.QuickInput): void {
    if (this.held === input) this.held = undefined;
  }
}

const running = new AsyncLocalStorage<CommandSteps>();

/**
 * Closes the running command's answered question now: the command asks in a modal dialog or works
 * behind a notification next, and a busy question would stand there meanwhile.
 */
export function releaseHeldQuestion(): void {
  running.getStore()?.release();
}

/** Runs a command's handler so that its questions follow each other; the last one closes when it ends. */
export async function runAsCommandSteps<T>(handler: () => Promise<T>): Promise<T> {
  const steps = new CommandSteps();
  try {
    return await running.run(steps, handler);
  } finally {
    steps.release();
  }
}

/**
 * Shows `input`, closes the command's previous question behind it, and resolves with what `accept`
 * returns once it is not undefined; undefined when the question is dismissed or `token` cancels it.
 */
function ask<T>(
  input: vscode.QuickInput & { onDidAccept: vscode.Event<void> },
  accept: () => T | undefined | Promise<T | undefined>,
  token: vscode.CancellationToken | undefined,
): Promise<T | undefined> {
  const steps = running.getStore();
  const first = steps === undefined || steps.asked++ === 0;
  let guard = first && webviewEditorActive();
  const shownAt = Date.now();
  return new Promise<T | undefined>((resolve) => {
    let answered = false;
    const disposables: vscode.Disposable[] = [];
    const finish = (value: T | undefined): void => {
      if (answered) return;
      answered = true;
      for (const disposable of disposables) disposable.dispose();
      resolve(value);
    };
    const onAccept = async (): Promise<void> => {
      if (answered || !input.enabled) return;
      const value = await accept();
      if (value === undefined || answered) return;
      finish(value);
      if (steps === undefined) input.dispose();
      else steps.hold(input);
    };
    disposables.push(input.onDidAccept(() => void onAccept()));
    input.onDidHide(() => {
      if (guard && !answered && Date.now() - shownAt < REFOCUS_WINDOW_MS) {
        guard = false;
        input.show();
        return;
      }
      steps?.forget(input);
      finish(undefined);
      input.dispose();
    });
    if (token !== undefined)
      disposables.push(
        token.onCancellationRequested(() => {
          guard = false;
          input.hide();
        }),
      );
    input.show();
    steps?.release(input);
  });
}

/** A quick pick's options (`userMessages.ts` gives them, its text made inert). */
export interface PickOptions {
  title?: string;
  placeHolder?: string;
  matchOnDescription?: boolean;
  matchOnDetail?: boolean;
  ignoreFocusOut?: boolean;
}

/** A quick pick step: the chosen rows (one unless `canPickMany`), or undefined when dismissed. */
export function pickStep<Row extends vscode.QuickPickItem>(
  rows: readonly Row[],
  options: PickOptions & { canPickMany: boolean },
  token?: vscode.CancellationToken,
): Promise<readonly Row[] | undefined> {
  const pick = vscode.window.createQuickPick<Row>();
  pick.title = options.title;
  pick.placeholder = options.placeHolder;
  pick.matchOnDescription = options.matchOnDescription ?? false;
  pick.matchOnDetail = options.matchOnDetail ?? false;
  pick.ignoreFocusOut = options.ignoreFocusOut ?? false;
  pick.canSelectMany = options.canPickMany;
  pick.items = rows;
  // `picked` is honoured by showQuickPick only; a created pick takes it as its selection.
  if (options.canPickMany) pick.selectedItems = rows.filter((row) => row.picked === true);
  return ask(
    pick,
    () => {
      if (options.canPickMany) return [...pick.selectedItems];
      const chosen = pick.selectedItems[0] ?? pick.activeItems[0];
      return chosen === undefined ? undefined : [chosen];
    },
    token,
  );
}

/** An input box's options (`userMessages.ts` gives them, its text made inert). */
export interface InputOptions {
  title?: string;
  prompt?: string;
  placeHolder?: string;
  /** Prefilled text the user edits: kept exactly as it is (it is data, not a message). */
  value?: string;
  valueSelection?: [number, number];
  password?: boolean;
  ignoreFocusOut?: boolean;
  validateInput?: (value: string) => string | undefined | null | Thenable<string | undefined | null>;
}

/** An input box step: the text accepted (checked by `validateInput` as typed and on Enter), or undefined. */
export function inputStep(
  options: InputOptions,
  token?: vscode.CancellationToken,
): Promise<string | undefined> {
  const box = vscode.window.createInputBox();
  box.title = options.title;
  box.prompt = options.prompt;
  box.placeholder = options.placeHolder;
  box.value = options.value ?? '';
  if (options.valueSelection !== undefined) box.valueSelection = options.valueSelection;
  box.password = options.password ?? false;
  box.ignoreFocusOut = options.ignoreFocusOut ?? false;
  const validate = options.validateInput;
  let checked = 0;
  /** The message for `value`, shown unless the text changed again meanwhile. */
  const check = async (value: string): Promise<string | undefined> => {
    if (validate === undefined) return undefined;
    const turn = ++checked;
    const message = (await validate(value)) ?? undefined;
    if (turn === checked) box.validationMessage = message;
    return message;
  };
  // As showInputBox: the prefilled text is checked on Enter, not flagged before the user types.
  if (validate !== undefined) box.onDidChangeValue((value) => void check(value));
  return ask(
    box,
    async () => {
      const value = box.value;
      return (await check(value)) === undefined ? value : undefined;
    },
    token,
  );
}
