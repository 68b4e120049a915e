import * as vscode from 'vscode';
import { tooltipMarkdown } from '../../platform/serverMarkdown';
import type { z } from 'zod';
import type { ListRequest } from '../../api/http';
import type { HostingClient, Trigger } from '../../api/hosting';
import { fetchCurrentUser } from '../../api/hosting/currentUser';
import {
  boardTriggerCapabilities,
  isFullTriggerToken,
  triggerOwnership,
} from '../../domain/boardsAndTriggers';
import { formatAge } from '../../domain/time';
import type { TreeNode } from '../../platform/tree/treeNode';
import { ProjectFolder, type ProjectNode } from '../projects';

type FolderContext = ConstructorParameters<typeof ProjectFolder>[1];

/** A project's pipeline triggers, for maintainers. */
export class TriggersFolder extends ProjectFolder<Trigger> {
  readonly menuName = vscode.l10n.t('Pipeline Triggers');
  readonly label = vscode.l10n.t('Pipeline Triggers');
  readonly icon = 'zap';
  readonly emptyMessage = vscode.l10n.t('No pipeline triggers');
  /** The caller's user id, to tell owned triggers; undefined until known (or if unknowable). */
  callerId: number | undefined;
  private callerLookup: Promise<void> | undefined;

  /** Triggers need a maintainer: no folder for those who would only get a 403. */
  override get shown(): boolean {
    return (
      this.owner.project.jobs_enabled !== false &&
      boardTriggerCapabilities(this.owner.project, this.owner.account.isAdmin).manageTriggers
    );
  }

  get nodeId(): string {
    return this.folderId;
  }

  protected override request(client: HostingClient, projectId: number): ListRequest<z.ZodType<Trigger>> {
    return client.listTriggers(projectId);
  }

  protected toNodes(items: readonly Trigger[]): TreeNode[] {
    return items.map((trigger) => new TriggerNode(this, trigger));
  }

  override async getChildren(): Promise<TreeNode[]> {
    await this.lookUpCaller();
    return super.getChildren();
  }

  /** A reply that names the caller as owner (create, take ownership) tells who the caller is. */
  learnCaller(ownerId: number | undefined): void {
    if (ownerId !== undefined) this.callerId = ownerId;
  }

  /** `GET /user` once; a server without it leaves ownership to the token rule. */
  private lookUpCaller(): Promise<void> {
    this.callerLookup ??= this.context.accounts
      .client(this.owner.account.id)
      .then((client) => fetchCurrentUser(client))
      .then((user) => {
        if (user && this.callerId === undefined) this.callerId = user.id;
      })
      .catch(() => {
        // Ownership then follows the token rule; the list itself reports real errors.
        this.callerLookup = undefined;
      });
    return this.callerLookup;
  }
}

export function createTriggersFolder(owner: ProjectNode, context: FolderContext): TriggersFolder {
  return new TriggersFolder(owner, context);
}

export function triggerTitle(trigger: Trigger): string {
  return trigger.description || vscode.l10n.t('Trigger {0}', trigger.id);
}

export class TriggerNode implements TreeNode {
  constructor(
    readonly folder: TriggersFolder,
    readonly trigger: Trigger,
  ) {}

  get owner(): ProjectNode {
    return this.folder.owner;
  }

  get ownership(): 'owned' | 'notOwned' {
    return triggerOwnership(this.trigger, this.folder.callerId);
  }

  getTreeItem(): vscode.TreeItem {
    const { trigger } = this;
    const item = new vscode.TreeItem(triggerTitle(trigger));
    item.id = `${this.folder.nodeId}/trigger/${trigger.id}`;
    const used = trigger.last_used ? vscode.l10n.t('used {0}', formatAge(trigger.last_used)) : 'never used';
    item.description = [trigger.owner ? trigger.owner.name : 'no owner', used].join(' · ');
    // Never the token: tooltips end up in screenshots and screen shares.
    const tooltip = tooltipMarkdown();
    tooltip.appendMarkdown('**').appendText(triggerTitle(trigger)).appendMarkdown('**\n\n');
    tooltip.appendText(
      [
        trigger.owner
          ? vscode.l10n.t('Owner: {0} (@{1})', trigger.owner.name, trigger.owner.username)
          : vscode.l10n.t('No owner'),
        trigger.created_at ? vscode.l10n.t('Created {0}', formatAge(trigger.created_at)) : undefined,
        trigger.last_used
          ? vscode.l10n.t('Last used {0}', formatAge(trigger.last_used))
          : vscode.l10n.t('Never used'),
      ]
        .filter(Boolean)
        .join(' · '),
    );
    item.tooltip = tooltip;
    const ownership = this.ownership;
    item.iconPath = new vscode.ThemeIcon(
      'key',
      ownership === 'owned' ? new vscode.ThemeColor('charts.green') : undefined,
    );
    item.contextValue = ['trigger', ownership, isFullTriggerToken(trigger.token) ? 'tokenVisible' : '']
      .filter(Boolean)
      .join(' ');
    return item;
  }
}
