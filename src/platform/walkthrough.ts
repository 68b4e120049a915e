import * as vscode from 'vscode';

/**
 * The Getting Started steps that complete when something worked, not when a command ran (a step
 * ticked by `onCommand:` ticks after a failed attempt too). Each sets its context key once.
 */
export type WalkthroughStep = 'traceShown' | 'mergeRequestShown';

const done = new Set<WalkthroughStep>();

export function walkthroughStepDone(step: WalkthroughStep): void {
  if (done.has(step)) return;
  done.add(step);
  void vscode.commands.executeCommand('setContext', `forge.walkthrough.${step}`, true);
}
