/** The merge request panel's header: state, title, branches, and the buttons the server allows. */
import { element, icon } from '../../../../webviews/shared/app/bridge';
import { isOpenState } from '../../../../domain/mergeRequestStatus';
import type { HeaderAction, MergeRequestSnapshot } from '../protocol';
import { badge, button } from '../../../../webviews/shared/app/widgets';
import * as l10n from '@vscode/l10n';

type MergeRequestView = MergeRequestSnapshot['mergeRequest'];
type Actions = MergeRequestSnapshot['actions'];

/** The secondary buttons, in order: an action the snapshot allows gets its button. */
const ACTION_BUTTONS: readonly {
  action: HeaderAction & keyof Actions;
  label: string;
  codicon: string;
}[] = [
  { action: 'submitReview', label: l10n.t('Submit review'), codicon: 'comment-draft' },
  { action: 'rebase', label: l10n.t('Rebase'), codicon: 'sync' },
  { action: 'openThreads', label: l10n.t('Open unresolved threads'), codicon: 'comment-unresolved' },
  { action: 'openFailingJob', label: l10n.t('Open the failed job'), codicon: 'error' },
  { action: 'markReady', label: l10n.t('Mark as ready'), codicon: 'check' },
  { action: 'approve', label: l10n.t('Approve'), codicon: 'pass' },
  { action: 'unapprove', label: l10n.t('Revoke approval'), codicon: 'circle-slash' },
  { action: 'cancelMergeWhenPipelineSucceeds', label: l10n.t('Cancel auto-merge'), codicon: 'circle-slash' },
  { action: 'close', label: l10n.t('Close'), codicon: 'git-pull-request-closed' },
  { action: 'reopen', label: l10n.t('Reopen'), codicon: 'git-pull-request' },
  { action: 'subscribe', label: l10n.t('Subscribe'), codicon: 'bell' },
  { action: 'unsubscribe', label: l10n.t('Unsubscribe'), codicon: 'bell-slash' },
  { action: 'addTodo', label: l10n.t('Add to todos'), codicon: 'checklist' },
];

function stateIcon(mr: MergeRequestView): string {
  if (mr.state === 'merged') return 'git-merge';
  if (mr.state === 'closed') return 'git-pull-request-closed';
  return mr.draft ? 'git-pull-request-draft' : 'git-pull-request';
}

function titleOf(mr: MergeRequestView): HTMLElement {
  return element(
    'h1',
    { className: 'panel-title mr-title' },
    icon(stateIcon(mr)),
    element('span', { className: 'panel-iid mr-iid', text: `!${mr.iid}` }),
    element('span', { className: 'mr-title-text', text: mr.title }),
  );
}

function metaOf(snapshot: MergeRequestSnapshot): HTMLElement {
  const mr = snapshot.mergeRequest;
  const meta = element(
    'div',
    { className: 'panel-meta mr-meta muted' },
    badge(mr.draft && isOpenState(mr.state) ? 'draft' : mr.state, `state-badge state-${mr.state}`),
    element('span', { text: snapshot.projectPath }),
    element('span', { className: 'branch', text: mr.sourceBranch }),
    icon('arrow-right'),
    element('span', { className: 'branch', text: mr.targetBranch }),
  );
  if (mr.sha) meta.append(element('span', { className: 'sha', text: mr.sha.slice(0, 8), title: mr.sha }));
  return meta;
}

export interface HeaderHandlers {
  run(action: HeaderAction): void;
  toggleMergeForm(): void;
  refresh(): void;
}

function buttonsOf(snapshot: MergeRequestSnapshot, handlers: HeaderHandlers): HTMLElement {
  const { mergeRequest: mr, actions } = snapshot;
  const run = (action: HeaderAction) => (): void => handlers.run(action);
  const buttons = element('div', { className: 'mr-actions' });
  if (actions.merge)
    buttons.append(
      button(l10n.t('Merge…'), 'git-merge', () => handlers.toggleMergeForm(), { action: 'merge' }),
    );
  for (const { action, label, codicon } of ACTION_BUTTONS) {
    if (actions[action]) buttons.append(button(label, codicon, run(action), { secondary: true, action }));
  }
  if (isOpenState(mr.state))
    buttons.append(
      button(l10n.t('Check out'), 'git-branch', run('checkout'), { secondary: true, action: 'checkout' }),
    );
  if (mr.webUrl)
    buttons.append(
      button('', 'link-external', run('openInBrowser'), {
        secondary: true,
        title: l10n.t('Open in browser'),
        action: 'openInBrowser',
      }),
    );
  buttons.append(
    button('', 'refresh', () => handlers.refresh(), {
      secondary: true,
      title: l10n.t('Refresh'),
      action: 'refresh',
    }),
  );
  return buttons;
}

/** Everything the header shows, the reason a merge is blocked and load errors included. */
export function headerChildren(snapshot: MergeRequestSnapshot, handlers: HeaderHandlers): HTMLElement[] {
  const { mergeRequest: mr, actions } = snapshot;
  const children: HTMLElement[] = [titleOf(mr), metaOf(snapshot), buttonsOf(snapshot, handlers)];
  if (!actions.merge && actions.mergeBlockedReason && isOpenState(mr.state)) {
    children.push(element('p', { className: 'muted merge-blocked', text: actions.mergeBlockedReason }));
  }
  for (const error of snapshot.errors.filter((text) => !text.startsWith(l10n.t('Changes:')))) {
    children.push(element('p', { className: 'error-text', text: error }));
  }
  return children;
}
