/**
 * Review in the diff editor, for the VS Code benchmark: ours (a changed file of !1 clicked under
 * "Changes", both sides read from the server) and VS Code's own floor (a diff of the same two texts
 * from a provider that has them at hand, opened by a command of a bench extension in a fresh window,
 * in the same order). The first diffs of a window are slow whoever opens them: the diff editor, its
 * worker and the language's support start then; the floor tells how much of that is VS Code's.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { FakeForge } from '../test/server';
import { type VscodeSession, startVscode } from '../test/vscode/harness';
import {
  collapsePane,
  expandPane,
  expectQuickInput,
  openActivityBarView,
  runCommand,
  treeRow,
  waitUntil,
} from '../test/e2e/support';
import { commandInPalette, writeBenchExtension } from './benchExtension';
import { median } from './report';

/** The files of !1 (acme/web) opened in turn, with a text of the new side the editor must show. */
export const REVIEW_FILES = [
  { name: 'login.ts', path: 'src/login.ts', text: 'renderLoginForm' },
  { name: 'index.ts', path: 'src/index.ts', text: 'createServer' },
  { name: 'login.test.ts', path: 'test/login.test.ts', text: 'the form posts' },
] as const;

export interface ReviewSides {
  name: string;
  text: string;
  /** Empty for an added file. */
  base: string;
  head: string;
}

/** Both sides of each file of !1, read from the fake forge. */
export async function reviewSides(forge: FakeForge): Promise<ReviewSides[]> {
  const projectId = forge.fixtures.projects.web;
  if (projectId === undefined) throw new Error('the seed has no acme/web');
  const get = async (apiPath: string): Promise<Response> =>
    fetch(`${forge.url}/api/v4/projects/${projectId}${apiPath}`, {
      headers: { 'private-token': forge.userToken },
    });
  // The newest version's commits, as the extension reads them when a server sends no `diff_refs`.
  const versions = (await (await get('/merge_requests/1/versions')).json()) as {
    base_commit_sha: string;
    head_commit_sha: string;
  }[];
  const newest = versions[0];
  if (!newest) throw new Error('!1 has no versions');
  const raw = async (file: string, ref: string): Promise<string> => {
    const response = await get(`/repository/files/${encodeURIComponent(file)}/raw?ref=${ref}`);
    return response.status === 404 ? '' : await response.text();
  };
  return Promise.all(
    REVIEW_FILES.map(async (file) => ({
      name: file.name,
      text: file.text,
      base: await raw(file.path, newest.base_commit_sha),
      head: await raw(file.path, newest.head_commit_sha),
    })),
  );
}

/** CPU time (ms) of each running TypeScript server process, by pid. */
function typeScriptServers(): Map<number, number> {
  const servers = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('tsserver.js')) continue;
      // utime and stime, fields 14 and 15, after the command name in parentheses.
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      servers.set(Number(entry), (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // The process ended meanwhile.
    }
  }
  return servers;
}

/**
 * Opens a TypeScript file of the window's own and waits until VS Code's TypeScript servers have
 * started and gone idle. They start seconds after a window's first TypeScript document and slow
 * down whatever diff is opening then, by timing alone (the same file took 6.3 s in one window and
 * 1.9 s in the other, 2026-11-27): both windows wait them out before the first file.
 */
export async function warmTypeScript(session: VscodeSession, page: Page): Promise<void> {
  writeFileSync(path.join(session.workspaceFolder, 'warm.ts'), 'export const warm: number = 1;\n');
  await page.keyboard.press('Control+P');
  await expectQuickInput(page, /./);
  await page.keyboard.type('warm.ts');
  await page.locator('.quick-input-widget .monaco-list-row[aria-label*="warm.ts"]').first().waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.monaco-editor .view-lines', { hasText: 'export const warm' }).first().waitFor();
  await waitUntil(
    () => Promise.resolve(typeScriptServers().size > 0),
    60_000,
    'the TypeScript servers started',
  );
  // Idle: no server used more than 20 ms of CPU over the last second.
  let last = typeScriptServers();
  await waitUntil(
    async () => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const now = typeScriptServers();
      const busy = [...now].some(([pid, cpu]) => cpu - (last.get(pid) ?? 0) > 20);
      last = now;
      return !busy;
    },
    60_000,
    'the TypeScript servers idle',
  );
  await runCommand(page, 'View: Close All Editors');
}

/** Waits for the diff editor to show `text` on its new side; ms since `started`. */
async function diffShown(page: Page, text: string, started: number): Promise<number> {
  await page
    .locator('.monaco-diff-editor .editor.modified .view-lines', { hasText: text })
    .first()
    .waitFor({ timeout: 30_000 });
  return Date.now() - started;
}

