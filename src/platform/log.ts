import * as vscode from 'vscode';

/** The "Forge Workbench" log channel. Lines reaching it are already redacted by the HTTP core. */
export function createLog(): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel('Forge Workbench', { log: true });
}
