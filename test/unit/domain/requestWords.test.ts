// Every word a failed request is told in: each resource and action segment, each method.
import assert from 'node:assert/strict';
import { requestInWords } from '../../../src/domain/requestWords';

const RESOURCES: [string, string][] = [
  ['projects', 'the project'],
  ['branches', 'the branch'],
  ['tags', 'the tag'],
  ['merge_requests', 'the merge request'],
  ['notes', 'the comment'],
  ['discussions', 'the thread'],
  ['draft_notes', 'the pending comment'],
  ['award_emoji', 'the reaction'],
  ['jobs', 'the job'],
  ['trace', 'the trace'],
  ['artifacts', 'the artifacts'],
  ['pipelines', 'the pipeline'],
  ['pipeline', 'the pipeline'],
  ['boards', 'the board'],
  ['lists', 'the board list'],
  ['triggers', 'the pipeline trigger'],
  ['hooks', 'the system hook'],
  ['broadcast_messages', 'the broadcast message'],
  ['todos', 'the todo'],
  ['keys', 'the SSH key'],
  ['members', 'the members'],
  ['approvals', 'the approvals'],
  ['versions', 'the versions'],
  ['diffs', 'the changes'],
  ['changes', 'the changes'],
  ['commits', 'the commits'],
  ['files', 'the file'],
  ['templates', 'the template'],
  ['users', 'the user'],
  ['user', 'your account'],
  ['events', 'the activity'],
  ['issues', 'the issue'],
  ['labels', 'the labels'],
  ['milestones', 'the milestones'],
];

/** Action segments and their words; `{0}` is the resource acted on. */
const ACTIONS: [string, string][] = [
  ['retry', 'retrying {0}'],
  ['cancel', 'cancelling {0}'],
  ['play', 'running {0}'],
  ['erase', 'erasing {0}'],
  ['merge', 'merging {0}'],
  ['approve', 'approving {0}'],
  ['unapprove', 'taking back the approval of {0}'],
  ['rebase', 'rebasing {0}'],
  ['subscribe', 'subscribing to {0}'],
  ['unsubscribe', 'unsubscribing from {0}'],
  ['mark_as_done', 'marking {0} as done'],
  ['apply', 'applying the suggestion'],
  ['bulk_publish', 'submitting the review'],
  ['publish', 'publishing the pending comment'],
  ['todo', 'adding {0} to your todos'],
  ['star', 'starring {0}'],
  ['unstar', 'unstarring {0}'],
  ['fork', 'forking {0}'],
  ['lint', 'checking the CI configuration'],
];

const fill = (words: string, resource: string): string => words.replace('{0}', resource);

describe('requestInWords (what a failed request was doing)', () => {
  it('names every resource, as the last one of the route, by the method', () => {
    for (const [segment, words] of RESOURCES) {
      const path = `/api/v4/projects/7/${segment}`;
      assert.equal(requestInWords('GET', path), `reading ${words}`, segment);
      assert.equal(requestInWords('HEAD', path), `reading ${words}`, segment);
      assert.equal(requestInWords('POST', path), `creating ${words}`, segment);
      assert.equal(requestInWords('PUT', path), `changing ${words}`, segment);
      assert.equal(requestInWords('PATCH', path), `changing ${words}`, segment);
      assert.equal(requestInWords('DELETE', path), `deleting ${words}`, segment);
    }
  });

  it('names every action on the resource before it, or on "it"', () => {
    for (const [segment, words] of ACTIONS) {
      assert.equal(
        requestInWords('POST', `/api/v4/projects/7/jobs/9/${segment}`),
        fill(words, 'the job'),
        segment,
      );
      assert.equal(
        requestInWords('PUT', `/api/v4/projects/7/${segment}`),
        fill(words, 'the project'),
        segment,
      );
      assert.equal(requestInWords('DELETE', `/${segment}`), fill(words, 'it'), segment);
      // Reading is not acting: the resource is read.
      assert.equal(requestInWords('GET', `/api/v4/projects/7/jobs/9/${segment}`), 'reading the job', segment);
      assert.equal(
        requestInWords('HEAD', `/api/v4/projects/7/jobs/9/${segment}`),
        'reading the job',
        segment,
      );
    }
  });

  it('reads the path only: no query, no empty, api or v4 segments, no ids, decoded words', () => {
    assert.equal(requestInWords('GET', '/api/v4/projects?search=jobs'), 'reading the project');
    assert.equal(requestInWords('GET', 'api/v4//projects//'), 'reading the project');
    assert.equal(
      requestInWords('POST', '/api/v4/projects/group%2Fweb/merge_requests/3/merge'),
      'merging the merge request',
    );
    assert.equal(requestInWords('GET', '/api/v4/projects/%6Aobs'), 'reading the job');
    assert.equal(requestInWords('GET', '/api/v4/Projects/1/Jobs'), 'the request', 'words are lower case');
    assert.equal(requestInWords('GET', '/api/v4/api/v4'), 'the request');
    assert.equal(requestInWords('GET', '/api/v4/unknown/1'), 'the request');
    assert.equal(requestInWords('POST', ''), 'the request');
    assert.equal(requestInWords('GET', '/api/v4/constructor'), 'the request', 'own entries only');
    assert.equal(requestInWords('POST', '/api/v4/projects/1/toString'), 'creating the project');
  });
});
