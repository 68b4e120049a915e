/* Small pieces the tabs share: buttons, badges, award emoji chips with a picker, people and times. */
import { COMMON_EMOJI } from '../../../domain/mergeRequestStatus';
import type { AwardSummary } from '../../../domain/mergeRequestView';
import { formatAge } from '../../../domain/time';
import { element, icon } from './bridge';
import type { PersonView } from '../discussionTypes';
import * as l10n from '@vscode/l10n';

export function button(
  label: string,
  codicon: string | undefined,
  onClick: () => void,
  options: { secondary?: boolean; title?: string; action?: string } = {},
): HTMLElement {
  const node = document.createElement('vscode-button');
  if (codicon) node.setAttribute('icon', codicon);
  if (options.secondary) node.setAttribute('secondary', '');
  if (options.title) node.title = options.title;
  if (options.action) node.dataset['action'] = options.action;
  node.textContent = label;
  node.addEventListener('click', () => {
    if (!node.hasAttribute('disabled')) onClick();
  });
  return node;
}

export function badge(text: string, className = ''): HTMLElement {
  const node = document.createElement('vscode-badge');
  if (className) node.className = className;
  node.textContent = text;
  return node;
}

export function glyphOf(name: string): string {
  return COMMON_EMOJI.find((emoji) => emoji.name === name)?.glyph ?? `:${name}:`;
}

export function personText(person: PersonView | undefined): string {
  return person ? `${person.name} (@${person.username})` : 'unknown';
}

/** "3 hours ago" with the exact time as a tooltip; kept current by `startAgeClock`. */
export function timeElement(iso: string | undefined): HTMLElement {
  const node = element('span', { className: 'muted time', text: iso ? formatAge(iso) : '' });
  if (iso) {
    node.title = iso;
    node.dataset['iso'] = iso;
  }
  return node;
}

/** Every age on the page says how long ago as time goes by (a panel may stay open for days). */
export function startAgeClock(root: ParentNode): void {
  setInterval(() => {
    const now = Date.now();
    for (const node of root.querySelectorAll<HTMLElement>('.time[data-iso]')) {
      const age = formatAge(node.dataset['iso'], now);
      if (node.textContent !== age) node.textContent = age;
    }
  }, 30_000);
}

/**
 * Award emoji as chips (glyph and count, own ones highlighted; clicking one adds or removes your own)
 * and a button that opens a small picker of common emoji.
 */
export function awardsRow(
  awards: readonly AwardSummary[],
  onAward: (name: string, add: boolean) => void,
): HTMLElement {
  const row = element('div', { className: 'awards' });
  for (const award of awards) {
    const own = award.ownAwardId !== undefined;
    const chip = element('button', {
      className: `award-chip${own ? ' own' : ''}`,
      title: own
        ? l10n.t('{0} reacted with :{1}: (click to remove yours)', award.users.join(', '), award.name)
        : l10n.t('{0} reacted with :{1}:', award.users.join(', '), award.name),
    });
    chip.type = 'button';
    chip.dataset['emoji'] = award.name;
    chip.setAttribute('aria-pressed', String(own));
    chip.append(
      element('span', { text: glyphOf(award.name) }),
      element('span', { text: String(award.count) }),
    );
    chip.addEventListener('click', () => onAward(award.name, !own));
    row.append(chip);
  }
  const picker = element('div', { className: 'emoji-picker hidden' });
  for (const emoji of COMMON_EMOJI) {
    const choice = element('button', {
      className: 'emoji-choice',
      text: emoji.glyph,
      title: `:${emoji.name}:`,
    });
    choice.type = 'button';
    choice.dataset['emoji'] = emoji.name;
    choice.addEventListener('click', () => {
      picker.classList.add('hidden');
      const mine = awards.find((award) => award.name === emoji.name)?.ownAwardId !== undefined;
      onAward(emoji.name, !mine);
    });
    picker.append(choice);
  }
  const add = element(
    'button',
    { className: 'award-add', title: l10n.t('Add a reaction') },
    icon('reactions'),
  );
  add.type = 'button';
  add.addEventListener('click', () => picker.classList.toggle('hidden'));
  row.append(add, picker);
  return row;
}
