import assert from 'node:assert/strict';
import { notifySetting, pipelineEndNotice, pipelineHasEnded } from '../../../src/domain/pipelineNotices';

describe('pipeline end notices', () => {
  it('knows which statuses end a pipeline (a blocking manual job holds it for a person)', () => {
    for (const status of ['success', 'failed', 'canceled', 'skipped', 'manual'])
      assert.equal(pipelineHasEnded(status), true, status);
    for (const status of [
      'created',
      'pending',
      'running',
      'preparing',
      'waiting_for_resource',
      'scheduled',
      'constructor',
    ])
      assert.equal(pipelineHasEnded(status), false, status);
  });

  it('says how it ended, warnings apart', () => {
    const at = { id: 7, ref: 'main' };
    assert.deepEqual(pipelineEndNotice({ ...at, status: 'success' }, 'acme/web'), {
      severity: 'info',
      text: 'Pipeline #7 on main (acme/web) passed.',
    });
    assert.equal(pipelineEndNotice({ ...at, status: 'failed' }, 'acme/web').severity, 'error');
    assert.equal(
      pipelineEndNotice({ ...at, status: 'canceled' }, 'acme/web').text,
      'Pipeline #7 on main (acme/web) was canceled.',
    );
    assert.equal(
      pipelineEndNotice(
        { ...at, status: 'success', detailed_status: { group: 'success-with-warnings' } },
        'p',
      ).severity,
      'warning',
    );
    assert.match(pipelineEndNotice({ ...at, status: 'manual' }, 'p').text, /waits for a manual job/);
    assert.match(pipelineEndNotice({ ...at, status: 'skipped' }, 'p').text, /ended: skipped\.$/);
  });

  it('reads the setting, mine by default', () => {
    assert.equal(notifySetting(undefined), 'mine');
    assert.equal(notifySetting('branch'), 'branch');
    assert.equal(notifySetting('off'), 'off');
    assert.equal(notifySetting('loud'), 'mine');
  });
});