/** Ours: each file clicked under "Changes" of !1 in the Merge Requests view, ms to its diff shown. */
export async function measureReview(page: Page): Promise<number[]> {
  await runCommand(page, 'View: Close All Editors');
  await openActivityBarView(page, 'Forge');
  await collapsePane(page, 'Projects');
  await expandPane(page, 'Merge Requests');
  const group = treeRow(page, 'Merge Requests', /^Assigned to me/);
  await group.waitFor({ timeout: 60_000 });
  if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
  const mergeRequest = treeRow(page, 'Merge Requests', /^!1 Add a login form/);
  await mergeRequest.waitFor({ timeout: 30_000 });
  // Expanding the row, not opening it: the twistie.
  await mergeRequest.locator('.monaco-tl-twistie').click();
  const changes = treeRow(page, 'Merge Requests', /^Changes/);
  await changes.waitFor({ timeout: 30_000 });
  await changes.locator('.monaco-tl-twistie').click();
  const times: number[] = [];
  for (const file of REVIEW_FILES) {
    const row = treeRow(page, 'Merge Requests', new RegExp(`^${file.name.replace('.', '\\.')}`));
    await row.waitFor({ timeout: 30_000 });
    const started = Date.now();
    await row.click();
    times.push(await diffShown(page, file.text, started));
  }
  return times;
}

const OPEN_DIFF_TITLE = 'Bench: Open Next Diff';

/**
 * An extension with one command, "Bench: Open Next Diff", that opens the next pair of `sides` in
 * VS Code's diff editor (`vscode.diff`), both texts served from memory by a content provider.
 */
function writeDiffFloorExtension(parent: string, sides: ReviewSides[]): string {
  return writeBenchExtension(
    parent,
    'diff-floor',
    `const vscode = require('vscode');
const sides = require('./sides.json');
let next = 0;
exports.activate = (context) => {
  const texts = new Map();
  context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider('bench-side', {
    provideTextDocumentContent: (uri) => texts.get(uri.toString()) ?? '',
  }));
  context.subscriptions.push(vscode.commands.registerCommand('forgeBench.openNextDiff', async () => {
    const pair = sides[next++ % sides.length];
    const base = vscode.Uri.from({ scheme: 'bench-side', path: '/base/' + pair.name });
    const head = vscode.Uri.from({ scheme: 'bench-side', path: '/head/' + pair.name });
    texts.set(base.toString(), pair.base);
    texts.set(head.toString(), pair.head);
    await vscode.commands.executeCommand('vscode.diff', base, head, pair.name);
  }));
};
exports.deactivate = () => {};
`,
    {
      commands: [{ command: 'forgeBench.openNextDiff', title: OPEN_DIFF_TITLE }],
      files: { 'sides.json': JSON.stringify(sides) },
    },
  );
}

/**
 * VS Code's floor: a fresh window (as ours is the first diff of its window) opens the same pairs in
 * the same order through the bench extension's command, each timed from the Enter in the command
 * palette to the diff editor showing the new side.
 */
export async function measureDiffFloor(parent: string, sides: ReviewSides[]): Promise<number[]> {
  const vscode = await startVscode({
    name: 'bench-diff-floor',
    extraExtensionDirs: [writeDiffFloorExtension(parent, sides)],
  });
  try {
    const page = vscode.page;
    if (!page) throw new Error('no browser page');
    await warmTypeScript(vscode, page);
    const times: number[] = [];
    for (const pair of sides) {
      await runCommand(page, 'View: Close All Editors');
      const input = await commandInPalette(page, OPEN_DIFF_TITLE);
      const started = Date.now();
      await input.press('Enter');
      times.push(await diffShown(page, pair.text, started));
    }
    return times;
  } finally {
    await vscode.close();
  }
}

/** The review's figures: ours, the floor, and ours ÷ floor, per file and as medians. */
export function reviewFigures(ours: number[], floor: number[]): Record<string, number> {
  const ratios = ours.map((value, index) => value / (floor[index] ?? NaN));
  const figures: Record<string, number> = {
    fileToDiffMedianMs: median(ours),
    fileToDiffMaxMs: Math.max(...ours),
    floorMedianMs: median(floor),
    floorMaxMs: Math.max(...floor),
    oursOverFloorMedian: median(ratios),
  };
  REVIEW_FILES.forEach((file, index) => {
    figures[`${file.name}: ours ms`] = ours[index] ?? NaN;
    figures[`${file.name}: VS Code's floor ms`] = floor[index] ?? NaN;
  });
  return figures;
}
