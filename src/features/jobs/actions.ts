import type { HostingClient, Job } from '../../api/hosting';

/*
 * What a user does to a job, without any UI: the job commands (after their questions) and the trace
 * panel both call these.
 */

export type JobChange = 'retry' | 'play' | 'cancel' | 'keepArtifacts' | 'erase';

/** Sends one change; returns the job the server answers with (a retry answers with the new job). */
export function changeJob(
  client: HostingClient,
  projectId: number,
  jobId: number,
  change: JobChange,
): Promise<Job> {
  switch (change) {
    case 'retry':
      return client.retryJob(projectId, jobId);
    case 'play':
      return client.playJob(projectId, jobId);
    case 'cancel':
      return client.cancelJob(projectId, jobId);
    case 'keepArtifacts':
      return client.keepArtifacts(projectId, jobId);
    case 'erase':
      return client.eraseJob(projectId, jobId);
  }
}
