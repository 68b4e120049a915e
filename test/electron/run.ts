// `npm run test:electron`: the same host suites in desktop VS Code through @vscode/test-electron,
// for machines that can download VS Code (this one cannot; use `npm run test:host` here).
import { join } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { type FakeForge, startFakeForge } from '../server';

const root = join(__dirname, '..', '..');

async function main(): Promise<number> {
  let forge: FakeForge | undefined;
  try {
    forge = await startFakeForge({ seed: 'small' });
    await runTests({
      extensionDevelopmentPath: root,
      extensionTestsPath: join(root, 'out', 'host', 'index.js'),
      launchArgs: ['--disable-extensions', '--disable-workspace-trust'],
      extensionTestsEnv: {
        FORGE_SERVER_URL: forge.url,
        FORGE_TOKEN: forge.userToken,
        FORGE_ADMIN_TOKEN: forge.adminToken,
      },
    });
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(
      `Desktop VS Code tests failed: ${message}\n` +
        'They need a machine that can download VS Code (https://update.code.visualstudio.com). ' +
        'Offline, run the same suites in code-server with `npm run test:host`.',
    );
    return 1;
  } finally {
    await forge?.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
