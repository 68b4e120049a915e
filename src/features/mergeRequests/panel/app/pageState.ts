/* What the merge request page keeps in the webview state (tab, scroll, folded files, diff view), read back safely. */
import type { ViewMode } from './changes';

export const TABS = ['overview', 'changes', 'commits', 'discussion'] as const;
export type TabId = (typeof TABS)[number];

export interface PageState {
  tab: TabId;
  scroll: Partial<Record<TabId, number>>;
  collapsed: Record<string, boolean>;
  viewMode: ViewMode;
  mergeFormOpen: boolean;
}

export function readState(saved: Partial<PageState>): PageState {
  const tab = TABS.includes(saved.tab as TabId) ? (saved.tab as TabId) : 'overview';
  const scroll: Partial<Record<TabId, number>> = {};
  for (const id of TABS) {
    const value = saved.scroll?.[id];
    if (typeof value === 'number' && Number.isFinite(value)) scroll[id] = value;
  }
  const collapsed: Record<string, boolean> = {};
  if (saved.collapsed && typeof saved.collapsed === 'object') {
    for (const [path, value] of Object.entries(saved.collapsed)) {
      if (typeof value === 'boolean') collapsed[path] = value;
    }
  }
  return {
    tab,
    scroll,
    collapsed,
    viewMode: saved.viewMode === 'side-by-side' ? 'side-by-side' : 'line-by-line',
    mergeFormOpen: saved.mergeFormOpen === true,
  };
}
