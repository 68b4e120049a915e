/*
 * The one door to VS Code's message APIs: notifications and modal messages, progress, status bar
 * messages, quick picks and input boxes. Every string given here may hold server text (a title, a
 * job or branch name, an error the server wrote), so every string is made inert on its way out:
 * `[label](command:...)` cannot become a link, `$(icon)` cannot become an icon. Our own icons are
 * given apart (`icon`), never inside the text. Lint forbids calling those APIs anywhere else
 * (eslint.config.mjs), so nothing reaches the user around this module.
 */
import * as vscode from 'vscode';
import { inertNotificationText, inertPickRow, inertStatusText } from '../domain/inertText';
import { type InputOptions, type PickOptions, inputStep, pickStep, releaseHeldQuestion } from './quickSteps';

export type { InputOptions, PickOptions } from './quickSteps';

export type MessageSeverity = 'information' | 'warning' | 'error' | 'status' | 'progress';

/** What the door showed, as VS Code got it (host tests read these; nothing else does). */
export interface ShownMessage {
  severity: MessageSeverity;
  text: string;
  detail?: string;
  /** The buttons offered with it, as shown. */
  buttons?: readonly string[];
}

const observers = new Set<(message: ShownMessage) => void>();

/** Calls `observer` with every message shown from now on, until the returned disposable is disposed. */
export function observeMessages(observer: (message: ShownMessage) => void): vscode.Disposable {
  observers.add(observer);
  return { dispose: () => observers.delete(observer) };
}

/** Answers modal questions instead of a person (host tests); undefined shows them as usual. */
type ModalAnswerer = (message: ShownMessage, buttons: readonly string[]) => string | undefined;
/** Picks a row instead of a person (host tests): the rows' labels as shown; undefined dismisses. */
type PickAnswerer = (labels: readonly string[], placeHolder: string | undefined) => number | undefined;

/** Who answers in a person's place, while host tests say so. */
/** Answers an input box with its prompt: the text (checked as typed text is), or undefined to dismiss. */
type InputAnswerer = (prompt: string | undefined, value: string | undefined) => string | undefined;

const answerers: { modal?: ModalAnswerer; pick?: PickAnswerer; input?: InputAnswerer } = {};

/** Lets `answerer` answer in a person's place until the returned disposable is disposed. */
function answerInstead<Kind extends keyof typeof answerers>(
  kind: Kind,
  answerer: NonNullable<(typeof answerers)[Kind]>,
): vscode.Disposable {
  answerers[kind] = answerer;
  return {
    dispose: () => {
      if (answerers[kind] === answerer) delete answerers[kind];
    },
  };
}

/** Lets `answerer` answer every modal question until the returned disposable is disposed. */
export function answerModals(answerer: ModalAnswerer): vscode.Disposable {
  return answerInstead('modal', answerer);
}

/** Lets `answerer` answer every single-choice quick pick until the returned disposable is disposed. */
export function answerPicks(answerer: PickAnswerer): vscode.Disposable {
  return answerInstead('pick', answerer);
}

/** Lets `answerer` answer every input box until the returned disposable is disposed. */
export function answerInputs(answerer: InputAnswerer): vscode.Disposable {
  return answerInstead('input', answerer);
}

let messageLog: { warn(line: string): void; error(line: string): void } | undefined;

/** Writes every warning and error shown to the user to the log too, so that "Forge: Show Log" has them. */
export function logShownMessages(log: { warn(line: string): void; error(line: string): void }): void {
  messageLog = log;
}

function shown(message: ShownMessage): void {
  if (message.severity === 'warning') messageLog?.warn(`Shown: ${message.text}`);
  else if (message.severity === 'error') messageLog?.error(`Shown: ${message.text}`);
  for (const observer of observers) observer(message);
}

export interface MessageOptions {
  modal?: boolean;
  detail?: string;
}

type Show = (
  message: string,
  options: vscode.MessageOptions,
  ...items: string[]
) => Thenable<string | undefined>;

function show(
  severity: 'information' | 'warning' | 'error',
  showIn: Show,
  message: string,
  optionsOrItem: MessageOptions | string | undefined,
  items: string[],
): Thenable<string | undefined> {
  const options = typeof optionsOrItem === 'object' ? optionsOrItem : {};
  const buttons = typeof optionsOrItem === 'string' ? [optionsOrItem, ...items] : items;
  const text = inertNotificationText(message);
  const detail = options.detail === undefined ? undefined : inertNotificationText(options.detail);
  const shownMessage = { severity, text, ...(detail === undefined ? {} : { detail }) };
  shown(buttons.length === 0 ? shownMessage : { ...shownMessage, buttons });
  const modal = answerers.modal;
  if (options.modal) releaseHeldQuestion();
  if (options.modal && modal) return Promise.resolve(modal(shownMessage, buttons));
  return showIn(text, { ...options, ...(detail === undefined ? {} : { detail }) }, ...buttons);
}

