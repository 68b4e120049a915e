// The channel's small pure helpers as tables: each row what a server or a person gives, and what
// the editor must make of it.
import assert from 'node:assert/strict';
import {
  bbcodeToText,
  channelDateToIso,
  describeAudience,
  describeFileFilter,
  describePermission,
  exportHoldsPrivateKey,
  fileIcon,
  firstTextLine,
  identityQueryKinds,
  looksLikeText,
  normalizeChannelUrl,
  parseAclText,
  safeFileName,
  withoutPrivateKeys,
} from '../../../src/domain/channel';

describe('channel helpers, as tables', () => {
  it('reads channel dates: UTC text to ISO, zero and odd dates to nothing', () => {
    const rows: [unknown, string | undefined][] = [
      ['2024-06-30 10:01:02', '2024-06-30T10:01:02Z'],
      ['2024-06-30T10:01:02', '2024-06-30T10:01:02Z'],
      ['2024-06-30 10:01:02.123', '2024-06-30T10:01:02Z'],
      ['0000-00-00 00:00:00', undefined],
      ['0999-12-31 23:59:59', undefined],
      ['1000-01-01 00:00:00', '1000-01-01T00:00:00Z'],
      ['2024-06-30', undefined],
      [' 2024-06-30 10:01:02', undefined],
      [1719741662, undefined],
      [null, undefined],
    ];
    for (const [input, expected] of rows) assert.equal(channelDateToIso(input), expected, String(input));
  });

  it('normalizes the address a person typed, or says what is wrong', () => {
    assert.deepEqual(normalizeChannelUrl('  https://hub.example.org/api/z/1.0 '), {
      url: 'https://hub.example.org',
    });
    assert.deepEqual(normalizeChannelUrl('https://hub.example.org/API/Z/1.0'), {
      url: 'https://hub.example.org',
    });
    assert.deepEqual(normalizeChannelUrl('https://hub.example.org/api/z/1.0/more'), {
      url: 'https://hub.example.org/api/z/1.0/more',
    });
    const empty = normalizeChannelUrl('   ');
    assert.ok('problem' in empty && /address of the channel server/.test(empty.problem));
    assert.ok('problem' in normalizeChannelUrl('ftp://hub.example.org'));
  });

  it('names permissions it knows in words, and others by their name', () => {
    assert.equal(describePermission('post_comments'), 'comment on my posts');
    assert.equal(describePermission('a_new_permission'), 'a_new_permission');
    assert.equal(describePermission('constructor'), 'constructor');
  });

  it('knows which exports hold the private key, and takes every *prvkey out at any depth', () => {
    assert.equal(exportHoldsPrivateKey(undefined), true);
    assert.equal(exportHoldsPrivateKey([]), true);
    assert.equal(exportHoldsPrivateKey(['mail', 'channel']), true);
    assert.equal(exportHoldsPrivateKey(['mail', 'connections']), false);
    assert.deepEqual(
      withoutPrivateKeys({
        channel: { channel_prvkey: 'secret', channel_pubkey: 'public', name: 'n' },
        list: [{ xchan_PRVKEY: 's', keep: 1 }, 'text', null, 3],
        prvkey: 's',
        prvkeys_count: 2,
      }),
      {
        channel: { channel_pubkey: 'public', name: 'n' },
        list: [{ keep: 1 }, 'text', null, 3],
        prvkeys_count: 2,
      },
    );
    assert.equal(withoutPrivateKeys('text'), 'text');
    assert.equal(withoutPrivateKeys(null), null);
  });

  it('tells an address from a hash or guid', () => {
    assert.deepEqual(identityQueryKinds(' ada@hub.example.org '), ['address']);
    assert.deepEqual(identityQueryKinds('  abc123  '), ['hash', 'guid']);
  });

  it('shows bbcode as text: tags gone, attachments and images named, line ends unified', () => {
    const rows: [string, string][] = [
      ['[b]bold[/b] and [url=https://x.example]a link[/url]', 'bold and a link'],
      ['[attachment]12345,0[/attachment] after', '(attachment) after'],
      ['[ATTACHMENT]x[/ATTACHMENT]', '(attachment)'],
      ['[img]https://x/a.png[/img] [zmg=100x100]https://x/b.png[/zmg]', '(image) (image)'],
      ['[img]https://x/a.png[/zmg]', 'https://x/a.png'],
      ['[list][*]one[*]two[/list]', 'onetwo'],
      ['[quote=ada]said[/quote]', 'said'],
      ['[1notatag] [ ] [/]', '[1notatag] [ ] [/]'],
      ['a\r\nb\rc\nd', 'a\nb\nc\nd'],
      ['<b>html stays text</b>', '<b>html stays text</b>'],
    ];
    for (const [input, expected] of rows) assert.equal(bbcodeToText(input), expected, input);
  });

  it('takes the first non-empty line, shortened with an ellipsis', () => {
    assert.equal(firstTextLine('\n  \n  first line  \nsecond'), 'first line');
    assert.equal(firstTextLine(''), '');
    assert.equal(firstTextLine('abcdef', 4), 'abc…');
    assert.equal(firstTextLine('abcd', 4), 'abcd');
    assert.equal(firstTextLine('x'.repeat(81)).length, 80);
    assert.equal(firstTextLine('x'.repeat(80)).length, 80);
  });

  it('reads access lists and says who will see a post', () => {
    assert.deepEqual(parseAclText('<a><b><>c<d>'), ['a', 'b', 'd']);
    assert.deepEqual(parseAclText(null), []);
    assert.deepEqual(parseAclText(''), []);
    const names: Record<string, string> = { g1: 'Friends', c1: 'Ada', c2: 'Ken' };
    const nameOf = (hash: string): string | undefined => names[hash];
    const acl = (allowGid = '', allowCid = '', denyGid = '', denyCid = '') => ({
      allowGid,
      allowCid,
      denyGid,
      denyCid,
    });
    assert.equal(describeAudience(acl(), nameOf), 'everyone (public)');
    assert.equal(describeAudience(acl('<g1>', '<c1>'), nameOf), 'only Friends, Ada');
    assert.equal(describeAudience(acl('', '', '', '<c2>'), nameOf), 'your connections except Ken');
    assert.equal(
      describeAudience(acl('<g1>', '', '<g2>', '<c2>'), nameOf),
      'only Friends except someone, Ken',
    );
  });

  it('makes server file names safe to create locally', () => {
    const rows: [string, string][] = [
      ['report.pdf', 'report.pdf'],
      ['../../etc/passwd', 'passwd'],
      ['a\\b\\c.txt', 'c.txt'],
      ['..hidden', 'hidden'],
      ['a<b>c:d"e|f?g*h\u0001i\u007fj', 'a_b_c_d_e_f_g_h_i_j'],
      ['  spaced  ', 'spaced'],
      ['dir/', 'download'],
      ['...', 'download'],
      ['x'.repeat(250), 'x'.repeat(200)],
    ];
    for (const [input, expected] of rows) assert.equal(safeFileName(input), expected, input);
    assert.equal(safeFileName('', 'photo.jpg'), 'photo.jpg');
  });

  it('picks file icons by type', () => {
    const rows: [string, boolean, string][] = [
      ['image/png', true, 'folder'],
      ['image/png', false, 'file-media'],
      ['application/pdf', false, 'file-pdf'],
      ['application/zip', false, 'file-zip'],
      ['application/x-tar', false, 'file-zip'],
      ['application/gzip', false, 'file-zip'],
      ['application/x-7z-compressed', false, 'file-zip'],
      ['text/plain', false, 'file-code'],
      ['application/json', false, 'file-code'],
      ['application/xml', false, 'file-code'],
      ['application/javascript', false, 'file-code'],
      ['application/octet-stream', false, 'file-binary'],
      ['', false, 'file-binary'],
    ];
    for (const [type, isDir, icon] of rows) assert.equal(fileIcon(type, isDir), icon, `${type} ${isDir}`);
  });

  it('describes a files filter, and nothing for none', () => {
    assert.equal(describeFileFilter({}), '');
    assert.equal(describeFileFilter({ filename: 'notes' }), 'name contains "notes"');
    assert.equal(describeFileFilter({ filetype: 'image/' }), 'type image/');
    assert.equal(describeFileFilter({ filename: 'n', filetype: 'text/' }), 'name contains "n" · type text/');
  });

  it('tells text from binary: a NUL in the first 8 KB, or bytes that are not UTF-8', () => {
    const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
    assert.equal(looksLikeText(encode('zażółć 日本 😀')), true);
    assert.equal(looksLikeText(new Uint8Array(0)), true);
    assert.equal(looksLikeText(Uint8Array.of(0x61, 0, 0x62)), false);
    assert.equal(looksLikeText(Uint8Array.of(0xc3, 0x28)), false);
    const lateNul = new Uint8Array(9000).fill(0x61);
    lateNul[8500] = 0;
    assert.equal(looksLikeText(lateNul), true, 'a NUL after 8 KB is still UTF-8 text');
    const lateBad = new Uint8Array(9000).fill(0x61);
    lateBad[8500] = 0xff;
    assert.equal(looksLikeText(lateBad), false, 'the whole is decoded');
  });
});
