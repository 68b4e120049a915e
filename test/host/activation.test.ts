// The first host suite: the real extension, installed in a real VS Code, activates and its
// package.json contributions match what it registers at run time.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ForgeWorkbenchApi } from '../../src/extension';
import { recordMeasurement } from './index';

const extensionId = 'forge-workbench.forge-workbench';

interface Manifest {
  contributes?: {
    commands?: { command: string }[];
    views?: Record<string, { id: string }[]>;
  };
}

function extension(): vscode.Extension<ForgeWorkbenchApi> {
  const found = vscode.extensions.getExtension<ForgeWorkbenchApi>(extensionId);
  assert.ok(found, `${extensionId} is not installed`);
  return found;
}

/**
 * Empty extensions (an `activate` that returns at once) the activation benchmark installs next to
 * ours: VS Code's own share of `ext.activate()`, activated just before and just after ours.
 */
const floorExtensionIds = { before: 'forge-bench.empty-before', after: 'forge-bench.empty-after' };

/** Activates an installed, inactive extension and returns how long `activate()` took, in ms. */
async function timeActivation(id: string): Promise<number | undefined> {
  const found = vscode.extensions.getExtension(id);
  if (!found || found.isActive) return undefined;
  const started = performance.now();
  await found.activate();
  return performance.now() - started;
}

describe('activation', () => {
  it('the extension is installed and activates', async () => {
    const ext = extension();
    const wasActive = ext.isActive;
    // Figures for docs/performance.md, not assertions (timings belong in benchmarks).
    const floorBefore = await timeActivation(floorExtensionIds.before);
    if (floorBefore !== undefined)
      recordMeasurement('empty extension activation, before ours, ms', floorBefore);
    const started = performance.now();
    const api = await ext.activate();
    if (!wasActive) recordMeasurement('activation (load + activate) ms', performance.now() - started);
    recordMeasurement('activate() body ms', api.activatedInMs);
    const floorAfter = await timeActivation(floorExtensionIds.after);
    if (floorAfter !== undefined) recordMeasurement('empty extension activation, after ours, ms', floorAfter);
    // What the first use pays once: loading and starting the core (reading the API loads it).
    assert.ok(api.coreCommandIds.length > 0);
    if (!wasActive && api.coreLoadedInMs !== undefined)
      recordMeasurement('core load on first use ms', api.coreLoadedInMs);
    assert.equal(ext.isActive, true);
    assert.ok(api, 'activate() returned nothing');
    assert.equal(typeof api.log, 'object');
    assert.equal(api.log.name, 'Forge Workbench');
  });

  it('the environment of the VS Code process reaches the extension host', () => {
    // test/host/run.ts and test/electron/run.ts pass the fake forge's address and tokens this way;
    // the extension signs in from them (design.md section 4).
    assert.match(process.env.FORGE_SERVER_URL ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(process.env.FORGE_TOKEN, 'FORGE_TOKEN is not set');
  });
});

describe('contributions contract', () => {
  let manifest: Manifest;
  let registered: string[];

  before(async () => {
    const ext = extension();
    await ext.activate();
    manifest = ext.packageJSON as Manifest;
    registered = await vscode.commands.getCommands(true);
  });

  it('every command in package.json is registered', () => {
    const declared = (manifest.contributes?.commands ?? []).map((entry) => entry.command);
    assert.ok(declared.length > 0, 'package.json declares no command');
    const missing = declared.filter((command) => !registered.includes(command));
    assert.deepEqual(missing, [], `declared but not registered: ${missing.join(', ')}`);
  });

  it('the core has a handler for every declared command, and for no other', async () => {
    // VS Code knows the entry's stand-ins; the handlers behind them are registered by the core.
    const api = await extension().activate();
    const declared = (manifest.contributes?.commands ?? []).map((entry) => entry.command).sort();
    assert.deepEqual([...api.coreCommandIds].sort(), declared);
    assert.ok(api.coreLoadedInMs !== undefined, 'reading the API loaded the core');
  });

  it('every registered forge.* command is declared in package.json', () => {
    const declared = new Set((manifest.contributes?.commands ?? []).map((entry) => entry.command));
    // The workbench adds these commands for every contributed view by itself.
    const viewCommandSuffixes = ['open', 'focus', 'resetViewLocation', 'toggleVisibility', 'removeView'];
    const viewIds = Object.values(manifest.contributes?.views ?? {})
      .flat()
      .map((view) => view.id);
    for (const viewId of viewIds)
      for (const suffix of viewCommandSuffixes) declared.add(`${viewId}.${suffix}`);
    const undeclared = registered.filter((command) => command.startsWith('forge.') && !declared.has(command));
    assert.deepEqual(undeclared, [], `registered but not declared: ${undeclared.join(', ')}`);
  });

  it('every contributed view is known to the workbench and has a provider', async () => {
    // VS Code adds a `<view id>.focus` command for each view it accepted from package.json.
    const views = Object.values(manifest.contributes?.views ?? {}).flat();
    assert.ok(views.length > 0, 'package.json contributes no view');
    const unknown = views.filter((view) => !registered.includes(`${view.id}.focus`)).map((view) => view.id);
    assert.deepEqual(unknown, [], `views the workbench does not know: ${unknown.join(', ')}`);
    const api = await extension().activate();
    const created = Object.keys(api.treeViews);
    const withoutProvider = views.filter((view) => !created.includes(view.id)).map((view) => view.id);
    assert.deepEqual(withoutProvider, [], `views without a provider: ${withoutProvider.join(', ')}`);
    // And the extension created no tree view that package.json does not contribute.
    const undeclared = created.filter((id) => !views.some((view) => view.id === id));
    assert.deepEqual(undeclared, []);
  });
});
