/**
 * Server text that once took seconds: the functions whose regexes were quadratic, timed on 64 KB
 * and 1 MB of adversarial input. Target: linear growth (1 MB within 20 times 64 KB) and under
 * 50 ms at 1 MB. Review notes go through a whole Markdown parse: 1 MB within 8 times 256 KB and
 * under a second. The unit test `test/unit/security/linearTime.test.ts` guards the same without timing.
 */
import { REVIEW_NOTE_CASES, SLOW_SERVER_TEXT_CASES } from '../test/support/serverTextCases';
import type { BenchResult } from './report';

function fastestMs(work: () => unknown, runs: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    work();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

export function runLinearTextBench(): Promise<BenchResult> {
  const rows: string[][] = [];
  const summary: BenchResult['summary'] = [];
  const data: Record<string, { ms64k: number; ms1m: number }> = {};
  for (const [name, make] of SLOW_SERVER_TEXT_CASES) {
    const ms64k = fastestMs(make(64 * 1024), 5);
    const ms1m = fastestMs(make(1024 * 1024), 3);
    data[name] = { ms64k, ms1m };
    rows.push([name, ms64k.toFixed(2), ms1m.toFixed(2), (ms1m / Math.max(ms64k, 0.01)).toFixed(1)]);
    summary.push({
      figure: `${name}, 1 MB`,
      value: `${ms1m.toFixed(1)} ms`,
      target: '≤ 50 ms and ≤ 20× 64 KB',
      met: ms1m <= 50 && ms1m <= 20 * Math.max(ms64k, 0.5),
    });
  }
  for (const [name, make] of REVIEW_NOTE_CASES) {
    const ms256k = fastestMs(make(256 * 1024), 3);
    const ms1m = fastestMs(make(1024 * 1024), 3);
    data[name] = { ms64k: Number.NaN, ms1m };
    rows.push([`${name} (256 KB: ${ms256k.toFixed(1)} ms)`, '', ms1m.toFixed(2), '']);
    summary.push({
      figure: `${name}, 1 MB`,
      value: `${ms1m.toFixed(1)} ms`,
      target: '≤ 1,000 ms and ≤ 8× 256 KB',
      met: ms1m <= 1000 && ms1m <= 8 * Math.max(ms256k, 0.5),
    });
  }
  return Promise.resolve({
    name: 'linearText',
    title: 'Server text in linear time (fastest of 3-5 runs)',
    tables: [
      {
        title: 'Time on adversarial server text',
        columns: ['input', '64 KB (ms)', '1 MB (ms)', '1 MB / 64 KB'],
        rows,
      },
    ],
    summary,
    data,
  });
}
