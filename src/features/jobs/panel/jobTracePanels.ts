/** The open trace panels, one per job: opening or revealing one, and filling those VS Code restores after a reload. */
import type { Services } from '../../../services';
import { PanelRegistry } from '../../../webviews/shared/panelHost';
import { registerPanelRestorer, restoredProject } from '../../../webviews/shared/panelRestore';
import {
  type JobPanelActions,
  JobTracePanel,
  type JobTracePanelOptions,
  type JobTraceTarget,
  jobTracePanelKey,
} from './jobTracePanel';

/** One panel per job; the registry is also how host tests reach the open panels. */
export function createJobTracePanels(
  services: Services,
  actions: JobPanelActions,
): PanelRegistry<JobTracePanel> {
  const registry = new PanelRegistry<JobTracePanel>();
  services.context.subscriptions.push(
    registry,
    registerPanelRestorer('forge.jobTrace', async (restored, key) => {
      const { account, client, project } = await restoredProject(services.accounts, key);
      const job = await client.getJob(project.id, key.id);
      const { created } = registry.openOrReveal(
        jobTracePanelKey({ account, project, job }),
        () =>
          new JobTracePanel(services, registry, actions, account, project, job, { restoredPanel: restored }),
      );
      if (!created) restored.dispose();
    }),
  );
  return registry;
}

export function openJobTracePanel(
  services: Services,
  registry: PanelRegistry<JobTracePanel>,
  actions: JobPanelActions,
  target: JobTraceTarget,
  options?: JobTracePanelOptions,
): JobTracePanel {
  return registry.openOrReveal(
    jobTracePanelKey(target),
    () => new JobTracePanel(services, registry, actions, target.account, target.project, target.job, options),
  ).panel;
}
