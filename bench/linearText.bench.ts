/**
 * Server text that once took seconds: the functions whose regexes were quadratic, timed on 64 KB
 * and 1 MB of adversarial input. Target: linear growth (1 MB within 20 times 64 KB) and under
 * 50 ms at 1 MB. The unit test `test/unit/security/linearTime.test.ts` guards the same without timing.
 */
import { readServerMessage } from '../src/api/http';
import { plainBroadcastText } from '../src/domain/broadcasts';
import { artifactsFileName, jobWebUrl } from '../src/domain/jobActions';
import type { BenchResult } from './report';

const CASES: [string, (size: number) => () => unknown][] = [
  [
    'broadcast message, unclosed tags',
    (size) => {
      const text = '<'.repeat(size);
      return () => plainBroadcastText(text);
    },
  ],
  [
    'job link from a URL ending in slashes',
    (size) => {
      const url = `https://forge.example/a${'/'.repeat(size)}x`;
      return () => jobWebUrl({ id: 1, web_url: null }, url);
    },
  ],
  [
    'artifacts file name from a job name of dashes',
    (size) => {
      const name = `a${'-'.repeat(size)}a!`;
      return () => artifactsFileName('acme/web', name, 1);
    },
  ],
  [
    'HTML error page, unclosed title tags',
    (size) => {
      const html = `<html>${'<title'.repeat(Math.floor(size / 6))}`;
      return () => readServerMessage(html, 502, 'Bad Gateway');
    },
  ],
];

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
  for (const [name, make] of CASES) {
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
