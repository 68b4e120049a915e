// Which proxy a request goes through, what of a URL or header a log may show, and the scanning
// text helpers, as tables.
import assert from 'node:assert/strict';
import { selectProxy, type ProxySources } from '../../../src/api/http/proxy';
import { REDACTED, pathForDisplay, redact, redactHeaders } from '../../../src/api/http/redact';
import { firstTagText, trimBothOf, trimEndOf, trimStartOf } from '../../../src/text/linearText';
import { isIpAddress } from '../../../src/api/http/hostNames';

describe('selectProxy', () => {
  const PROXY = 'http://proxy.corp:3128';
  const table: [string, string, ProxySources, string | undefined][] = [
    ['no proxy anywhere', 'https://forge.example', {}, undefined],
    ['VS Code setting, trimmed', 'https://forge.example', { httpProxy: `  ${PROXY} ` }, PROXY],
    [
      'a blank setting is no setting',
      'https://forge.example',
      { httpProxy: '  ', env: { HTTPS_PROXY: PROXY } },
      PROXY,
    ],
    [
      'HTTPS_PROXY for https',
      'https://forge.example',
      { env: { HTTPS_PROXY: PROXY, HTTP_PROXY: 'http://other:1' } },
      PROXY,
    ],
    [
      'HTTP_PROXY for http',
      'http://forge.example',
      { env: { HTTPS_PROXY: 'http://other:1', HTTP_PROXY: PROXY } },
      PROXY,
    ],
    ['lower-case spelling', 'https://forge.example', { env: { https_proxy: PROXY } }, PROXY],
    [
      'the environment value trimmed',
      'https://forge.example',
      { env: { HTTPS_PROXY: ` ${PROXY}\n` } },
      PROXY,
    ],
    [
      'a blank variable is none',
      'https://forge.example',
      { env: { HTTPS_PROXY: ' ', ALL_PROXY: PROXY } },
      PROXY,
    ],
    ['ALL_PROXY last', 'http://forge.example', { env: { ALL_PROXY: PROXY } }, PROXY],
    [
      'the setting before the environment',
      'https://forge.example',
      { httpProxy: PROXY, env: { HTTPS_PROXY: 'http://env:1' } },
      PROXY,
    ],
    ['NO_PROXY *', 'https://forge.example', { httpProxy: PROXY, env: { NO_PROXY: '*' } }, undefined],
    [
      'NO_PROXY host',
      'https://forge.example',
      { httpProxy: PROXY, env: { NO_PROXY: 'forge.example' } },
      undefined,
    ],
    [
      'NO_PROXY host in any case',
      'https://Forge.Example',
      { httpProxy: PROXY, env: { no_proxy: 'FORGE.example' } },
      undefined,
    ],
    [
      'NO_PROXY other host',
      'https://forge.example',
      { httpProxy: PROXY, env: { NO_PROXY: 'other.example' } },
      PROXY,
    ],
    [
      'NO_PROXY suffix .domain',
      'https://a.forge.example',
      { httpProxy: PROXY, env: { NO_PROXY: '.forge.example' } },
      undefined,
    ],
    [
      'NO_PROXY suffix *.domain',
      'https://a.forge.example',
      { httpProxy: PROXY, env: { NO_PROXY: '*.forge.example' } },
      undefined,
    ],
    [
      'NO_PROXY domain covers subdomains',
      'https://a.forge.example',
      { httpProxy: PROXY, env: { NO_PROXY: 'forge.example' } },
      undefined,
    ],
    [
      'a suffix is a whole label',
      'https://badforge.example',
      { httpProxy: PROXY, env: { NO_PROXY: 'forge.example' } },
      PROXY,
    ],
    [
      'list with commas and spaces',
      'https://forge.example',
      { httpProxy: PROXY, env: { NO_PROXY: 'a.example, b.example forge.example' } },
      undefined,
    ],
    ['empty entries ignored', 'https://forge.example', { httpProxy: PROXY, env: { NO_PROXY: ',,' } }, PROXY],
    [
      'host:port matching the port',
      'https://forge.example:8443',
      { httpProxy: PROXY, noProxy: ['forge.example:8443'] },
      undefined,
    ],
    [
      'host:port another port',
      'https://forge.example:8443',
      { httpProxy: PROXY, noProxy: ['forge.example:9000'] },
      PROXY,
    ],
    [
      'host:443 for https without a port',
      'https://forge.example',
      { httpProxy: PROXY, noProxy: ['forge.example:443'] },
      undefined,
    ],
    [
      'host:80 for http without a port',
      'http://forge.example',
      { httpProxy: PROXY, noProxy: ['forge.example:80'] },
      undefined,
    ],
    [
      'host:80 is not https',
      'https://forge.example',
      { httpProxy: PROXY, noProxy: ['forge.example:80'] },
      PROXY,
    ],
    [
      'host:443 is not http',
      'http://forge.example',
      { httpProxy: PROXY, noProxy: ['forge.example:443'] },
      PROXY,
    ],
    [
      'a port that is no number is part of the name',
      'https://forge.example',
      { httpProxy: PROXY, noProxy: ['forge.example:x1'] },
      PROXY,
    ],
    ['IPv6 literal', 'https://[::1]:8443', { httpProxy: PROXY, noProxy: ['::1'] }, undefined],
    [
      'IPv6 literal with brackets and port',
      'https://[::1]:8443',
      { httpProxy: PROXY, noProxy: ['[::1]:8443'] },
      undefined,
    ],
    [
      'IPv6 literal with brackets, another port',
      'https://[::1]:8443',
      { httpProxy: PROXY, noProxy: ['[::1]:9000'] },
      PROXY,
    ],
    ['IPv6 literal in brackets', 'https://[::1]:8443', { httpProxy: PROXY, noProxy: ['[::1]'] }, undefined],
    ['IPv6 other address', 'https://[::2]', { httpProxy: PROXY, noProxy: ['::1'] }, PROXY],
    ['IPv4 address', 'http://10.0.0.1:8080', { httpProxy: PROXY, noProxy: ['10.0.0.1'] }, undefined],
    // An address is matched whole: the ends of other addresses are no domains.
    ['IPv4 address, never by its end', 'http://10.0.0.1', { httpProxy: PROXY, noProxy: ['0.0.1'] }, PROXY],
    ['IPv4 address, never by a dotted end', 'http://10.0.0.1', { httpProxy: PROXY, noProxy: ['.1'] }, PROXY],
    ['IPv6 address, never by its end', 'http://[fe80::1]', { httpProxy: PROXY, noProxy: ['1'] }, PROXY],
    [
      'IPv6 address with digits last',
      'http://[::1:8080]',
      { httpProxy: PROXY, noProxy: ['::1:8080'] },
      undefined,
    ],
    // Entries with brackets anywhere but around an address name nothing.
    ['a lone opening bracket', 'https://[::1]:8443', { httpProxy: PROXY, noProxy: ['[::1:8443'] }, PROXY],
    ['a lone closing bracket', 'https://[::1]:8443', { httpProxy: PROXY, noProxy: ['::1]:8443'] }, PROXY],
    ['a doubled closing bracket', 'http://[fe80::1]', { httpProxy: PROXY, noProxy: ['[fe80::1]]'] }, PROXY],
    ['brackets inside an address', 'http://[fe80::1]', { httpProxy: PROXY, noProxy: ['fe80::[1]'] }, PROXY],
    [
      'a rule that starts with a colon',
      'https://forge.example',
      { httpProxy: PROXY, noProxy: [':443'] },
      PROXY,
    ],
    [
      'setting entries trimmed',
      'https://forge.example',
      { httpProxy: PROXY, noProxy: ['  forge.example  '] },
      undefined,
    ],
  ];
  for (const [name, url, sources, expected] of table) {
    it(name, () => assert.equal(selectProxy(url, sources), expected));
  }
});

