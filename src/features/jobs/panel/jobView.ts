/** What the trace panel's header shows of a job: its words, icon and the actions its state allows. */
import type { Job, Project } from '../../../api/hosting';
import { jobActionApplies, projectPath } from '../../../domain/jobActions';
import { statusAppearance } from '../../../domain/jobStatus';
import { formatDuration } from '../../../domain/time';
import { JOB_PANEL_ACTIONS, type JobPanelAction, type JobView } from './protocol';

export function jobView(job: Job, project: Project): JobView {
  const appearance = statusAppearance(job.status);
  const actions = Object.fromEntries(
    JOB_PANEL_ACTIONS.map((action) => [action, jobActionApplies(action, job)]),
  ) as Record<JobPanelAction, boolean>;
  return {
    id: job.id,
    name: job.name,
    stage: job.stage ?? '',
    status: job.status,
    statusLabel: appearance.label,
    statusCodicon: appearance.codicon,
    ref: job.ref ?? '',
    projectPath: projectPath(project),
    duration: formatDuration(job.started_at, job.finished_at) ?? '',
    actions,
  };
}
