import assert from 'node:assert/strict';
import {
  isSafeBranchName,
  matchingRemote,
  parseRemoteConfig,
  parseRemoteUrl,
  remoteMatchesProject,
} from '../../../src/domain/gitRemote';

const project = {
  ssh_url_to_repo: 'git@gitlab.example.com:Acme/Web.git',
  http_url_to_repo: 'https://gitlab.example.com/Acme/Web.git',
  web_url: 'https://gitlab.example.com/Acme/Web',
};
const server = 'https://gitlab.example.com';

describe('parseRemoteUrl', () => {
  it('reads https, ssh:// and scp-like forms alike', () => {
    const expected = { host: 'gitlab.example.com', path: 'acme/web' };
    assert.deepEqual(parseRemoteUrl('https://gitlab.example.com/acme/web.git'), expected);
    assert.deepEqual(parseRemoteUrl('https://user:secret@GitLab.Example.com:8443/acme/web/'), expected);
    assert.deepEqual(parseRemoteUrl('ssh://git@gitlab.example.com:2222/acme/web.git'), expected);
    assert.deepEqual(parseRemoteUrl('git@gitlab.example.com:acme/web.git'), expected);
    assert.deepEqual(parseRemoteUrl('gitlab.example.com:acme/web'), expected);
    assert.deepEqual(parseRemoteUrl('  git@gitlab.example.com:/acme/web.git\n'), expected);
  });

  it('keeps nested groups and ignores local paths', () => {
    assert.deepEqual(parseRemoteUrl('git@host:group/sub/project.git'), {
      host: 'host',
      path: 'group/sub/project',
    });
    assert.equal(parseRemoteUrl('/srv/git/web.git'), undefined);
    assert.equal(parseRemoteUrl('file:///srv/git/web.git'), undefined);
    assert.equal(parseRemoteUrl('C:\\repos\\web'), undefined);
    assert.equal(parseRemoteUrl('../web'), undefined);
    assert.equal(parseRemoteUrl(''), undefined);
  });
});

describe('remoteMatchesProject', () => {
  it('matches ssh and https remotes with or without .git, in any case', () => {
    for (const url of [
      'git@gitlab.example.com:acme/web.git',
      'git@gitlab.example.com:acme/web',
      'https://gitlab.example.com/acme/web.git',
      'https://GITLAB.example.com/ACME/WEB',
      'ssh://git@gitlab.example.com:22/Acme/Web.git',
      'http://gitlab.example.com/acme/web/',
    ]) {
      assert.equal(remoteMatchesProject(url, project, server), true, url);
    }
  });

  it('does not match another project, host or a path that only shares a prefix', () => {
    assert.equal(remoteMatchesProject('git@gitlab.example.com:acme/web-old.git', project, server), false);
    assert.equal(remoteMatchesProject('git@gitlab.example.com:acme/we.git', project, server), false);
    assert.equal(remoteMatchesProject('git@github.com:acme/web.git', project, server), false);
    assert.equal(remoteMatchesProject('https://gitlab.example.com/other/acme/webx', project, server), false);
    assert.equal(remoteMatchesProject('/local/acme/web', project, server), false);
  });

  it("matches only on the account's server: a server's clone URLs cannot point at another host's clone", () => {
    // A hostile forge names the user's clone of another server's repository as its own project.
    const hostile = {
      ssh_url_to_repo: 'git@github.com:acme/private.git',
      http_url_to_repo: 'https://github.com/acme/private.git',
    };
    assert.equal(remoteMatchesProject('git@github.com:acme/private.git', hostile, server), false);
    assert.equal(remoteMatchesProject('https://github.com/acme/private.git', hostile, server), false);
    // The server's own ssh host under its name is the server's.
    const sshHost = { ssh_url_to_repo: 'git@ssh.gitlab.example.com:acme/web.git' };
    assert.equal(remoteMatchesProject('git@ssh.gitlab.example.com:acme/web.git', sshHost, server), true);
    assert.equal(
      remoteMatchesProject(
        'git@gitlab.example.com.evil:acme/web.git',
        { ssh_url_to_repo: 'git@gitlab.example.com.evil:acme/web.git' },
        server,
      ),
      false,
    );
    assert.equal(remoteMatchesProject('git@gitlab.example.com:acme/web.git', project, 'not a url'), false);
  });

  it('matches a server under a sub-path reached over ssh', () => {
    const subPath = {
      http_url_to_repo: 'https://example.com/gitlab/acme/web.git',
      ssh_url_to_repo: 'git@example.com:acme/web.git',
    };
    assert.equal(
      remoteMatchesProject('https://example.com/gitlab/acme/web', subPath, 'https://example.com/gitlab'),
      true,
    );
    assert.equal(
      remoteMatchesProject('git@example.com:acme/web.git', subPath, 'https://example.com/gitlab'),
      true,
    );
  });

  it('matches the fake forge URLs (loopback with a port)', () => {
    const local = {
      ssh_url_to_repo: 'git@127.0.0.1:acme/web.git',
      http_url_to_repo: 'http://127.0.0.1:41234/acme/web.git',
    };
    assert.equal(
      remoteMatchesProject('http://127.0.0.1:41234/acme/web.git', local, 'http://127.0.0.1:41234'),
      true,
    );
    assert.equal(remoteMatchesProject('http://127.0.0.1:9/acme/web', local, 'http://127.0.0.1:41234'), true);
  });
});

describe('matchingRemote and parseRemoteConfig', () => {
  it('reads remote names (dots included) and URLs from git config output', () => {
    const remotes = parseRemoteConfig(
      'remote.origin.url git@gitlab.example.com:acme/web.git\nremote.my.fork.url https://gitlab.example.com/me/web.git\n\n',
    );
    assert.deepEqual(remotes, [
      { name: 'origin', url: 'git@gitlab.example.com:acme/web.git' },
      { name: 'my.fork', url: 'https://gitlab.example.com/me/web.git' },
    ]);
  });

  it('prefers origin when several remotes point at the project', () => {
    const remotes = [
      { name: 'upstream', url: 'https://gitlab.example.com/acme/web.git' },
      { name: 'origin', url: 'git@gitlab.example.com:acme/web.git' },
      { name: 'fork', url: 'git@gitlab.example.com:me/web.git' },
    ];
    assert.equal(matchingRemote(remotes, project, server)?.name, 'origin');
    assert.equal(matchingRemote(remotes.slice(0, 1), project, server)?.name, 'upstream');
    assert.equal(matchingRemote(remotes.slice(2), project, server), undefined);
  });
});

describe('isSafeBranchName', () => {
  it('accepts ordinary names and refuses option-like or broken ones', () => {
    for (const name of ['master', 'feature/login', 'fix-1.2', 'user/x_y'])
      assert.equal(isSafeBranchName(name), true, name);
    for (const name of [
      '',
      '-x',
      '--upload-pack=evil',
      '+main',
      '+refs/heads/main:refs/heads/x',
      'a..b',
      'a b',
      'a:b',
      'a*',
      'x.lock',
      'a@{1}',
      '/a',
      'a/',
    ])
      assert.equal(isSafeBranchName(name), false, name);
  });
});