describe('redact and what a log may show', () => {
  it('redacts secret query parameters and nothing like them', () => {
    const table: [string, string][] = [
      ['/api?private_token=abc&x=1', `/api?private_token=${REDACTED}&x=1`],
      ['/api?x=1&access_token=abc#top', `/api?x=1&access_token=${REDACTED}#top`],
      ['/api?TOKEN=abc def', `/api?TOKEN=${REDACTED} def`],
      ['/api?password=a+b%20c', `/api?password=${REDACTED}`],
      ['/api?password=', `/api?password=${REDACTED}`],
      ['/api?mytoken=abc', '/api?mytoken=abc'],
      ['/api/token=abc', '/api/token=abc'],
    ];
    for (const [text, expected] of table) assert.equal(redact(text), expected, text);
  });

  it('hides every secret header in any case, and keeps the others', () => {
    const headers = {
      'PRIVATE-TOKEN': 'a',
      Authorization: 'Basic x',
      cookie: 'c',
      'Set-Cookie': 's',
      'Proxy-Authorization': 'p',
      Accept: 'application/json',
      '': '',
    };
    assert.deepEqual(redactHeaders(headers), {
      'PRIVATE-TOKEN': REDACTED,
      Authorization: REDACTED,
      cookie: REDACTED,
      'Set-Cookie': REDACTED,
      'Proxy-Authorization': REDACTED,
      Accept: 'application/json',
      '': '',
    });
  });

  it('shows a path under the API root from its slash, anything else with its origin, never the query', () => {
    const root = new URL('https://forge.example/api/v4/');
    assert.equal(
      pathForDisplay(new URL('https://forge.example/api/v4/projects?private_token=x'), root),
      '/projects',
    );
    assert.equal(
      pathForDisplay(new URL('https://forge.example/other/path?a=1'), root),
      'https://forge.example/other/path',
    );
    assert.equal(
      pathForDisplay(new URL('https://cdn.example/api/v4/x'), root),
      'https://cdn.example/api/v4/x',
    );
  });
});

