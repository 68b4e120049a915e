// The job actions' words and file names as tables: every action, every boundary.
import assert from 'node:assert/strict';
import {
  DownloadProgressTracker,
  artifactsFileName,
  formatBytes,
  jobActionApplies,
  jobWebUrl,
  jobsForAction,
  looksLikeDeployment,
  noJobMessage,
  playQuestion,
  projectPath,
  refArtifactsFileName,
} from '../../../src/domain/jobActions';

describe('job actions, as tables', () => {
  it('explains an empty pick for every action', () => {
    const rows: [Parameters<typeof noJobMessage>[0], string][] = [
      ['retry', 'None of the recent jobs of acme/web has finished, so none can be retried.'],
      ['play', 'No recent job of acme/web is waiting to be run by hand.'],
      ['cancel', 'No recent job of acme/web is still running or waiting.'],
      ['erase', 'None of the recent jobs of acme/web has finished, so none can be erased.'],
      ['keepArtifacts', 'None of the recent jobs of acme/web has artifacts.'],
      ['downloadArtifacts', 'None of the recent jobs of acme/web has artifacts.'],
      ['openInBrowser', 'acme/web has no jobs.'],
    ];
    for (const [action, message] of rows) assert.equal(noJobMessage(action, 'acme/web'), message, action);
  });

  it('names a project by its path, else its short path, else its name, else its id', () => {
    assert.equal(
      projectPath({ id: 1, path_with_namespace: 'acme/web', path: 'web', name: 'Web' }),
      'acme/web',
    );
    assert.equal(projectPath({ id: 1, path: 'web', name: 'Web' }), 'web');
    assert.equal(projectPath({ id: 1, name: 'Web' }), 'Web');
    assert.equal(projectPath({ id: 7 }), '7');
  });

  it('opens any job in the browser, and picks jobs by what they allow', () => {
    const running = { id: 1, name: 'a', status: 'running' };
    const failed = { id: 2, name: 'b', status: 'failed' };
    assert.equal(jobActionApplies('openInBrowser', { id: 3, name: 'c', status: 'anything' }), true);
    assert.deepEqual(jobsForAction([running, failed], 'cancel'), [running]);
    assert.deepEqual(jobsForAction([running, failed], 'retry'), [failed]);
    assert.deepEqual(jobsForAction([running, failed], 'openInBrowser'), [running, failed]);
  });

  it('makes artifact file names from safe parts, and "unnamed" for parts with nothing left', () => {
    assert.equal(artifactsFileName('acme/web', 'test:unit', 12), 'acme-web-test-unit-12-artifacts.zip');
    assert.equal(artifactsFileName('..acme', '-.job.-', 1), 'acme-job.-1-artifacts.zip');
    assert.equal(artifactsFileName('///', '', 2), 'unnamed-unnamed-2-artifacts.zip');
    assert.equal(
      refArtifactsFileName('acme/web', 'feature/x', 'build'),
      'acme-web-feature-x-build-artifacts.zip',
    );
  });

  it('builds a job address from the project address, with or without its slash', () => {
    assert.equal(jobWebUrl({ id: 5, web_url: null }, 'https://h/acme/web/'), 'https://h/acme/web/-/jobs/5');
    assert.equal(jobWebUrl({ id: 5, web_url: '' }, 'https://h/acme/web'), 'https://h/acme/web/-/jobs/5');
    assert.throws(() => jobWebUrl({ id: 5 }, undefined), /no web address for job #5/);
    assert.throws(() => jobWebUrl({ id: 5 }, ''), /no web address for job #5/);
  });

  it('asks before deployment-like jobs, naming the stage when there is one', () => {
    const rows: [string, string | null | undefined, boolean][] = [
      ['deploy', undefined, true],
      ['Deploy-Prod', null, true],
      ['release:notes', '', true],
      ['build', 'production', true],
      ['redeployer', 'test', false],
      ['prodigy', 'test', false],
      ['unit', 'test', false],
    ];
    for (const [name, stage, expected] of rows)
      assert.equal(looksLikeDeployment({ name, stage }), expected, `${name} ${String(stage)}`);
    assert.equal(
      playQuestion({ id: 4, name: 'deploy', stage: 'prod' }, 'acme/web'),
      'Run deploy #4 (stage prod) of acme/web? It looks like a deployment.',
    );
    assert.equal(
      playQuestion({ id: 4, name: 'deploy', stage: null }, 'acme/web'),
      'Run deploy #4 of acme/web? It looks like a deployment.',
    );
  });

  it('formats sizes at every unit boundary', () => {
    const rows: [number, string][] = [
      [0, '0 B'],
      [1023, '1023 B'],
      [1024, '1.0 KB'],
      [1024 * 1024 - 1, '1024.0 KB'],
      [1024 * 1024, '1.0 MB'],
      [1024 * 1024 * 1024 - 1, '1024.0 MB'],
      [1024 * 1024 * 1024, '1.00 GB'],
      [3.5 * 1024 * 1024 * 1024, '3.50 GB'],
    ];
    for (const [bytes, text] of rows) assert.equal(formatBytes(bytes), text, String(bytes));
  });

  it('reports progress: nothing new is nothing, the end always, a zero total as no total', () => {
    const tracker = new DownloadProgressTracker();
    assert.deepEqual(tracker.update(0, 1000), undefined, '0 % is nothing new');
    assert.deepEqual(tracker.update(5, 1000), undefined, 'still 0 %');
    assert.deepEqual(tracker.update(999, 1000), { increment: 99, message: '99% of 1000 B' });
    assert.deepEqual(tracker.update(1000, 1000), { increment: 1, message: '100% of 1000 B' });
    assert.deepEqual(
      tracker.update(1000, 1000),
      { increment: 0, message: '100% of 1000 B' },
      'the end, again',
    );
    assert.deepEqual(
      tracker.update(1200, 1000),
      { increment: 0, message: '100% of 1000 B' },
      'more than said',
    );
    const noTotal = new DownloadProgressTracker();
    assert.deepEqual(noTotal.update(0, 0), { increment: undefined, message: '0 B' });
    assert.equal(noTotal.update(256 * 1024 - 1, 0), undefined);
    assert.deepEqual(noTotal.update(256 * 1024, -1), { increment: undefined, message: '256.0 KB' });
  });
});
