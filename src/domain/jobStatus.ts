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
  created: { label: 'Created', codicon: 'circle-outline', color: 'descriptionForeground', active: true },
  waiting_for_resource: {
    label: 'Waiting for resource',
    codicon: 'watch',
    color: 'charts.yellow',
    active: true,
  },
  preparing: { label: 'Preparing', codicon: 'loading~spin', color: 'charts.yellow', active: true },
  pending: { label: 'Pending', codicon: 'clock', color: 'charts.yellow', active: true },
  running: { label: 'Running', codicon: 'sync~spin', color: 'charts.blue', active: true },
  started: { label: 'Started', codicon: 'sync~spin', color: 'charts.blue', active: true },
  success: { label: 'Passed', codicon: 'pass-filled', color: 'testing.iconPassed', active: false },
  failed: { label: 'Failed', codicon: 'error', color: 'testing.iconFailed', active: false },
  canceling: { label: 'Canceling', codicon: 'circle-slash', color: 'descriptionForeground', active: true },
  canceled: { label: 'Canceled', codicon: 'circle-slash', color: 'descriptionForeground', active: false },
  skipped: { label: 'Skipped', codicon: 'debug-step-over', color: 'descriptionForeground', active: false },
  manual: { label: 'Manual', codicon: 'gear', color: 'charts.purple', active: false },
  scheduled: { label: 'Scheduled', codicon: 'calendar', color: 'charts.purple', active: false },
};

export function statusAppearance(status: string): StatusAppearance {
  return (
    STATUS_TABLE[status] ?? {
      label: status.length > 0 ? status[0]?.toUpperCase() + status.slice(1).replace(/_/g, ' ') : 'Unknown',
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
