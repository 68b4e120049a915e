import { Prng } from './prng';

/**
 * Job trace generator. Traces look like what a GitLab runner writes: ANSI colours, collapsible
 * `section_start:<epoch>:<name>\r\x1b[0K` / `section_end:<epoch>:<name>\r\x1b[0K` markers, carriage-return
 * progress lines, non-ASCII text and the occasional very long line. Growth is cut at arbitrary character
 * positions (mid-line, mid-escape-sequence) because that is what a client polling a real trace sees.
 */

export type TraceOutcome = 'success' | 'failed' | 'canceled';

export interface TraceContext {
  jobName: string;
  stage: string;
  projectPath: string;
  projectId: number;
  ref: string;
  sha: string;
  /** Unix seconds used for the first section marker; later markers count up from it. */
  startEpoch: number;
}

const ESC = '\x1b';
const CLEAR_LINE = `${ESC}[0K`;
const RESET = `${ESC}[0;m`;
const GREEN_BOLD = `${ESC}[32;1m`;
const CYAN_BOLD = `${ESC}[36;1m`;
const RED_BOLD = `${ESC}[31;1m`;
const YELLOW = `${ESC}[0;33m`;

const COMMANDS = [
  'npm ci',
  'npm run lint',
  'npm run build',
  'npm test -- --ci',
  'go test ./...',
  'pytest -q',
  'docker build -t $CI_REGISTRY_IMAGE:$CI_COMMIT_SHORT_SHA .',
  'make check',
];
const MODULES = [
  'auth',
  'login',
  'session',
  'api/client',
  'router',
  'cache',
  'billing',
  'search',
  'ui/button',
];
const CASES = [
  'rejects an expired session',
  'retries on 503',
  'parses pagination headers',
  'renders the empty state',
  'escapes user input',
  'keeps ANSI state across chunks',
  'handles unicode filenames ✓',
  'sorts by name ascending',
];
const FILES = [
  'src/index.ts',
  'src/login.ts',
  'src/api/client.ts',
  'src/ui/Button.tsx',
  'lib/util.go',
  'app/models.py',
];

export class TraceWriter {
  private epoch: number;
  private pending = '';
  private sectionCounter = 0;

  constructor(
    private readonly random: Prng,
    private readonly context: TraceContext,
  ) {
    this.epoch = context.startEpoch;
  }

  /** Runner banner and the preparation sections, ending inside the open `step_script` section. */
  header(): string {
    const ctx = this.context;
    const runnerToken = this.random.alphanumeric(8);
    const lines = [
      `${CLEAR_LINE}Running with gitlab-runner 16.11.1 (535ced5f)${RESET}`,
      `${CLEAR_LINE}  on fake-forge-runner-1 ${runnerToken}, system ID: r_${this.random.alphanumeric(12)}${RESET}`,
      this.sectionStart('prepare_executor', 'Preparing the "docker" executor'),
      `${CLEAR_LINE}Using Docker executor with image node:20-alpine ...${RESET}`,
      `${CLEAR_LINE}Pulling docker image node:20-alpine ...${RESET}`,
      `${CLEAR_LINE}Using docker image sha256:${this.random.hex(64)} for node:20-alpine ...${RESET}`,
      this.sectionEnd('prepare_executor'),
      this.sectionStart('prepare_script', 'Preparing environment'),
      `Running on runner-${runnerToken.toLowerCase()}-project-${ctx.projectId}-concurrent-0 via fake-forge-runner-1...`,
      this.sectionEnd('prepare_script'),
      this.sectionStart('get_sources', 'Getting source from Git repository'),
      `${GREEN_BOLD}Fetching changes with git depth set to 20...${RESET}`,
      `Initialized empty Git repository in /builds/${ctx.projectPath}/.git/`,
      `${GREEN_BOLD}Created fresh repository.${RESET}`,
      this.progressLine('Receiving objects', 8),
      `${GREEN_BOLD}Checking out ${ctx.sha.slice(0, 8)} as detached HEAD (ref is ${ctx.ref})...${RESET}`,
      '',
      `${GREEN_BOLD}Skipping Git submodules setup${RESET}`,
      this.sectionEnd('get_sources'),
      this.sectionStart('step_script', 'Executing "step_script" stage of the job script'),
      `${CLEAR_LINE}Using docker image sha256:${this.random.hex(12)} for node:20-alpine ...${RESET}`,
    ];
    return lines.join('\n') + '\n';
  }

