// The status bar item for the open folder: a git clone of a fake-forge project, on a branch with
// an open merge request and a running pipeline.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import { eventually, makeWorkspaceAClone, useForgeSession } from './support';
import type { AccountInfo } from '../../src/platform/accounts';
import type { BranchStatus, BranchStatusView } from '../../src/features/statusBar';
import { type FakeForge } from '../server';

function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
}

describe('status bar', function () {
  this.timeout(30_000);
  const session = useForgeSession();
  let forge: FakeForge;
  let account: AccountInfo;
  let folder: string;
  let restoreClone: (() => void) | undefined;

  before(() => {
    ({ forge, account } = session);
  });

  before(() => {
    const workspaceFolder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(workspaceFolder, 'the test VS Code opens a folder');
    folder = workspaceFolder.uri.fsPath;
    restoreClone = makeWorkspaceAClone(forge, 'acme/web', 'feature/login');
  });

  session.cleanUps.push(() => restoreClone?.());

  it("shows the current branch's merge request and latest job", async () => {
    forge.clearRequests();
    const status = await vscode.commands.executeCommand<BranchStatus | undefined>('forge.statusBar.refresh');
    assert.ok(status, 'the folder was recognised as a clone of acme/web');
    assert.equal(status.account.id, account.id, 'the account on the same origin as the remote is used');
    assert.equal(status.project.path_with_namespace, 'acme/web');
    assert.equal(status.branch, 'feature/login');
    assert.equal(status.mergeRequest?.source_branch, 'feature/login');
    assert.equal(status.mergeRequest?.title, 'Add a login form');
    assert.equal(status.latestJob?.ref, 'feature/login');
    assert.ok(forge.requests.some((request) => request.path === '/api/v4/projects/acme%2Fweb'));
  });

  it("shows the status of the branch's latest pipeline, not of its newest job, and a clean spoken label", async () => {
    const web = forge.fixtures.projects.web;
    const onBranch = [...forge.state.jobs.values()]
      .filter((job) => job.projectId === web && job.ref === 'feature/login')
      .sort((a, b) => b.id - a.id);
    const [newest, failed, ...rest] = onBranch.filter((job) => job.pipelineId === onBranch[0]?.pipelineId);
    assert.ok(newest && failed, 'the branch has a pipeline of two jobs or more');
    for (const job of rest) forge.state.setJobStatus(job.id, 'success');
    forge.state.setJobStatus(failed.id, 'failed');
    forge.state.setJobStatus(newest.id, 'canceled');
    const status = await vscode.commands.executeCommand<BranchStatusView | undefined>(
      'forge.statusBar.refresh',
    );
    assert.equal(status?.latestJob?.status, 'canceled');
    assert.deepEqual(status?.pipeline && [status.pipeline.id, status.pipeline.status], [
      newest.pipelineId,
      'failed',
    ]);
    assert.match(status.text, /\$\(error\) Pipeline failed$/);
    assert.equal(
      status.accessibilityLabel,
      `Forge: Merge request !${status.mergeRequest?.iid} of feature/login, pipeline #${newest.pipelineId} failed`,
    );
    assert.doesNotMatch(status.accessibilityLabel, /&nbsp;|\$\(/);
  });

  it("offers the branch's actions from the item, and runs the one picked", async () => {
    await vscode.commands.executeCommand('forge.statusBar.refresh');
    const offered: { labels: readonly string[]; placeHolder: string | undefined }[] = [];
    const answering = session.api.messages.answerPicks((labels, placeHolder) => {
      offered.push({ labels, placeHolder });
      return offered.length === 1 ? undefined : labels.findIndex((label) => label.endsWith(' Refresh'));
    });
    try {
      // Dismissed: nothing is sent.
      forge.clearRequests();
      await vscode.commands.executeCommand('forge.statusBar.showActions');
      assert.equal(forge.requests.length, 0);
      const [first] = offered;
      assert.equal(first?.placeHolder, 'acme/web · feature/login');
      const labels = first?.labels ?? [];
      // As shown: each with its theme icon, the merge request first, Refresh last (a Retry of the
      // latest job between them when it can be retried).
      assert.equal(labels[0], '$(link-external) Open !1 in Browser');
      assert.ok(labels.includes('$(repo) Open Project in Browser'), JSON.stringify(labels));
      assert.equal(labels.at(-1), '$(sync) Refresh');
      // "Refresh" reads the branch's state again.
      await vscode.commands.executeCommand('forge.statusBar.showActions');
      assert.equal(offered.length, 2);
      assert.ok(forge.requests.some((request) => request.path === '/api/v4/projects/acme%2Fweb'));
    } finally {
      answering.dispose();
    }
  });

  it("runs a pipeline on the branch and cancels the branch's running one from the item's menu", async () => {
    await vscode.commands.executeCommand('forge.statusBar.refresh');
    const offered: (readonly string[])[] = [];
    let step = 0;
    const answering = session.api.messages.answerPicks((labels) => {
      offered.push(labels);
      step += 1;
      // The menu, then the run form's first row ("Run pipeline on feature/login").
      if (step === 1) return labels.indexOf('$(play-circle) Run Pipeline on feature/login…');
      if (step === 2) return 0;
      return labels.findIndex((label) => label.startsWith('$(stop-circle) Cancel Pipeline #'));
    });
    try {
      forge.clearRequests();
      await vscode.commands.executeCommand('forge.statusBar.showActions');
      const created = forge.requests.find(
        (request) => request.method === 'POST' && request.path.endsWith('/pipeline'),
      );
      assert.deepEqual((created?.body as { ref?: string } | undefined)?.ref, 'feature/login');
      // The branch's latest pipeline now is the one just started, still running: it can be canceled.
      await vscode.commands.executeCommand('forge.statusBar.refresh');
      await vscode.commands.executeCommand('forge.statusBar.showActions');
      assert.ok(
        forge.requests.some(
          (request) => request.method === 'POST' && /\/pipelines\/\d+\/cancel$/.test(request.path),
        ),
        JSON.stringify(offered.at(-1)),
      );
    } finally {
      answering.dispose();
    }
  });

  /** A pipeline on feature/login started elsewhere (through the API), not from this window. */
  async function pipelineStartedElsewhere(): Promise<number> {
    const response = await fetch(`${forge.url}/api/v4/projects/${forge.fixtures.projects.web}/pipeline`, {
      method: 'POST',
      headers: { 'private-token': forge.userToken, 'content-type': 'application/json' },
      body: JSON.stringify({ ref: 'feature/login' }),
    });
    assert.equal(response.status, 201);
    return ((await response.json()) as { id: number }).id;
  }

  function finishJobs(pipelineId: number): void {
    for (const id of forge.state.pipelines.get(pipelineId)?.jobIds ?? []) {
      const job = forge.state.jobs.get(id);
      if (job && !job.retried && ['created', 'pending', 'running'].includes(job.status))
        forge.state.setJobStatus(id, 'success');
    }
  }

  it("says when the branch's latest pipeline ends with forge.pipelines.notify = branch, not by default", async () => {
    const config = vscode.workspace.getConfiguration('forge');
    const shown: string[] = [];
    const observing = session.api.messages.observe((message) => shown.push(message.text));
    const saidOf = (pipelineId: number): string[] =>
      shown.filter((text) => text.startsWith(`Pipeline #${pipelineId} on feature/login`));
    try {
      // By default (`mine`): a pipeline started elsewhere is not said.
      const elsewhere = await pipelineStartedElsewhere();
      const before = await vscode.commands.executeCommand<BranchStatus | undefined>(
        'forge.statusBar.refresh',
      );
      assert.equal(before?.pipeline?.id, elsewhere, "the branch's latest pipeline");
      finishJobs(elsewhere);
      await vscode.commands.executeCommand('forge.projects.refresh');
      await vscode.commands.executeCommand('forge.statusBar.refresh');
      assert.deepEqual(saidOf(elsewhere), []);

      await config.update('pipelines.notify', 'branch', vscode.ConfigurationTarget.Global);
      const watched = await pipelineStartedElsewhere();
      const status = await vscode.commands.executeCommand<BranchStatus | undefined>(
        'forge.statusBar.refresh',
      );
      assert.equal(status?.pipeline?.id, watched);
      finishJobs(watched);
      // A refresh checks the watched pipelines at once.
      await vscode.commands.executeCommand('forge.projects.refresh');
      await eventually(() => assert.equal(saidOf(watched).length, 1, JSON.stringify(shown)), 15_000);
      assert.match(saidOf(watched)[0] ?? '', /^Pipeline #\d+ on feature\/login \(acme\/web\) /);
    } finally {
      observing.dispose();
      await config.update('pipelines.notify', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('follows a branch switch and shows nothing for a folder that is not a clone', async () => {
    git(folder, ['symbolic-ref', 'HEAD', 'refs/heads/no-such-work']);
    const other = await vscode.commands.executeCommand<BranchStatus | undefined>('forge.statusBar.refresh');
    assert.equal(other?.branch, 'no-such-work');
    assert.equal(other?.mergeRequest, undefined);
    git(folder, ['remote', 'set-url', 'origin', 'https://elsewhere.example/acme/web.git']);
    const none = await vscode.commands.executeCommand<BranchStatus | undefined>('forge.statusBar.refresh');
    assert.equal(none, undefined);
    git(folder, ['remote', 'set-url', 'origin', `${forge.url}/acme/web.git`]);
    git(folder, ['symbolic-ref', 'HEAD', 'refs/heads/feature/login']);
  });
});
