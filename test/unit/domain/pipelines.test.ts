import assert from 'node:assert/strict';
import {
  orderPipelineJobs,
  pipelineSourceWord,
  pipelineStages,
  pipelineWebUrl,
} from '../../../src/domain/pipelines';

function job(id: number, name: string, stage: string): { id: number; name: string; stage: string } {
  return { id, name, stage };
}

describe('orderPipelineJobs', () => {
  it('lists jobs by stage in the order the pipeline created them, by name within a stage', () => {
    // As the jobs list answers: newest first, so deploy before build.
    const listed = [
      job(15, 'deploy-production', 'deploy'),
      job(14, 'test 2/2', 'test'),
      job(13, 'test 10/10', 'test'),
      job(12, 'lint', 'test'),
      job(11, 'build', 'build'),
    ];
    assert.deepEqual(
      orderPipelineJobs(listed).map(({ job: entry }) => `${entry.stage}:${entry.name}`),
      ['build:build', 'test:lint', 'test:test 2/2', 'test:test 10/10', 'deploy:deploy-production'],
    );
  });

  it('folds the earlier attempts of a job run again under its newest attempt', () => {
    const listed = [
      job(21, 'rspec', 'test'),
      job(20, 'deploy', 'deploy'),
      job(17, 'rspec', 'test'),
      job(16, 'rspec', 'test'),
      job(15, 'build', 'build'),
    ];
    const entries = orderPipelineJobs(listed);
    assert.deepEqual(
      entries.map((entry) => [entry.job.id, entry.retried.map((attempt) => attempt.id)]),
      [
        [15, []],
        [21, [17, 16]],
        [20, []],
      ],
    );
  });

  it('keeps jobs of the same name in different stages apart, and copes with no stage', () => {
    const entries = orderPipelineJobs([
      { id: 3, name: 'check', stage: null },
      job(2, 'check', 'post'),
      job(1, 'check', 'pre'),
    ]);
    assert.deepEqual(
      entries.map((entry) => entry.job.id),
      [1, 2, 3],
    );
  });
});

describe('pipelineStages', () => {
  it('groups the ordered jobs into stages in the pipeline order, attempts folded, no stage as ""', () => {
    const listed = [
      { id: 9, name: 'deploy', stage: 'deploy' },
      { id: 8, name: 'rspec', stage: 'test' },
      { id: 7, name: 'lint', stage: 'test' },
      { id: 6, name: 'rspec', stage: 'test' },
      { id: 5, name: 'compile', stage: 'build' },
      { id: 4, name: 'odd', stage: null },
    ];
    assert.deepEqual(
      pipelineStages(listed).map((stage) => [
        stage.name,
        stage.entries.map((entry) => `${entry.job.name}#${entry.job.id}+${entry.retried.length}`),
      ]),
      [
        ['', ['odd#4+0']],
        ['build', ['compile#5+0']],
        ['test', ['lint#7+0', 'rspec#8+1']],
        ['deploy', ['deploy#9+0']],
      ],
    );
    assert.deepEqual(pipelineStages([]), []);
  });
});

describe('pipelineWebUrl and pipelineSourceWord', () => {
  it('takes the address the server gave, else builds it from the project page, else none', () => {
    assert.equal(pipelineWebUrl(4, 'https://given/p/4', 'https://forge/g/p'), 'https://given/p/4');
    assert.equal(pipelineWebUrl(4, null, 'https://forge/g/p'), 'https://forge/g/p/-/pipelines/4');
    assert.equal(pipelineWebUrl(4, '', 'https://forge/g/p'), 'https://forge/g/p/-/pipelines/4');
    assert.equal(pipelineWebUrl(undefined, null, 'https://forge/g/p'), undefined);
    assert.equal(pipelineWebUrl(4, undefined, null), undefined);
    assert.equal(pipelineWebUrl(4, undefined, ''), undefined);
  });

  it('says where a pipeline came from in words, nothing for a push, the value itself when unknown', () => {
    const words: [string | null | undefined, string | undefined][] = [
      [undefined, undefined],
      [null, undefined],
      ['push', undefined],
      ['web', 'run by hand'],
      ['api', 'run through the API'],
      ['schedule', 'scheduled'],
      ['merge_request_event', 'merge request'],
      ['parent_pipeline', 'child pipeline'],
      ['pipeline', 'downstream'],
      ['trigger', 'triggered'],
      ['external', 'external'],
      ['', ''],
    ];
    for (const [source, expected] of words)
      assert.equal(pipelineSourceWord(source), expected, String(source));
  });

  it('orders the jobs of one stage by name as numbers read, then by id', () => {
    const ordered = orderPipelineJobs([
      job(3, 'test 10', 'test'),
      job(2, 'test 9', 'test'),
      job(1, 'test 10', 'other'),
    ]);
    assert.deepEqual(
      ordered.map((entry) => `${entry.job.stage}:${entry.job.name}:${entry.job.id}`),
      ['other:test 10:1', 'test:test 9:2', 'test:test 10:3'],
    );
  });
});