/** `showInformationMessage`, with the message and detail made inert; resolves with the button chosen. */
export function showInformation(
  message: string,
  optionsOrItem?: MessageOptions | string,
  ...items: string[]
): Thenable<string | undefined> {
  return show('information', vscode.window.showInformationMessage, message, optionsOrItem, items);
}

export function showWarning(
  message: string,
  optionsOrItem?: MessageOptions | string,
  ...items: string[]
): Thenable<string | undefined> {
  return show('warning', vscode.window.showWarningMessage, message, optionsOrItem, items);
}

export function showError(
  message: string,
  optionsOrItem?: MessageOptions | string,
  ...items: string[]
): Thenable<string | undefined> {
  return show('error', vscode.window.showErrorMessage, message, optionsOrItem, items);
}

/** A status bar message for `timeoutMs`; `icon` is ours (a codicon id), the text is made inert. */
export function showStatusMessage(text: string, timeoutMs: number, icon?: string): vscode.Disposable {
  const inert = inertStatusText(text);
  shown({ severity: 'status', text: inert });
  return vscode.window.setStatusBarMessage(icon ? `$(${icon}) ${inert}` : inert, timeoutMs);
}

export interface ProgressOptions {
  location: vscode.ProgressLocation | { viewId: string };
  title?: string;
  cancellable?: boolean;
}

export interface ProgressReporter {
  report(value: { message?: string; increment?: number }): void;
}

/** `withProgress`, with the title and every reported message made inert. */
export function withProgress<R>(
  options: ProgressOptions,
  task: (progress: ProgressReporter, token: vscode.CancellationToken) => Thenable<R>,
): Thenable<R> {
  const title = options.title === undefined ? undefined : inertNotificationText(options.title);
  if (title !== undefined) shown({ severity: 'progress', text: title });
  if (options.location === vscode.ProgressLocation.Notification) releaseHeldQuestion();
  return vscode.window.withProgress(
    { ...options, ...(title === undefined ? {} : { title }) },
    (progress, token) =>
      task(
        {
          report: ({ message, increment }) => {
            const inert = message === undefined ? undefined : inertNotificationText(message);
            if (inert !== undefined) shown({ severity: 'progress', text: inert });
            progress.report({
              ...(inert === undefined ? {} : { message: inert }),
              ...(increment === undefined ? {} : { increment }),
            });
          },
        },
        token,
      ),
  );
}

/**
 * Work behind a cancellable notification: Cancel aborts the signal handed to `work` (a listing of
 * everything, a long load), which may say how far it is through `progress`. The title is made
 * inert like every other.
 */
export function withCancellableProgress<T>(
  title: string,
  work: (signal: AbortSignal, progress: ProgressReporter) => Promise<T>,
): Thenable<T> {
  return withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    (progress, token) => {
      const controller = new AbortController();
      token.onCancellationRequested(() => controller.abort());
      return work(controller.signal, progress);
    },
  );
}

/** Work behind a notification; with `cancellable`, Cancel aborts the signal handed to `work`. */
export function withNotificationProgress<T>(
  title: string,
  work: (signal: AbortSignal) => Promise<T>,
  cancellable = false,
): Thenable<T> {
  return cancellable
    ? withCancellableProgress(title, work)
    : withProgress({ location: vscode.ProgressLocation.Notification, title }, () =>
        work(new AbortController().signal),
      );
}

/** A quick pick row: `label`, `description` and `detail` may be server text; `icon` is a codicon id of ours. */
export interface PickItem {
  label: string;
  description?: string;
  detail?: string;
  icon?: string;
  picked?: boolean;
  alwaysShow?: boolean;
  kind?: vscode.QuickPickItemKind;
}

interface ShownPickItem extends vscode.QuickPickItem {
  readonly index: number;
}

function displayedPickItem(item: PickItem, index: number): ShownPickItem {
  const separator = item.kind === vscode.QuickPickItemKind.Separator;
  return {
    index,
    ...inertPickRow(item, separator),
    ...(item.picked === undefined ? {} : { picked: item.picked }),
    ...(item.alwaysShow === undefined ? {} : { alwaysShow: item.alwaysShow }),
    ...(item.kind === undefined ? {} : { kind: item.kind }),
  };
}

function quickPickOptions(options: PickOptions): PickOptions {
  return {
    ...options,
    ...(options.title === undefined ? {} : { title: inertNotificationText(options.title) }),
    ...(options.placeHolder === undefined ? {} : { placeHolder: inertNotificationText(options.placeHolder) }),
  };
}

