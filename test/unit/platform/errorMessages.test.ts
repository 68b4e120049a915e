import assert from 'node:assert/strict';
import {
  CrossOriginError,
  MalformedReplyError,
  NetworkError,
  ReplyTooLargeError,
  RunawayListError,
  SchemaMismatchError,
  ServerError,
  TimeoutError,
  UncertainWriteError,
  httpErrorFor,
} from '../../../src/api/http';
import { draftKeptMessage, describeError, mayHaveActed } from '../../../src/platform/commands/errorMessages';
import { requestInWords } from '../../../src/domain/requestWords';

const where = {
  kept: 'Your comment was kept as a draft',
  where: '!1',
  resend: 'run "Add Comment" on !1 again',
};

describe('describeError and draft messages', () => {
  it('says an uncertain write may have happened and never offers to resend', () => {
    const error = new UncertainWriteError('POST', '/projects/1/merge_requests/1/notes', 'ECONNRESET');
    assert.match(describeError(error), /may have done it; check before trying again\.$/);
    const message = draftKeptMessage(error, where);
    assert.match(message, /kept as a draft; look at !1 before sending it/);
    assert.doesNotMatch(message, /Add Comment/);
  });

  it('counts a write the server accepted with a reply that could not be read as one that may have acted', () => {
    const draftNotes = 'POST /projects/:id/merge_requests/:merge_request_iid/draft_notes';
    assert.equal(
      mayHaveActed(new SchemaMismatchError(draftNotes, 'position.base_sha', 'should be string')),
      true,
    );
    assert.equal(
      mayHaveActed(new MalformedReplyError('POST', '/projects/1/x', 201, 'cut-off', 10, undefined)),
      true,
    );
    assert.equal(
      mayHaveActed(new MalformedReplyError('GET', '/projects', 200, 'html', 10, 'text/html')),
      false,
    );
    assert.equal(mayHaveActed(new SchemaMismatchError('GET /projects', 'id', 'should be number')), false);
    assert.equal(mayHaveActed(new ServerError('POST', '/x', 500, 'boom')), false);
    const message = draftKeptMessage(new SchemaMismatchError(draftNotes, 'id', 'should be number'), where);
    assert.match(message, /look at !1 before sending it/);
  });

  it('offers to resend a write that surely failed', () => {
    const error = new ServerError('POST', '/x', 500, 'boom');
    assert.match(draftKeptMessage(error, where), /run "Add Comment" on !1 again to send it\.$/);
  });

  it('names malformed and oversized replies, and the CA setting for untrusted certificates', () => {
    assert.match(
      describeError(new MalformedReplyError('GET', '/projects', 200, 'html', 10, 'text/html')),
      /HTML page.*Check the server address/,
    );
    assert.match(
      describeError(new ReplyTooLargeError('GET', '/projects', 50 * 1024 * 1024, 'JSON')),
      /50 MB/,
    );
    const tls = new NetworkError('GET', '/todos', 'CERT', "the server's certificate is not trusted");
    assert.match(describeError(tls), /Configure Account Network Settings.*CA file/);
  });
});

describe('errors in words', () => {
  const errors: [string, Error][] = [
    ['400', httpErrorFor('POST', '/projects/1/repository/branches', 400, { text: 'Branch already exists' })],
    ['403', httpErrorFor('DELETE', '/projects/1/repository/branches/main', 403, { text: '403 Forbidden' })],
    ['404', httpErrorFor('GET', '/projects/1/jobs/7/trace', 404, { text: '404 Not found' })],
    ['405', httpErrorFor('PUT', '/projects/1/merge_requests/4/merge', 405, { text: 'Method Not Allowed' })],
    [
      '409',
      httpErrorFor('POST', '/projects/1/merge_requests/4/approve', 409, {
        text: 'SHA does not match HEAD of source branch',
      }),
    ],
    ['422', httpErrorFor('POST', '/projects/1/triggers', 422, { text: 'description is missing' })],
    ['429', httpErrorFor('GET', '/projects', 429, { text: 'Retry later' }, 3)],
    [
      '500',
      httpErrorFor('POST', '/projects/1/jobs/7/retry', 500, { text: 'Internal Server Error' }, undefined, 3),
    ],
    [
      'network',
      new NetworkError(
        'GET',
        '/projects/1/merge_requests',
        'ECONNREFUSED',
        'connect ECONNREFUSED 127.0.0.1:9',
      ),
    ],
    ['timeout', new TimeoutError('GET', '/projects/1/pipelines', 30_000)],
    ['uncertain', new UncertainWriteError('POST', '/projects/1/merge_requests/4/notes', 'ECONNRESET')],
    ['html', new MalformedReplyError('GET', '/projects', 200, 'html', 10, 'text/html')],
    ['too large', new ReplyTooLargeError('GET', '/projects/1/jobs/7/trace', 50 * 1024 * 1024, 'text')],
    [
      'schema',
      new SchemaMismatchError(
        'POST /projects/:id/merge_requests/:merge_request_iid/draft_notes',
        'position.base_sha',
        'should be string',
      ),
    ],
    ['cross-origin', new CrossOriginError('GET /projects/:id/jobs', 'https://elsewhere.example')],
    [
      'runaway',
      new RunawayListError('GET /projects/:id/branches', 'repeated-page', 'page 3 repeated page 2'),
    ],
  ];

  for (const [what, error] of errors) {
    it(`says a ${what} failure without methods, routes or field names`, () => {
      const said = describeError(error);
      assert.doesNotMatch(
        said,
        /\b(GET|POST|PUT|PATCH|DELETE)\b|\/projects|:id|_iid|failed with|base_sha/,
        said,
      );
    });
  }

  it('says what happened to what, and the server’s own words', () => {
    assert.equal(
      describeError(errors[0]![1]),
      'The server refused creating the branch: Branch already exists',
    );
    assert.match(describeError(errors[4]![1]), /^Approving the merge request failed: SHA does not match/);
    assert.match(
      describeError(errors[7]![1]),
      /^The server failed while retrying the job \(Internal Server Error\)\. Try again later/,
    );
    assert.match(describeError(errors[8]![1]), /^Reading the merge request could not reach the server/);
    assert.match(describeError(errors[13]![1]), /creating the pending comment in a form/);
  });
});

describe('requestInWords', () => {
  it('reads route segments that are names of an object’s own machinery as plain words', () => {
    assert.equal(
      requestInWords('DELETE', '/projects/1/repository/branches/constructor'),
      'deleting the branch',
    );
    assert.equal(requestInWords('POST', '/projects/1/jobs/7/constructor'), 'creating the job');
    assert.equal(requestInWords('GET', '/__proto__'), 'the request');
  });
});
