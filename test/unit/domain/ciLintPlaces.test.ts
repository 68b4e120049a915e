// The CI lint's sentences put on the line they are about (issue 38): each class of GitLab message,
// job names with colons, `<<:` merges, CRLF line ends, a 5,000-line file, and the first line for a
// sentence that names nothing the file has.
import assert from 'node:assert/strict';
import { placeCiMessages } from '../../../src/domain/ciLintPlaces';

const FILE = [
  'stages: [build, test]', // 0
  '', // 1
  '.defaults: &defaults', // 2
  '  image: node:20', // 3
  '', // 4
  'build:', // 5
  '  stage: build', // 6
  '  scirpt: npm run build', // 7
  '', // 8
  'test:unit:', // 9
  '  <<: *defaults', // 10
  '  stage: tst', // 11
  '  needs: [build, lint]', // 12
  '  script:', // 13
  '    - npm test', // 14
  '', // 15
  'docs:', // 16
  '  extends: .missing', // 17
  '  dependencies: [pages]', // 18
  '', // 19
  'include:', // 20
  '  - local: ci/gone.yml', // 21
  '', // 22
  'variables: [A, B]', // 23
].join('\n');

/** The line and text a message is put on. */
function placed(text: string, message: string): { line: number; text: string; found: boolean } {
  const [place] = placeCiMessages(text, [message]);
  assert.ok(place);
  const lines = text.split(/\r?\n/);
  const { startLine, startCharacter, endLine, endCharacter } = place.range;
  assert.equal(startLine, endLine, 'one line');
  return {
    line: startLine,
    text: (lines[startLine] ?? '').slice(startCharacter, endCharacter),
    found: place.found,
  };
}

describe('placeCiMessages', () => {
  it('puts an unknown key on the key', () => {
    assert.deepEqual(placed(FILE, 'jobs:build config contains unknown keys: scirpt'), {
      line: 7,
      text: 'scirpt',
      found: true,
    });
  });

  it('finds a job whose name has colons, and its stage value', () => {
    assert.deepEqual(
      placed(
        FILE,
        'test:unit job: chosen stage tst does not exist; available stages are .pre, build, test, .post',
      ),
      { line: 11, text: 'tst', found: true },
    );
    // Older servers leave the stage out of the sentence: the stage's value all the same.
    assert.equal(
      placed(FILE, 'test:unit job: chosen stage does not exist; available stages are .pre').line,
      11,
    );
  });

  it("puts a missing need on the item of the needs list, in both of GitLab's wordings", () => {
    assert.deepEqual(placed(FILE, 'test:unit job: need lint is not defined in current or prior stages'), {
      line: 12,
      text: 'lint',
      found: true,
    });
    assert.deepEqual(
      placed(FILE, "'test:unit' job needs 'lint' job, but 'lint' does not exist in the pipeline"),
      {
        line: 12,
        text: 'lint',
        found: true,
      },
    );
  });

  it('puts extends, dependencies and includes on the value they name', () => {
    assert.deepEqual(placed(FILE, 'docs: unknown keys in `extends` (.missing)'), {
      line: 17,
      text: '.missing',
      found: true,
    });
    assert.deepEqual(placed(FILE, 'docs job: undefined dependency: pages'), {
      line: 18,
      text: 'pages',
      found: true,
    });
    assert.deepEqual(placed(FILE, 'Local file `ci/gone.yml` does not exist!'), {
      line: 21,
      text: 'ci/gone.yml',
      found: true,
    });
  });

  it('follows a key path, and a job without script to its name', () => {
    assert.deepEqual(placed(FILE, 'variables config should be a hash of key value pairs'), {
      line: 23,
      text: 'variables',
      found: true,
    });
    assert.deepEqual(
      placed(
        FILE,
        'jobs:test:unit:script config should be a string or a nested array of strings up to 10 levels deep',
      ),
      {
        line: 13,
        text: 'script',
        found: true,
      },
    );
    assert.deepEqual(
      placed(FILE, 'jobs docs config should implement the script:, run:, or trigger: keyword'),
      {
        line: 16,
        text: 'docs',
        found: true,
      },
    );
  });

  it('puts a YAML syntax error on its line and column', () => {
    const broken = 'build:\n  script: [a\ntest:\n  script: b\n';
    const place = placed(
      broken,
      '(<unknown>): did not find expected node content while parsing a flow node at line 3 column 1',
    );
    assert.deepEqual(place, { line: 2, text: 'test:', found: true });
  });

  it('puts a sentence that names nothing found on the first line, the message intact', () => {
    const [place] = placeCiMessages(FILE, [
      'jobs config should contain at least one visible job',
      'gone job: need x is not defined',
    ]);
    assert.ok(place);
    assert.equal(place.message, 'jobs config should contain at least one visible job');
    assert.deepEqual(place.range, { startLine: 0, startCharacter: 0, endLine: 0, endCharacter: 21 });
    assert.equal(placeCiMessages(FILE, ['gone job: need x is not defined'])[0]?.found, false);
    assert.equal(placeCiMessages('', ['anything'])[0]?.range.endCharacter, 0);
  });

  it('counts lines the same with CRLF line ends', () => {
    const crlf = FILE.replace(/\n/g, '\r\n');
    assert.deepEqual(placed(crlf, 'jobs:build config contains unknown keys: scirpt'), {
      line: 7,
      text: 'scirpt',
      found: true,
    });
    const syntax = placed('a: 1\r\nb: [\r\n', '(<unknown>): x at line 2 column 1');
    assert.deepEqual(syntax, { line: 1, text: 'b: [', found: true });
  });

  it('places messages in a 5,000-line file at its end', () => {
    const jobs = Array.from(
      { length: 1_700 },
      (_, index) => `job${index}:\n  stage: test\n  script: run ${index}\n`,
    );
    const big = `${jobs.join('')}last:\n  stage: nope\n  script: x\n`;
    assert.ok(big.split('\n').length > 5_000);
    assert.deepEqual(
      placed(big, 'last job: chosen stage nope does not exist; available stages are .pre, test'),
      {
        line: 5_101,
        text: 'nope',
        found: true,
      },
    );
  });
});

