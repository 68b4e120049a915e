import assert from 'node:assert/strict';
import {
  editsToSuggestions,
  headLineOf,
  lineEdits,
  textLines,
  workingLineOf,
} from '../../../src/domain/workingFiles';

const HEAD = ['one', 'two', 'three', 'four', 'five', 'six'].join('\n') + '\n';

function edited(change: (lines: string[]) => void): string {
  const lines = textLines(HEAD);
  change(lines);
  return lines.join('\n') + '\n';
}

describe('working files against the merge request head', () => {
  describe('lines moved by local edits', () => {
    it('maps every line through when nothing changed', () => {
      const edits = lineEdits(HEAD, HEAD);
      assert.deepEqual(edits, []);
      for (let line = 1; line <= 6; line += 1) {
        assert.equal(workingLineOf(edits ?? [], line), line);
        assert.equal(headLineOf(edits ?? [], line), line);
      }
    });

    it('moves the lines below two added lines down, and back', () => {
      const working = edited((lines) => lines.splice(1, 0, 'added a', 'added b'));
      const edits = lineEdits(HEAD, working) ?? [];
      assert.deepEqual(
        [1, 2, 3, 6].map((line) => workingLineOf(edits, line)),
        [1, 4, 5, 8],
      );
      assert.deepEqual(
        [1, 2, 3, 4, 8].map((line) => headLineOf(edits, line)),
        [1, undefined, undefined, 2, 6],
      );
    });

    it('loses a changed or removed line, and moves the ones below up', () => {
      const working = edited((lines) => {
        lines[2] = 'THREE';
        lines.splice(4, 1);
      });
      const edits = lineEdits(HEAD, working) ?? [];
      assert.deepEqual(
        [1, 2, 3, 4, 5, 6].map((line) => workingLineOf(edits, line)),
        [1, 2, undefined, 4, undefined, 5],
      );
      assert.equal(headLineOf(edits, 3), undefined, 'a changed line was no head line');
      assert.equal(headLineOf(edits, 5), 6);
    });

    it('reads CRLF working text as the same lines', () => {
      assert.deepEqual(lineEdits(HEAD, HEAD.replace(/\n/g, '\r\n')), []);
    });

    it('does not compare texts too long to compare at once', () => {
      const long = 'x\n'.repeat(60_000);
      assert.equal(lineEdits(long, `${long}y\n`), undefined);
      assert.equal(editsToSuggestions(long, `${long}y\n`), undefined);
    });
  });

  describe('edits as suggestions', () => {
    it('suggests a changed line on that line', () => {
      const working = edited((lines) => {
        lines[1] = 'TWO';
      });
      assert.deepEqual(editsToSuggestions(HEAD, working), [
        { first: 2, last: 2, body: '```suggestion\nTWO\n```' },
      ]);
    });

    it("suggests several changed lines on their range, with GitLab's lines-above count", () => {
      const working = edited((lines) => lines.splice(2, 2, 'THREE', 'FOUR', 'four and a half'));
      assert.deepEqual(editsToSuggestions(HEAD, working), [
        { first: 3, last: 4, body: '```suggestion:-1+0\nTHREE\nFOUR\nfour and a half\n```' },
      ]);
    });

    it('suggests added lines on the line above them, and before the first line on the first', () => {
      const working = edited((lines) => {
        lines.splice(3, 0, 'new');
        lines.unshift('top');
      });
      assert.deepEqual(editsToSuggestions(HEAD, working), [
        { first: 1, last: 1, body: '```suggestion\ntop\none\n```' },
        { first: 3, last: 3, body: '```suggestion\nthree\nnew\n```' },
      ]);
    });

    it('suggests removed lines as an empty suggestion on their range', () => {
      const working = edited((lines) => lines.splice(4, 2));
      assert.deepEqual(editsToSuggestions(HEAD, working), [
        { first: 5, last: 6, body: '```suggestion:-1+0\n```' },
      ]);
    });

    it('keeps several hunks apart, in the order of the file', () => {
      const working = edited((lines) => {
        lines[0] = 'ONE';
        lines[5] = 'SIX';
      });
      assert.deepEqual(
        editsToSuggestions(HEAD, working)?.map((each) => [each.first, each.last]),
        [
          [1, 1],
          [6, 6],
        ],
      );
    });

    it('fences code that holds backticks with a longer fence', () => {
      const working = edited((lines) => {
        lines[1] = 'const fence = "```";';
      });
      assert.deepEqual(editsToSuggestions(HEAD, working), [
        { first: 2, last: 2, body: '````suggestion\nconst fence = "```";\n````' },
      ]);
    });
  });
});
