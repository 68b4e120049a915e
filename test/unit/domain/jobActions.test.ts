import assert from 'node:assert/strict';
import { inertPickRow } from '../../../src/domain/inertText';
import {
  looksLikeDeployment,
  DownloadProgressTracker,
  artifactsFileName,
  eraseQuestion,
  formatBytes,
  jobActionApplies,
  jobActionMessage,
  jobPickRow,
  jobWebUrl,
  jobsForAction,
  noJobMessage,
  projectPath,
  refArtifactsFileName,
} from '../../../src/domain/jobActions';

const jobs = [
  { id: 1, name: 'build', status: 'success', ref: 'master', artifacts_file: { filename: 'a.zip', size: 10 } },
  { id: 2, name: 'lint', status: 'failed', ref: 'master' },
  { id: 3, name: 'test', status: 'running', ref: 'feature/login' },
  { id: 4, name: 'deploy', status: 'manual', ref: 'master' },
  { id: 5, name: 'e2e', status: 'pending', ref: 'master' },
  { id: 6, name: 'audit', status: 'waiting_for_callback', ref: 'master' },
];

describe('jobActionApplies / jobsForAction', () => {
  it('picks the jobs each action applies to, as the tree menus do', () => {
    const ids = (action: Parameters<typeof jobsForAction>[1]): number[] =>
      jobsForAction(jobs, action).map((job) => job.id);
    assert.deepEqual(ids('retry'), [1, 2]);
    assert.deepEqual(ids('erase'), [1, 2]);
    assert.deepEqual(ids('play'), [4]);
    assert.deepEqual(ids('cancel'), [3, 5]);
    assert.deepEqual(ids('downloadArtifacts'), [1]);
    assert.deepEqual(ids('keepArtifacts'), [1]);
    assert.deepEqual(ids('openInBrowser'), [1, 2, 3, 4, 5, 6]);
  });

  it('offers nothing state-dependent for a status it does not know', () => {
    const unknown = { id: 6, name: 'audit', status: 'waiting_for_callback' };
    for (const action of ['retry', 'play', 'cancel', 'erase'] as const)
      assert.equal(jobActionApplies(action, unknown), false, action);
  });
});

describe('artifactsFileName', () => {
  it('is <project>-<job>-<id>-artifacts.zip', () => {
    assert.equal(artifactsFileName('web', 'lint', 12), 'web-lint-12-artifacts.zip');
  });

  it('replaces characters that are unsafe in file names', () => {
    assert.equal(artifactsFileName('acme/web', 'test:unit 1/2', 7), 'acme-web-test-unit-1-2-7-artifacts.zip');
    assert.equal(artifactsFileName('../..', '***', 1), 'unnamed-unnamed-1-artifacts.zip');
    assert.equal(refArtifactsFileName('web', 'release/1.0', 'build'), 'web-release-1.0-build-artifacts.zip');
  });
});

describe('jobWebUrl', () => {
  it('prefers the web_url the server sent', () => {
    assert.equal(
      jobWebUrl({ id: 12, web_url: 'https://git.example/acme/web/-/jobs/12' }, 'https://other'),
      'https://git.example/acme/web/-/jobs/12',
    );
  });

  it('builds it from the project web_url otherwise', () => {
    assert.equal(
      jobWebUrl({ id: 12, web_url: null }, 'https://git.example/acme/web/'),
      'https://git.example/acme/web/-/jobs/12',
    );
    assert.throws(() => jobWebUrl({ id: 12 }, undefined), /no web address/);
  });
});

