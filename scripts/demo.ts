// `npm run demo`: the fake forge (small seed) plus a real VS Code (code-server) with the extension
// installed and signed in from the environment as the normal user. Prints where to point a browser;
// Ctrl+C stops both. `--port N` fixes VS Code's port (default: a free one).
import { type FakeForge, startFakeForge } from '../test/server';
import { seedPostBurst } from '../test/server/channel/seed';
import { buildTimestampedTrace } from '../test/server/trace';
import { startVscode, workbenchUrl, type VscodeSession } from '../test/vscode/harness';

function portArgument(): number | undefined {
  const index = process.argv.indexOf('--port');
  const value = index >= 0 ? Number(process.argv[index + 1]) : NaN;
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

async function main(): Promise<void> {
  const started = Date.now();
  const verbose = process.argv.includes('--verbose');
  const running: { forge?: FakeForge; vscode?: VscodeSession } = {};
  let stoppingSince: number | undefined;

  const stop = async (code: number): Promise<void> => {
    if (stoppingSince !== undefined) {
      // A second Ctrl+C forces the exit (the 'exit' hook still kills VS Code). The same signal often
      // arrives twice at once (from the terminal and relayed by tsx/npm): that one is not a second press.
      if (Date.now() - stoppingSince > 1000) process.exit(code);
      return;
    }
    stoppingSince = Date.now();
    console.log('\nStopping VS Code and the demo server…');
    await running.vscode?.close();
    await running.forge?.close();
    console.log('Stopped.');
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  // Simulated runners pick up retried and played jobs, so the demo behaves like a live server.
  const forge = await startFakeForge({ seed: 'small', simulateRunners: true });
  // As on a busy hub: hundreds of posts in one second, which the Channel view shows each once.
  seedPostBurst(forge.channel.state, { count: 240, created: '2024-07-01 11:00:00', own: false });
  seedPostBurst(forge.channel.state, { count: 60, created: '2024-07-01 11:00:00', own: true });
  // A job log as GitLab Runner 17+ writes it with FF_TIMESTAMPS (the trace panel shows the times).
  forge.state.removeTrace(forge.fixtures.jobs.success);
  forge.state.appendTrace(
    forge.fixtures.jobs.success,
    buildTimestampedTrace(Date.parse('2024-07-01T10:00:00Z')),
  );
  running.forge = forge;
  const vscode = await startVscode({
    name: 'demo',
    openBrowser: false,
    port: portArgument(),
    log: verbose ? (line) => console.error(line) : undefined,
    env: {
      FORGE_SERVER_URL: forge.url,
      FORGE_TOKEN: forge.userToken,
      // The Channel view signs in to the fake channel server (same address, /api/z/1.0).
      FORGE_CHANNEL_URL: forge.url,
      FORGE_CHANNEL_USER: forge.channel.nickname,
      FORGE_CHANNEL_PASSWORD: forge.channel.password,
    },
  });
  running.vscode = vscode;
  const open = workbenchUrl(vscode.url, vscode.workspaceFolder);
  const line = '─'.repeat(78);
  console.log(
    [
      '',
      line,
      '  Forge Workbench demo',
      line,
      `  Open VS Code in a browser:  ${open}`,
      '',
      `  Demo server:                ${forge.url}`,
      `  Signed in as (user token):  ${forge.userToken}`,
      `  Admin token:                ${forge.adminToken}`,
      `  OAuth token:                ${forge.oauthToken}`,
      `  Channel (Channel view):     ${forge.channel.nickname} / ${forge.channel.password}`,
      '',
      `  Ready in ${((Date.now() - started) / 1000).toFixed(1)} s. Ctrl+C stops both.`,
      line,
      '',
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
