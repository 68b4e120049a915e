// The first UI test: the extension loads in a real workbench and "Forge: Show Log" shows its channel.
import * as assert from 'node:assert/strict';
import { screenshot, startVscode, type VscodeSession } from '../vscode/harness';
import { startForge, type FakeForge } from '../vscode/forge';
import { runCommand, waitForOutputChannel } from './support';

describe('log channel (UI)', () => {
  let forge: FakeForge | undefined;
  let vscode: VscodeSession | undefined;

  before(async () => {
    forge = await startForge('small');
    vscode = await startVscode({
      name: 'e2e-log',
      env: { FORGE_SERVER_URL: forge.url, FORGE_TOKEN: forge.userToken },
    });
  });

  after(async () => {
    await vscode?.close();
    await forge?.close();
  });

  it('"Forge: Show Log" opens the Forge Workbench output channel', async () => {
    const page = vscode?.page;
    assert.ok(page, 'no browser page');
    await runCommand(page, 'Forge: Show Log');
    await waitForOutputChannel(page, 'Forge Workbench');
    await screenshot(page, 'log');
  });
});
