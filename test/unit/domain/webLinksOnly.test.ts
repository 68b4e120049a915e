import assert from 'node:assert/strict';
import { webLinksOnly } from '../../../src/domain/webLinksOnly';

describe('webLinksOnly', () => {
  it('keeps web links and images as they are', () => {
    for (const text of [
      'See [the docs](https://docs.example.org/a_(b)) and ![logo](http://example.org/l.png "Logo").',
      '<https://example.org/x>',
      '[ref][1]\n\n[1]: https://example.org',
      'Plain https://example.org and www.example.org',
    ])
      assert.equal(webLinksOnly(text), text);
  });

  it('turns links to anything but the web into text', () => {
    const cases: [string, string][] = [
      ['[x](file:///etc/passwd)', '[x]\\(file:///etc/passwd)'],
      [
        '![x](vscode://vscode.git/clone?url=https://evil)',
        '![x]\\(vscode://vscode.git/clone?url=https://evil)',
      ],
      ['[x]( javascript:alert(1) )', '[x]\\( javascript:alert(1) )'],
      ['[x](<FILE:///a b>)', '[x]\\(<FILE:///a b>)'],
      ['[x](//evil.example.org)', '[x]\\(//evil.example.org)'],
      ['[x](command:workbench.action.quit "t")', '[x]\\(command:workbench.action.quit "t")'],
      ['<vscode://vscode.git/clone?url=x>', '\\<vscode://vscode.git/clone?url=x>'],
      [
        '[a][1]\n\n   [1]: command:workbench.action.quit',
        '[a][1]\n\n   \\[1]: command:workbench.action.quit',
      ],
      ['[a](/group/project/-/issues/1)', '[a]\\(/group/project/-/issues/1)'],
      ['[a](https://user:secret@example.org/)', '[a]\\(https://user:secret@example.org/)'],
    ];
    for (const [given, expected] of cases) assert.equal(webLinksOnly(given), expected, given);
  });

  it('leaves code alone: spans and fenced blocks', () => {
    const text =
      'Use `[x](file:///a)` here.\n\n```md\n[y](file:///b)\n<vscode://c>\n```\n\n~~~\n[z](file:///d)\n~~~';
    assert.equal(webLinksOnly(text), text);
    assert.equal(
      webLinksOnly('`code` then [x](file:///a) and ``[y](file:///b)``'),
      '`code` then [x]\\(file:///a) and ``[y](file:///b)``',
    );
  });
});
