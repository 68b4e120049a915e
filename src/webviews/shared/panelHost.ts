import * as vscode from 'vscode';
import type { z } from 'zod';
import type { CspViolationMessage, RenderedMessage } from './pageMessages';
import { type PanelRestoreKey, RESTORE_KEY_MESSAGE } from './restoreKey';
import { type FirstPaint, webviewHtml, webviewOptions } from './webviewHtml';
import { openServerLink } from '../../platform/serverLinks';

export type { PanelRestoreKey } from './restoreKey';

/** How many posted messages a panel remembers for host tests (the oldest are dropped). */
const SENT_HISTORY = 200;
/** Longer strings are cut in the remembered copy, so a 20 MB trace is not kept twice. */
const HISTORY_STRING_CHARS = 256 * 1024;

function shrinkForHistory<Message>(message: Message): Message {
  if (typeof message !== 'object' || message === null) return message;
  const entries = Object.entries(message);
  const tooLong = (value: unknown): boolean =>
    (typeof value === 'string' || value instanceof Uint8Array) && value.length > HISTORY_STRING_CHARS;
  if (!entries.some(([, value]) => tooLong(value))) return message;
  return Object.fromEntries(
    entries.map(([key, value]: [string, unknown]) => {
      if (!tooLong(value)) return [key, value];
      // A copy of the start: a view would keep the whole buffer alive.
      if (value instanceof Uint8Array) return [key, value.slice(0, HISTORY_STRING_CHARS)];
      const text = value as string;
      return [key, vscode.l10n.t('{0}…[{1} characters]', text.slice(0, HISTORY_STRING_CHARS), text.length)];
    }),
  ) as Message;
}

export interface PanelHostOptions<FromPage extends { type: string }> {
  /** e.g. 'jobTrace': used in the view type `forge.<kind>` and in log lines. */
  kind: string;
  /** The bundle under dist/webviews. */
  app: string;
  title: string;
  extensionUri: vscode.Uri;
  log: vscode.LogOutputChannel;
  /** Every message from the page is parsed with this before anything acts on it. */
  schema: z.ZodType<FromPage>;
  /** Icon on the editor tab. */
  iconPath?: vscode.Uri | { light: vscode.Uri; dark: vscode.Uri };
  /** The page starts workers (from blob: URLs, the only kind webviews allow). */
  workers?: boolean;
  /** What opens this panel again after a window reload; the page keeps it in its state. */
  restoreKey?: PanelRestoreKey;
  /** A panel VS Code restored after a reload, to fill instead of creating one. */
  restoredPanel?: vscode.WebviewPanel;
  /**
   * What the page shows in its first frame, before its script has run. A promise: the panel opens at
   * once and its HTML is set when the promise settles (VS Code prepares the webview meanwhile, so a
   * wait shorter than that costs nothing); a rejection sets the page without a first paint.
   */
  firstPaint?: FirstPaint | Promise<FirstPaint | undefined>;
}

/**
 * One webview panel and its message channel. The page may be torn down whenever the panel is hidden
 * (panels do not keep their context, to save memory), so the protocol is: the page sends `ready` each
 * time it loads, and the owner answers with a full snapshot from `onReady`. Messages posted while the
 * page is not ready are dropped, not queued: the next snapshot supersedes them.
 */
