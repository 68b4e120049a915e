import * as vscode from 'vscode';
import type { z } from 'zod';
import type { ListRequest } from '../../../api/http';
import type { HostingClient, ProjectEvent } from '../../../api/hosting';
import { formatAge } from '../../../domain/time';
import type { TreeNode } from '../../../platform/tree/treeNode';
import { ProjectFolder } from '../projectFolder';

export class EventsFolder extends ProjectFolder<ProjectEvent> {
  readonly menuName = vscode.l10n.t('Events');
  readonly label = vscode.l10n.t('Events');
  readonly icon = 'history';
  readonly emptyMessage = vscode.l10n.t('No events');

  protected override request(client: HostingClient, projectId: number): ListRequest<z.ZodType<ProjectEvent>> {
    return client.listProjectEvents(projectId);
  }

  protected toNodes(items: readonly ProjectEvent[]): TreeNode[] {
    return items.map((event) => new EventNode(event));
  }
}

class EventNode implements TreeNode {
  constructor(private readonly event: ProjectEvent) {}

  getTreeItem(): vscode.TreeItem {
    const { event } = this;
    const who = event.author?.name ?? event.author_username ?? vscode.l10n.t('Someone');
    const what = event.target_title ?? event.data?.ref ?? '';
    const label = `${who} ${event.action_name} ${what}`.trim();
    const item = new vscode.TreeItem(label);
    item.description = formatAge(event.created_at ?? event.note?.created_at);
    item.tooltip = event.note?.body ?? label;
    item.iconPath = new vscode.ThemeIcon(
      event.action_name.startsWith('pushed')
        ? 'repo-push'
        : event.action_name.startsWith('commented')
          ? 'comment'
          : 'circle-small-filled',
    );
    item.contextValue = 'event';
    return item;
  }
}
