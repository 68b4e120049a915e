import assert from 'node:assert/strict';
import { jobCapabilities, statusAppearance, summarizeStatuses } from '../../../src/domain/jobStatus';
import { groupJobsByPipeline } from '../../../src/domain/pipelines';
import { normalizeServerUrl } from '../../../src/domain/serverUrl';
import { formatAge, formatDuration } from '../../../src/domain/time';

describe('statusAppearance', () => {
  it('gives every named status a codicon and a theme colour', () => {
    for (const status of [
      'created',
      'pending',
      'running',
      'failed',
      'success',
      'canceled',
      'skipped',
      'manual',
    ]) {
      const appearance = statusAppearance(status);
      assert.notEqual(appearance.codicon, 'question', status);
    }
    assert.equal(statusAppearance('failed').color, 'testing.iconFailed');
    assert.equal(statusAppearance('running').active, true);
    assert.equal(statusAppearance('success').active, false);
  });

  it('falls back for a status a newer server invents', () => {
    const appearance = statusAppearance('waiting_for_callback');
    assert.equal(appearance.codicon, 'question');
    assert.equal(appearance.label, 'Waiting for callback');
  });

  it('summarizes a pipeline: failed over running over success', () => {
    assert.equal(summarizeStatuses(['success', 'failed', 'running']), 'failed');
    assert.equal(summarizeStatuses(['success', 'running']), 'running');
    assert.equal(summarizeStatuses(['success', 'success']), 'success');
    assert.equal(summarizeStatuses([]), 'unknown');
  });
});

describe('jobCapabilities', () => {
  it('offers retry and erase on finished jobs, play on manual ones, cancel on running ones', () => {
    assert.deepEqual(jobCapabilities({ status: 'failed' }), ['retryable', 'erasable']);
    assert.deepEqual(jobCapabilities({ status: 'success', artifacts_file: { filename: 'a.zip', size: 1 } }), [
      'retryable',
      'erasable',
      'artifacts',
    ]);
    assert.deepEqual(jobCapabilities({ status: 'manual' }), ['playable']);
    assert.deepEqual(jobCapabilities({ status: 'running' }), ['cancelable']);
    assert.deepEqual(jobCapabilities({ status: 'pending' }), ['cancelable']);
    assert.deepEqual(jobCapabilities({ status: 'brand_new_status' }), []);
  });
});

describe('groupJobsByPipeline', () => {
  it('keeps the order pipelines first appear in and groups their jobs', () => {
    const jobs = [
      { id: 9, ref: 'main', pipeline: { id: 3, ref: 'main', status: 'running' } },
      { id: 8, ref: 'main', pipeline: { id: 3, ref: 'main', status: 'running' } },
      { id: 7, ref: 'dev', pipeline: { id: 2, ref: 'dev', status: 'failed' } },
      { id: 6, ref: 'main', pipeline: { id: 3, ref: 'main', status: 'running' } },
      { id: 5, ref: 'old' },
    ];
    const groups = groupJobsByPipeline(jobs);
    assert.deepEqual(
      groups.map((group) => [group.pipelineId, group.jobs.map((job) => job.id)]),
      [
        [3, [9, 8, 6]],
        [2, [7]],
        [undefined, [5]],
      ],
    );
    assert.equal(groups[2]?.ref, 'old');
  });
});

describe('normalizeServerUrl', () => {
  it('accepts an address with or without scheme, and strips /api/v4 and slashes', () => {
    assert.deepEqual(normalizeServerUrl('gitlab.example.com'), { url: 'https://gitlab.example.com' });
    assert.deepEqual(normalizeServerUrl(' https://host:8443/forge/api/v4/ '), {
      url: 'https://host:8443/forge',
    });
    assert.deepEqual(normalizeServerUrl('http://127.0.0.1:3000'), { url: 'http://127.0.0.1:3000' });
  });

  it('explains what is wrong before any request is sent', () => {
    assert.match(JSON.stringify(normalizeServerUrl('')), /Enter the address/);
    assert.match(JSON.stringify(normalizeServerUrl('ftp://host')), /https:\/\/ or http:\/\//);
    assert.match(JSON.stringify(normalizeServerUrl('https://user:pw@host')), /user name and password/);
    assert.match(JSON.stringify(normalizeServerUrl('https://host/?private_token=x')), /query parameters/);
    assert.match(JSON.stringify(normalizeServerUrl('http://exa mple.com')), /not a valid address/);
  });
});

describe('formatAge and formatDuration', () => {
  const now = Date.parse('2026-01-10T12:00:00Z');
  it('says how long ago', () => {
    assert.equal(formatAge('2026-01-10T11:59:45Z', now), 'just now');
    assert.equal(formatAge('2026-01-10T11:55:00Z', now), '5 minutes ago');
    assert.equal(formatAge('2026-01-09T12:00:00Z', now), '1 day ago');
    assert.equal(formatAge(null, now), '');
    assert.equal(formatAge('not a date', now), '');
  });

  it('counts ages as VS Code dates comments, so one note has one age in the panel and in the diff editor', () => {
    const ago = (seconds: number) => formatAge(new Date(now - seconds * 1000).toISOString(), now);
    const day = 86_400;
    const table: [number, string][] = [
      [-120, 'just now'],
      [29, 'just now'],
      [45, '45 seconds ago'],
      [60, '1 minute ago'],
      [3_599, '59 minutes ago'],
      [3_600, '1 hour ago'],
      [day - 1, '23 hours ago'],
      [2.9 * day, '2 days ago'],
      [7 * day - 1, '6 days ago'],
      [13 * day, '1 week ago'],
      [29 * day, '4 weeks ago'],
      [30 * day, '1 month ago'],
      [364 * day, '12 months ago'],
      [365 * day, '1 year ago'],
      [3 * 365 * day - 1, '2 years ago'],
      [3 * 365 * day, '3 years ago'],
    ];
    assert.deepEqual(
      table.map(([seconds]) => [seconds, ago(seconds)]),
      table,
    );
  });

  it('says how long a job ran, or runs', () => {
    assert.equal(formatDuration('2026-01-10T11:58:55Z', '2026-01-10T12:00:00Z', now), '1 min 5 s');
    assert.equal(formatDuration('2026-01-10T11:59:18Z', null, now), '42 s');
    assert.equal(formatDuration(null, null, now), '');
  });
});
