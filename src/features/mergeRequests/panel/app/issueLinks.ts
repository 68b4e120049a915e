/* The issues a merge request closes, as links that open each in the issue panel. */
import { element } from '../../../../webviews/shared/app/bridge';

export function issueLinks(
  issues: readonly { iid: number; title: string; state: string }[],
  open: (iid: number) => void,
): HTMLElement {
  const list = element('span', { className: 'issue-links' });
  for (const issue of issues) {
    const link = element('a', {
      className: 'issue-link',
      text: `#${issue.iid} ${issue.title}`,
      title: issue.state,
    });
    link.tabIndex = 0;
    link.dataset['issue'] = String(issue.iid);
    link.addEventListener('click', () => open(issue.iid));
    link.addEventListener('keydown', (event: KeyboardEvent) => {
      if (event.key === 'Enter') open(issue.iid);
    });
    list.append(link);
  }
  return list;
}
