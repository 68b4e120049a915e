import assert from 'node:assert/strict';
import {
  MalformedReplyError,
  NetworkError,
  ReplyTooLargeError,
  SchemaMismatchError,
  ServerError,
  UncertainWriteError,
} from '../../../src/api/http';
import { draftKeptMessage, describeError, mayHaveActed } from '../../../src/platform/commands/errorMessages';

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
