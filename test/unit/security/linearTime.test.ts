// Every regex applied to server text runs in linear time (design.md section 6). Two guards, neither a
// timing target (those live in bench/linearText.ts): every regex literal in src/ meets long runs of
// the characters it names within a bound a quadratic one misses by far, and the functions once seen
// quadratic (a broadcast, a URL's trailing slashes, an artifacts file name, an HTML error page)
// take at most 20 times as long on 1 MB as on 64 KB.
import assert from 'node:assert/strict';
import { readServerMessage } from '../../../src/api/http';
import { trimBothOf, trimEndOf } from '../../../src/text/linearText';
import { artifactsFileName } from '../../../src/domain/jobActions';
import { REVIEW_NOTE_CASES, SLOW_SERVER_TEXT_CASES } from '../../support/serverTextCases';
import { adversarialInputs, applyRegex, regexLiterals, sequenceInputs } from './regexScan';
import { projectPath } from '../../support/projectRoot';

/** Linear regexes take well under a millisecond here; a quadratic one takes 100 ms and more. */
const BOUND_MS = 40;
const RUN_LENGTH = 16_000;
/** Repeated openers cost a quadratic regex less per character than runs do: longer inputs. */
const SEQUENCE_LENGTH = 64_000;

/** Inputs of both kinds for one pattern. */
function inputsFor(source: string, flags: string): string[] {
  return [...adversarialInputs(source, RUN_LENGTH), ...sequenceInputs(source, flags, SEQUENCE_LENGTH)];
}

/** The first input on which the regex takes longer than the bound, with its time. */
function slowInput(regex: RegExp): { input: string; took: number } | undefined {
  for (const input of inputsFor(regex.source, regex.flags)) {
    let took = fastestOf(1, () => applyRegex(regex, input));
    // A pause of the machine is not a quadratic regex: measure again before blaming it.
    if (took > BOUND_MS) took = fastestOf(3, () => applyRegex(regex, input));
    if (took > BOUND_MS) return { input, took };
  }
  return undefined;
}

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
    const root = projectPath();
    const found = regexLiterals(root);
    assert.ok(found.length > 50, `the scan found the regexes (${found.length})`);
    const slow: string[] = [];
    for (const literal of found) {
      const slowOn = slowInput(new RegExp(literal.source, literal.flags));
      if (slowOn)
        slow.push(
          `${literal.file}:${literal.line} /${literal.source}/${literal.flags} took ${slowOn.took.toFixed(0)} ms on ${JSON.stringify(slowOn.input.slice(0, 8))}…`,
        );
    }
    assert.deepEqual(slow, [], 'rewrite these to run in linear time (or use a scan, as linearText.ts does)');
  });

  // Regexes once in src/ that froze the host on a review note (issue 41): the guard must catch each.
  const onceQuadratic: [string, RegExp][] = [
    [
      'an inline link whose angle-bracket destination never closes',
      /\]\(\s*(<[^>\n]*>|(?:[^\s()]|\((?:[^\s()]|\([^\s()]*\))*\))*)(\s+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?\s*\)/g,
    ],
    ['a suggestion block that never closes', /^```suggestion(?::-\d+\+\d+)?[ \t]*\n[\s\S]*?^```[ \t]*$/gm],
    ['a BBCode image whose attribute never closes', /\[(img|zmg)(=[^\]]*)?\][^[]*\[\/\1\]/gi],
    ['a BBCode tag whose attribute never closes', /\[\/?[a-z*][a-z0-9*_-]*(=[^\]]*)?\]/gi],
  ];
  for (const [what, regex] of onceQuadratic) {
    it(`the guard catches a regex once in src/: ${what}`, () => {
      assert.ok(slowInput(regex), `no input of the guard made /${regex.source}/ slow`);
    });
  }

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
      let largeMs = fastestOf(3, make(1024 * 1024));
      // Under 2 ms the clock and the collector decide more than the code does; a pause of the
      // machine is not quadratic work: measure again before blaming it.
      if (largeMs > 20 * Math.max(smallMs, 2)) largeMs = fastestOf(5, make(1024 * 1024));
      assert.ok(
        largeMs <= 20 * Math.max(smallMs, 2),
        `64 KB: ${smallMs.toFixed(2)} ms, 1 MB: ${largeMs.toFixed(2)} ms`,
      );
    });
  }

  for (const [what, make] of REVIEW_NOTE_CASES) {
    it(`${what}: 1 MB takes at most 12 times as long as 256 KB, and under 5 s`, () => {
      const measure = (runs: number) => {
        const quarterMs = fastestOf(runs, make(256 * 1024));
        // Quadratic code takes seconds on 256 KB: stop before the large run.
        assert.ok(quarterMs < 1000, `256 KB took ${quarterMs.toFixed(0)} ms`);
        return { quarterMs, largeMs: fastestOf(runs, make(1024 * 1024)) };
      };
      // Four times the text: linear work takes 4 times as long, quadratic 16 times. The bound sits
      // between them: a megabyte of strings costs the collector more than its share (a clean-clone
      // run on a busy machine measured 8.2 times).
      const linear = ({ quarterMs, largeMs }: { quarterMs: number; largeMs: number }) =>
        largeMs <= 12 * Math.max(quarterMs, 2) && largeMs < 5000;
      let took = measure(3);
      // A collector's pause or a busy machine is not quadratic work: measure again before blaming it.
      if (!linear(took)) took = measure(5);
      assert.ok(linear(took), `256 KB: ${took.quarterMs.toFixed(2)} ms, 1 MB: ${took.largeMs.toFixed(2)} ms`);
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
