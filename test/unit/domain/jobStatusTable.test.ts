// Every job status a server reports, as a table: how it looks and what a user may do with it.
import assert from 'node:assert/strict';
import { jobCapabilities, statusAppearance, summarizeStatuses } from '../../../src/domain/jobStatus';

interface Row {
  label: string;
  codicon: string;
  color: string;
  active: boolean;
  /** capability tokens, without `artifacts` */
  tokens: string[];
}

const row = (label: string, codicon: string, color: string, active: boolean, tokens: string[]): Row => ({
  label,
  codicon,
  color,
  active,
  tokens,
});
const GOING = ['cancelable'];
const DONE = ['retryable', 'erasable'];

const STATUSES: Record<string, Row> = {
  created: row('Created', 'circle-outline', 'descriptionForeground', true, GOING),
  waiting_for_resource: row('Waiting for resource', 'watch', 'charts.yellow', true, GOING),
  preparing: row('Preparing', 'loading~spin', 'charts.yellow', true, GOING),
  pending: row('Pending', 'clock', 'charts.yellow', true, GOING),
  running: row('Running', 'sync~spin', 'charts.blue', true, GOING),
  started: row('Started', 'sync~spin', 'charts.blue', true, GOING),
  canceling: row('Canceling', 'circle-slash', 'descriptionForeground', true, GOING),
  success: row('Passed', 'pass-filled', 'testing.iconPassed', false, DONE),
  failed: row('Failed', 'error', 'testing.iconFailed', false, DONE),
  canceled: row('Canceled', 'circle-slash', 'descriptionForeground', false, DONE),
  skipped: row('Skipped', 'debug-step-over', 'descriptionForeground', false, DONE),
  manual: row('Manual', 'gear', 'charts.purple', false, ['playable']),
  scheduled: row('Scheduled', 'calendar', 'charts.purple', false, []),
};

describe('job statuses as a table', () => {
  for (const [status, expected] of Object.entries(STATUSES)) {
    const { tokens, ...appearance } = expected;
    it(`${status}: ${expected.codicon} in ${expected.color}, offers ${tokens.join(', ') || 'nothing'}`, () => {
      assert.deepEqual(statusAppearance(status), appearance);
      assert.deepEqual(jobCapabilities({ status }), tokens);
      assert.deepEqual(jobCapabilities({ status, artifacts_file: { filename: 'a.zip' } }), [
        ...tokens,
        'artifacts',
      ]);
    });
  }

  it('shows a status a newer server adds with a question mark and offers nothing', () => {
    const appearance = statusAppearance('waiting_for_callback');
    assert.deepEqual(appearance, {
      label: 'Waiting for callback',
      codicon: 'question',
      color: undefined,
      active: false,
    });
    assert.deepEqual(jobCapabilities({ status: 'waiting_for_callback' }), []);
    assert.equal(statusAppearance('').label, 'Unknown');
  });
});

describe('a pipeline summarized from its jobs, as a table', () => {
  /** Worst first: each status wins over every one after it. */
  const PRECEDENCE = [
    'failed',
    'running',
    'canceling',
    'started',
    'preparing',
    'waiting_for_resource',
    'pending',
    'created',
    'scheduled',
    'manual',
    'canceled',
    'success',
    'skipped',
  ];

  PRECEDENCE.forEach((winner, rank) => {
    it(`${winner} wins over ${PRECEDENCE.slice(rank + 1).join(', ') || 'nothing else'}`, () => {
      for (const loser of PRECEDENCE.slice(rank + 1)) {
        assert.equal(summarizeStatuses([loser, winner, loser]), winner, `${winner} over ${loser}`);
      }
      assert.equal(summarizeStatuses([winner]), winner);
    });
  });

  it('falls back to the first status when none is ranked, and to unknown when there is none', () => {
    assert.equal(summarizeStatuses(['waiting_for_callback', 'bogus']), 'waiting_for_callback');
    assert.equal(summarizeStatuses([]), 'unknown');
  });

  it('ranks every known status above one it does not know', () => {
    for (const status of PRECEDENCE) assert.equal(summarizeStatuses(['bogus', status]), status, status);
  });
});
