import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { withAccessibleLabel } from '../../../src/platform/tree/accessibleLabel';

describe('withAccessibleLabel', () => {
  it('says an account row by its name, its description and its server, not by the tooltip alone', () => {
    const item = {
      label: 'alice@forge.example',
      description: 'Membership · via proxy',
      tooltip: 'https://forge.example/ (administrator)\nvia proxy',
    } as vscode.TreeItem;
    assert.equal(
      withAccessibleLabel(item).accessibilityInformation?.label,
      'alice@forge.example, Membership · via proxy, https://forge.example/ (administrator)',
    );
  });

  it('keeps a label set by the row, and leaves rows without a string tooltip to VS Code', () => {
    const own = { label: 'x', tooltip: 'y', accessibilityInformation: { label: 'z' } } as vscode.TreeItem;
    assert.equal(withAccessibleLabel(own).accessibilityInformation?.label, 'z');
    const plain = { label: { label: 'job' }, description: 'failed' } as vscode.TreeItem;
    assert.equal(withAccessibleLabel(plain).accessibilityInformation, undefined);
  });

  it('says a highlighted label by its text', () => {
    const item = {
      label: { label: '!4 Fix login', highlights: [[0, 2]] },
      tooltip: 'Open',
    } as vscode.TreeItem;
    assert.equal(withAccessibleLabel(item).accessibilityInformation?.label, '!4 Fix login, Open');
  });
});
