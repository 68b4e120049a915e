/* The line under a panel's header that says what went wrong or what is under way. */
import { element, icon } from './bridge';
import { button } from './widgets';
import * as l10n from '@vscode/l10n';

export class StatusLine {
  readonly node = element('div', { className: 'status-line hidden' });
  /** A "working" line: the next snapshot replaces it, an error stays until dismissed. */
  private transient = false;

  show(text: string, error: boolean, transient = false): void {
    this.transient = transient;
    this.node.replaceChildren(
      icon(error ? 'error' : 'info'),
      element('span', { text }),
      button('', 'close', () => this.node.classList.add('hidden'), {
        secondary: true,
        title: l10n.t('Dismiss'),
      }),
    );
    this.node.classList.toggle('error-text', error);
    this.node.classList.remove('hidden');
  }

  /** Called when new data has come: a "working" line has done its job. */
  settle(): void {
    if (!this.transient) return;
    this.transient = false;
    this.node.classList.add('hidden');
  }
}
