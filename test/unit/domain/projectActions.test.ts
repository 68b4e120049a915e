import assert from 'node:assert/strict';
import {
  CI_FILE_NAME,
  accessLevelOf,
  confirmsPath,
  guessOwnNamespace,
  isVisibility,
  memberLabel,
  parseId,
  parseNamespace,
  projectCapabilities,
  projectUrls,
  templateKey,
  validateProjectName,
} from '../../../src/domain/projectActions';

describe('project access and capability tokens', () => {
  it('takes the higher of project and group access', () => {
    assert.equal(
      accessLevelOf({
        permissions: { project_access: { access_level: 30 }, group_access: { access_level: 50 } },
      }),
      50,
    );
    assert.equal(accessLevelOf({ permissions: { project_access: null, group_access: null } }), 0);
    assert.equal(accessLevelOf({}), undefined);
  });

  it('gives maintainer and owner tokens by access level', () => {
    const at = (level: number) => ({
      permissions: { project_access: { access_level: level }, group_access: null },
    });
    assert.deepEqual(projectCapabilities(at(30), false), []);
    assert.deepEqual(projectCapabilities(at(40), false), ['maintainer']);
    assert.deepEqual(projectCapabilities(at(50), false), ['maintainer', 'owner']);
  });

  it('lets administrators do everything, and leaves the decision to the server when access is unknown', () => {
    assert.deepEqual(projectCapabilities({ permissions: { project_access: null } }, true), [
      'admin',
      'maintainer',
      'owner',
    ]);
    assert.deepEqual(projectCapabilities({}, false), ['maintainer', 'owner']);
  });
});

describe('projectUrls', () => {
  it('offers HTTPS, SSH and web URLs in that order', () => {
    const urls = projectUrls({
      web_url: 'https://forge.example/acme/web',
      http_url_to_repo: 'https://forge.example/acme/web.git',
      ssh_url_to_repo: 'git@forge.example:acme/web.git',
    });
    assert.deepEqual(
      urls.map((url) => [url.kind, url.url]),
      [
        ['https', 'https://forge.example/acme/web.git'],
        ['ssh', 'git@forge.example:acme/web.git'],
        ['web', 'https://forge.example/acme/web'],
      ],
    );
  });

  it('derives the HTTPS clone URL from the web URL and leaves out what is missing', () => {
    const urls = projectUrls({ web_url: 'https://forge.example/acme/web' });
    assert.deepEqual(
      urls.map((url) => url.kind),
      ['https', 'web'],
    );
    assert.equal(urls[0]?.url, 'https://forge.example/acme/web.git');
    assert.deepEqual(projectUrls({}), []);
  });
});

describe('project inputs', () => {
  it('labels members as "Name (@username)"', () => {
    assert.equal(
      memberLabel({ name: 'Bob Builder', username: 'bob', state: 'active' }),
      'Bob Builder (@bob)',
    );
    assert.equal(
      memberLabel({ name: 'Carol', username: 'carol', state: 'blocked' }),
      'Carol (@carol) · blocked',
    );
  });

  it('validates project names', () => {
    assert.equal(validateProjectName('My project-2.0'), undefined);
    assert.equal(validateProjectName('Café'), undefined);
    assert.match(validateProjectName('  ') ?? '', /name/);
    assert.ok(validateProjectName('-leading'));
    assert.ok(validateProjectName('semi;colon'));
    assert.ok(validateProjectName('x'.repeat(256)));
  });

  it('parses ids and namespaces', () => {
    assert.equal(parseId(' 42 '), 42);
    assert.equal(parseId('0'), undefined);
    assert.equal(parseId('4x'), undefined);
    assert.equal(parseNamespace('17'), 17);
    assert.equal(parseNamespace('alice'), 'alice');
    assert.equal(parseNamespace('/acme/tools/'), 'acme/tools');
    assert.equal(parseNamespace(''), undefined);
    assert.equal(parseNamespace('a b'), undefined);
  });

  it('guesses the personal namespace from owned projects', () => {
    assert.equal(
      guessOwnNamespace([
        { namespace: { path: 'acme', kind: 'group' } },
        { namespace: { path: 'alice', kind: 'user' } },
      ]),
      'alice',
    );
    assert.equal(guessOwnNamespace([{ namespace: { path: 'acme', kind: 'group' } }, {}]), undefined);
  });

  it('confirms a deletion only with the exact path', () => {
    assert.equal(confirmsPath('acme/web', 'acme/web'), true);
    assert.equal(confirmsPath(' acme/web ', 'acme/web'), true);
    assert.equal(confirmsPath('acme/Web', 'acme/web'), false);
    assert.equal(confirmsPath('acme', 'acme/web'), false);
    assert.equal(confirmsPath(undefined, 'acme/web'), false);
  });

  it('knows visibilities, the CI file name and template keys', () => {
    assert.equal(isVisibility('internal'), true);
    assert.equal(isVisibility('secret'), false);
    assert.equal(CI_FILE_NAME, '.gitlab-ci.yml');
    assert.equal(templateKey({ name: 'Node.js', key: 'Nodejs' }), 'Nodejs');
    assert.equal(templateKey({ name: 'Bash' }), 'Bash');
  });
});
