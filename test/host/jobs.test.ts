// Job actions run on rows of the Projects view inside a real VS Code, against a fake forge started
// in this extension host: what the server received, and what the tree shows afterwards.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ForgeWorkbenchApi } from '../../src/extension';
import type { AccountInfo } from '../../src/platform/accounts';
import { type FakeForge, type RecordedRequest } from '../server';
import {
  childrenOf,
  childWhere,
  eventually,
  iconId,
  label,
  type Row,
  useForgeSession,
  receivedRequest,
  jobRowsOf,
  offers,
} from './support';

describe('job actions', function () {
  this.timeout(30_000);
  const session = useForgeSession();
  let forge: FakeForge;
  let api: ForgeWorkbenchApi;
  let account: AccountInfo;
  let downloads: string;

  before(() => {
    ({ forge, api, account } = session);
  });

  before(() => {
    downloads = mkdtempSync(join(tmpdir(), 'forge-artifacts-'));
  });

  session.cleanUps.push(() => {
    rmSync(downloads, { recursive: true, force: true });
  });

  /** acme/web under our account (the view lists accounts when there are several). */
  async function webProject(): Promise<Row> {
    const accountRow = (await childrenOf(api.projects)).find(
      ({ item }) => item.id === `account/${account.id}`,
    );
    return childWhere(api.projects, accountRow?.node, (item) => item.description === 'acme/web', 'acme/web');
  }

  /** The Jobs folder of acme/web. */
  async function jobsFolderRow(): Promise<Row> {
    const web = await webProject();
    return childWhere(api.projects, web.node, (item) => label(item) === 'Jobs', 'Jobs folder');
  }

  /** A job's row, found in the Jobs folder's pipelines. */
  async function jobRow(jobId: number): Promise<Row> {
    const jobsFolder = await jobsFolderRow();
    for (const pipeline of await childrenOf(api.projects, jobsFolder.node)) {
      const found = (await jobRowsOf(api.projects, pipeline.node)).find(({ item }) =>
        item.id?.endsWith(`/job/${jobId}`),
      );
      if (found) return found;
    }
    assert.fail(`no row for job #${jobId}`);
  }

  function jobPath(jobId: number, action = ''): string {
    return `/api/v4/projects/${forge.fixtures.projects.web}/jobs/${jobId}${action}`;
  }

  const received = (method: string, path: string): RecordedRequest => receivedRequest(forge, method, path);

  it('retries a failed job from its row and shows it pending', async () => {
    const jobId = forge.fixtures.jobs.failed;
    const row = await jobRow(jobId);
    assert.match(String(row.item.contextValue), /\bretryable\b/);
    assert.ok(offers('forge.job.retry', row.item.contextValue, true));
    forge.clearRequests();
    const message = await vscode.commands.executeCommand<string>('forge.job.retry', row.node);
    received('POST', jobPath(jobId, '/retry'));
    // Real servers run the job again as a new one; the pipeline shows that one, the failed attempt under it.
    const again = [...forge.state.jobs.values()].find(
      (job) => job.name === 'lint' && job.id > jobId && !job.retried,
    );
    assert.ok(again, 'a new job runs');
    assert.equal(message, `Retried lint (#${jobId}) as #${again.id}: now pending`);
    await eventually(async () => {
      const after = await jobRow(again.id);
      assert.match(String(after.item.description), /Pending.*1 earlier attempt/);
      assert.match(String(after.item.contextValue), /^job pending active\b.*\bcancelable\b/);
      assert.equal(iconId(after.item), 'clock');
      const earlier = await childrenOf(api.projects, after.node);
      assert.deepEqual(
        earlier.map(({ item }) => item.id?.split('/').at(-1)),
        [String(jobId)],
      );
      assert.match(String(earlier[0]?.item.description), new RegExp(`#${jobId} \\(run again\\) · Failed`));
    });
  });

  it('filters the Jobs folder by state (the server) and by branch', async () => {
    const jobsFolder = await jobsFolderRow();
    try {
      forge.clearRequests();
      await vscode.commands.executeCommand('forge.jobs.filter', jobsFolder.node, { scope: ['failed'] });
      const failedPipelines = await childrenOf(api.projects, jobsFolder.node);
      const listing = forge.requests.find(
        (request) => request.path === `/api/v4/projects/${forge.fixtures.projects.web}/jobs`,
      );
      assert.deepEqual(listing?.query['scope[]'], 'failed');
      const failedJobs = (
        await Promise.all(failedPipelines.map(({ node }) => childrenOf(api.projects, node)))
      ).flat();
      assert.ok(failedJobs.length > 0);
      assert.ok(failedJobs.every(({ item }) => /\bFailed\b/.test(String(item.description))));
      assert.equal(jobsFolder.node.getTreeItem().description, 'failed');

      await vscode.commands.executeCommand('forge.jobs.filter', jobsFolder.node, { ref: 'feature/login' });
      const onBranch = await childrenOf(api.projects, jobsFolder.node);
      assert.ok(onBranch.length > 0);
      assert.ok(onBranch.every(({ item }) => String(item.description).startsWith('feature/login')));
      assert.equal(jobsFolder.node.getTreeItem().description, 'on feature/login');
    } finally {
      await vscode.commands.executeCommand('forge.jobs.filter', jobsFolder.node, {});
    }
    assert.equal(jobsFolder.node.getTreeItem().description, undefined);
  });

  it("lists a pipeline's stages in order with their jobs, read from the pipeline's own endpoint", async () => {
    const jobsFolder = await jobsFolderRow();
    const masterPipeline = forge.state.jobs.get(forge.fixtures.jobs.manual)?.pipelineId;
    const pipeline = await childWhere(
      api.projects,
      jobsFolder.node,
      (item) => label(item) === `Pipeline #${masterPipeline}`,
      'the master pipeline',
    );
    // From the pipelines list: its ref, status and age; how many jobs it has once it is opened.
    assert.match(String(pipeline.item.description), /^master · \w+/);
    assert.doesNotMatch(String(pipeline.item.description), /\bjobs?$/);
    forge.clearRequests();
    const stageRows = await childrenOf(api.projects, pipeline.node);
    const rows = await jobRowsOf(api.projects, pipeline.node);
    await eventually(() => {
      const opened = pipeline.node.getTreeItem();
      assert.match(String(opened.description), new RegExp(`· ${rows.length} jobs?$`));
      // Who ran it, from the pipeline's own endpoint.
      assert.match(String(opened.description), /· @root ·/);
    });
    assert.ok(
      forge.requests.some(
        (request) =>
          request.path.endsWith(`/pipelines/${masterPipeline}/jobs`) ||
          request.path.endsWith(`/pipeline/${masterPipeline}/jobs`),
      ),
      "the pipeline's jobs were read from its endpoint",
    );
    const stages = stageRows.map(({ item }) => label(item));
    const masterJobs = [...forge.state.jobs.values()].filter(
      (job) => job.pipelineId === masterPipeline && !job.retried,
    );
    // Each stage row: its status as its jobs add up, its count, its jobs under it.
    for (const stage of stageRows) {
      assert.equal(stage.item.contextValue, 'stage');
      const jobs = await childrenOf(api.projects, stage.node);
      const count = masterJobs.filter((job) => job.stage === label(stage.item)).length;
      assert.equal(jobs.length, count, `the jobs of ${label(stage.item)}`);
      assert.match(String(stage.item.description), new RegExp(`· ${count} jobs?$`));
      for (const job of jobs)
        assert.doesNotMatch(String(job.item.description), new RegExp(`^${label(stage.item)} ·`));
    }
    const expectedOrder = [
      ...new Set(
        [...forge.state.jobs.values()]
          .filter((job) => job.pipelineId === masterPipeline && !job.retried)
          .sort((a, b) => a.id - b.id)
          .map((job) => job.stage),
      ),
    ];
    assert.deepEqual(stages, expectedOrder, 'stages in the order the pipeline runs them');
    assert.equal(stages.at(-1), 'deploy', 'deploy comes last, not first');
  });

  it('runs a manual job from its row', async () => {
    const jobId = forge.fixtures.jobs.manual;
    const row = await jobRow(jobId);
    assert.ok(offers('forge.job.play', row.item.contextValue, true));
    assert.ok(!offers('forge.job.retry', row.item.contextValue, true));
    forge.clearRequests();
    // deploy-production looks like a deployment: it asks first; Cancel runs nothing.
    const questions: string[] = [];
    let answer: string | undefined;
    let message: string | undefined;
    const answering = api.messages.answerModals((question, buttons) => {
      questions.push(`${question.text} [${buttons.join(', ')}]`);
      return answer;
    });
    try {
      assert.equal(await vscode.commands.executeCommand<string>('forge.job.play', row.node), undefined);
      assert.equal(forge.requests.filter((request) => request.path === jobPath(jobId, '/play')).length, 0);
      answer = 'Run';
      message = await vscode.commands.executeCommand<string>('forge.job.play', row.node);
    } finally {
      answering.dispose();
    }
    assert.deepEqual(questions, [
      `Run deploy-production #${jobId} (stage deploy) of acme/web? It looks like a deployment. [Run]`,
      `Run deploy-production #${jobId} (stage deploy) of acme/web? It looks like a deployment. [Run]`,
    ]);
    received('POST', jobPath(jobId, '/play'));
    assert.match(message ?? '', new RegExp(`^Started deploy-production \\(#${jobId}\\): now `));
    await eventually(async () => {
      assert.match(String((await jobRow(jobId)).item.contextValue), /^job pending\b/);
    });
  });

  it('cancels a pending job from its row', async () => {
    const jobId = forge.fixtures.jobs.pending;
    const row = await jobRow(jobId);
    assert.ok(offers('forge.job.cancel', row.item.contextValue, true));
    forge.clearRequests();
    const message = await vscode.commands.executeCommand<string>('forge.job.cancel', row.node);
    received('POST', jobPath(jobId, '/cancel'));
    assert.equal(message, `Canceled test:e2e (#${jobId}): now canceled`);
    await eventually(async () => {
      const after = await jobRow(jobId);
      assert.match(String(after.item.contextValue), /^job canceled finished\b.*\bretryable\b/);
    });
  });

  it('erases a job once confirmed, and its row no longer offers artifacts', async () => {
    const jobId = forge.fixtures.jobs.olderBuild;
    const row = await jobRow(jobId);
    assert.ok(offers('forge.job.erase', row.item.contextValue));
    assert.match(String(row.item.contextValue), /\bartifacts\b/);
    forge.clearRequests();
    const message = await vscode.commands.executeCommand<string>('forge.job.erase', row.node, {
      confirmed: true,
    });
    received('POST', jobPath(jobId, '/erase'));
    assert.equal(message, `Erased build (#${jobId}): its trace and artifacts are deleted`);
    assert.equal(forge.state.jobs.get(jobId)?.artifacts, null);
    await eventually(async () => {
      assert.doesNotMatch(String((await jobRow(jobId)).item.contextValue), /\bartifacts\b/);
    });
  });

  it('keeps a job’s artifacts', async () => {
    const jobId = forge.fixtures.jobs.build;
    const row = await jobRow(jobId);
    assert.ok(offers('forge.job.keepArtifacts', row.item.contextValue));
    assert.notEqual(forge.state.jobs.get(jobId)?.artifacts?.expireAt, null);
    forge.clearRequests();
    const message = await vscode.commands.executeCommand<string>('forge.job.keepArtifacts', row.node);
    received('POST', jobPath(jobId, '/artifacts/keep'));
    assert.equal(message, `Kept the artifacts of build (#${jobId}): they no longer expire`);
    assert.equal(forge.state.jobs.get(jobId)?.artifacts?.expireAt, null);
  });

  it('downloads a job’s artifacts to a zip, leaving no partial file', async () => {
    const jobId = forge.fixtures.jobs.build;
    const row = await jobRow(jobId);
    assert.ok(offers('forge.job.downloadArtifacts', row.item.contextValue));
    const destination = join(downloads, 'web-build-artifacts.zip');
    forge.clearRequests();
    const message = await vscode.commands.executeCommand<string>('forge.job.downloadArtifacts', row.node, {
      destination,
    });
    received('GET', jobPath(jobId, '/artifacts'));
    assert.ok(existsSync(destination), 'the archive was saved');
    assert.equal(readFileSync(destination).subarray(0, 4).toString('latin1'), 'PK\u0003\u0004');
    assert.ok(!existsSync(`${destination}.part`), 'no .part file remains');
    assert.match(message, /^Saved the artifacts of build/);
    assert.ok(message.includes(destination));
  });

  it('leaves no file when a download is cancelled', async () => {
    const jobId = forge.fixtures.jobs.build;
    const row = await jobRow(jobId);
    const destination = join(downloads, 'cancelled.zip');
    // The server sends the start of the archive and then stalls.
    forge.onRequest((request, response) => {
      if (!request.url?.endsWith(`/jobs/${jobId}/artifacts`)) return false;
      response.writeHead(200, { 'content-type': 'application/zip', 'content-length': 1_000_000 });
      response.write(Buffer.alloc(64 * 1024, 1));
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          response.destroy();
          resolve(true);
        }, 10_000);
        response.on('close', () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
    });
    try {
      const controller = new AbortController();
      const running = vscode.commands.executeCommand<string | undefined>(
        'forge.job.downloadArtifacts',
        row.node,
        {
          destination,
          signal: controller.signal,
        },
      );
      await eventually(() => {
        assert.ok(existsSync(`${destination}.part`), 'the download started');
      });
      controller.abort();
      assert.equal(await running, undefined, 'a cancelled download reports nothing');
    } finally {
      forge.onRequest(undefined);
    }
    assert.ok(!existsSync(destination), 'no archive');
    assert.ok(!existsSync(`${destination}.part`), 'no .part file');
  });

  it('leaves no file when the connection breaks off', async () => {
    const jobId = forge.fixtures.jobs.build;
    const row = await jobRow(jobId);
    const destination = join(downloads, 'broken.zip');
    forge.onRequest((request, response) => {
      if (!request.url?.endsWith(`/jobs/${jobId}/artifacts`)) return false;
      response.writeHead(200, { 'content-type': 'application/zip', 'content-length': 1_000_000 });
      response.write(Buffer.alloc(1024, 1), () => response.destroy());
      return true;
    });
    try {
      const outcome = await vscode.commands.executeCommand('forge.job.downloadArtifacts', row.node, {
        destination,
      });
      assert.equal(outcome, undefined, 'the failure became an error notification');
    } finally {
      forge.onRequest(undefined);
    }
    assert.deepEqual(
      readdirSync(downloads).filter((name) => name.startsWith('broken')),
      [],
    );
  });

  it('downloads the latest artifacts of a job name on a ref, from the project row', async () => {
    const web = await webProject();
    assert.ok(offers('forge.job.downloadArtifactsByRef', web.item.contextValue));
    const destination = join(downloads, 'latest-build.zip');
    forge.clearRequests();
    const message = await vscode.commands.executeCommand<string>(
      'forge.job.downloadArtifactsByRef',
      web.node,
      {
        ref: 'master',
        jobName: 'build',
        destination,
      },
    );
    const request = received(
      'GET',
      `/api/v4/projects/${forge.fixtures.projects.web}/jobs/artifacts/master/download`,
    );
    assert.equal(request.query['job'], 'build');
    assert.match(message, /^Saved the latest artifacts of build on master/);
    assert.equal(readFileSync(destination).subarray(0, 2).toString('latin1'), 'PK');
    assert.ok(!existsSync(`${destination}.part`));
  });

  it('says clearly when no job of that name on that ref has artifacts', async () => {
    const web = await webProject();
    const destination = join(downloads, 'missing.zip');
    forge.clearRequests();
    const message = await vscode.commands.executeCommand<string>(
      'forge.job.downloadArtifactsByRef',
      web.node,
      {
        ref: 'feature/login',
        jobName: 'nope',
        destination,
      },
    );
    const request = received(
      'GET',
      `/api/v4/projects/${forge.fixtures.projects.web}/jobs/artifacts/feature%2Flogin/download`,
    );
    assert.equal(request.status, 404);
    assert.match(message, /^No successful job named nope on ref feature\/login has artifacts/);
    assert.ok(!existsSync(destination) && !existsSync(`${destination}.part`));
  });

  it('opens a job in the browser at its web_url', async () => {
    const jobId = forge.fixtures.jobs.success;
    const row = await jobRow(jobId);
    assert.ok(offers('forge.job.openInBrowser', row.item.contextValue));
    const url = await vscode.commands.executeCommand<string>('forge.job.openInBrowser', row.node);
    assert.equal(url, `${forge.url}/acme/web/-/jobs/${jobId}`);
  });
});
