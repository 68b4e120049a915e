import assert from 'node:assert/strict';
import { inertNotificationText, inertQuickPickText } from '../../../src/domain/inertText';

// VS Code's own patterns: notification links (notificationsViewer) and icons in labels (iconLabels).
const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
const LABEL_ICON = /(\\)?\$\(([A-Za-z0-9-]+(?:~[A-Za-z]+)?)\)/g;

describe('inert server text', () => {
  it('keeps notification text as it reads but never a link VS Code would open', () => {
    for (const text of [
      '[Open settings](command:workbench.action.openSettings)',
      'see [the docs](https://example.com "title") and [x](file:///etc/passwd)',
      '[a]([b](command:x))',
    ]) {
      const inert = inertNotificationText(text);
      assert.equal([...inert.matchAll(NOTIFICATION_LINK)].length, 0, inert);
      assert.equal(inert.replace(/\u200B/g, ''), text);
    }
    assert.equal(inertNotificationText('plain [text] (here)'), 'plain [text] (here)');
  });

  it('escapes every $(icon) in quick pick text, which VS Code then shows as typed', () => {
    const inert = inertQuickPickText('$(alert) $(check) Build passed $(loading~spin) costs $(5)');
    const drawn = [...inert.matchAll(LABEL_ICON)].filter((match) => match[1] === undefined);
    assert.deepEqual(drawn, []);
    assert.equal(inert.replace(/\\\$\(/g, '$('), '$(alert) $(check) Build passed $(loading~spin) costs $(5)');
  });
});
