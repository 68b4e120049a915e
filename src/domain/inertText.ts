// Server text made inert for the VS Code surfaces that read syntax in plain strings.

/**
 * For `showInformationMessage` and friends. VS Code turns `[label](target)` in a notification into a
 * link when the target starts with http(s)://, command: or file:, and opens it with commands allowed,
 * so a server could offer a click that runs any command. A zero-width space between `]` and `(` keeps
 * the text as it reads and stops the link.
 */
export function inertNotificationText(text: string): string {
  return text.replace(/\]\(/g, ']\u200B(');
}

/**
 * For quick pick labels, descriptions and details (and status bar text), where VS Code draws `$(name)`
 * as an icon. `\$(` is shown as `$(`.
 */
export function inertQuickPickText(text: string): string {
  return text.replace(/\$\(/g, '\\$(');
}
