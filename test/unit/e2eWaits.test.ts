// A UI test that polls the page (waitUntil) must not let one read wait out its whole budget: a
// `.innerText().catch(...)` without a timeout waits for a missing element as long as Playwright's
// default allows, so under load the loop got one try (the hostile tooltip test failed so).
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { projectRoot } from '../support/projectRoot';

const root = projectRoot;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? files(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

describe('UI tests wait for conditions, one bounded read at a time', () => {
  it('gives every swallowed read of the page a timeout of its own', () => {
    const unbounded = files(join(root, 'test', 'e2e')).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          /\.((innerText|textContent|inputValue)\(\)|getAttribute\('[^']*'\))\s*\.catch\(/.test(line)
            ? [`${relative(root, file)}:${index + 1}: ${line.trim()}`]
            : [],
        ),
    );
    assert.deepEqual(unbounded, [], 'give these reads { timeout } so that a polling loop tries again');
  });
});
