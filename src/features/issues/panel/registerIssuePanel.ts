import { issuePanelKey } from '../../../domain/issueView';
import { registerPanelRestorer, restoredProject } from '../../../webviews/shared/panelRestore';
import { PanelRegistry } from '../../../webviews/shared/panelHost';
import { projectPathOf, type IssueTarget } from '../issueTarget';
import { type IssuePanelContext, IssuePanel } from './issuePanel';

/** The issue panels by key, and their return after a window reload. */
export function registerIssuePanels(context: IssuePanelContext): {
  registry: PanelRegistry<IssuePanel>;
  open(target: IssueTarget): { key: string; created: boolean };
} {
  const { services } = context;
  const registry = new PanelRegistry<IssuePanel>();
  services.context.subscriptions.push(
    registry,
    registerPanelRestorer('forge.issue', async (restored, key) => {
      const { account, client, project } = await restoredProject(services.accounts, key);
      const issue = await client.getIssue(project.id, key.id);
      const target = {
        account,
        projectId: project.id,
        projectPath: projectPathOf(issue, project.path_with_namespace ?? String(project.id)),
        issue,
      };
      const { created } = registry.openOrReveal(
        issuePanelKey(account.id, project.id, issue.iid),
        () => new IssuePanel(context, target, restored),
      );
      if (!created) restored.dispose();
    }),
  );
  const open = (target: IssueTarget) => {
    const key = issuePanelKey(target.account.id, target.projectId, target.issue.iid);
    const { panel, created } = registry.openOrReveal(key, () => new IssuePanel(context, target));
    return { key: panel.key, created };
  };
  return { registry, open };
}