  /**
   * The next `chars` characters of script output. The cut falls wherever the count ends (inside a line or
   * an escape sequence), but never between the two halves of a surrogate pair.
   */
  produce(chars: number): string {
    const parts: string[] = [this.pending];
    let buffered = this.pending.length;
    while (buffered < chars) {
      const block = this.block();
      parts.push(block);
      buffered += block.length;
    }
    const all = parts.join('');
    let cut = Math.min(chars, all.length);
    const before = all.charCodeAt(cut - 1);
    if (cut > 0 && before >= 0xd800 && before <= 0xdbff) cut += 1;
    this.pending = all.slice(cut);
    return all.slice(0, cut);
  }

  /** Everything still buffered, then the closing sections and the final status line. */
  finish(outcome: TraceOutcome): string {
    let out = this.pending;
    this.pending = '';
    if (out.length > 0 && !out.endsWith('\n')) out += '\n';
    if (outcome === 'canceled') {
      // A canceled job's trace just stops: the step_script section is never closed.
      return out + `${YELLOW}WARNING: Job was canceled by a user${RESET}\n`;
    }
    const lines: string[] = [];
    if (outcome === 'failed') {
      lines.push(
        `  ${ESC}[31m✗${ESC}[39m ${this.random.pick(MODULES)} › ${this.random.pick(CASES)}`,
        '',
        `    AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:`,
        `    + actual - expected`,
        '',
        `    + 401`,
        `    - 200`,
        '',
      );
    }
    lines.push(this.sectionEnd('step_script'));
    if (outcome === 'success') {
      lines.push(
        this.sectionStart('upload_artifacts_on_success', 'Uploading artifacts for successful job'),
        `${GREEN_BOLD}Uploading artifacts...${RESET}`,
        `dist/: found ${this.random.int(3, 80)} matching artifact files and directories${RESET}`,
        `Uploading artifacts as "archive" to coordinator... 201 Created${RESET}  id=${this.random.int(1000, 9999)} responseStatus=201 Created token=${this.random.alphanumeric(8)}`,
        this.sectionEnd('upload_artifacts_on_success'),
      );
    }
    lines.push(
      this.sectionStart('cleanup_file_variables', 'Cleaning up project directory and file based variables'),
      this.sectionEnd('cleanup_file_variables'),
      '',
      outcome === 'success'
        ? `${GREEN_BOLD}Job succeeded${RESET}`
        : `${RED_BOLD}ERROR: Job failed: exit code 1${RESET}`,
    );
    return out + lines.join('\n') + '\n';
  }

  private block(): string {
    const roll = this.random.next();
    this.epoch += this.random.int(0, 3);
    if (roll < 0.3) return this.commandBlock();
    if (roll < 0.45) return this.collapsedSection();
    if (roll < 0.6)
      return this.progressLine(this.random.pick(['Downloading', 'Extracting', 'Compressing']), 10) + '\n';
    if (roll < 0.82) return this.testResults();
    if (roll < 0.9)
      return `${YELLOW}WARNING: ${this.random.pick(FILES)} uses a deprecated API (see CHANGELOG)${RESET}\n`;
    if (roll < 0.93) return this.longLine();
    if (roll < 0.97) {
      const size = (this.random.next() * 300).toFixed(1);
      return `🚀 Bundle size: ${size} kB (gzip ${(Number(size) / 3.4).toFixed(1)} kB) — within budget ✔\n`;
    }
    return `[${this.clock()}] Compiling ${this.random.pick(FILES)} … done in ${this.random.int(3, 900)} ms\n`;
  }

  private commandBlock(): string {
    const lines = [`${GREEN_BOLD}$ ${this.random.pick(COMMANDS)}${RESET}`];
    const count = this.random.int(1, 6);
    for (let i = 0; i < count; i++) {
      lines.push(
        `[${this.clock()}] ${this.random.pick(['info', 'info', 'debug', 'notice'])} ${this.random.pick(FILES)}: ok`,
      );
    }
    return lines.join('\n') + '\n';
  }

  private collapsedSection(): string {
    this.sectionCounter += 1;
    const name = `step_${this.sectionCounter}`;
    const start = `section_start:${this.epoch}:${name}[collapsed=true]\r${CLEAR_LINE}${ESC}[0;36mInstalling dependencies (${this.random.pick(MODULES)})${RESET}`;
    const body: string[] = [];
    const count = this.random.int(2, 8);
    for (let i = 0; i < count; i++) {
      body.push(
        `added ${this.random.int(1, 400)} packages, audited ${this.random.int(400, 1600)} packages in ${this.random.int(1, 30)}s`,
      );
    }
    this.epoch += this.random.int(1, 20);
    return [start, ...body, `section_end:${this.epoch}:${name}\r${CLEAR_LINE}`].join('\n') + '\n';
  }