describe('scanning text helpers', () => {
  it('trims runs of the given characters at either end', () => {
    assert.equal(trimEndOf('a///', '/'), 'a');
    assert.equal(trimEndOf('///', '/'), '');
    assert.equal(trimEndOf('a/b', '/'), 'a/b');
    assert.equal(trimStartOf('--a-', '-'), 'a-');
    assert.equal(trimStartOf('---', '-'), '');
    assert.equal(trimStartOf('', '-'), '');
    assert.equal(trimBothOf('-_a_-', '-_'), 'a');
  });

  it('finds the text of the first tag that holds plain text', () => {
    const table: [string, string | undefined][] = [
      ['<title>Sign in</title>', 'Sign in'],
      ['<TITLE>Upper</TITLE>', 'Upper'],
      ['<title lang="en">With attributes</title>', 'With attributes'],
      ['<title\tlang="en">Tab</title>', 'Tab'],
      ['<title\nlang="en">Line feed</title>', 'Line feed'],
      ['<title\rlang="en">Return</title>', 'Return'],
      ['<titles>no</titles><title>yes</title>', 'yes'],
      ['<title></title><title>second</title>', 'second'],
      ['<title><b>markup</b></title><title>plain</title>', 'plain'],
      [`<title>${'x'.repeat(301)}</title><title>short</title>`, 'short'],
      [`<title>${'x'.repeat(300)}</title>`, 'x'.repeat(300)],
      ['<title>never closed', undefined],
      ['<title', undefined],
      ['no tag at all', undefined],
      ['<title>a</title>', 'a'],
      ['x<title>at one</title>', 'at one'],
    ];
    for (const [html, expected] of table) assert.equal(firstTagText(html, 'title'), expected, html);
    assert.equal(firstTagText('<h1>abcdef</h1>', 'h1', 5), undefined);
    assert.equal(firstTagText('<h1>abcde</h1>', 'h1', 5), 'abcde');
  });
});

describe('isIpAddress', () => {
  const table: [string, boolean][] = [
    ['127.0.0.1', true],
    ['10.0.0.1', true],
    ['[::1]', true],
    ['::1', true],
    ['fe80::1', true],
    ['localhost', false],
    ['gitlab2', false],
    ['ci.host2', false],
    ['1gitlab.example', false],
    ['forge.example', false],
  ];
  for (const [hostname, expected] of table) {
    it(`${hostname} is ${expected ? 'an address' : 'a name'}`, () =>
      assert.equal(isIpAddress(hostname), expected));
  }
});
