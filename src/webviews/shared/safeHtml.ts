/*
 * Markup a panel's host writes into its page before the page script runs (its first paint). The only
 * way to make it is the `html` template tag, which escapes every value put into it: host and server
 * text become text, never markup. Pure (no `vscode`), so it is tested in plain Node.
 */

/** Markup built by `html`: its literal parts are the extension's own, its values escaped. */
export class SafeHtml {
  private constructor(readonly markup: string) {}

  /** The `html` tag; use that name. */
  static template(strings: TemplateStringsArray, values: readonly HtmlValue[]): SafeHtml {
    let markup = strings[0] ?? '';
    values.forEach((value, index) => {
      markup += markupOf(value) + (strings[index + 1] ?? '');
    });
    return new SafeHtml(markup);
  }
}

export type HtmlValue = string | number | SafeHtml | readonly SafeHtml[];

function markupOf(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.markup;
  if (typeof value === 'number') return escapeHtml(String(value));
  if (typeof value === 'string') return escapeHtml(value);
  return value.map((part) => part.markup).join('');
}

/** `html\`<b>${text}</b>\``: the values are escaped, so `text` is shown as written. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  return SafeHtml.template(strings, values);
}

/** Text for an HTML text node or a double- or single-quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