/** `showQuickPick` for one item; resolves with the caller's own item (not the inert copy). */
export async function pickOne<T extends PickItem>(
  items: readonly T[] | Thenable<readonly T[]>,
  options: PickOptions = {},
  token?: vscode.CancellationToken,
): Promise<T | undefined> {
  const list = await items;
  const rows = list.map((item, index) => displayedPickItem(item, index));
  const answer = answerers.pick;
  const chosen = answer
    ? rows[
        answer(
          rows.map((row) => row.label),
          quickPickOptions(options).placeHolder,
        ) ?? -1
      ]
    : (await pickStep(rows, { ...quickPickOptions(options), canPickMany: false }, token))?.[0];
  return chosen === undefined ? undefined : list[chosen.index];
}

/** `showQuickPick` with `canPickMany`; resolves with the caller's own items, or undefined when dismissed. */
export async function pickMany<T extends PickItem>(
  items: readonly T[] | Thenable<readonly T[]>,
  options: PickOptions = {},
  token?: vscode.CancellationToken,
): Promise<T[] | undefined> {
  const list = await items;
  const rows = list.map((item, index) => displayedPickItem(item, index));
  const answer = answerers.pick;
  if (answer) {
    // A test answers with one row, -1 for none (accepted empty), or undefined to dismiss.
    const index = answer(
      rows.map((row) => row.label),
      quickPickOptions(options).placeHolder,
    );
    if (index === undefined) return undefined;
    const item = list[index];
    return item === undefined ? [] : [item];
  }
  const chosen = await pickStep(rows, { ...quickPickOptions(options), canPickMany: true }, token);
  return chosen?.flatMap((row) => {
    const item = list[row.index];
    return item === undefined ? [] : [item];
  });
}

/** A live quick pick whose items change as the user types (a server search). */
export interface SearchPick<T extends PickItem> {
  readonly value: string;
  setItems(items: readonly T[]): void;
  setPlaceholder(text: string): void;
  setBusy(busy: boolean): void;
  onDidChangeValue(listener: (value: string) => void): void;
  onDidAccept(listener: (chosen: T | undefined) => void): void;
  onDidHide(listener: () => void): void;
  show(): void;
  hide(): void;
}

export function createSearchPick<T extends PickItem>(options: {
  title: string;
  placeholder: string;
}): SearchPick<T> {
  const pick = vscode.window.createQuickPick<ShownPickItem>();
  pick.title = inertNotificationText(options.title);
  pick.placeholder = inertNotificationText(options.placeholder);
  pick.matchOnDetail = false;
  let current: readonly T[] = [];
  return {
    get value() {
      return pick.value;
    },
    setItems(items) {
      current = items;
      pick.items = items.map((item, index) => displayedPickItem(item, index));
    },
    setPlaceholder(text) {
      pick.placeholder = inertNotificationText(text);
    },
    setBusy(busy) {
      pick.busy = busy;
    },
    onDidChangeValue(listener) {
      pick.onDidChangeValue(listener);
    },
    onDidAccept(listener) {
      pick.onDidAccept(() => {
        const row = pick.selectedItems[0];
        listener(row === undefined ? undefined : current[row.index]);
      });
    },
    onDidHide(listener) {
      pick.onDidHide(() => {
        listener();
        pick.dispose();
      });
    },
    show: () => pick.show(),
    hide: () => pick.hide(),
  };
}

/** An answer given instead of a person is checked as typed text is: refused text throws. */
async function answeredInput(
  text: string | undefined,
  validateInput: InputOptions['validateInput'],
): Promise<string | undefined> {
  if (text === undefined) return undefined;
  const refusal = await validateInput?.(text);
  if (typeof refusal === 'string' && refusal !== '') throw new Error(refusal);
  return text;
}

/** `showInputBox`, with its title, prompt, placeholder and validation messages made inert. */
export function askText(
  options: InputOptions = {},
  token?: vscode.CancellationToken,
): Promise<string | undefined> {
  const { validateInput } = options;
  const inert = (text: string | undefined): string | undefined =>
    text === undefined ? undefined : inertNotificationText(text);
  const answer = answerers.input;
  if (answer) return answeredInput(answer(options.prompt, options.value), validateInput);
  return inputStep(
    {
      ...options,
      title: inert(options.title),
      prompt: inert(options.prompt),
      placeHolder: inert(options.placeHolder),
      validateInput: validateInput
        ? async (value) => {
            const message = await validateInput(value);
            return message === undefined || message === null ? message : inertNotificationText(message);
          }
        : undefined,
    },
    token,
  );
}
