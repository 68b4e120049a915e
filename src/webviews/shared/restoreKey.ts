/**
 * The message that hands a page its restore key (panelHost.ts sends it, the page's bridge keeps it
 * in the webview state), so that a reloaded window can open the panel again.
 */
export const RESTORE_KEY_MESSAGE = 'forge.restoreKey';

/** Which object a panel shows, as its page keeps it for `registerWebviewPanelSerializer`. */
export interface PanelRestoreKey {
  accountId: string;
  projectId: number;
  /** A merge request's iid, a job's id, or a pipeline's id. */
  id: number;
}

/** Panels VS Code restores after a reload (each has an `onWebviewPanel:` activation event). */
export const RESTORABLE_PANEL_TYPES = [
  'forge.mergeRequest',
  'forge.jobTrace',
  'forge.pipelineGraph',
  'forge.issue',
] as const;
export type RestorablePanelType = (typeof RESTORABLE_PANEL_TYPES)[number];
