// A Getting Started step ticks when what it teaches worked: a step completed by `onCommand:` ticked
// "Add an account" after a failed sign-in. Every step completes on a view or on a context key the
// extension sets after success.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../support/projectRoot';

const root = projectRoot;
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  contributes: { walkthroughs: { steps: { id: string; completionEvents?: string[] }[] }[] };
};
const steps = manifest.contributes.walkthroughs.flatMap((walkthrough) => walkthrough.steps);
const source = (path: string) => readFileSync(join(root, 'src', path), 'utf8');

describe('the Getting Started walkthrough', () => {
  it('has steps', () => {
    assert.ok(steps.length >= 4);
  });

  it('completes no step by running a command, which may fail', () => {
    const byCommand = steps.filter((step) =>
      (step.completionEvents ?? []).some((event) => event.startsWith('onCommand:')),
    );
    assert.deepEqual(
      byCommand.map((step) => step.id),
      [],
    );
  });

  it('completes steps only on context keys the extension sets', () => {
    const set = new Set([
      'forge.hasAccounts',
      'forge.hasChannelAccounts',
      ...[...source('platform/walkthrough.ts').matchAll(/'(\w+Shown)'/g)].map(
        (match) => `forge.walkthrough.${match[1] ?? ''}`,
      ),
    ]);
    assert.match(source('core.ts'), /'forge\.hasAccounts'/);
    const keys = steps.flatMap((step) =>
      (step.completionEvents ?? [])
        .filter((event) => event.startsWith('onContext:'))
        .map((event) => event.slice('onContext:'.length)),
    );
    assert.ok(keys.length >= 4);
    assert.deepEqual(
      keys.filter((key) => !set.has(key)),
      [],
    );
  });
});
