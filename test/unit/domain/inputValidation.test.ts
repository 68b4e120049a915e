import assert from 'node:assert/strict';
import {
  type Checked,
  MAX_NOTE_LENGTH,
  characterCount,
  checkNoteBody,
  checkProjectPath,
  checkRefName,
  checkServerUrl,
  problemOf,
} from '../../../src/domain/inputValidation';

function value<T>(checked: Checked<T>): T {
  assert.ok(checked.ok, checked.ok ? '' : checked.problem);
  return checked.value;
}

function problemText(checked: Checked<unknown>): string {
  assert.ok(!checked.ok, `expected a problem, got ${JSON.stringify(checked)}`);
  return checked.problem;
}

describe('input validation (before any request)', () => {
  describe('checkServerUrl', () => {
    it('normalises what people type', () => {
      assert.equal(value(checkServerUrl('gitlab.example.com')), 'https://gitlab.example.com');
      assert.equal(value(checkServerUrl('  https://gitlab.example.com/  ')), 'https://gitlab.example.com');
      assert.equal(value(checkServerUrl('http://host:8080/gitlab/api/v4/')), 'http://host:8080/gitlab');
      assert.equal(value(checkServerUrl('https://[::1]:8443')), 'https://[::1]:8443');
      assert.equal(value(checkServerUrl('10.0.0.7')), 'https://10.0.0.7');
      assert.equal(value(checkServerUrl('https://bücher.example')), 'https://xn--bcher-kva.example');
      assert.equal(value(checkServerUrl('git_lab.internal')), 'https://git_lab.internal');
    });

    const malformed: [string, RegExp][] = [
      ['', /Enter the address/],
      ['ftp://example.com', /must start with https:\/\/ or http:\/\//],
      ['javascript:alert(1)', /not a valid address/],
      ['https://exa mple.com', /spaces or invisible characters/],
      ['https://example.com/\u0000', /spaces or invisible characters/],
      ['https://example.com\u200b', /spaces or invisible characters/],
      ['https://user:secret@example.com', /Leave the user name and password out/],
      ['https://example.com/?private_token=x', /Leave query parameters and fragments out/],
      ['https://example.com/#top', /Leave query parameters and fragments out/],
      ['https://example.com:99999', /not a valid address/],
      ['https://999.1.1.1', /not a valid address/],
      ['https://example..com', /not a valid host name/],
      ['https://-example.com', /not a valid host name/],
      [`https://${'a'.repeat(64)}.com`, /not a valid host name/],
      ['https://exa%mple.com', /not a valid address/],
    ];
    for (const [input, message] of malformed) {
      it(`refuses ${JSON.stringify(input)}`, () => {
        assert.match(problemText(checkServerUrl(input)), message);
      });
    }
  });

  describe('checkProjectPath', () => {
    it('accepts ids and paths, nested groups included, and tidies them', () => {
      assert.equal(value(checkProjectPath('42')), '42');
      assert.equal(value(checkProjectPath(' acme/web ')), 'acme/web');
      assert.equal(value(checkProjectPath('/acme/platform/api.v2/')), 'acme/platform/api.v2');
      assert.equal(value(checkProjectPath('acme/web.git')), 'acme/web');
      assert.equal(value(checkProjectPath('my_group/my-project_1')), 'my_group/my-project_1');
    });

    const odd: [string, RegExp][] = [
      ['', /Enter the project path/],
      ['0', /positive whole number/],
      ['web', /no namespace/],
      ['../../admin', /"\." or "\.\." as a part|cannot start with/],
      ['acme/../secret', /"\." or "\.\." as a part/],
      ['acme/./web', /"\." or "\.\." as a part/],
      ['acme//web', /cannot contain "\/\/"/],
      ['acme/web?private_token=x', /only letters, digits.*"\?", "="/],
      ['acme/web#readme', /"#"/],
      ['acme/we b', /a space/],
      ['acme/%2e%2e', /"%"/],
      ['acme\\web', /"\\"/],
      ['acme/web\u0000', /\\u0000/],
      ['acme/-web', /cannot start with "-" or "\."/],
      ['acme/.hidden', /cannot start with "-" or "\."/],
      ['https://gitlab.example.com/acme/web', /not the whole address/],
      ['git@gitlab.example.com:acme/web.git', /not the whole address/],
      [`acme/${'x'.repeat(256)}`, /longer than 255 characters/],
    ];
    for (const [input, message] of odd) {
      it(`refuses ${JSON.stringify(input.length > 40 ? `${input.slice(0, 40)}…` : input)}`, () => {
        assert.match(problemText(checkProjectPath(input)), message);
      });
    }
  });

  describe('checkNoteBody', () => {
    it('accepts a note up to 1,000,000 characters, counted as the server counts them', () => {
      assert.equal(MAX_NOTE_LENGTH, 1_000_000);
      assert.equal(value(checkNoteBody('  LGTM  ')), '  LGTM  ', 'sent as typed');
      assert.ok(checkNoteBody('x'.repeat(MAX_NOTE_LENGTH)).ok);
      // 600,000 emoji are 1,200,000 UTF-16 units but 600,000 characters.
      const emoji = '😀'.repeat(600_000);
      assert.equal(emoji.length, 1_200_000);
      assert.equal(characterCount(emoji), 600_000);
      assert.ok(checkNoteBody(emoji).ok);
    });

    it('refuses an empty note and one that is too long, saying by how much', () => {
      assert.match(problemText(checkNoteBody(' \n\t ')), /the comment is empty/);
      assert.equal(
        problemText(checkNoteBody('x'.repeat(MAX_NOTE_LENGTH + 1))),
        'The comment has 1,000,001 characters; servers accept at most 1,000,000. Shorten it, or put the long part in a snippet or file and link to it.',
      );
      assert.match(problemText(checkNoteBody('abcdef', 5)), /has 6 characters; servers accept at most 5\./);
    });
  });

  describe('checkRefName', () => {
    it('accepts branch and tag names git accepts', () => {
      for (const ref of ['master', 'feature/login-form', 'v1.2.3', 'release/2024.06', 'fix_#12']) {
        assert.equal(value(checkRefName(ref)), ref);
      }
    });

    for (const ref of [
      '',
      'a..b',
      '..',
      'feature//x',
      '-x',
      '/x',
      'x/',
      'x.',
      'x.lock',
      'a b',
      'a:b',
      'a~1',
      'a^',
      'a?',
      'a*',
      'a[',
      'a\\b',
      '@',
      'a@{1}',
      'a/.b',
      'x\u0007',
    ]) {
      it(`refuses ${JSON.stringify(ref)}`, () => {
        assert.ok(!checkRefName(ref).ok);
      });
    }
  });

  it('gives input boxes the problem or nothing', () => {
    assert.equal(problemOf(checkProjectPath('acme/web')), undefined);
    assert.match(problemOf(checkProjectPath('web')) ?? '', /no namespace/);
  });
});
