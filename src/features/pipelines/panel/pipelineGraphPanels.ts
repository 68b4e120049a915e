/** The open pipeline graphs, one per pipeline: opening or revealing one, and filling those VS Code restores. */
import type { Services } from '../../../services';
import { PanelRegistry } from '../../../webviews/shared/panelHost';
import { registerPanelRestorer, restoredProject } from '../../../webviews/shared/panelRestore';
import {
  type GraphTarget,
  type PipelineGraphActions,
  PipelineGraphPanel,
  type PipelineGraphPanelOptions,
  pipelineGraphKey,
} from './pipelineGraphPanel';

export interface PipelineGraphPanels {
  readonly registry: PanelRegistry<PipelineGraphPanel>;
  open(target: GraphTarget, options?: PipelineGraphPanelOptions): PipelineGraphPanel;
}

export function createPipelineGraphPanels(
  services: Services,
  actions: Omit<PipelineGraphActions, 'openGraph'>,
): PipelineGraphPanels {
  const registry = new PanelRegistry<PipelineGraphPanel>();
  const withOpen: PipelineGraphActions = { ...actions, openGraph: (target) => open(target) };
  const open = (target: GraphTarget, options?: PipelineGraphPanelOptions): PipelineGraphPanel =>
    registry.openOrReveal(
      pipelineGraphKey(target),
      () => new PipelineGraphPanel(services, withOpen, target, options),
    ).panel;
  services.context.subscriptions.push(
    registry,
    registerPanelRestorer('forge.pipelineGraph', async (restored, key) => {
      const { account, project } = await restoredProject(services.accounts, key);
      const target = { account, project, pipelineId: key.id };
      const { created } = registry.openOrReveal(
        pipelineGraphKey(target),
        () => new PipelineGraphPanel(services, withOpen, target, { restoredPanel: restored }),
      );
      if (!created) restored.dispose();
    }),
  );
  return { registry, open };
}
