import { seedPostBurst } from './channel/seed';
import { buildTimestampedTrace } from './trace';
import { startFakeForge, type FakeForgeOptions } from './index';

/*
 * `npm run demo-server [-- --port N --seed small|large --latency MS --no-runners]`: runs the fake forge
 * until Ctrl-C and prints where it is and how to sign in.
 */

function parseArguments(argv: readonly string[]): FakeForgeOptions {
  const options: FakeForgeOptions = { simulateRunners: true };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    const number = (): number => {
      const parsed = Number(value);
      if (value === undefined || !Number.isInteger(parsed) || parsed < 0)
        throw new Error(`${flag} needs a whole number`);
      i++;
      return parsed;
    };
    switch (flag) {
      case '--port':
        options.port = number();
        break;
      case '--latency':
        options.latencyMs = number();
        break;
      case '--seed':
        if (value !== 'small' && value !== 'large') throw new Error('--seed must be small or large');
        options.seed = value;
        i++;
        break;
      case '--no-runners':
        options.simulateRunners = false;
        break;
      default:
        throw new Error(
          `unknown argument ${flag ?? ''} (use --port N, --seed small|large, --latency MS, --no-runners)`,
        );
    }
  }
  return options;
}

async function main(): Promise<void> {
  const options = parseArguments(process.argv.slice(2));
  const forge = await startFakeForge(options);
  // As on a busy hub: hundreds of posts in one second, which the Channel view shows each once.
  seedPostBurst(forge.channel.state, { count: 240, created: '2024-07-01 11:00:00', own: false });
  seedPostBurst(forge.channel.state, { count: 60, created: '2024-07-01 11:00:00', own: true });
  // A job log as GitLab Runner 17+ writes it with FF_TIMESTAMPS (the trace panel shows the times).
  forge.state.removeTrace(forge.fixtures.jobs.success);
  forge.state.appendTrace(
    forge.fixtures.jobs.success,
    buildTimestampedTrace(Date.parse('2024-07-01T10:00:00Z')),
  );
  const lines = [
    `Fake forge (${options.seed ?? 'small'} seed) listening on ${forge.url}`,
    `  API base:     ${forge.url}/api/v4`,
    `  admin:        ${forge.users.admin.username} (id ${forge.users.admin.id})  PRIVATE-TOKEN ${forge.adminToken}`,
    `  user:         ${forge.users.user.username} (id ${forge.users.user.id})  PRIVATE-TOKEN ${forge.userToken}`,
    `  user (OAuth): Authorization: Bearer ${forge.oauthToken}`,
    `  other user:   ${forge.users.bob.username} (id ${forge.users.bob.id})  PRIVATE-TOKEN ${forge.tokens['bob'] ?? ''}`,
    `  routes:       ${forge.routes.length}; latency ${options.latencyMs ?? 0} ms; simulated runners ${options.simulateRunners ? 'on' : 'off'}`,
    `  try:          curl -H 'PRIVATE-TOKEN: ${forge.userToken}' ${forge.url}/api/v4/projects/acme%2Fweb/jobs`,
    `  channel API:  ${forge.url}/api/z/1.0  (HTTP Basic)`,
    `  channel:      ${forge.channel.nickname} or ${forge.channel.email}  password ${forge.channel.password}`,
    `  try:          curl -u '${forge.channel.nickname}:${forge.channel.password}' ${forge.url}/api/z/1.0/files`,
    'Press Ctrl-C to stop.',
  ];
  console.log(lines.join('\n'));

  const stop = (): void => {
    void forge.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
