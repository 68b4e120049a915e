/** The Commits tab: the merge request's commits, newest first as the server lists them. */
import { element, icon } from '../../../../webviews/shared/app/bridge';
import type { CommitView } from '../protocol';
import { timeElement } from '../../../../webviews/shared/app/widgets';
import * as l10n from '@vscode/l10n';

export function commitList(commits: readonly CommitView[]): HTMLElement {
  if (commits.length === 0) return element('p', { className: 'muted', text: l10n.t('No commits.') });
  const list = element('ol', { className: 'commit-list' });
  for (const commit of commits) {
    list.append(
      element(
        'li',
        {},
        icon('git-commit'),
        element('code', { className: 'sha', text: commit.shortId, title: commit.id }),
        element('span', { className: 'commit-title', text: commit.title }),
        element('span', { className: 'muted', text: commit.authorName }),
        timeElement(commit.createdAt),
      ),
    );
  }
  return list;
}
