// Pipelines as a whole (issue 37): run one with variables (the CI file's prefilled ones offered),
// retry its failed jobs, cancel it, delete it (Owner only), open and copy its link — from its row
// in the Jobs folder, as the state allows.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ForgeWorkbenchApi } from '../../src/extension';
import type { AccountInfo } from '../../src/platform/accounts';
import { type FakeForge, type RecordedRequest } from '../server';
import {
  childWhere,
  childrenOf,
  eventually,
  label,
  type Row,
  useForgeSession,
  receivedRequest,
  clipboardHolds,
  pipelineRowIn,
  jobRowsOf,
  offers,
} from './support';

describe('pipeline actions', function () {
  this.timeout(30_000);
  const session = useForgeSession();
  let forge: FakeForge;
  let api: ForgeWorkbenchApi;
  let account: AccountInfo;

  before(() => {
    ({ forge, api, account } = session);
  });

  async function webProject(): Promise<Row> {
    const accountRow = (await childrenOf(api.projects)).find(
      ({ item }) => item.id === `account/${account.id}`,
    );
    return childWhere(api.projects, accountRow?.node, (item) => item.description === 'acme/web', 'acme/web');
  }

  async function pipelineRow(pipelineId: number): Promise<Row> {
    return pipelineRowIn(api.projects, (await webProject()).node, pipelineId);
  }

  const pipelinesPath = (): string => `/api/v4/projects/${forge.fixtures.projects.web}/pipelines`;

  const received = (method: string, path: string): RecordedRequest => receivedRequest(forge, method, path);

  it('retries the failed jobs of a failed pipeline from its row, and offers no cancel there', async () => {
    const pipelineId = forge.fixtures.pipelines.masterFailed;
    const row = await pipelineRow(pipelineId);
    assert.match(String(row.item.contextValue), /^pipeline whole\b.*\bretryable\b/);
    assert.doesNotMatch(String(row.item.contextValue), /\bcancelable\b/);
    forge.clearRequests();
    const message = await vscode.commands.executeCommand<string>('forge.pipeline.retry', row.node);
    received('POST', `${pipelinesPath()}/${pipelineId}/retry`);
    assert.equal(message, `Pipeline #${pipelineId}: its failed and canceled jobs run again (pending).`);
    await eventually(async () => {
      const again = await pipelineRow(pipelineId);
      assert.match(String(again.item.description), /Pending/);
    });
  });

  it('cancels a running pipeline; a finished one is refused before any request', async () => {
    const running = forge.fixtures.pipelines.featureRunning;
    const row = await pipelineRow(running);
    assert.match(String(row.item.contextValue), /\bcancelable\b/);
    forge.clearRequests();
    const message = await vscode.commands.executeCommand<string>('forge.pipeline.cancel', row.node);
    received('POST', `${pipelinesPath()}/${running}/cancel`);
    // It had a failed job: GitLab's status of the whole stays failed, with nothing left running.
    assert.equal(message, `Pipeline #${running} canceled (failed).`);
    const left = (forge.state.pipelines.get(running)?.jobIds ?? []).map(
      (id) => forge.state.jobs.get(id)?.status,
    );
    assert.ok(!left.some((status) => status === 'running' || status === 'pending'), JSON.stringify(left));
    const finished = await pipelineRow(forge.fixtures.pipelines.masterSuccess);
    forge.clearRequests();
    await vscode.commands.executeCommand('forge.pipeline.cancel', finished.node);
    assert.equal(forge.requests.filter((request) => request.method === 'POST').length, 0);
  });

  it('asks before deleting, and keeps the pipeline when the server refuses (Owner only)', async () => {
    const pipelineId = forge.fixtures.pipelines.masterSuccess;
    const row = await pipelineRow(pipelineId);
    const questions: string[] = [];
    const answering = api.messages.answerModals((question) => {
      questions.push(question.text);
      return undefined;
    });
    try {
      forge.clearRequests();
      assert.equal(await vscode.commands.executeCommand('forge.pipeline.delete', row.node), undefined);
      assert.equal(forge.requests.length, 0);
      assert.match(questions[0] ?? '', /^Delete pipeline #\d+ of acme\/web\? .*cannot be undone\.$/);
    } finally {
      answering.dispose();
    }
    // The session's user is a maintainer: GitLab lets only owners delete pipelines.
    await vscode.commands.executeCommand('forge.pipeline.delete', row.node, { confirmed: true });
    received('DELETE', `${pipelinesPath()}/${pipelineId}`);
    assert.ok(forge.state.pipelines.has(pipelineId));
  });

  it("offers the page of another project's pipeline that a trigger job started", async () => {
    const pipelineId = forge.fixtures.pipelines.masterSuccess;
    const webUrl = `${forge.url}/acme/api/-/pipelines/4242`;
    // A multi-project trigger (`trigger: project:`): its pipeline belongs to acme/api.
    const bridge = {
      id: 99_001,
      name: 'deploy-api',
      stage: 'deploy',
      ref: 'master',
      status: 'success',
      downstream_pipeline: {
        id: 4242,
        project_id: forge.fixtures.projects.api,
        ref: 'main',
        sha: 'f62a4b2fb89754372a346f24659212eb8da13601',
        status: 'running',
        web_url: webUrl,
      },
    };
    forge.onRequest((req, res) => {
      if (!new RegExp(`/pipelines/${pipelineId}/bridges(\\?|$)`).test(req.url ?? ''))
        return Promise.resolve(false);
      res.writeHead(200, { 'content-type': 'application/json', 'x-total': '1', 'x-total-pages': '1' });
      res.end(JSON.stringify([bridge]));
      return Promise.resolve(true);
    });
    try {
      await vscode.commands.executeCommand('forge.jobs.filter', (await jobsFolder()).node, {});
      const row = await pipelineRow(pipelineId);
      const downstream = await eventually(async () => {
        const found = (await childrenOf(api.projects, row.node)).find(({ item }) =>
          String(item.contextValue).startsWith('downstreamPipeline'),
        );
        assert.ok(found, 'the downstream row');
        return found;
      });
      assert.equal(label(downstream.item), 'Pipeline #4242');
      assert.match(
        String(downstream.item.description),
        /^from deploy-api · another project · main · Running$/,
      );
      assert.ok(offers('forge.pipeline.openInBrowser', downstream.item.contextValue));
      assert.ok(offers('forge.pipeline.copyLink', downstream.item.contextValue));
      assert.ok(!offers('forge.pipeline.retry', downstream.item.contextValue));
      const copied = await vscode.commands.executeCommand<string>('forge.pipeline.copyLink', downstream.node);
      assert.equal(copied, webUrl);
      assert.ok(await clipboardHolds(webUrl), 'the link is on the clipboard');
    } finally {
      forge.onRequest(undefined);
      await vscode.commands.executeCommand('forge.jobs.filter', (await jobsFolder()).node, {});
    }
  });

  it('gives the link of a pipeline: copied, and opened only as a web link', async () => {
    const pipelineId = forge.fixtures.pipelines.masterSuccess;
    const row = await pipelineRow(pipelineId);
    const url = await vscode.commands.executeCommand<string>('forge.pipeline.copyLink', row.node);
    assert.equal(url, `${forge.state.webOrigin}/acme/web/-/pipelines/${pipelineId}`);
    await clipboardHolds(url);
    const opened = await vscode.commands.executeCommand<string>('forge.pipeline.openInBrowser', row.node);
    assert.equal(opened, url);
  });

  it('runs a pipeline with variables given, and a rule that reads one brings its job in', async () => {
    const web = await webProject();
    forge.clearRequests();
    const pipeline = await vscode.commands.executeCommand<{ id: number }>('forge.pipeline.run', web.node, {
      ref: 'master',
      variables: [{ key: 'RUN_E2E', value: 'true' }],
    });
    const sent = received('POST', `/api/v4/projects/${forge.fixtures.projects.web}/pipeline`);
    assert.deepEqual(sent.body, {
      ref: 'master',
      variables: [{ key: 'RUN_E2E', value: 'true' }],
    });
    const created = forge.state.pipelines.get(pipeline.id);
    const names = (created?.jobIds ?? []).map((id) => forge.state.jobs.get(id)?.name);
    assert.ok(names.includes('e2e'), JSON.stringify(names));
  });

  it("offers the CI file's prefilled variables, a refusal keeps what was chosen for the next try", async () => {
    const web = await webProject();
    const offered: (readonly string[])[] = [];
    const answering = api.messages.answerPicks((labels) => {
      offered.push(labels);
      // The branch first (master is the default), then Run at once.
      return offered.length === 1 ? labels.findIndex((each) => each.endsWith('master')) : 0;
    });
    try {
      forge.clearRequests();
      const pipeline = await vscode.commands.executeCommand<{ id: number }>('forge.pipeline.run', web.node);
      const form = offered[1] ?? [];
      assert.ok(form.includes('$(symbol-variable) DEPLOY_ENVIRONMENT = staging'), JSON.stringify(form));
      assert.ok(form.includes('$(symbol-variable) RUN_E2E = false'), JSON.stringify(form));
      const sent = received('POST', `/api/v4/projects/${forge.fixtures.projects.web}/pipeline`);
      assert.deepEqual(sent.body, {
        ref: 'master',
        variables: [
          { key: 'DEPLOY_ENVIRONMENT', value: 'staging' },
          { key: 'RUN_E2E', value: 'false' },
        ],
      });
      assert.ok(forge.state.pipelines.has(pipeline.id));
    } finally {
      answering.dispose();
    }
    // acme/api has no CI file: refused with GitLab's words, and the variable is offered again.
    const apiProject = await childWhere(
      api.projects,
      (await childrenOf(api.projects)).find(({ item }) => item.id === `account/${account.id}`)?.node,
      (item) => item.description === 'acme/api',
      'acme/api',
    );
    const refused = await vscode.commands.executeCommand('forge.pipeline.run', apiProject.node, {
      ref: 'master',
      variables: [{ key: 'KEEP_ME', value: '1' }],
    });
    assert.equal(refused, undefined);
    const again: (readonly string[])[] = [];
    const answeringAgain = api.messages.answerPicks((labels) => {
      again.push(labels);
      return again.length === 1 ? labels.findIndex((each) => each.endsWith('master')) : undefined;
    });
    try {
      assert.equal(await vscode.commands.executeCommand('forge.pipeline.run', apiProject.node), undefined);
      assert.ok((again[1] ?? []).includes('$(symbol-variable) KEEP_ME = 1'), JSON.stringify(again));
    } finally {
      answeringAgain.dispose();
    }
  });

  async function jobsFolder(): Promise<Row> {
    return childWhere(
      api.projects,
      (await webProject()).node,
      (item) => label(item) === 'Jobs',
      'Jobs folder',
    );
  }

  it('shows the child pipeline a trigger job started under its pipeline, named by that job', async () => {
    const web = await webProject();
    const pipeline = await vscode.commands.executeCommand<{ id: number }>('forge.pipeline.run', web.node, {
      ref: 'master',
      variables: [],
    });
    const folder = await jobsFolder();
    await vscode.commands.executeCommand('forge.jobs.filter', folder.node, {});
    const row = await pipelineRow(pipeline.id);
    assert.match(String(row.item.description), /^master · \w+ · run through the API/);
    const children = await childrenOf(api.projects, row.node);
    const child = children.find(({ item }) => String(item.description).startsWith('from docs · master'));
    assert.ok(child, children.map(({ item }) => `${label(item)}: ${String(item.description)}`).join('\n'));
    assert.match(label(child.item), /^Pipeline #\d+$/);
    assert.match(String(child.item.description), /child pipeline/);
    // The child's own jobs, read when it is opened.
    const childJobs = await jobRowsOf(api.projects, child.node);
    assert.deepEqual(
      childJobs.map(({ item }) => label(item)),
      ['pages'],
    );
  });

  it('lists jobs grouped by pipeline on a server without the pipelines list (404)', async () => {
    forge.onRequest((req, res) => {
      if (!/\/projects\/[^/]+\/pipelines(\?|$)/.test(req.url ?? '')) return Promise.resolve(false);
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"404 Not Found"}');
      return Promise.resolve(true);
    });
    try {
      const folder = await jobsFolder();
      forge.clearRequests();
      await vscode.commands.executeCommand('forge.jobs.filter', folder.node, {});
      const rows = await childrenOf(api.projects, folder.node);
      assert.ok(rows.length > 0);
      assert.ok(
        rows.every(({ item }) => /\d+\+? jobs?$/.test(String(item.description))),
        'rows from the jobs list',
      );
      assert.ok(
        forge.requests.some(
          (request) => request.path === `/api/v4/projects/${forge.fixtures.projects.web}/jobs`,
        ),
      );
    } finally {
      forge.onRequest(undefined);
      await vscode.commands.executeCommand('forge.jobs.filter', (await jobsFolder()).node, {});
    }
  });

  /** Ends every job of a pipeline that has not ended, as a runner would. */
  function finishJobs(pipelineId: number, status: 'success' | 'failed'): void {
    for (const id of forge.state.pipelines.get(pipelineId)?.jobIds ?? []) {
      const job = forge.state.jobs.get(id);
      if (job && !job.retried && ['created', 'pending', 'running'].includes(job.status))
        forge.state.setJobStatus(id, status);
    }
  }

  it('says once when a pipeline started here ends, with its first failed job one click away', async () => {
    const shown: { text: string; buttons: readonly string[] }[] = [];
    const observing = api.messages.observe((message) =>
      shown.push({ text: message.text, buttons: message.buttons ?? [] }),
    );
    try {
      const web = await webProject();
      const pipeline = await vscode.commands.executeCommand<{ id: number }>('forge.pipeline.run', web.node, {
        ref: 'master',
        variables: [],
      });
      finishJobs(pipeline.id, 'failed');
      // A refresh checks the watched pipelines at once (the automatic one does while they run).
      await vscode.commands.executeCommand('forge.projects.refresh');
      const said = await eventually(() => {
        const found = shown.filter(({ text }) => text.startsWith(`Pipeline #${pipeline.id} on master`));
        assert.equal(found.length, 1, JSON.stringify(shown.map(({ text }) => text)));
        return found[0];
      }, 15_000);
      assert.equal(said?.text, `Pipeline #${pipeline.id} on master (acme/web) failed.`);
      assert.deepEqual(said?.buttons, ['Show Failed Job', 'Open in Browser']);
      // Said once: later refreshes say nothing more.
      await vscode.commands.executeCommand('forge.projects.refresh');
      await vscode.commands.executeCommand('forge.statusBar.refresh');
      assert.equal(shown.filter(({ text }) => text.startsWith(`Pipeline #${pipeline.id} on`)).length, 1);
    } finally {
      observing.dispose();
    }
  });

  it('says nothing with forge.pipelines.notify off', async () => {
    const config = vscode.workspace.getConfiguration('forge');
    await config.update('pipelines.notify', 'off', vscode.ConfigurationTarget.Global);
    const shown: string[] = [];
    const observing = api.messages.observe((message) => shown.push(message.text));
    try {
      const web = await webProject();
      const pipeline = await vscode.commands.executeCommand<{ id: number }>('forge.pipeline.run', web.node, {
        ref: 'master',
        variables: [],
      });
      finishJobs(pipeline.id, 'success');
      await vscode.commands.executeCommand('forge.projects.refresh');
      // The refresh has read the pipelines again (its folder is open), and no word came.
      await eventually(() =>
        assert.ok(forge.requests.some((request) => request.path.endsWith('/pipelines'))),
      );
      assert.deepEqual(
        shown.filter((text) => text.includes(`#${pipeline.id} on master (acme/web)`)),
        [],
      );
    } finally {
      observing.dispose();
      await config.update('pipelines.notify', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('filters the pipelines by status and by source, asking the server', async () => {
    const folder = await jobsFolder();
    try {
      forge.clearRequests();
      await vscode.commands.executeCommand('forge.jobs.filter', folder.node, { status: 'failed' });
      const failed = await childrenOf(api.projects, folder.node);
      const listing = forge.requests.find((request) => request.path === pipelinesPath());
      assert.equal(listing?.query['status'], 'failed');
      assert.ok(failed.length > 0);
      assert.ok(
        failed.every(({ item }) => /· Failed\b/.test(String(item.description))),
        'only failed pipelines',
      );
      assert.equal(folder.node.getTreeItem().description, 'failed pipelines');
      await vscode.commands.executeCommand('forge.jobs.filter', folder.node, { source: 'parent_pipeline' });
      const children = await childrenOf(api.projects, folder.node);
      const expected = [...forge.state.pipelines.values()].filter(
        (pipeline) =>
          pipeline.projectId === forge.fixtures.projects.web && pipeline.source === 'parent_pipeline',
      );
      assert.equal(children.length, Math.max(expected.length, 1));
      if (expected.length === 0) assert.equal(label(children[0]?.item ?? {}), 'No pipelines');
      else assert.ok(children.every(({ item }) => /child pipeline/.test(String(item.description))));
    } finally {
      await vscode.commands.executeCommand('forge.jobs.filter', folder.node, {});
    }
  });

  it('cancels from the palette: the project, then one of its recent pipelines that can be canceled', async () => {
    const offered: (readonly string[])[] = [];
    const answering = api.messages.answerPicks((labels) => {
      offered.push(labels);
      // This suite's account (by its server), the project (its row reads "Web"), then the first pipeline.
      if (labels.some((each) => /^#\d+$/.test(each))) return 0;
      const ours = labels.findIndex((each) => each.includes(new URL(forge.url).host));
      if (ours >= 0) return ours;
      const project = labels.findIndex((each) => /(^|\s)Web$/.test(each));
      return project >= 0 ? project : 0;
    });
    try {
      forge.clearRequests();
      await vscode.commands.executeCommand('forge.pipeline.cancel');
      const pipelines = offered.at(-1) ?? [];
      const ids = pipelines.map((each) => Number(/#(\d+)/.exec(each)?.[1]));
      assert.ok(ids.length > 0, JSON.stringify(offered));
      // Only pipelines that could be canceled were offered (their status as the list gave it).
      const listed = forge.requests.find((request) => request.path === pipelinesPath());
      assert.ok(
        listed,
        `the recent pipelines were read: ${JSON.stringify({ offered, requests: forge.requests.map((r) => `${r.method} ${r.path}`) })}`,
      );
      const [first] = ids;
      assert.ok(
        forge.requests.some(
          (request) => request.method === 'POST' && request.path === `${pipelinesPath()}/${first}/cancel`,
        ),
        JSON.stringify(offered),
      );
    } finally {
      answering.dispose();
    }
  });
});
