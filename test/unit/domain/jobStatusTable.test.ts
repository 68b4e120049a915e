// Every job status a server reports, as a table: how it looks and what a user may do with it.
import assert from 'node:assert/strict';
import { jobCapabilities, statusAppearance } from '../../../src/domain/jobStatus';

/** status -> [codicon, still going, capability tokens (without artifacts)] */
const STATUSES: Record<string, [string, boolean, string[]]> = {
  created: ['circle-outline', true, ['cancelable']],
  waiting_for_resource: ['watch', true, ['cancelable']],
  preparing: ['loading~spin', true, ['cancelable']],
  pending: ['clock', true, ['cancelable']],
  running: ['sync~spin', true, ['cancelable']],
  canceling: ['circle-slash', true, ['cancelable']],
  success: ['pass-filled', false, ['retryable', 'erasable']],
  failed: ['error', false, ['retryable', 'erasable']],
  canceled: ['circle-slash', false, ['retryable', 'erasable']],
  skipped: ['debug-step-over', false, ['retryable', 'erasable']],
  manual: ['gear', false, ['playable']],
  scheduled: ['calendar', false, []],
};

describe('job statuses as a table', () => {
  for (const [status, [codicon, active, tokens]] of Object.entries(STATUSES)) {
    it(`${status}: ${codicon}, ${active ? 'still going' : 'settled'}, offers ${tokens.join(', ') || 'nothing'}`, () => {
      const appearance = statusAppearance(status);
      assert.equal(appearance.codicon, codicon);
      assert.equal(appearance.active, active);
      assert.notEqual(appearance.label, '');
      assert.notEqual(appearance.color, undefined, 'a theme colour');
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
  });
});
