// Where the pipeline graph's pieces go (the page and the host's first paint both draw from these),
// and the edges of its live updates: a downstream pipeline that changed, a job without a stage.
import assert from 'node:assert/strict';
import {
  GRAPH_LAYOUT,
  columnLeft,
  edgePath,
  graphChanges,
  graphSize,
  nodeKey,
  pipelineGraph,
  rowTop,
} from '../../../src/domain/pipelineGraph';

describe('the pipeline graph layout', () => {
  it('places columns and rows by the layout, in pixels', () => {
    assert.deepEqual(GRAPH_LAYOUT, {
      nodeWidth: 200,
      nodeHeight: 32,
      rowGap: 10,
      columnGap: 56,
      titleHeight: 30,
      padding: 16,
    });
    assert.deepEqual([columnLeft(0), columnLeft(1), columnLeft(3)], [16, 272, 784]);
    assert.deepEqual([rowTop(0), rowTop(1), rowTop(4)], [46, 88, 214]);
  });

  it('draws an edge forwards between columns, and around the node within a column or backwards', () => {
    assert.equal(
      edgePath({ column: 0, row: 0 }, { column: 1, row: 2 }),
      'M 216 62 C 244 62, 244 146, 272 146',
    );
    assert.equal(
      edgePath({ column: 1, row: 1 }, { column: 1, row: 0 }),
      'M 472 104 C 600 104, 144 62, 272 62',
    );
    assert.equal(edgePath({ column: 2, row: 0 }, { column: 0, row: 0 }), 'M 728 62 C 856 62, -112 62, 16 62');
  });

  it('is as wide as its columns (the downstream one too) and as tall as its longest column', () => {
    const jobs = [
      { id: 1, name: 'a', stage: 'build', status: 'success' },
      { id: 2, name: 'b', stage: 'build', status: 'success' },
      { id: 3, name: 'c', stage: 'build', status: 'success' },
      { id: 4, name: 'd', stage: 'test', status: 'success' },
    ];
    const plain = pipelineGraph(jobs, undefined, [], 7);
    assert.deepEqual(graphSize(plain), { width: 16 + 2 * 256 - 56 + 16, height: 46 + 3 * 42 - 10 + 16 });
    const downstream = [1, 2, 3, 4].map((id) => ({
      triggeredBy: `t${id}`,
      pipeline: { id: 100 + id, status: 'running', project_id: 7 },
    }));
    const withDownstream = pipelineGraph(jobs, undefined, downstream, 7);
    assert.deepEqual(graphSize(withDownstream), {
      width: 16 + 3 * 256 - 56 + 16,
      height: 46 + 4 * 42 - 10 + 16,
    });
    assert.deepEqual(graphSize(pipelineGraph([], undefined, [], 7)), {
      width: 16 - 56 + 16,
      height: 46 - 10 + 16,
    });
  });

  it('keys a job without a stage by its name alone, and says which downstream pipelines changed', () => {
    assert.equal(nodeKey({ name: 'x', stage: null }), '\u0000x');
    assert.equal(nodeKey({ name: 'x' }), '\u0000x');
    const jobs = [{ id: 1, name: 'a', stage: 'build', status: 'success' }];
    const ds = (status: string) => [
      { triggeredBy: 'a', pipeline: { id: 20, status: 'running', project_id: 7 } },
      { triggeredBy: 'a', pipeline: { id: 21, status, project_id: 7 } },
    ];
    const changes = graphChanges(
      pipelineGraph(jobs, undefined, ds('running'), 7),
      pipelineGraph(jobs, undefined, ds('failed'), 7),
    );
    assert.deepEqual(
      changes?.downstream.map((each) => [each.pipelineId, each.status]),
      [[21, 'failed']],
    );
    assert.deepEqual(changes?.nodes, []);
    assert.equal(
      graphChanges(
        pipelineGraph(jobs, undefined, ds('running'), 7),
        pipelineGraph(jobs, undefined, ds('running').slice(0, 1), 7),
      ),
      undefined,
      'a downstream pipeline gone changes the shape',
    );
  });
});
