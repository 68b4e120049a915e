import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  inertNotificationText,
  inertPickRow,
  inertQuickPickText,
  inertStatusText,
} from '../../../src/domain/inertText';

// VS Code's own patterns: notification links (notificationsViewer, parseLinkedText) and icons in labels (iconLabels).
const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
const LABEL_ICON = /(\\)?\$\(([A-Za-z0-9-]+(?:~[A-Za-z]+)?)\)/g;

const corpus = (
  JSON.parse(readFileSync(join(__dirname, '..', '..', 'fixtures', 'hostile', 'corpus.json'), 'utf8')) as {
    cases: { id: string; text: string }[];
  }
).cases;

function drawnIcons(text: string): string[] {
  return [...text.matchAll(LABEL_ICON)].filter((match) => match[1] === undefined).map((match) => match[0]);
}

describe('inert server text', () => {
  it('keeps notification text as it reads but never a link VS Code would open', () => {
    for (const text of [
      '[Open settings](command:workbench.action.openSettings)',
      '[View diff](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%20-rf%22%7D)',
      'see [the docs](https://example.com "title") and [x](file:///etc/passwd)',
      '[a]([b](command:x))',
    ]) {
      const inert = inertNotificationText(text);
      assert.equal([...inert.matchAll(NOTIFICATION_LINK)].length, 0, inert);
      assert.equal(inert.replace(/\u200B/g, ''), text);
    }
    assert.equal(inertNotificationText('plain [text] (here)'), 'plain [text] (here)');
  });

  it('stops $(icon) syntax in notification text too, and is idempotent', () => {
    const inert = inertNotificationText('$(alert) failed: [x](command:y)');
    assert.deepEqual(drawnIcons(inert), []);
    assert.equal(inertNotificationText(inert), inert, 'making inert text inert again changes nothing');
  });

  it('escapes every $(icon) in quick pick text, which VS Code then shows as typed', () => {
    const inert = inertQuickPickText('$(alert) $(check) Build passed $(loading~spin) costs $(5)');
    assert.deepEqual(drawnIcons(inert), []);
    assert.equal(inert.replace(/\\\$\(/g, '$('), '$(alert) $(check) Build passed $(loading~spin) costs $(5)');
  });

  it('status bar text shows neither icons nor links of the server', () => {
    const inert = inertStatusText('Copied "[x](command:y) $(check)"');
    assert.deepEqual(drawnIcons(inert), []);
    assert.equal([...inert.matchAll(NOTIFICATION_LINK)].length, 0);
  });

  it('draws only our own icon on a quick pick row, whatever the server put in its strings', () => {
    const row = inertPickRow({
      icon: 'git-branch',
      label: '$(check) main',
      description: '$(error) [x](command:y)',
      detail: '$(loading~spin)',
    });
    assert.deepEqual(drawnIcons(`${row.label} ${row.description ?? ''} ${row.detail ?? ''}`), [
      '$(git-branch)',
    ]);
    assert.ok(row.label.startsWith('$(git-branch) '));
    assert.deepEqual(inertPickRow({ icon: 'x', label: 'Section' }, true), { label: 'Section' });
  });

  it('leaves no link and no icon in any case of the hostile corpus, on any surface', () => {
    assert.ok(corpus.length > 50, 'the corpus is there');
    for (const { id, text } of corpus) {
      const notification = inertNotificationText(`Closed !1 ${text}`);
      assert.equal([...notification.matchAll(NOTIFICATION_LINK)].length, 0, id);
      assert.deepEqual(drawnIcons(notification), [], id);
      const row = inertPickRow({ label: text, description: text, detail: text });
      assert.deepEqual(drawnIcons(`${row.label}${row.description ?? ''}${row.detail ?? ''}`), [], id);
    }
  });
});