  private testResults(): string {
    const lines: string[] = [` ${ESC}[1m${this.random.pick(MODULES)}${ESC}[22m`];
    const count = this.random.int(2, 10);
    for (let i = 0; i < count; i++) {
      const skipped = this.random.chance(0.08);
      const mark = skipped ? `${ESC}[33m○${ESC}[39m` : `${ESC}[32m✓${ESC}[39m`;
      lines.push(`   ${mark} ${this.random.pick(CASES)} ${ESC}[90m(${this.random.int(1, 250)} ms)${ESC}[39m`);
    }
    return lines.join('\n') + '\n';
  }

  private longLine(): string {
    const parts: string[] = [];
    const count = this.random.int(40, 160);
    for (let i = 0; i < count; i++) parts.push(`"k${i}":"${this.random.hex(this.random.int(4, 24))}"`);
    return `DEBUG payload={${parts.join(',')}}\n`;
  }

  private progressLine(label: string, steps: number): string {
    const total = this.random.int(200, 5000);
    const frames: string[] = [];
    for (let i = 1; i <= steps; i++) {
      const done = Math.round((total * i) / steps);
      const percent = Math.round((100 * i) / steps);
      frames.push(`${label}: ${String(percent).padStart(3)}% (${done}/${total})`);
    }
    return frames.join('\r') + `, done.`;
  }

  private sectionStart(name: string, title: string): string {
    return `section_start:${this.epoch}:${name}\r${CLEAR_LINE}${CLEAR_LINE}${CYAN_BOLD}${title}${RESET}${RESET}`;
  }

  private sectionEnd(name: string): string {
    this.epoch += this.random.int(1, 5);
    return `section_end:${this.epoch}:${name}\r${CLEAR_LINE}`;
  }

  private clock(): string {
    return new Date(this.epoch * 1000).toISOString().slice(11, 19);
  }
}

/** A whole trace of a job that has finished, about `targetChars` characters long. */
export function buildFinishedTrace(
  random: Prng,
  context: TraceContext,
  outcome: TraceOutcome,
  targetChars: number,
): string {
  const writer = new TraceWriter(random, context);
  const header = writer.header();
  const body = writer.produce(Math.max(0, targetChars - header.length - 600));
  return header + body + writer.finish(outcome);
}

/**
 * A trace as GitLab Runner 17+ writes it with `FF_TIMESTAMPS`: every line starts with
 * `<RFC 3339 time> <stream><O|E>[+] `, a long line comes in fragments (`+` continues the line
 * before), and its sections have names that contain `section_` (`my_section_2`, `section_tests`).
 */
export function buildTimestampedTrace(startMs: number, outcome: TraceOutcome = 'success'): string {
  let at = startMs;
  const line = (stream: 'O' | 'E', text: string, continuation = false): string => {
    at += 137;
    const micros = String((at % 1000) * 1000 + 359).padStart(6, '0');
    const time = `${new Date(at).toISOString().slice(0, 19)}.${micros}Z`;
    // A continuation's `+` takes the space's place (GitLab Runner 17).
    return `${time} 0${stream === 'O' ? '0' : '1'}${stream}${continuation ? '+' : ' '}${text}\n`;
  };
  const epoch = (): number => Math.floor(at / 1000);
  const parts = [
    line('O', `${CLEAR_LINE}Running with gitlab-runner 17.0.0 (44feccdf)`),
    line(
      'O',
      `${CLEAR_LINE}section_start:${epoch()}:my_section_2[collapsed=true]\r${CLEAR_LINE}${CYAN_BOLD}Preparing the "docker" executor${RESET}`,
    ),
    line('O', 'Using Docker executor with image node:20 ...'),
    line('O', `${CLEAR_LINE}section_end:${epoch() + 2}:my_section_2\r${CLEAR_LINE}`),
    line(
      'O',
      `${CLEAR_LINE}section_start:${epoch() + 2}:section_tests\r${CLEAR_LINE}${CYAN_BOLD}Running the tests${RESET}`,
    ),
    line('O', `${GREEN_BOLD}$ npm test -- --ci${RESET}`),
    line('E', 'warning: this line is long enough that the runner wrote it in two '),
    line('E', 'fragments, joined again on screen', true),
    line('O', `${ESC}[9mstruck through${ESC}[29m and ${ESC}[8mconcealed${ESC}[28m text`),
    // A progress line overwritten after a carriage return: the runner writes a new prefix there too.
    line('O', 'Downloading 10%').replace(/\n$/, '\r') + line('O', 'Downloading 100%'),
    // Text after a section's end marker starts a line outside the section.
    line(
      'O',
      `tests done${CLEAR_LINE}section_end:${epoch() + 5}:section_tests\r${CLEAR_LINE}after the section`,
    ),
    outcome === 'success'
      ? line('O', `${GREEN_BOLD}Job succeeded${RESET}`)
      : line('E', `${RED_BOLD}ERROR: Job failed: exit code 1${RESET}`),
  ];
  return parts.join('');
}