export class PanelHost<FromPage extends { type: string }, ToPage>
  implements vscode.Disposable, PanelHostView
{
  readonly panel: vscode.WebviewPanel;
  /** The last messages posted to the page, newest last (host tests read them). */
  readonly sent: ToPage[] = [];
  /** Content-Security-Policy violations the page reported; always expected to stay empty. */
  readonly violations: CspViolationMessage[] = [];
  readonly pageErrors: string[] = [];
  readonly renders: RenderedMessage[] = [];
  /** Messages that failed validation and were ignored. */
  rejectedMessages = 0;

  private ready = false;
  /** The page's HTML holds a first paint (only until the page is first hidden). */
  private hasFirstPaint = false;
  private restoreKey: PanelRestoreKey | undefined;
  private disposed = false;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly readyEmitter = new vscode.EventEmitter<void>();
  private handler: ((message: FromPage) => unknown) | undefined;
  private readonly disposeEmitter = new vscode.EventEmitter<void>();
  /** Fires every time the page has loaded and asks for its state. */
  readonly onReady = this.readyEmitter.event;
  readonly onDidDispose = this.disposeEmitter.event;

  constructor(private readonly options: PanelHostOptions<FromPage>) {
    if (options.restoredPanel) {
      this.panel = options.restoredPanel;
      this.panel.title = options.title;
      this.panel.webview.options = webviewOptions(options.extensionUri);
    } else {
      this.panel = vscode.window.createWebviewPanel(
        `forge.${options.kind}`,
        options.title,
        { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
        webviewOptions(options.extensionUri),
      );
    }
    this.restoreKey = options.restoreKey;
    if (options.iconPath) this.panel.iconPath = options.iconPath;
    const { firstPaint } = options;
    if (firstPaint instanceof Promise) {
      const createdAt = Date.now();
      firstPaint.then(
        (painted) => this.setPage(painted, createdAt),
        (error: unknown) => {
          this.logError(error);
          this.setPage(undefined, createdAt);
        },
      );
    } else {
      this.setPage(firstPaint);
    }
    this.subscriptions.push(
      this.panel.webview.onDidReceiveMessage((message: unknown) => {
        this.receive(message).catch((error: unknown) => this.logError(error));
      }),
      this.panel.onDidChangeViewState(({ webviewPanel }) => {
        if (webviewPanel.visible) return;
        this.ready = false;
        // The page loads again when shown, and restores its own place: a first paint from when the
        // panel opened would show old rows or an old state until then.
        if (this.hasFirstPaint) this.setPage(undefined);
      }),
      this.panel.onDidDispose(() => this.dispose()),
    );
  }

  /** Sets the page's HTML (once), with its first paint if there is one. */
  private setPage(firstPaint: FirstPaint | undefined, panelCreatedAt?: number): void {
    if (this.disposed) return;
    this.hasFirstPaint = firstPaint !== undefined;
    this.panel.webview.html = webviewHtml({
      webview: this.panel.webview,
      extensionUri: this.options.extensionUri,
      app: this.options.app,
      title: this.options.title,
      workers: this.options.workers ?? false,
      ...(firstPaint ? { firstPaint } : {}),
      ...(panelCreatedAt === undefined ? {} : { panelCreatedAt }),
    });
  }

  /**
   * Handles validated messages other than the common ones (ready, cspViolation, pageError, rendered).
   * `receive` resolves when the handler has finished, so tests can wait for an action to complete.
   */
  handleMessages(handler: (message: FromPage) => unknown): void {
    this.handler = handler;
  }

  get isReady(): boolean {
    return this.ready;
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  set title(title: string) {
    if (!this.disposed) this.panel.title = title;
  }

  /** Sends a message if the page is listening; otherwise drops it (the next `ready` gets a snapshot). */
  post(message: ToPage): boolean {
    if (this.disposed || !this.ready) return false;
    this.sent.push(shrinkForHistory(message));
    if (this.sent.length > SENT_HISTORY) this.sent.splice(0, this.sent.length - SENT_HISTORY);
    this.panel.webview.postMessage(message).then(undefined, (error: unknown) => this.logError(error));
    return true;
  }

  /** Changes what the panel reopens after a reload (a retried job shows the new one). */
  setRestoreKey(key: PanelRestoreKey): void {
    this.restoreKey = key;
    this.sendRestoreKey();
  }

  private sendRestoreKey(): void {
    if (this.disposed || !this.ready || !this.restoreKey) return;
    // The bridge (app/bridge.ts) takes this message itself and keeps the key in the page's state.
    this.panel.webview
      .postMessage({ type: RESTORE_KEY_MESSAGE, key: this.restoreKey })
      .then(undefined, (error: unknown) => this.logError(error));
  }

  reveal(): void {
    if (!this.disposed) this.panel.reveal(undefined, false);
  }

  /** Shows the panel and posts `message` once its page listens (a hidden page loads again first). */
  revealAndPost(message: ToPage): void {
    this.reveal();
    if (this.ready) {
      this.post(message);
      return;
    }
    const listening = this.onReady(() => {
      listening.dispose();
      this.post(message);
    });
  }

  /**
   * Validates one message from the page and dispatches it. Public so host tests can drive the same
   * path the page does; an invalid message is logged and ignored, never acted on.
   */
  async receive(raw: unknown): Promise<void> {
    const parsed = this.options.schema.safeParse(raw);
    if (!parsed.success) {
      this.rejectedMessages++;
      const type =
        typeof raw === 'object' && raw !== null ? String((raw as { type?: unknown }).type) : typeof raw;
      this.options.log.warn(
        `${this.options.kind} panel: ignored an invalid message (type ${type.slice(0, 40)})`,
      );
      return;
    }
    const message = parsed.data as FromPage & Record<string, unknown>;
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.readyEmitter.fire();
        this.sendRestoreKey();
        return;
      case 'cspViolation':
        this.violations.push(message as unknown as CspViolationMessage);
        this.options.log.error(
          `${this.options.kind} panel: Content-Security-Policy blocked ${String(message['blockedUri'])} (${String(message['directive'])})`,
        );
        return;
      case 'pageError':
        this.pageErrors.push(String(message['message']));
        this.options.log.error(`${this.options.kind} panel: ${String(message['message'])}`);
        return;
      case 'rendered':
        this.renders.push(message as unknown as RenderedMessage);
        return;
      case 'openLink':
        await openServerLink(String(message['url']), vscode.l10n.t('the link'));
        return;
      default:
        await this.handler?.(message);
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.ready = false;
    this.disposeEmitter.fire();
    for (const subscription of this.subscriptions) subscription.dispose();
    this.readyEmitter.dispose();
    this.disposeEmitter.dispose();
    this.panel.dispose();
  }

  private logError(error: unknown): void {
    this.options.log.error(
      `${this.options.kind} panel: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** What the registry and host tests use of a panel's host, whatever its messages. */
export interface PanelHostView {
  readonly panel: vscode.WebviewPanel;
  readonly sent: readonly unknown[];
  readonly violations: readonly CspViolationMessage[];
  readonly pageErrors: readonly string[];
  readonly renders: readonly RenderedMessage[];
  readonly rejectedMessages: number;
  readonly isReady: boolean;
  readonly isDisposed: boolean;
  readonly onDidDispose: vscode.Event<void>;
  reveal(): void;
  receive(raw: unknown): Promise<void>;
}

/** An open panel of some kind, as the registry and host tests see it. */
export interface OpenPanel extends vscode.Disposable {
  readonly host: PanelHostView;
}

/**
 * Open panels by key (`jobTrace:<account>:<project>:<job>` …): opening the same thing again reveals
 * the panel that shows it instead of making a second one.
 */
export class PanelRegistry<Panel extends OpenPanel> implements vscode.Disposable {
  private readonly panels = new Map<string, Panel>();

  get(key: string): Panel | undefined {
    return this.panels.get(key);
  }

  get size(): number {
    return this.panels.size;
  }

  values(): IterableIterator<Panel> {
    return this.panels.values();
  }

  /** Reveals the panel for `key`, or creates it; the registry forgets it when it closes. */
  openOrReveal(key: string, create: () => Panel): { panel: Panel; created: boolean } {
    const existing = this.panels.get(key);
    if (existing && !existing.host.isDisposed) {
      existing.host.reveal();
      return { panel: existing, created: false };
    }
    const panel = create();
    this.panels.set(key, panel);
    panel.host.onDidDispose(() => {
      for (const [candidateKey, candidate] of this.panels) {
        if (candidate === panel) this.panels.delete(candidateKey);
      }
    });
    return { panel, created: true };
  }

  /** Files a panel under a new key (a panel that now shows another job after a retry). */
  rekey(panel: Panel, key: string): void {
    for (const [oldKey, candidate] of this.panels) if (candidate === panel) this.panels.delete(oldKey);
    this.panels.set(key, panel);
  }

  dispose(): void {
    for (const panel of [...this.panels.values()]) panel.dispose();
    this.panels.clear();
  }
}
