// `npm run test:stress`: the suites that run in VS Code, several times, with two busy processes of
// our own beside them, to find tests that wait for time instead of for what they assert. Not part
// of `npm test`. First the cheap check that the mutation tool still starts (`npm run mutate:check`).
//
//   npm run test:stress                      host suites 3 times, UI suites once, under load
//   npm run test:stress -- --runs 5 --suites host
//   npm run test:stress -- --no-load         the same runs without the busy processes
//
// Every run is bounded (`--minutes`, default 30 per run); the busy processes end with the script.
import { type ChildProcess, spawn } from 'node:child_process';
import { setTimeout, clearTimeout } from 'node:timers';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    suites: { type: 'string', default: 'host,e2e' },
    minutes: { type: 'string', default: '30' },
    'no-load': { type: 'boolean', default: false },
    'skip-mutation-check': { type: 'boolean', default: false },
  },
});
const runs = Math.max(1, Number(values.runs));
const suites = values.suites.split(',').filter(Boolean);
const limitMs = Math.max(1, Number(values.minutes)) * 60_000;

const COMMANDS: Record<string, [string, string[]]> = {
  host: ['npx', ['tsx', 'test/host/run.ts']],
  e2e: ['npx', ['mocha', '--config', '.mocharc.e2e.json']],
};

interface Outcome {
  code: number;
  output: string;
}

interface Result {
  what: string;
  ok: boolean;
  seconds: number;
  failing?: string[];
}

/** Runs a command to its end or `limitMs`; resolves with its exit code (124 when it ran out of time). */
function run(command: string, args: string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString()).slice(-20_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }, limitMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: signal ? 124 : (code ?? 1), output });
    });
  });
}

/** Two processes that keep a core each busy until stopped. */
function startLoad(): ChildProcess[] {
  return [0, 1].map(() =>
    spawn(process.execPath, ['-e', 'for(;;){Math.sqrt(Math.random())}'], { stdio: 'ignore' }),
  );
}

async function main(): Promise<number> {
  const results: Result[] = [];
  if (!values['skip-mutation-check']) {
    const started = Date.now();
    const check = await run('npm', ['run', 'mutate:check']);
    results.push({ what: 'mutate:check', ok: check.code === 0, seconds: (Date.now() - started) / 1000 });
    if (check.code !== 0) console.log(check.output);
  }

  const load: ChildProcess[] = values['no-load'] ? [] : startLoad();
  const stopLoad = () => {
    for (const busy of load) busy.kill('SIGKILL');
  };
  process.on('exit', stopLoad);
  process.on('SIGINT', () => process.exit(130));
  try {
    for (const suite of suites) {
      const spec = COMMANDS[suite];
      if (!spec) throw new Error(`Unknown suite ${suite}: host or e2e`);
      const times = suite === 'e2e' ? Math.max(1, Math.ceil(runs / 3)) : runs;
      for (let index = 1; index <= times; index++) {
        const started = Date.now();
        const result = await run(...spec);
        const seconds = (Date.now() - started) / 1000;
        const failing = [...result.output.matchAll(/^\s*(?:✗|\d+\)) (.+)$/gm)].map((match) => match[1] ?? '');
        results.push({ what: `${suite} run ${index}/${times}`, ok: result.code === 0, seconds, failing });
        console.log(
          `${suite} run ${index}/${times}: ${result.code === 0 ? 'passed' : `FAILED (${result.code})`} in ${seconds.toFixed(0)} s`,
        );
        for (const name of failing) console.log(`  ✗ ${name}`);
      }
    }
  } finally {
    stopLoad();
  }

  console.log('\nStress summary (two busy processes beside the suites unless --no-load):');
  for (const result of results)
    console.log(`  ${result.ok ? 'pass' : 'FAIL'}  ${result.what}  ${result.seconds.toFixed(0)} s`);
  return results.every((result) => result.ok) ? 0 : 1;
}

void main().then((code) => process.exit(code));
