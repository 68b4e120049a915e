// The pipeline graph (issue 37): stages as columns, jobs as nodes, `needs:` edges from the CI file at
// the pipeline's commit, child pipelines to the right; live updates of the nodes that changed; a
// node opens its trace, its button retries, runs or cancels the job; the header acts on the whole.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ForgeWorkbenchApi } from '../../src/extension';
import type { AccountInfo } from '../../src/platform/accounts';
import type { PipelineGraphHostMessage, PipelineGraphPanel } from '../../src/features/pipelines';
import { type FakeForge } from '../server';
import { deletePipeline } from '../server/pipelines';
import {
  childWhere,
  childrenOf,
  eventually,
  label,
  type Row,
  receivedRequest,
  useForgeSession,
  pipelineRowIn,
} from './support';

type Sent<T extends PipelineGraphHostMessage['type']> = Extract<PipelineGraphHostMessage, { type: T }>;

describe('pipeline graph', function () {
  this.timeout(30_000);
  const session = useForgeSession();
  let forge: FakeForge;
  let api: ForgeWorkbenchApi;
  let account: AccountInfo;

  before(() => {
    ({ forge, api, account } = session);
  });

  // A graph of a running pipeline reads it every few seconds: none may outlive its test and add
  // requests to another's. Nor may a page keep the focus: in the browser of the test VS Code, a
  // clipboard write while a webview has it is lost (a later suite's copy read the text before).
  afterEach(async () => {
    for (const panel of [...api.panels.pipelineGraph.values()]) panel.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // Closing the page that had the focus leaves the workbench's document without it.
    await vscode.commands.executeCommand('workbench.action.focusSideBar');
  });

  async function webProject(): Promise<Row> {
    const accountRow = (await childrenOf(api.projects)).find(
      ({ item }) => item.id === `account/${account.id}`,
    );
    return childWhere(api.projects, accountRow?.node, (item) => item.description === 'acme/web', 'acme/web');
  }

  async function pipelineRow(pipelineId: number): Promise<Row> {
    const project = (await webProject()).node;
    const jobs = await childWhere(api.projects, project, (item) => label(item) === 'Jobs', 'Jobs');
    await vscode.commands.executeCommand('forge.jobs.filter', jobs.node, {});
    return pipelineRowIn(api.projects, project, pipelineId);
  }

  /** A new pipeline on master from the seed's CI file: build, test (needs build), a manual deploy, the docs child. */
  async function newPipeline(): Promise<number> {
    const pipeline = await vscode.commands.executeCommand<{ id: number }>(
      'forge.pipeline.run',
      (await webProject()).node,
      {
        ref: 'master',
        variables: [],
      },
    );
    return pipeline.id;
  }

  function sent<T extends PipelineGraphHostMessage['type']>(panel: PipelineGraphPanel, type: T): Sent<T>[] {
    return panel.host.sent.filter((message): message is Sent<T> => message.type === type);
  }

  /** Opens the graph from the pipeline's row and waits for the page's first snapshot. */
  async function openGraph(
    pipelineId: number,
  ): Promise<{ panel: PipelineGraphPanel; snapshot: Sent<'snapshot'> }> {
    const row = await pipelineRow(pipelineId);
    assert.match(String(row.item.contextValue), /^pipeline whole\b/);
    const panel = await vscode.commands.executeCommand<PipelineGraphPanel>(
      'forge.pipeline.showGraph',
      row.node,
    );
    const snapshot = await eventually(() => {
      const [first] = sent(panel, 'snapshot');
      assert.ok(first, 'the page got its snapshot');
      return first;
    }, 15_000);
    return { panel, snapshot };
  }

  const jobId = (pipelineId: number, name: string): number => {
    const id = (forge.state.pipelines.get(pipelineId)?.jobIds ?? [])
      .filter((each) => forge.state.jobs.get(each)?.name === name && !forge.state.jobs.get(each)?.retried)
      .at(-1);
    assert.ok(id !== undefined, `job ${name} of #${pipelineId}`);
    return id;
  };

  it('draws the stages in order, the jobs, the needs from the CI file and the child pipeline', async () => {
    const pipelineId = await newPipeline();
    const { panel, snapshot } = await openGraph(pipelineId);
    const { graph, header } = snapshot;
    assert.equal(header.pipelineId, pipelineId);
    assert.equal(header.ref, 'master');
    assert.equal(header.live, true);
    assert.deepEqual(
      graph.stages.map((stage) => stage.name),
      ['build', 'test', 'deploy'],
    );
    assert.deepEqual(
      graph.nodes.map((node) => [node.name, node.column]),
      [
        ['build', 0],
        ['test', 1],
        ['deploy', 2],
      ],
    );
    assert.equal(graph.nodes.find((node) => node.name === 'deploy')?.action, 'play');
    assert.equal(graph.needsKnown, true);
    assert.deepEqual(graph.edges, [{ from: 'build\u0000build', to: 'test\u0000test' }]);
    assert.deepEqual(
      graph.downstream.map((each) => [each.triggeredBy, each.sameProject]),
      [['docs', true]],
    );
    assert.deepEqual(panel.host.violations, []);
    assert.deepEqual(panel.host.pageErrors, []);
  });

  it("sends a running pipeline's changes as an update of the nodes that changed, drawn in place", async () => {
    const pipelineId = await newPipeline();
    const { panel } = await openGraph(pipelineId);
    const snapshots = sent(panel, 'snapshot').length;
    forge.state.setJobStatus(jobId(pipelineId, 'build'), 'running');
    await panel.refresh();
    const update = sent(panel, 'update').at(-1);
    assert.ok(update, 'an update');
    assert.deepEqual(
      update.nodes.map((node) => [node.key, node.status, node.action]),
      [['build\u0000build', 'running', 'cancel']],
    );
    assert.deepEqual(
      update.stages.map((stage) => [stage.name, stage.status]),
      [['build', 'running']],
    );
    assert.equal(sent(panel, 'snapshot').length, snapshots, 'no redraw of the whole graph');
    // No job changed: no node is drawn again (the header's running time may have moved on).
    const messages = panel.host.sent.length;
    await panel.refresh();
    for (const message of panel.host.sent.slice(messages)) {
      assert.equal(message.type, 'update');
      if (message.type === 'update') assert.deepEqual([message.nodes, message.stages], [[], []]);
    }
  });

  it("opens a node's trace, and ignores a job the graph does not show and an invalid message", async () => {
    const pipelineId = await newPipeline();
    const { panel } = await openGraph(pipelineId);
    const build = jobId(pipelineId, 'build');
    await panel.host.receive({ type: 'openJob', jobId: build });
    const trace = [...api.panels.jobTrace.values()].find((each) =>
      each.host.panel.title.includes(`#${build}`),
    );
    assert.ok(trace, `the trace panel of job #${build}`);
    const opened = api.panels.jobTrace.size;
    await panel.host.receive({ type: 'openJob', jobId: forge.fixtures.jobs.failed });
    assert.equal(api.panels.jobTrace.size, opened, "another pipeline's job is not opened from this graph");
    const rejected = panel.host.rejectedMessages;
    await panel.host.receive({ type: 'openJob', jobId: 'build' });
    await panel.host.receive({ type: 'jobAction', jobId: build, action: 'erase' });
    assert.equal(panel.host.rejectedMessages, rejected + 2);
  });

  it('retries a failed job from its node: the node shows the new attempt in place', async () => {
    const pipelineId = await newPipeline();
    const build = jobId(pipelineId, 'build');
    forge.state.setJobStatus(build, 'failed');
    const { panel, snapshot } = await openGraph(pipelineId);
    assert.equal(snapshot.graph.nodes.find((node) => node.id === build)?.action, 'retry');
    forge.clearRequests();
    await panel.host.receive({ type: 'jobAction', jobId: build, action: 'retry' });
    receivedRequest(forge, 'POST', `/api/v4/projects/${forge.fixtures.projects.web}/jobs/${build}/retry`);
    const update = sent(panel, 'update').at(-1);
    const node = update?.nodes.find((each) => each.key === 'build\u0000build');
    assert.ok(node && node.id !== build, 'the node shows the new attempt');
    assert.equal(node.retried, 1);
    assert.deepEqual(
      sent(panel, 'busy')
        .slice(-2)
        .map((message) => message.busy),
      [true, false],
    );
  });

  it('runs the manual deploy from its node after asking, and cancels the pipeline from the header', async () => {
    const pipelineId = await newPipeline();
    const { panel } = await openGraph(pipelineId);
    const deploy = jobId(pipelineId, 'deploy');
    const questions: string[] = [];
    const answering = api.messages.answerModals((question) => {
      questions.push(question.text);
      return 'Run';
    });
    try {
      forge.clearRequests();
      await panel.host.receive({ type: 'jobAction', jobId: deploy, action: 'play' });
    } finally {
      answering.dispose();
    }
    assert.equal(questions.length, 1, 'a deployment asks first');
    receivedRequest(forge, 'POST', `/api/v4/projects/${forge.fixtures.projects.web}/jobs/${deploy}/play`);
    forge.clearRequests();
    await panel.host.receive({ type: 'pipelineAction', action: 'cancel' });
    receivedRequest(
      forge,
      'POST',
      `/api/v4/projects/${forge.fixtures.projects.web}/pipelines/${pipelineId}/cancel`,
    );
    const header = sent(panel, 'update').at(-1)?.header ?? sent(panel, 'snapshot').at(-1)?.header;
    assert.equal(header?.actions.cancel, false, 'nothing left to cancel');
  });

  it("opens a child pipeline's own graph from its node", async () => {
    const pipelineId = await newPipeline();
    const { panel, snapshot } = await openGraph(pipelineId);
    const child = snapshot.graph.downstream[0];
    assert.ok(child);
    await panel.host.receive({ type: 'openDownstream', pipelineId: child.pipelineId });
    const childPanel = [...api.panels.pipelineGraph.values()].find(
      (each) => each.target.pipelineId === child.pipelineId,
    );
    assert.ok(childPanel, 'the child pipeline has a graph of its own');
    const childSnapshot = await eventually(() => {
      const [first] = sent(childPanel, 'snapshot');
      assert.ok(first);
      return first;
    }, 15_000);
    assert.deepEqual(
      childSnapshot.graph.nodes.map((node) => node.name),
      ['pages'],
    );
  });

  it('draws the stages without edges when the CI file cannot be read, and says so', async () => {
    const pipelineId = await newPipeline();
    forge.onRequest((req, res) => {
      if (!/\/repository\/files\/[^/]+\/raw/.test(req.url ?? '')) return Promise.resolve(false);
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"message":"404 File Not Found"}');
      return Promise.resolve(true);
    });
    try {
      const { snapshot } = await openGraph(pipelineId);
      assert.equal(snapshot.graph.needsKnown, false);
      assert.deepEqual(snapshot.graph.edges, []);
      assert.equal(snapshot.graph.nodes.length, 3);
    } finally {
      forge.onRequest(undefined);
    }
  });

  it('says in the page that a pipeline deleted meanwhile cannot be read, even when the page loads after', async () => {
    const pipelineId = await newPipeline();
    const row = await pipelineRow(pipelineId);
    const pipeline = forge.state.pipelines.get(pipelineId);
    assert.ok(pipeline);
    deletePipeline(forge.state, pipeline);
    const panel = await vscode.commands.executeCommand<PipelineGraphPanel>(
      'forge.pipeline.showGraph',
      row.node,
    );
    const notice = await eventually(() => {
      const said = sent(panel, 'notice').find((message) => message.message.length > 0);
      assert.ok(said, 'a notice reached the page');
      return said;
    }, 15_000);
    assert.match(notice.message, new RegExp(`^Could not read pipeline #${pipelineId}: `));
    assert.equal(notice.level, 'error');
    assert.equal(sent(panel, 'snapshot').length, 0);
  });
});
