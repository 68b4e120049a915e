// Text made inert for the VS Code surfaces that read syntax in plain strings. Only the message door
// (src/platform/userMessages.ts) and the few places that build tree or status bar text call these.

const ZERO_WIDTH_SPACE = '\u200B';

/**
 * For notifications, modal messages, progress titles and messages, and input box prompts. VS Code turns
 * `[label](target)` there into a link when the target starts with http(s)://, command: or file:, and
 * opens it with commands allowed, so a server could offer a click that runs any command. A zero-width
 * space between `]` and `(` keeps the text as it reads and stops the link; one between `$` and `(`
 * stops `$(icon)` syntax on the surfaces that draw it. Idempotent: inert text stays as it is.
 */
export function inertNotificationText(text: string): string {
  return text.replaceAll('](', `]${ZERO_WIDTH_SPACE}(`).replaceAll('$(', `$${ZERO_WIDTH_SPACE}(`);
}

/**
 * For quick pick labels, descriptions and details, and status bar text, where VS Code draws `$(name)`
 * as an icon. `\$(` is shown as `$(`.
 */
export function inertQuickPickText(text: string): string {
  return text.replaceAll('$(', '\\$(');
}

/** For status bar text: `$(` escaped as in quick picks, and `[label](target)` broken as in notifications. */
export function inertStatusText(text: string): string {
  return inertQuickPickText(text).replaceAll('](', `]${ZERO_WIDTH_SPACE}(`);
}

/** A quick pick row as given: every string may be server text; `icon` is a codicon id of ours. */
export interface PickRowText {
  label: string;
  description?: string;
  detail?: string;
  icon?: string;
}

/**
 * The row as VS Code is to draw it: every string inert, our icon alone drawn in front of the label
 * (separators draw no icon).
 */
export function inertPickRow(row: PickRowText, separator = false): PickRowText {
  const label = inertQuickPickText(row.label);
  return {
    label: row.icon && !separator ? `$(${row.icon}) ${label}` : label,
    ...(row.description === undefined ? {} : { description: inertQuickPickText(row.description) }),
    ...(row.detail === undefined ? {} : { detail: inertQuickPickText(row.detail) }),
  };
}
