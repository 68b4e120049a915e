// Every regex applied to server text runs in linear time (design.md section 6). Two guards, neither a
// timing target (those live in bench/linearText.ts): every regex literal in src/ meets long runs of
// the characters it names within a bound a quadratic one misses by far, and the functions once seen
// quadratic (a broadcast, a URL's trailing slashes, an artifacts file name, an HTML error page)
// take at most 20 times as long on 1 MB as on 64 KB.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readServerMessage, trimBothOf, trimEndOf } from '../../../src/api/http';
import { artifactsFileName } from '../../../src/domain/jobActions';
import { SLOW_SERVER_TEXT_CASES } from '../../support/serverTextCases';
import { adversarialInputs, applyRegex, regexLiterals } from './regexScan';

/** Linear regexes take well under a millisecond here; a quadratic one takes 100 ms and more. */
const BOUND_MS = 40;
const RUN_LENGTH = 16_000;

function fastestOf(runs: number, work: () => void): number {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    work();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

describe('linear time on server text', function () {
  this.timeout(60_000);

  it('every regex literal in src/ meets long runs of its own characters in linear time', () => {
    const root = join(__dirname, '..', '..', '..');
    const found = regexLiterals(root);
    assert.ok(found.length > 50, `the scan found the regexes (${found.length})`);
    const slow: string[] = [];
    for (const literal of found) {
      const regex = new RegExp(literal.source, literal.flags);
      for (const input of adversarialInputs(literal.source, RUN_LENGTH)) {
        let took = fastestOf(1, () => applyRegex(regex, input));
        // A pause of the machine is not a quadratic regex: measure again before blaming it.
        if (took > BOUND_MS) took = fastestOf(3, () => applyRegex(regex, input));
        if (took > BOUND_MS) {
          slow.push(
            `${literal.file}:${literal.line} /${literal.source}/${literal.flags} took ${took.toFixed(0)} ms on ${JSON.stringify(input.slice(0, 8))}…`,
          );
          break;
        }
      }
    }
    assert.deepEqual(slow, [], 'rewrite these to run in linear time (or use a scan, as linearText.ts does)');
  });

  const cases: [string, (size: number) => () => unknown][] = [
    ...SLOW_SERVER_TEXT_CASES,
    [
      'slashes and colons trimmed from both ends',
      (size) => {
        const text = `/${'a/'.repeat(size / 2)}`;
        return () => trimEndOf(trimBothOf(text, '/:'), '/');
      },
    ],
  ];
  for (const [what, make] of cases) {
    it(`${what}: 1 MB takes at most 20 times as long as 64 KB`, () => {
      const small = make(64 * 1024);
      const smallMs = fastestOf(5, small);
      // Quadratic code takes seconds on 64 KB (and minutes on 1 MB): stop before the large run.
      assert.ok(smallMs < 100, `64 KB took ${smallMs.toFixed(0)} ms`);
      const largeMs = fastestOf(3, make(1024 * 1024));
      // Under 2 ms the clock and the collector decide more than the code does.
      assert.ok(
        largeMs <= 20 * Math.max(smallMs, 2),
        `64 KB: ${smallMs.toFixed(2)} ms, 1 MB: ${largeMs.toFixed(2)} ms`,
      );
    });
  }

  it('the scans trim as the regexes did', () => {
    assert.equal(trimEndOf('a/b///', '/'), 'a/b');
    assert.equal(trimBothOf('//a/b//', '/'), 'a/b');
    assert.equal(trimBothOf('::tada::', ':'), 'tada');
    assert.equal(trimBothOf('////', '/'), '');
    assert.equal(artifactsFileName('acme/web', '--.build job--', 7), 'acme-web-build-job-7-artifacts.zip');
    assert.match(
      readServerMessage('<html><head><TITLE>502 Bad Gateway</TITLE></head></html>', 502).text,
      /^502 Bad Gateway/,
    );
    assert.match(
      readServerMessage('<html><body><h1 class="x">Down for maintenance</h1></body></html>', 503).text,
      /^Down for maintenance/,
    );
  });
});
