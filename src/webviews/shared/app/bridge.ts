/*
 * The page side of a panel's message channel (browser code). Sends `ready` once the app's listener
 * is in place, reports CSP violations and uncaught errors to the host, and keeps the page's own UI
 * state (tab, scroll, drafts) in the webview state so it survives the panel being hidden.
 */
import { RESTORE_KEY_MESSAGE } from '../restoreKey';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

export interface Bridge<ToHost, PageState> {
  post(message: ToHost): void;
  /** The UI state saved by an earlier load of this page, if any. */
  readonly savedState: Partial<PageState>;
  saveState(state: PageState): void;
  /** Milliseconds since the page script started. */
  elapsed(): number;
}

const started = performance.now();

/** Wall-clock milliseconds of a `performance.now()` reading, for a benchmark timing from outside. */
function wallClock(at: number): string {
  return String(Math.round(performance.timeOrigin + at));
}

// Where a page's first moments went, for the benchmark that times panels against an empty one.
document.documentElement.dataset['navigationStartAt'] = wallClock(0);
document.documentElement.dataset['scriptStartAt'] = wallClock(started);

/**
 * Every click on a link with an address goes to the host (`openLink`), which opens only web links;
 * VS Code's own link handling in webviews never sees one. In-page links (`#`) are the app's.
 */
function routeLinks(post: (message: unknown) => void): void {
  const follow = (event: MouseEvent): void => {
    const target = event.target instanceof Element ? event.target.closest('a[href]') : null;
    const href = target?.getAttribute('href') ?? '';
    if (!target || href === '' || href.startsWith('#')) return;
    event.preventDefault();
    if (event.type !== 'click' && event.button !== 1) return;
    // Also counted on the page itself, where a UI test reads it.
    const root = document.documentElement;
    root.dataset['linksRouted'] = String(Number(root.dataset['linksRouted'] ?? '0') + 1);
    post({ type: 'openLink', url: href.slice(0, 8192) });
  };
  document.addEventListener('click', follow, true);
  document.addEventListener('auxclick', follow, true);
}

/** Call once, after the app has registered its message listener. */
export function connect<ToHost, ToPage, PageState = Record<string, unknown>>(
  onMessage: (message: ToPage) => void,
): Bridge<ToHost, PageState> {
  const vscode = acquireVsCodeApi();
  const post = (message: unknown): void => vscode.postMessage(message);
  document.addEventListener('securitypolicyviolation', (event) => {
    // Also counted on the page itself, where a UI test reads it.
    const root = document.documentElement;
    root.dataset['cspViolations'] = String(Number(root.dataset['cspViolations'] ?? '0') + 1);
    post({
      type: 'cspViolation',
      directive: event.violatedDirective.slice(0, 200),
      blockedUri: event.blockedURI.slice(0, 2000),
      sample: event.sample.slice(0, 200),
    });
  });
  routeLinks(post);
  window.addEventListener('error', (event) => {
    post({ type: 'pageError', message: String(event.message).slice(0, 2000) });
  });
  window.addEventListener('unhandledrejection', (event) => {
    const reason: unknown = event.reason;
    post({
      type: 'pageError',
      message: (reason instanceof Error ? reason.message : String(reason)).slice(0, 2000),
    });
  });
  // The page wrote it itself (saveState below), in an earlier load.
  const saved = vscode.getState() as (Partial<PageState> & { restore?: unknown }) | null | undefined;
  // What reopens the panel after a window reload (panelHost.ts); kept beside the app's own state.
  let restore: unknown = saved?.restore;
  let state: unknown = saved;
  const keep = (next: unknown): void => {
    state = next;
    vscode.setState(
      restore === undefined ? next : { ...(typeof next === 'object' && next ? next : {}), restore },
    );
    // Tests wait for it before a window reload: the workbench keeps what was last set.
    if (restore !== undefined) document.documentElement.dataset['restorable'] = 'true';
  };
  window.addEventListener('message', (event: MessageEvent<ToPage>) => {
    document.documentElement.dataset['firstMessageAt'] ??= wallClock(performance.now());
    const data = event.data as { type?: unknown; key?: unknown } | null;
    if (data?.type === RESTORE_KEY_MESSAGE) {
      restore = data.key;
      keep(state);
      return;
    }
    try {
      onMessage(event.data);
    } catch (error) {
      post({
        type: 'pageError',
        message: (error instanceof Error ? error.message : String(error)).slice(0, 2000),
      });
    }
  });
  post({ type: 'ready' });
  return {
    post,
    savedState: saved ?? {},
    saveState: keep,
    elapsed: () => performance.now() - started,
  };
}

/** The host's first paint (written into the page's HTML, drawn before this script ran) has served its turn. */
export function dropFirstPaint(): void {
  document.getElementById('first-paint')?.remove();
}

/** Creates an element with text content only: server strings never become markup. */
export function element<Tag extends keyof HTMLElementTagNameMap>(
  tag: Tag,
  options: { className?: string; text?: string; title?: string } = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[Tag] {
  const node = document.createElement(tag);
  if (options.className) node.className = options.className;
  if (options.text !== undefined) node.textContent = options.text;
  if (options.title !== undefined) node.title = options.title;
  for (const child of children) node.append(child);
  return node;
}

/** A codicon, as the `vscode-icon` element draws it. */
export function icon(name: string, label?: string): HTMLElement {
  const node = document.createElement('vscode-icon');
  node.setAttribute('name', name);
  if (label) node.setAttribute('label', label);
  return node;
}
