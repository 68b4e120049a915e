// The edges of reading git remotes: spellings of URLs, sub-path servers, hosts under the server,
// `git config` output and branch names with control characters.
import assert from 'node:assert/strict';
import {
  isSafeBranchName,
  parseRemoteConfig,
  parseRemoteUrl,
  remoteMatchesProject,
} from '../../../src/domain/gitRemote';

describe('git remote edges', () => {
  it('reads each spelling of a remote, and nothing from what is not one', () => {
    assert.deepEqual(parseRemoteUrl(' https://Forge.Example/Group/Web.GIT/ '), {
      host: 'forge.example',
      path: 'group/web',
    });
    assert.deepEqual(parseRemoteUrl('https://forge.example/group/web.git.bak'), {
      host: 'forge.example',
      path: 'group/web.git.bak',
    });
    assert.deepEqual(parseRemoteUrl('ssh://git@[::1]:2222/group/web.git'), {
      host: '::1',
      path: 'group/web',
    });
    assert.deepEqual(parseRemoteUrl('https://forge.example/group%20x/web'), {
      host: 'forge.example',
      path: 'group x/web',
    });
    assert.deepEqual(parseRemoteUrl('git@forge.example:group/web.git'), {
      host: 'forge.example',
      path: 'group/web',
    });
    assert.deepEqual(parseRemoteUrl('Forge.Example:group/web'), { host: 'forge.example', path: 'group/web' });
    for (const url of [
      '',
      '   ',
      'file:///srv/git/web.git',
      'https://forge.example/',
      'https://forge.example/.git',
      'C:/repos/web',
      'c:\\repos\\web',
      '/srv/git/web',
      'https://[bad',
      'x https://forge.example/a/b',
      'git@forge.example:/',
      'host://',
    ])
      assert.equal(parseRemoteUrl(url), undefined, url);
  });

  it('matches a project over ssh and https, under a sub-path, on the server or a host under it only', () => {
    const project = {
      ssh_url_to_repo: 'git@forge.example:group/web.git',
      http_url_to_repo: 'https://forge.example/gitlab/group/web.git',
      web_url: null,
    };
    const server = 'https://forge.example/gitlab';
    assert.equal(remoteMatchesProject('git@forge.example:group/web.git', project, server), true);
    assert.equal(remoteMatchesProject('https://forge.example/gitlab/group/web', project, server), true);
    assert.equal(
      remoteMatchesProject(
        'ssh://git@ssh.forge.example/group/web',
        { ...project, ssh_url_to_repo: 'ssh://git@ssh.forge.example/group/web' },
        server,
      ),
      true,
    );
    assert.equal(remoteMatchesProject('git@forge.example:other/web.git', project, server), false);
    assert.equal(
      remoteMatchesProject('git@forge.example:roup/web.git', project, server),
      false,
      'at a segment boundary',
    );
    assert.equal(
      remoteMatchesProject(
        'git@evil.example:group/web.git',
        { ...project, ssh_url_to_repo: 'git@evil.example:group/web.git' },
        server,
      ),
      false,
    );
    assert.equal(
      remoteMatchesProject(
        'git@notforge.example:group/web.git',
        { ...project, ssh_url_to_repo: 'git@notforge.example:group/web.git' },
        server,
      ),
      false,
    );
    assert.equal(remoteMatchesProject('git@forge.example:group/web.git', project, 'not a url'), false);
    assert.equal(
      remoteMatchesProject(
        'git@forge.example:group/web.git',
        { web_url: 'https://other.example/group/web' },
        server,
      ),
      false,
    );
  });

  it('reads git config output, CRLF and spaces included', () => {
    assert.deepEqual(
      parseRemoteConfig(
        'remote.origin.url https://forge.example/a/b.git\r\n  remote.my.fork.url   git@forge.example:me/b.git  \nremote.empty.url \nnot a remote\n',
      ),
      [
        { name: 'origin', url: 'https://forge.example/a/b.git' },
        { name: 'my.fork', url: 'git@forge.example:me/b.git' },
      ],
    );
  });

  it('refuses branch names with control characters, DEL included', () => {
    assert.equal(isSafeBranchName('feature/ok-1'), true);
    assert.equal(isSafeBranchName('a\u0001b'), false);
    assert.equal(isSafeBranchName('a\u001fb'), false);
    assert.equal(isSafeBranchName('a\u007fb'), false);
    assert.equal(isSafeBranchName('a\u0080b'), true, 'only the control characters');
    assert.equal(isSafeBranchName('a b'), false);
  });
});
