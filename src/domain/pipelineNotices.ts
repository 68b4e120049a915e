/**
 * When a pipeline has ended and what to say (issue 37): one notice per pipeline, the first failed
 * job one click away. No `vscode`.
 */
import * as l10n from '@vscode/l10n';

/** Statuses after which nothing runs by itself: finished, or held for a person (a blocking manual job). */
const ENDED: ReadonlySet<string> = new Set(['success', 'failed', 'canceled', 'skipped', 'manual']);

export function pipelineHasEnded(status: string): boolean {
  return ENDED.has(status);
}

/** Who the user wants to hear about (`forge.pipelines.notify`). */
export type PipelineNotify = 'mine' | 'branch' | 'off';

export function notifySetting(value: unknown): PipelineNotify {
  return value === 'branch' || value === 'off' ? value : 'mine';
}

export interface PipelineNotice {
  severity: 'info' | 'warning' | 'error';
  text: string;
}

/** The sentence shown when pipeline `id` on `ref` of `project` ended with `status`. */
export function pipelineEndNotice(
  pipeline: { id: number; ref: string; status: string; detailed_status?: { group?: string | null } | null },
  project: string,
): PipelineNotice {
  const where = l10n.t('Pipeline #{0} on {1} ({2})', pipeline.id, pipeline.ref, project);
  switch (pipeline.detailed_status?.group === 'success-with-warnings' ? 'warnings' : pipeline.status) {
    case 'success':
      return { severity: 'info', text: l10n.t('{0} passed.', where) };
    case 'warnings':
      return {
        severity: 'warning',
        text: l10n.t('{0} passed with warnings: a job allowed to fail failed.', where),
      };
    case 'failed':
      return { severity: 'error', text: l10n.t('{0} failed.', where) };
    case 'canceled':
      return { severity: 'warning', text: l10n.t('{0} was canceled.', where) };
    case 'manual':
      return { severity: 'info', text: l10n.t('{0} waits for a manual job.', where) };
    default:
      return { severity: 'info', text: l10n.t('{0} ended: {1}.', where, pipeline.status) };
  }
}