describe('job messages', () => {
  it('says what the action did and the status now', () => {
    const lint = { id: 12, name: 'lint', status: 'failed' };
    assert.equal(
      jobActionMessage('retry', lint, { id: 12, status: 'pending' }),
      'Retried lint (#12): now pending',
    );
    assert.equal(
      jobActionMessage('retry', lint, { id: 13, status: 'pending' }),
      'Retried lint (#12) as #13: now pending',
    );
    assert.equal(
      jobActionMessage('play', { id: 4, name: 'deploy', status: 'manual' }, { id: 4, status: 'pending' }),
      'Started deploy (#4): now pending',
    );
    assert.equal(
      jobActionMessage('cancel', { id: 3, name: 'test', status: 'running' }, { id: 3, status: 'canceled' }),
      'Canceled test (#3): now canceled',
    );
    assert.equal(
      jobActionMessage('cancel', { id: 3, name: 'test', status: 'running' }, { id: 3, status: 'success' }),
      'test (#3) had already finished: passed',
    );
    assert.match(jobActionMessage('erase', lint, lint), /^Erased lint \(#12\)/);
    assert.match(jobActionMessage('keepArtifacts', lint, lint), /^Kept the artifacts of lint \(#12\)/);
  });

  it('names job and project in the erase question', () => {
    assert.equal(
      eraseQuestion({ id: 12, name: 'lint' }, 'acme/web'),
      'Erase job lint #12 of acme/web? Its trace and artifacts are deleted.',
    );
  });

  it('labels quick-pick rows name #id with status and ref', () => {
    assert.deepEqual(jobPickRow({ id: 12, name: 'lint', status: 'failed', ref: 'master' }), {
      label: 'lint #12',
      description: 'failed · master',
    });
  });

  it('keeps $(name) in a job name or ref as text, not an icon, once the message door draws the row', () => {
    assert.deepEqual(
      inertPickRow(jobPickRow({ id: 3, name: '$(alert) deploy', status: 'failed', ref: '$(x)' })),
      {
        label: '\\$(alert) deploy #3',
        description: 'failed · \\$(x)',
      },
    );
  });

  it('explains an empty pick per action, and names projects by path', () => {
    assert.match(noJobMessage('play', 'acme/web'), /waiting to be run by hand/);
    assert.match(noJobMessage('downloadArtifacts', 'acme/web'), /has artifacts/);
    assert.equal(projectPath({ id: 1, path_with_namespace: 'acme/web', path: 'web' }), 'acme/web');
    assert.equal(projectPath({ id: 1 }), '1');
  });
});

describe('DownloadProgressTracker', () => {
  it('reports percent increments that add up to 100', () => {
    const tracker = new DownloadProgressTracker();
    const increments: number[] = [];
    for (const received of [0, 10, 10, 55, 99, 100]) {
      const update = tracker.update(received, 100);
      if (update?.increment !== undefined) increments.push(update.increment);
    }
    assert.deepEqual(increments, [10, 45, 44, 1]);
    assert.equal(
      increments.reduce((sum, value) => sum + value, 0),
      100,
    );
  });

  it('shows bytes without a total, at most every 256 KB', () => {
    const tracker = new DownloadProgressTracker();
    assert.deepEqual(tracker.update(1000, undefined), { increment: undefined, message: '1000 B' });
    assert.equal(tracker.update(2000, undefined), undefined);
    assert.equal(tracker.update(300 * 1024, undefined)?.message, '300.0 KB');
  });

  it('formats sizes', () => {
    assert.equal(formatBytes(512), '512 B');
    assert.equal(formatBytes(2048), '2.0 KB');
    assert.equal(formatBytes(5 * 1024 * 1024), '5.0 MB');
  });
});

describe('looksLikeDeployment', () => {
  it('asks for jobs whose name or stage says deploy, production or release', () => {
    for (const job of [
      { name: 'deploy-production', stage: 'deploy' },
      { name: 'apply', stage: 'deploy' },
      { name: 'Production', stage: 'rollout' },
      { name: 'push:prod', stage: 'ship' },
      { name: 'release', stage: null },
      { name: 'k8s deployment', stage: 'test' },
    ]) {
      assert.ok(looksLikeDeployment(job), job.name);
    }
  });

  it('leaves other manual jobs alone, also when a word only contains one of those', () => {
    for (const job of [
      { name: 'lint', stage: 'test' },
      { name: 'products-report', stage: 'report' },
      { name: 'prerelease-notes', stage: 'docs' },
      { name: 'redeployer-tests', stage: 'test' },
    ]) {
      assert.ok(!looksLikeDeployment(job), job.name);
    }
  });
});
