import assert from 'node:assert/strict';
import { jobNeedsFromCiFile } from '../../../src/domain/ciNeeds';
import {
  type GraphJobSource,
  graphChanges,
  graphStatus,
  pipelineGraph,
} from '../../../src/domain/pipelineGraph';
import { pipelineGraphFirstPaint } from '../../../src/features/pipelines/panel/firstPaint';
import type { PipelineHeader } from '../../../src/features/pipelines/panel/protocol';

describe('needs read from a CI file', () => {
  const needsOf = (text: string): Map<string, string[]> => {
    const needs = jobNeedsFromCiFile(text);
    assert.ok(needs, 'the file reads');
    return needs;
  };

  it('reads needs as names and as objects, leaving out other projects and pipelines', () => {
    const needs = needsOf(
      [
        'stages: [build, test]',
        'variables: { A: 1 }',
        'build: { stage: build, script: make }',
        'lint: { stage: build, script: lint }',
        'test:',
        '  stage: test',
        '  needs: [build, { job: lint, artifacts: false }, { project: other/p, job: x, ref: main }, { pipeline: "$P", job: y }]',
        '  script: t',
        'quick: { stage: test, needs: [], script: q }',
        'slow: { stage: test, script: s }',
      ].join('\n'),
    );
    assert.deepEqual(needs.get('test'), ['build', 'lint']);
    assert.deepEqual(needs.get('quick'), [], 'needs: [] starts at once: known, and empty');
    assert.equal(needs.has('slow'), false, 'no needs: waits for the stages before');
    assert.equal(needs.has('stages'), false);
    assert.equal(needs.has('variables'), false);
  });

  it('follows extends to any depth (the last template wins) and YAML merges, and skips hidden jobs', () => {
    const needs = needsOf(
      [
        '.base: { needs: [build] }',
        '.other: { needs: [lint] }',
        '.middle: { extends: .base }',
        'anchor: &defaults',
        '  needs: [setup]',
        '  script: a',
        'a: { extends: .middle, script: a }',
        'b: { extends: [.base, .other], script: b }',
        'c: { extends: .base, needs: [own], script: c }',
        'd:',
        '  <<: *defaults',
        '  script: d',
        'e: { extends: .missing, script: e }',
      ].join('\n'),
    );
    assert.deepEqual(needs.get('a'), ['build']);
    assert.deepEqual(needs.get('b'), ['lint']);
    assert.deepEqual(needs.get('c'), ['own']);
    assert.deepEqual(needs.get('d'), ['setup']);
    assert.equal(needs.has('e'), false);
    assert.equal(needs.has('.base'), false);
  });

  it('knows no needs of YAML that does not read, or of a file that is not a mapping', () => {
    assert.equal(jobNeedsFromCiFile('build: [unclosed'), undefined);
    assert.equal(jobNeedsFromCiFile('- a list'), undefined);
    assert.equal(jobNeedsFromCiFile(''), undefined);
    assert.equal(jobNeedsFromCiFile('build: { script: make }')?.size, 0, 'a file without needs: none');
  });

  it('stops at a loop of extends', () => {
    const needs = needsOf('.a: { extends: .b }\n.b: { extends: .a }\njob: { extends: .a, script: x }');
    assert.equal(needs.has('job'), false);
  });
});

