import assert from 'node:assert/strict';
import { checkWebLink, shownLink } from '../../../src/domain/webLinks';

describe('server links: web links only', () => {
  it('lets http and https links through, as the server wrote them', () => {
    for (const link of [
      'https://forge.example/acme/web/-/jobs/12',
      'http://127.0.0.1:8080/acme/web/-/merge_requests/3',
      'HTTPS://Forge.Example/a%20b?c=d#e',
    ]) {
      const check = checkWebLink(link);
      assert.ok(check.ok, link);
    }
  });

  for (const [link, reason] of [
    ['file:///etc/passwd', /file:/],
    ['vscode://vscode.git/clone?url=https://evil.example/x.git', /vscode:/],
    ['command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22id%22%7D', /command:/],
    ['javascript:alert(1)', /javascript:/],
    ['JaVaScRiPt:alert(1)', /javascript:/],
    ['ms-msdt:/id PCWDiagnostic /skip force', /ms-msdt:/],
    ['x-custom-app://open?payload=1', /x-custom-app:/],
    ['data:text/html,<script>alert(1)</script>', /data:/],
    ['vscode-insiders://settings', /vscode-insiders:/],
    ['/acme/web/-/jobs/12', /not a complete web address/],
    ['', /no address/],
    ['https://forge.example@evil.example/', /user name/],
    ['https://user:secret@forge.example/', /user name/],
    // Reads as a GitLab job page; the encoded slashes leave it all a user name, and the host is evil.
    ['https://gitlab.example.com%2F-%2Fjobs%2F42@evil.example/', /user name/],
    [' javascript:alert(1)', /javascript:/],
    ['vbscript:x', /vbscript:/],
  ] as const) {
    it(`refuses ${link || 'an empty link'}, saying why`, () => {
      const check = checkWebLink(link);
      assert.equal(check.ok, false);
      if (!check.ok) assert.match(check.reason, reason);
    });
  }

  it('refuses a missing link', () => {
    assert.equal(checkWebLink(undefined).ok, false);
    assert.equal(checkWebLink(null).ok, false);
  });

  it('names a long link cut short in messages', () => {
    const long = `javascript:${'a'.repeat(10_000)}`;
    assert.ok(shownLink(long).length <= 201);
    assert.equal(shownLink('https://x.example/'), 'https://x.example/');
  });
});
