// The Merge Requests view and the merge request commands, driven inside a real VS Code against a
// fake forge started in this extension host. Commands run on tree nodes with an options object (no
// quick picks) and hand back a result; the assertions read that, the requests the fake forge
// received, and the trees.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ForgeWorkbenchApi } from '../../src/extension';
import type { AccountInfo } from '../../src/platform/accounts';
import type { MergeRequestsTreeProvider, MergeResult } from '../../src/features/mergeRequests';
import type { TreeNode } from '../../src/platform/tree/treeNode';
import { type FakeForge, type RecordedRequest } from '../server';
import {
  assertRefused,
  clipboardHolds,
  childByLabel,
  childrenOf,
  eventually,
  iconId,
  label,
  type Row,
  shownTooltip,
  useForgeSession,
} from './support';

function git(cwd: string, args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();
}

describe('merge request actions', function () {
  this.timeout(30_000);
  const session = useForgeSession();
  let forge: FakeForge;
  let api: ForgeWorkbenchApi;
  let account: AccountInfo;
  let view: MergeRequestsTreeProvider;
  let folder: string;
  let savedGitDir: string | undefined;
  let bare: string;
  let web: number;
  let createdIid: number | undefined;

  /**
   * The open merge request of alice's that the create test made, or one made through the API when
   * that test did not run first (so that each test passes alone with --grep).
   */
  async function createdByAlice(): Promise<number> {
    if (createdIid !== undefined) return createdIid;
    const call = async (path: string, body: unknown): Promise<{ iid?: number }> => {
      const response = await fetch(`${forge.url}/api/v4/projects/${web}${path}`, {
        method: 'POST',
        headers: { 'private-token': forge.userToken, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      assert.equal(response.status, 201, `POST ${path}`);
      return (await response.json()) as { iid?: number };
    };
    await call('/repository/branches', { branch: 'host-created-elsewhere', ref: 'master' });
    const created = await call('/merge_requests', {
      source_branch: 'host-created-elsewhere',
      target_branch: 'master',
      title: 'Made for a test run alone',
    });
    assert.ok(created.iid !== undefined);
    createdIid = created.iid;
    return created.iid;
  }

  before(() => {
    ({ forge, api, account } = session);
  });

  before(() => {
    const provider = api.treeProviders['forge.mergeRequests'];
    view = provider;
    web = forge.fixtures.projects.web;

    // The workspace folder becomes a clone of acme/web whose fetches go to a local bare repository
    // (through `insteadOf`, so the configured remote URL stays the forge's). A .git found there
    // (another suite's) is put aside and restored after.
    const workspaceFolder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(workspaceFolder, 'the test VS Code opens a folder');
    folder = workspaceFolder.uri.fsPath;
    if (existsSync(join(folder, '.git'))) {
      savedGitDir = join(folder, `.git-saved-${Date.now()}`);
      renameSync(join(folder, '.git'), savedGitDir);
    }
    const remoteUrl = `${forge.url}/acme/web.git`;
    bare = mkdtempSync(join(tmpdir(), 'forge-mr-upstream-'));
    git(bare, ['init', '-q', '--bare']);
    git(folder, ['init', '-q', '-b', 'master']);
    git(folder, ['commit', '-q', '--allow-empty', '-m', 'Local start']);
    git(folder, ['remote', 'add', 'origin', remoteUrl]);
    git(folder, ['push', '-q', bare, 'HEAD:refs/heads/feature/login']);
    git(folder, ['config', `url.${bare}.insteadOf`, remoteUrl]);
  });

  session.cleanUps.push(() => {
    rmSync(join(folder, '.git'), { recursive: true, force: true });
    if (savedGitDir) renameSync(savedGitDir, join(folder, '.git'));
    rmSync(bare, { recursive: true, force: true });
  });

  /** Our account's node in a view (views show accounts once there are several). */
  async function accountRoot(
    provider: vscode.TreeDataProvider<TreeNode>,
    idPrefix: string,
  ): Promise<TreeNode | undefined> {
    if (api.accounts.list().length === 1) return undefined;
    const accounts = await childrenOf(provider);
    const found = accounts.find(({ item }) => item.id === `${idPrefix}${account.id}`);
    assert.ok(found, 'our account is in the view');
    return found.node;
  }

  async function group(name: string): Promise<Row[]> {
    const root = await accountRoot(view, 'mergeRequests/account/');
    const groupRow = await childByLabel(view, root, name);
    return childrenOf(view, groupRow.node);
  }

  async function row(groupName: string, iid: number, project = 'acme/web'): Promise<Row> {
    const rows = await group(groupName);
    const found = rows.find(
      ({ item }) => label(item).startsWith(`!${iid} `) && String(item.description).startsWith(`${project} ·`),
    );
    assert.ok(
      found,
      `no !${iid} of ${project} in "${groupName}": ${rows.map(({ item }) => label(item)).join(', ')}`,
    );
    return found;
  }

  /** The errors shown while `run` runs (commands show their errors instead of throwing). */
  async function messagesShown(run: () => Thenable<unknown>): Promise<string[]> {
    const shown: string[] = [];
    const observing = api.messages.observe((message) => {
      if (message.severity === 'error') shown.push(message.text);
    });
    try {
      await run();
    } finally {
      observing.dispose();
    }
    return shown;
  }

  function requestsTo(method: string, path: string | RegExp): RecordedRequest[] {
    return forge.requests.filter(
      (request) =>
        request.method === method &&
        (typeof path === 'string' ? request.path === path : path.test(request.path)),
    );
  }

  const mrPath = (iid: number, suffix = '', project = web): string =>
    `/api/v4/projects/${project}/merge_requests/${iid}${suffix}`;

  async function projectsTreeProject(name: RegExp): Promise<TreeNode> {
    api.projects.refresh();
    const root = await accountRoot(api.projects, 'account/');
    return (await childByLabel(api.projects, root, name)).node;
  }

  it('lists merge requests assigned to me, created by me and all opened, across projects', async () => {
    forge.clearRequests();
    view.refresh();
    const root = await accountRoot(view, 'mergeRequests/account/');
    const groups = await childrenOf(view, root);
    assert.deepEqual(
      groups.map(({ item }) => label(item)),
      ['Assigned to me', 'Created by me', 'All opened'],
    );
    assert.ok(requestsTo('GET', '/api/v4/user').length > 0, 'the current user was asked');
    const projectList = requestsTo('GET', '/api/v4/projects')[0];
    assert.equal(projectList?.query['membership'], 'true');
    const listed = requestsTo('GET', /\/merge_requests$/);
    assert.ok(listed.length >= 3, 'merge requests of each project');
    assert.ok(listed.every((request) => request.query['state'] === 'opened'));

    const login = await row('Assigned to me', 1);
    assert.equal(label(login.item), '!1 Add a login form');
    assert.equal(login.item.description, 'acme/web · opened · 👍2 👎1 · mergeable');
    assert.equal(iconId(login.item), 'git-pull-request');
    assert.match(String(login.item.contextValue), /^mergeRequest opened\b/);
    assert.match(String(login.item.contextValue), /\bmergeable\b/);
    assert.match(String(login.item.contextValue), /\bsubscribed\b/);
    const tooltip = shownTooltip(login.item);
    assert.match(tooltip, /Labels: feature, Review/);

    const created = await group('Created by me');
    const createdLabels = created.map(
      ({ item }) => `${label(item)} (${String(item.description).split(' · ')[0]})`,
    );
    assert.ok(createdLabels.includes('!5 Draft: Dark mode (acme/web)'), createdLabels.join(', '));
    assert.ok(createdLabels.includes('!1 Paginate the list endpoints (acme/api)'), createdLabels.join(', '));
    const draft = await row('Created by me', 5);
    assert.equal(iconId(draft.item), 'git-pull-request-draft');
    assert.doesNotMatch(String(draft.item.contextValue), /\bmergeable\b/);

    const all = await group('All opened');
    assert.ok(all.length >= 4);
    const https = await row('All opened', 4);
    assert.match(String(https.item.description), /conflicts$/);
    assert.match(String(https.item.contextValue), /\bconflicts\b/);

    // The view's refresh button reloads from the server.
    forge.clearRequests();
    await vscode.commands.executeCommand('forge.mergeRequests.refresh');
    await group('All opened');
    assert.ok(requestsTo('GET', /\/merge_requests$/).length >= 3, 'reloaded');
  });

  it('answers with the refreshed list when a refresh comes while the list is loading, not "cancelled"', async () => {
    // An auto refresh or an action's burst while the tree reads the merge requests cancels that
    // read: the rows the tree asked for come from the refresh's read, never as an error row.
    const stall = forge.faults.add({
      method: 'GET',
      path: '/projects',
      times: 1,
      fault: { kind: 'never-ending' },
    });
    try {
      view.refresh();
      const root = await accountRoot(view, 'mergeRequests/account/');
      forge.clearRequests();
      const asked = childrenOf(view, root);
      await eventually(() => assert.ok(requestsTo('GET', '/api/v4/projects').length > 0, 'the read started'));
      view.refresh();
      const groups = await asked;
      assert.deepEqual(
        groups.map(({ item }) => label(item)),
        ['Assigned to me', 'Created by me', 'All opened'],
      );
    } finally {
      stall.remove();
    }
  });

  it('shows only "All opened" when the server has no GET /user', async () => {
    forge.onRequest((request, response) => {
      if (request.url === '/api/v4/user') {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"404 Not Found"}');
        return true;
      }
      return false;
    });
    try {
      view.currentUsers.clear();
      view.refresh();
      const root = await accountRoot(view, 'mergeRequests/account/');
      const groups = await childrenOf(view, root);
      assert.deepEqual(
        groups.map(({ item }) => label(item)),
        ['All opened'],
      );
    } finally {
      forge.onRequest(undefined);
      view.currentUsers.clear();
      view.refresh();
    }
  });

  it('creates a merge request from the project, from the branch checked out in the local clone', async () => {
    const client = await api.accounts.client(account.id);
    await client.createBranch(web, 'feature/host-create', 'master');
    const master = await client.getBranch(web, 'master');
    git(folder, ['checkout', '-q', '-b', 'feature/host-create']);
    await refreshGitExtension(folder);
    const projectNode = await projectsTreeProject(/^web$/i);
    forge.clearRequests();
    const result = await vscode.commands.executeCommand<{
      created: boolean;
      iid: number;
      sourceBranch: string;
      targetBranch: string;
      title: string;
      localBranch: string;
    }>('forge.mergeRequest.create', projectNode, { description: 'From the host test' });
    assert.ok(result?.created, 'created');
    assert.equal(result.localBranch, 'feature/host-create', 'the current branch of the clone was found');
    assert.equal(result.sourceBranch, 'feature/host-create');
    assert.equal(result.targetBranch, 'master', 'the default branch is the default target');
    assert.equal(result.title, master.commit?.title, 'the title defaults to the last commit title');
    const post = requestsTo('POST', `/api/v4/projects/${web}/merge_requests`)[0];
    assert.ok(post, 'POST merge_requests sent');
    assert.deepEqual(post.body, {
      source_branch: 'feature/host-create',
      target_branch: 'master',
      title: master.commit?.title,
      description: 'From the host test',
    });
    assert.equal(post.status, 201);
    createdIid = result.iid;
    const mine = await row('Created by me', createdIid);
    assert.match(label(mine.item), new RegExp(`^!${createdIid} `));
  });

  it("offers the project's merge request templates as the description, as GitLab's form does", async () => {
    const client = await api.accounts.client(account.id);
    await client.createBranch(web, 'feature/host-template', 'master');
    const projectNode = await projectsTreeProject(/^web$/i);
    const offered: (readonly string[])[] = [];
    const picking = api.messages.answerPicks((labels) => {
      offered.push(labels);
      if (offered.length === 1) return labels.indexOf('feature/host-template');
      if (offered.length === 2) return labels.indexOf('master');
      return labels.findIndex((each) => each.endsWith('Bug fix'));
    });
    const typing = api.messages.answerInputs(() => 'Fix the redirect');
    try {
      forge.clearRequests();
      const result = await vscode.commands.executeCommand<{ created: boolean; iid: number }>(
        'forge.mergeRequest.create',
        projectNode,
      );
      assert.ok(result?.created);
      const description = offered[2] ?? [];
      assert.deepEqual(
        description.map((each) => each.replace(/^\$\([a-z-]+\) /, '')),
        ['Default', 'Bug fix', 'Write a description…', 'No description'],
      );
      const post = requestsTo('POST', `/api/v4/projects/${web}/merge_requests`)[0];
      assert.deepEqual(post?.body, {
        source_branch: 'feature/host-template',
        target_branch: 'master',
        title: 'Fix the redirect',
        description: '## The bug\n\nCloses #\n\n## The fix\n',
      });
      const templatesRead = forge.requests.filter((request) => request.path.endsWith('/repository/tree'));
      assert.equal(templatesRead[0]?.query['path'], '.gitlab/merge_request_templates');
    } finally {
      picking.dispose();
      typing.dispose();
    }
    // From automation, by name; a name the project does not have is refused with the names it has.
    await client.createBranch(web, 'feature/host-template-2', 'master');
    const byName = await vscode.commands.executeCommand<{ created: boolean; iid: number }>(
      'forge.mergeRequest.create',
      projectNode,
      {
        sourceBranch: 'feature/host-template-2',
        targetBranch: 'master',
        title: 'Again',
        template: 'Default',
      },
    );
    assert.ok(byName?.created);
    const sent = requestsTo('POST', `/api/v4/projects/${web}/merge_requests`).at(-1);
    assert.match(String((sent?.body as { description?: string }).description), /^## What does this change\?/);
    const errors: string[] = [];
    const watching = api.messages.observe((message) => {
      if (message.severity === 'error') errors.push(message.text);
    });
    try {
      await vscode.commands.executeCommand('forge.mergeRequest.create', projectNode, {
        sourceBranch: 'feature/host-template',
        title: 'x',
        template: 'Nope',
      });
    } finally {
      watching.dispose();
    }
    assert.match(errors.join('\n'), /No merge request template "Nope": the project has Default, Bug fix\./);
  });

  it('refuses a wrong merge request, option or value, saying which, before any request', async () => {
    const login = await row('All opened', 1);
    forge.clearRequests();
    const refusals: [string, unknown[], RegExp][] = [
      ['forge.mergeRequest.close', [42], /argument 1: expected a merge request or /],
      ['forge.mergeRequest.edit', [login.node, { assigneeId: 'me' }], /argument 2 \(assigneeId\): /],
      ['forge.mergeRequest.merge', [login.node, { squash: 'yes' }], /argument 2 \(squash\): /],
      ['forge.mergeRequest.delete', [login.node, { confirm: true }], /argument 2: .*confirm/],
      ['forge.mergeRequest.create', [login.node], /argument 1: expected a project/],
      ['forge.note.add', [login.node, { body: 5 }], /argument 2 \(body\): /],
      ['forge.awardEmoji.add', [login.node, { emoji: ['tada'] }], /argument 2 \(emoji\): /],
      ['forge.mergeRequest.openPanel', [undefined, { project: 'acme/web' }], /argument 2 \(iid\): /],
    ];
    await assertRefused(refusals);
    assert.deepEqual(forge.requests, []);
  });

  it('edits title, labels and assignee', async () => {
    const login = await row('Assigned to me', 1);
    forge.clearRequests();
    const result = await vscode.commands.executeCommand<{ updated: boolean }>(
      'forge.mergeRequest.edit',
      login.node,
      {
        title: 'Add a login form (v2)',
        labels: ' feature, ui ,',
      },
    );
    assert.ok(result?.updated);
    const put = requestsTo('PUT', mrPath(1))[0];
    assert.deepEqual(put?.body, { title: 'Add a login form (v2)', labels: 'feature,ui' });
    const edited = await row('Assigned to me', 1);
    assert.equal(label(edited.item), '!1 Add a login form (v2)');

    forge.clearRequests();
    await vscode.commands.executeCommand('forge.mergeRequest.edit', edited.node, { assigneeId: null });
    assert.deepEqual(requestsTo('PUT', mrPath(1))[0]?.body, { assignee_id: 0 });
    assert.ok(
      !(await group('Assigned to me')).some(({ item }) => label(item).startsWith('!1 ')),
      'unassigned',
    );
    await vscode.commands.executeCommand('forge.mergeRequest.edit', (await row('All opened', 1)).node, {
      assigneeId: forge.users.user.id,
      title: 'Add a login form',
    });
    assert.equal(label((await row('Assigned to me', 1)).item), '!1 Add a login form');
  });

  it('closes from the Merge Requests view and reopens from the Projects view', async () => {
    const https = await row('All opened', 4);
    forge.clearRequests();
    const closed = await vscode.commands.executeCommand<{ state: string }>(
      'forge.mergeRequest.close',
      https.node,
    );
    assert.equal(closed?.state, 'closed');
    assert.deepEqual(requestsTo('PUT', mrPath(4))[0]?.body, { state_event: 'close' });
    assert.ok(!(await group('All opened')).some(({ item }) => label(item).startsWith('!4 ')));

    const projectNode = await projectsTreeProject(/^web$/i);
    const folderRow = await childByLabel(api.projects, projectNode, 'Merge Requests');
    (folderRow.node as TreeNode & { setState(state: string): void }).setState('closed');
    const closedRow = await childByLabel(api.projects, folderRow.node, /^!4 /);
    assert.match(String(closedRow.item.contextValue), /^mergeRequest closed\b/);
    forge.clearRequests();
    const reopened = await vscode.commands.executeCommand<{ state: string }>(
      'forge.mergeRequest.reopen',
      closedRow.node,
    );
    // Real servers answer `reopened`: still open, with the actions of an open merge request.
    assert.equal(reopened?.state, 'reopened');
    assert.deepEqual(requestsTo('PUT', mrPath(4))[0]?.body, { state_event: 'reopen' });
    (folderRow.node as TreeNode & { setState(state: string): void }).setState('opened');
    const reopenedRow = await eventually(() => childByLabel(api.projects, folderRow.node, /^!4 /));
    assert.match(String(reopenedRow.item.contextValue), /^mergeRequest opened reopened\b/);
    assert.ok((await group('All opened')).some(({ item }) => label(item).startsWith('!4 ')));
  });

  it('unsubscribes and subscribes, saying so when nothing changed (304)', async () => {
    const draft = await row('Created by me', 5);
    assert.match(String(draft.item.contextValue), /\bsubscribed\b/);
    forge.clearRequests();
    assert.deepEqual(await vscode.commands.executeCommand('forge.mergeRequest.unsubscribe', draft.node), {
      changed: true,
    });
    assert.deepEqual(await vscode.commands.executeCommand('forge.mergeRequest.unsubscribe', draft.node), {
      changed: false,
    });
    assert.deepEqual(
      requestsTo('POST', mrPath(5, '/unsubscribe')).map((request) => request.status),
      [200, 304],
    );
    assert.match(String((await row('Created by me', 5)).item.contextValue), /\bunsubscribed\b/);

    // The same command on the Projects view's node.
    const projectNode = await projectsTreeProject(/^web$/i);
    const folderRow = await childByLabel(api.projects, projectNode, 'Merge Requests');
    const projectsRow = await childByLabel(api.projects, folderRow.node, /^!5 /);
    assert.match(String(projectsRow.item.contextValue), /\bunsubscribed\b/);
    assert.deepEqual(await vscode.commands.executeCommand('forge.mergeRequest.subscribe', projectsRow.node), {
      changed: true,
    });
    assert.deepEqual(await vscode.commands.executeCommand('forge.mergeRequest.subscribe', projectsRow.node), {
      changed: false,
    });
    assert.deepEqual(
      requestsTo('POST', mrPath(5, '/subscribe')).map((request) => request.status),
      [200, 304],
    );
  });

  it('adds a todo once, then says there is one already', async () => {
    const draft = await row('Created by me', 5);
    forge.clearRequests();
    const first = await vscode.commands.executeCommand<{ changed: boolean; todoId?: number }>(
      'forge.mergeRequest.addTodo',
      draft.node,
    );
    assert.equal(first?.changed, true);
    assert.equal(typeof first?.todoId, 'number');
    assert.deepEqual(await vscode.commands.executeCommand('forge.mergeRequest.addTodo', draft.node), {
      changed: false,
    });
    assert.deepEqual(
      requestsTo('POST', mrPath(5, '/todo')).map((request) => request.status),
      [201, 304],
    );
  });

  it('lists the issues a merge request closes', async () => {
    const login = await row('Assigned to me', 1);
    forge.clearRequests();
    const result = await vscode.commands.executeCommand<{
      issues: { iid?: number; title: string; webUrl?: string }[];
    }>('forge.mergeRequest.showClosedIssues', login.node, {});
    assert.deepEqual(
      result?.issues.map((issue) => issue.iid),
      [forge.fixtures.issues.crash],
    );
    assert.match(result?.issues[0]?.webUrl ?? '', /\/acme\/web\/-\/issues\/\d+$/);
    assert.equal(requestsTo('GET', mrPath(1, '/closes_issues')).length, 1);
  });

  it('opens and copies the web link', async () => {
    const login = await row('Assigned to me', 1);
    const opened = await vscode.commands.executeCommand<{ url: string; opened: boolean }>(
      'forge.mergeRequest.openInBrowser',
      login.node,
    );
    assert.match(opened?.url ?? '', /\/acme\/web\/-\/merge_requests\/1$/);
    assert.equal(opened?.opened, true);
    const copied = await vscode.commands.executeCommand<{ url: string }>(
      'forge.mergeRequest.copyUrl',
      login.node,
    );
    assert.equal(copied?.url, opened?.url);
    await clipboardHolds(copied?.url ?? '');
  });

  it('checks out the source branch in the matching clone, with fetch then checkout', async () => {
    const login = await row('Assigned to me', 1);
    const branch = forge.state.projects.get(web)?.branches.get('feature/login');
    assert.ok(branch);
    const seeded = branch.commitSha;
    // The forge's head of the branch is the commit the clone's remote holds.
    branch.commitSha = git(bare, ['rev-parse', 'refs/heads/feature/login']);
    const questions: string[] = [];
    const answering = api.messages.answerModals((question, buttons) => {
      questions.push(`${question.text}\n${question.detail ?? ''}`);
      return buttons[0];
    });
    try {
      const result = await vscode.commands.executeCommand<{
        checkedOut: string;
        root: string;
        remote: string;
      }>('forge.mergeRequest.checkout', login.node);
      assert.equal(result?.checkedOut, 'feature/login');
      assert.equal(result.remote, 'origin');
    } finally {
      answering.dispose();
      branch.commitSha = seeded;
    }
    assert.equal(questions.length, 1);
    assert.ok(questions[0]?.includes(folder), `the folder is named before switching: ${questions[0]}`);
    assert.equal(git(folder, ['symbolic-ref', '--short', 'HEAD']), 'feature/login');
    assert.equal(
      git(folder, ['rev-parse', '--abbrev-ref', 'feature/login@{upstream}']),
      'origin/feature/login',
    );
    assert.equal(git(folder, ['log', '-1', '--format=%s']), 'Local start');
    git(folder, ['checkout', '-q', 'master']);

    // A project without a clone in the workspace: a clear message, nothing run.
    const pagination = await row('Created by me', 1, 'acme/api');
    const none = await vscode.commands.executeCommand<{ checkedOut?: string; reason: string }>(
      'forge.mergeRequest.checkout',
      pagination.node,
    );
    assert.equal(none?.checkedOut, undefined);
    assert.equal(none?.reason, 'no-repository');
  });

  it('refuses a source branch git reads as a forced refspec, and a fetched commit that is not the head', async () => {
    const login = await row('Assigned to me', 1);
    const stored = [...forge.state.mergeRequests.values()].find(
      (each) => each.projectId === web && each.iid === 1,
    );
    assert.ok(stored);
    const answering = api.messages.answerModals((_question, buttons) => buttons[0]);
    try {
      // The forge's head is not what the remote holds (a hostile server, or a push in between).
      const moved = await messagesShown(() =>
        vscode.commands.executeCommand('forge.mergeRequest.checkout', login.node),
      );
      assert.match(moved.join('\n'), /The fetched commit [0-9a-f]{8} is not the head of !1/);
      assert.equal(git(folder, ['symbolic-ref', '--short', 'HEAD']), 'master', 'nothing was switched');

      // `git fetch origin +master` would overwrite the local master with the remote's: as the
      // server sent it in the list the row shows.
      const shown = (login.node as unknown as { mergeRequest: { source_branch: string } }).mergeRequest;
      const sourceBranch = shown.source_branch;
      shown.source_branch = '+master';
      forge.clearRequests();
      try {
        const refused = await messagesShown(() =>
          vscode.commands.executeCommand('forge.mergeRequest.checkout', login.node),
        );
        assert.match(refused.join('\n'), /The branch name "\+master" cannot be checked out safely/);
      } finally {
        shown.source_branch = sourceBranch;
      }
      assert.deepEqual(requestsTo('GET', mrPath(1)), [], 'refused before the merge request was read again');
      assert.equal(git(folder, ['symbolic-ref', '--short', 'HEAD']), 'master');
    } finally {
      answering.dispose();
    }
  });

  it('refuses a merge when the source branch moved since the user looked (409), then merges', async () => {
    const login = await row('Assigned to me', 1);
    const seen = (login.node as unknown as { mergeRequest: { sha: string } }).mergeRequest.sha;
    // Someone pushes to the source branch after the row was loaded.
    const project = forge.state.projects.get(web);
    const branch = project?.branches.get('feature/login');
    assert.ok(branch);
    const pushed = forge.state.newSha();
    const now = forge.state.now();
    forge.state.commits.set(pushed, {
      id: pushed,
      parentIds: [branch.commitSha],
      title: 'A late push',
      message: 'A late push',
      authorName: 'Bob',
      authorEmail: 'bob@example.com',
      authoredDate: now,
      committerName: 'Bob',
      committerEmail: 'bob@example.com',
      committedDate: now,
      changes: [],
    });
    branch.commitSha = pushed;

    forge.clearRequests();
    const refused = await vscode.commands.executeCommand<MergeResult>(
      'forge.mergeRequest.merge',
      login.node,
      {
        removeSourceBranch: true,
      },
    );
    assert.deepEqual(refused, {
      merged: false,
      reason: 'sha-changed',
      message: `The source branch changed since you looked (now ${pushed.slice(0, 8)}). Review the new commits and merge again.`,
      currentSha: pushed,
    });
    const attempt = requestsTo('PUT', mrPath(1, '/merge'))[0];
    assert.equal((attempt?.body as { sha?: string }).sha, seen, 'the sha the user saw was sent');
    assert.equal(attempt?.status, 409);
    assert.equal(forge.state.findMergeRequest(web, 1)?.state, 'opened');

    // The refreshed row shows the new head; merging from it succeeds.
    const fresh = await row('Assigned to me', 1);
    assert.equal((fresh.node as unknown as { mergeRequest: { sha: string } }).mergeRequest.sha, pushed);
    forge.clearRequests();
    const merged = await vscode.commands.executeCommand<MergeResult>('forge.mergeRequest.merge', fresh.node, {
      removeSourceBranch: true,
      message: 'Merge the login form',
    });
    assert.equal(merged?.merged, true);
    const put = requestsTo('PUT', mrPath(1, '/merge'))[0];
    assert.deepEqual(put?.body, {
      sha: pushed,
      merge_commit_message: 'Merge the login form',
      should_remove_source_branch: true,
    });
    assert.equal(forge.state.findMergeRequest(web, 1)?.state, 'merged');
    assert.equal(project?.branches.has('feature/login'), false, 'the source branch was removed');
    assert.ok(!(await group('All opened')).some(({ item }) => label(item).startsWith('!1 Add')));
  });

  it('says why a merge request cannot merge before asking anything (from the palette too)', async () => {
    forge.clearRequests();
    // No options: the palette's path, which asks how to merge; a conflict is said first.
    const conflict = await vscode.commands.executeCommand<MergeResult>(
      'forge.mergeRequest.merge',
      (await row('All opened', 4)).node,
    );
    assert.equal(conflict?.merged, false);
    assert.equal(conflict && 'reason' in conflict ? conflict.reason : undefined, 'cannot-be-merged');
    assert.match(
      conflict && 'message' in conflict ? (conflict.message ?? '') : '',
      /!4 has conflicts with master/,
    );
    assert.equal(requestsTo('PUT', mrPath(4, '/merge')).length, 0, 'nothing was sent');
    const draft = await vscode.commands.executeCommand<MergeResult>(
      'forge.mergeRequest.merge',
      (await row('All opened', 5)).node,
    );
    assert.match(
      draft && 'message' in draft ? (draft.message ?? '') : '',
      /!5 is a draft: mark it as ready first/,
    );
  });

  it('explains merges the server refuses: cannot merge (405), no permission (401), not open (406)', async () => {
    forge.onRequest((request, response) => {
      if (request.method === 'PUT' && request.url?.endsWith('/merge')) {
        response
          .writeHead(405, { 'content-type': 'application/json' })
          .end('{"message":"405 Method Not Allowed"}');
        return true;
      }
      return false;
    });
    try {
      const refused = await vscode.commands.executeCommand<MergeResult>(
        'forge.mergeRequest.merge',
        (await row('Created by me', await createdByAlice())).node,
        {},
      );
      assert.equal(refused && 'reason' in refused ? refused.reason : undefined, 'cannot-be-merged');
    } finally {
      forge.onRequest(undefined);
    }

    // alice is a developer of acme/api, whose master is protected: 401 means "may not merge".
    const apiProject = forge.fixtures.projects.api;
    const denied = await vscode.commands.executeCommand<MergeResult>(
      'forge.mergeRequest.merge',
      (await row('Created by me', 1, 'acme/api')).node,
      {},
    );
    assert.equal(denied && 'reason' in denied ? denied.reason : undefined, 'no-permission');
    assert.match(
      denied && 'message' in denied ? (denied.message ?? '') : '',
      /not allowed to merge !1 into master/,
    );
    assert.equal(requestsTo('PUT', mrPath(1, '/merge', apiProject))[0]?.status, 401);

    forge.onRequest((request, response) => {
      if (request.method === 'PUT' && request.url?.endsWith('/merge')) {
        response
          .writeHead(406, { 'content-type': 'application/json' })
          .end('{"message":"406 Method Not Allowed"}');
        return true;
      }
      return false;
    });
    try {
      const gone = await vscode.commands.executeCommand<MergeResult>(
        'forge.mergeRequest.merge',
        (await row('Created by me', await createdByAlice())).node,
        {},
      );
      assert.equal(gone && 'reason' in gone ? gone.reason : undefined, 'not-open');
    } finally {
      forge.onRequest(undefined);
    }
  });

  it('sets a merge request to merge when the pipeline succeeds, and cancels that', async () => {
    forge.clearRequests();
    const scheduled = await vscode.commands.executeCommand<MergeResult>(
      'forge.mergeRequest.merge',
      (await row('Created by me', await createdByAlice())).node,
      { mergeWhenPipelineSucceeds: true },
    );
    assert.deepEqual(scheduled, { merged: false, scheduled: true });
    const put = requestsTo('PUT', mrPath(await createdByAlice(), '/merge'))[0];
    // `auto_merge` for GitLab 17.11+, the older name for servers before it (which ignore the new one).
    assert.deepEqual(
      [
        (put?.body as { auto_merge?: boolean }).auto_merge,
        (put?.body as { merge_when_pipeline_succeeds?: boolean }).merge_when_pipeline_succeeds,
      ],
      [true, true],
    );
    const waiting = await row('Created by me', await createdByAlice());
    assert.match(String(waiting.item.contextValue), /\bmwps\b/);
    assert.match(String(waiting.item.description), /merges when pipeline succeeds$/);

    forge.clearRequests();
    assert.deepEqual(
      await vscode.commands.executeCommand(
        'forge.mergeRequest.cancelMergeWhenPipelineSucceeds',
        waiting.node,
      ),
      { cancelled: true },
    );
    assert.deepEqual(
      await vscode.commands.executeCommand(
        'forge.mergeRequest.cancelMergeWhenPipelineSucceeds',
        waiting.node,
      ),
      { cancelled: false, reason: 'not-scheduled' },
    );
    assert.deepEqual(
      forge.requests
        .filter((request) => request.path === mrPath(createdIid ?? 0, '/cancel_merge_when_pipeline_succeeds'))
        .map((request) => request.status),
      [200, 406],
    );
    assert.doesNotMatch(
      String((await row('Created by me', await createdByAlice())).item.contextValue),
      /\bmwps\b/,
    );
  });

  it('deletes a merge request after confirmation (owners only)', async () => {
    const dotfiles = forge.fixtures.projects.dotfiles;
    const client = await api.accounts.client(account.id);
    await client.createBranch(dotfiles, 'topic', 'master');
    const created = await client.createMergeRequest(dotfiles, {
      source_branch: 'topic',
      target_branch: 'master',
      title: 'A topic to delete',
    });
    view.refresh();
    const doomed = await row('Created by me', created.iid, 'alice/dotfiles');
    forge.clearRequests();
    const result = await vscode.commands.executeCommand('forge.mergeRequest.delete', doomed.node, {
      confirmed: true,
    });
    assert.deepEqual(result, { deleted: true });
    const deletion = requestsTo('DELETE', mrPath(created.iid, '', dotfiles))[0];
    assert.equal(deletion?.status, 204);
    assert.ok(
      !(await group('Created by me')).some(({ item }) => label(item) === `!${created.iid} A topic to delete`),
    );

    // Not an owner of acme/web: the server refuses, the command reports it and returns nothing.
    forge.clearRequests();
    const refused = await vscode.commands.executeCommand(
      'forge.mergeRequest.delete',
      (await row('All opened', 4)).node,
      {
        confirmed: true,
      },
    );
    assert.equal(refused, undefined);
    assert.equal(requestsTo('DELETE', mrPath(4))[0]?.status, 403);
    assert.equal(forge.state.findMergeRequest(web, 4)?.state, 'opened');
  });
});

/** Lets the built-in git extension catch up with a branch switch made outside it, when it knows the repository. */
async function refreshGitExtension(root: string): Promise<void> {
  const extension = vscode.extensions.getExtension<{
    getAPI(version: 1): { repositories: { rootUri: vscode.Uri; status(): Promise<void> }[] };
  }>('vscode.git');
  if (!extension?.isActive) return;
  try {
    const repository = extension.exports
      .getAPI(1)
      .repositories.find((candidate) => candidate.rootUri.fsPath === root);
    await repository?.status();
  } catch {
    // The git extension is installed but has no model (git disabled or not found): nothing to refresh.
  }
}