describe('the pipeline graph', () => {
  const job = (
    id: number,
    name: string,
    stage: string,
    status: string,
    extra: Partial<GraphJobSource> = {},
  ) => ({
    id,
    name,
    stage,
    status,
    ...extra,
  });
  const jobs = [
    job(1, 'build', 'build', 'success', {
      started_at: '2026-11-29T10:00:00Z',
      finished_at: '2026-11-29T10:01:05Z',
    }),
    job(2, 'lint', 'build', 'failed', { allow_failure: true }),
    job(3, 'test', 'test', 'failed'),
    job(5, 'test', 'test', 'running'),
    job(4, 'deploy', 'deploy', 'manual'),
  ];
  const needs = new Map([['test', ['build', 'missing']]]);

  it('puts stages in columns in pipeline order, jobs by name, the latest attempt of each', () => {
    const graph = pipelineGraph(jobs, needs, [], 7);
    assert.deepEqual(
      graph.stages.map((stage) => [stage.name, stage.status, stage.nodes.length]),
      [
        ['build', 'failed', 2],
        ['test', 'running', 1],
        ['deploy', 'manual', 1],
      ],
    );
    const test = graph.nodes.find((node) => node.name === 'test');
    assert.equal(test?.id, 5);
    assert.equal(test?.retried, 1);
    assert.equal(test?.column, 1);
    assert.equal(test?.action, 'cancel');
    const build = graph.nodes.find((node) => node.name === 'build');
    assert.equal(build?.duration.length !== 0, true);
    assert.equal(build?.action, 'retry');
    assert.equal(graph.nodes.find((node) => node.name === 'deploy')?.action, 'play');
    assert.equal(graph.nodes.find((node) => node.name === 'lint')?.allowFailure, true);
    assert.deepEqual(
      graph.nodes.map((node) => [node.name, node.column, node.row]),
      [
        ['build', 0, 0],
        ['lint', 0, 1],
        ['test', 1, 0],
        ['deploy', 2, 0],
      ],
    );
  });

  it('draws an edge for each need of a job in the pipeline, none for a need it does not have', () => {
    const graph = pipelineGraph(jobs, needs, [], 7);
    assert.deepEqual(graph.edges, [{ from: 'build\u0000build', to: 'test\u0000test' }]);
    assert.equal(graph.needsKnown, true);
    const unknown = pipelineGraph(jobs, undefined, [], 7);
    assert.deepEqual(unknown.edges, []);
    assert.equal(unknown.needsKnown, false);
  });

  it('lists downstream pipelines, telling those of the same project from others', () => {
    const graph = pipelineGraph(
      jobs,
      needs,
      [
        { triggeredBy: 'docs', pipeline: { id: 20, status: 'running', ref: 'master', project_id: 7 } },
        { triggeredBy: 'deploy-infra', pipeline: { id: 30, status: 'success', project_id: 9 } },
        { triggeredBy: 'old', pipeline: { id: 31, status: 'success', project_id: null } },
      ],
      7,
    );
    assert.deepEqual(
      graph.downstream.map((each) => [
        each.pipelineId,
        each.triggeredBy,
        each.sameProject,
        each.row,
        each.status,
      ]),
      [
        [20, 'docs', true, 0, 'running'],
        [30, 'deploy-infra', false, 1, 'success'],
        [31, 'old', true, 2, 'success'],
      ],
    );
  });

  it('gives a live update as the nodes that changed, and no update when the shape changed', () => {
    const before = pipelineGraph(jobs, needs, [], 7, 0);
    const after = pipelineGraph(
      jobs.map((each) => (each.id === 5 ? { ...each, status: 'success' } : each)),
      needs,
      [],
      7,
      0,
    );
    const changes = graphChanges(before, after);
    assert.deepEqual(
      changes?.nodes.map((node) => [node.key, node.status, node.action]),
      [['test\u0000test', 'success', 'retry']],
    );
    assert.deepEqual(
      changes?.stages.map((stage) => [stage.name, stage.status]),
      [['test', 'success']],
    );
    // A retry: a new attempt with a new id changes the node in place.
    const retried = pipelineGraph([...jobs, job(6, 'lint', 'build', 'pending')], needs, [], 7, 0);
    assert.deepEqual(
      graphChanges(before, retried)?.nodes.map((node) => [node.key, node.id, node.retried]),
      [['build\u0000lint', 6, 1]],
    );
    assert.equal(
      graphChanges(before, pipelineGraph([...jobs, job(9, 'new', 'test', 'created')], needs, [], 7, 0)),
      undefined,
    );
    assert.equal(graphChanges(before, pipelineGraph(jobs, new Map(), [], 7, 0)), undefined);
    assert.deepEqual(graphChanges(before, before), { nodes: [], stages: [], downstream: [] });
  });

  it('draws a pipeline without jobs as no columns', () => {
    const graph = pipelineGraph([], undefined, [], 7);
    assert.deepEqual(graph.stages, []);
    assert.deepEqual(graph.nodes, []);
  });
});

describe("the pipeline graph's first paint", () => {
  const hostile = '<img src=x onerror="window.pwned=1">}</style><script>x()</script>';
  const graph = pipelineGraph(
    [
      { id: 1, name: hostile, stage: hostile, status: 'failed' },
      { id: 2, name: 'test', stage: 'test', status: '"><b>' },
    ],
    new Map([['test', [hostile]]]),
    [{ triggeredBy: hostile, pipeline: { id: 9, status: 'running', ref: hostile } }],
    7,
  );
  const header: PipelineHeader = {
    pipelineId: 5,
    projectPath: hostile,
    ref: hostile,
    details: hostile,
    actions: { retry: true, cancel: false, openInBrowser: true },
    live: false,
    ...graphStatus('failed'),
  };

  it('writes every server text as text, and nothing of it into the style', () => {
    const { markup, style } = pipelineGraphFirstPaint(header, graph);
    assert.ok(!markup.markup.includes('<img'), markup.markup);
    assert.ok(!markup.markup.includes('<script'), markup.markup);
    assert.ok(!markup.markup.includes('<b>'));
    assert.ok(markup.markup.includes('&#60;img src=x onerror=&#34;window.pwned=1&#34;&#62;'));
    assert.ok(!style.includes('pwned') && !style.includes('<'), style);
  });

  it('places the nodes and the edge where the page draws them', () => {
    const { markup, style } = pipelineGraphFirstPaint(header, graph);
    assert.equal(
      (markup.markup.match(/class="fp-node /g) ?? []).length,
      3,
      'two jobs and the downstream pipeline',
    );
    assert.equal((markup.markup.match(/<path d="/g) ?? []).length, 1);
    assert.match(style, /#fp-n1 \{ left: 272px; top: 46px; \}/);
  });
});
