/*
 * Gives `@vscode/l10n` (the translation of the layers that do not import `vscode`) the bundle VS Code
 * loaded for the display language, so both translate alike. Imported first by each entry point:
 * constants made at a module's top level are translated when that module is evaluated.
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';

if (vscode.l10n.bundle) l10n.config({ contents: vscode.l10n.bundle });
