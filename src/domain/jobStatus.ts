import * as l10n from '@vscode/l10n';
import { ownEntry } from './ownEntry';
/**
 * How each job status looks: a codicon and a theme colour id, with a fallback for statuses a newer
 * server may add. Views turn these into ThemeIcons; this file knows nothing of VS Code.
 */
export interface StatusAppearance {
  label: string;
  codicon: string;
  /** A theme colour id, so the icon follows light, dark and high-contrast themes. */
  color: string | undefined;
  /** Still going: a view may poll it and may offer cancel. */
  active: boolean;
}

const STATUS_TABLE: Readonly<Record<string, StatusAppearance>> = {
  created: {
    label: l10n.t('Created'),
    codicon: 'circle-outline',
    color: 'descriptionForeground',
    active: true,
  },
  waiting_for_resource: {
    label: l10n.t('Waiting for resource'),
    codicon: 'watch',
    color: 'charts.yellow',
    active: true,
  },
  preparing: { label: l10n.t('Preparing'), codicon: 'loading~spin', color: 'charts.yellow', active: true },
  pending: { label: l10n.t('Pending'), codicon: 'clock', color: 'charts.yellow', active: true },
  running: { label: l10n.t('Running'), codicon: 'sync~spin', color: 'charts.blue', active: true },
  started: { label: l10n.t('Started'), codicon: 'sync~spin', color: 'charts.blue', active: true },
  success: { label: l10n.t('Passed'), codicon: 'pass-filled', color: 'testing.iconPassed', active: false },
  failed: { label: l10n.t('Failed'), codicon: 'error', color: 'testing.iconFailed', active: false },
  canceling: {
    label: l10n.t('Canceling'),
    codicon: 'circle-slash',
    color: 'descriptionForeground',
    active: true,
  },
  canceled: {
    label: l10n.t('Canceled'),
    codicon: 'circle-slash',
    color: 'descriptionForeground',
    active: false,
  },
  skipped: {
    label: l10n.t('Skipped'),
    codicon: 'debug-step-over',
    color: 'descriptionForeground',
    active: false,
  },
  manual: { label: l10n.t('Manual'), codicon: 'gear', color: 'charts.purple', active: false },
  scheduled: { label: l10n.t('Scheduled'), codicon: 'calendar', color: 'charts.purple', active: false },
};

export function statusAppearance(status: string): StatusAppearance {
  return (
    ownEntry(STATUS_TABLE, status) ?? {
      label:
        status.length > 0 ? status[0]?.toUpperCase() + status.slice(1).replace(/_/g, ' ') : l10n.t('Unknown'),
      codicon: 'question',
      color: undefined,
      active: false,
    }
  );
}

/**
 * A pipeline's overall status from its jobs, for grouping: failed wins over running, running over
 * pending, and so on; the pipeline's own status from the server is preferred when present.
 */
const PIPELINE_PRECEDENCE = [
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

export function summarizeStatuses(statuses: readonly string[]): string {
  for (const status of PIPELINE_PRECEDENCE) if (statuses.includes(status)) return status;
  return statuses[0] ?? 'unknown';
}

/**
 * What a user may do with a job in this state, as `contextValue` tokens that package.json menus
 * match with `viewItem =~ /\bretryable\b/`.
 */
export function jobCapabilities(job: { status: string; artifacts_file?: unknown }): string[] {
  const tokens: string[] = [];
  const finished = ['success', 'failed', 'canceled', 'skipped'].includes(job.status);
  if (finished) tokens.push('retryable', 'erasable');
  if (job.status === 'manual') tokens.push('playable');
  if (statusAppearance(job.status).active) tokens.push('cancelable');
  if (job.artifacts_file) tokens.push('artifacts');
  return tokens;
}