describe('placeCiMessages: list items, wordings and edges', () => {
  it('follows a list index to its item, and stops at the list when the file has fewer items', () => {
    assert.deepEqual(placed(FILE, 'jobs:test:unit:script:0 config should be a string'), {
      line: 14,
      text: 'npm test',
      found: true,
    });
    assert.equal(placed(FILE, 'jobs:test:unit:script:5 config should be a string').line, 13);
    assert.equal(placed(FILE, 'jobs:test:unit:stage:0 config should be a string').line, 11);
  });

  it('finds a need written as `job:`, and the singular "unknown key"', () => {
    const text = 'build:\n  script: make\ntest:\n  needs:\n    - job: build\n    - job: lint\n  scirpt: x\n';
    assert.deepEqual(placed(text, 'test job: need lint is not defined in current or prior stages'), {
      line: 5,
      text: 'lint',
      found: true,
    });
    assert.deepEqual(placed(text, 'jobs:test config contains unknown key: scirpt'), {
      line: 6,
      text: 'scirpt',
      found: true,
    });
  });

  it('reads a job or key defined twice as GitLab does: the last definition counts', () => {
    const text = 'build:\n  stage: one\nbuild:\n  stage: two\n  stage: three\n';
    assert.deepEqual(
      placed(text, 'build job: chosen stage three does not exist; available stages are test'),
      {
        line: 4,
        text: 'three',
        found: true,
      },
    );
  });

  it('puts a syntax error past the end on the last line, and a column past the end at its end', () => {
    const text = 'a: 1\nbb: [\n';
    assert.deepEqual(placed(text, '(<unknown>): x at line 12 column 40'), { line: 2, text: '', found: true });
    const [place] = placeCiMessages('key: value\nother: [\n', ['(<unknown>): x at line 2, column 15']);
    assert.deepEqual(place?.range, { startLine: 1, startCharacter: 8, endLine: 1, endCharacter: 8 });
    const [first] = placeCiMessages('key: value\n', ['(<unknown>): x at line 0 column 0']);
    assert.deepEqual(first?.range, { startLine: 0, startCharacter: 0, endLine: 0, endCharacter: 10 });
  });

  it('names a key path under `root:` and an include only from its own sentence', () => {
    assert.equal(placed(FILE, 'root:variables config should be a hash of key value pairs').line, 23);
    // "file `…`" after a word that is not an include's kind is not about an include.
    assert.equal(placed(FILE, 'Some file `ci/gone.yml` is odd').found, false);
    assert.equal(placed(FILE, 'Remote file `ci/gone.yml` could not be fetched').line, 21);
  });
});

describe('placeCiMessages on hostile sentences', () => {
  it('puts a sentence of a million colons and pieces of every class on the first line', () => {
    const pieces = [
      ':'.repeat(200_000),
      ' job: need '.repeat(20_000),
      "'".repeat(100_000),
      'jobs:'.repeat(50_000),
    ];
    const placed = placeCiMessages('build:\n  script: make\n', pieces);
    assert.deepEqual(
      placed.map((place) => [place.found, place.range.startLine]),
      pieces.map(() => [false, 0]),
    );
  });
});
