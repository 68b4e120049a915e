import assert from 'node:assert/strict';
import {
  BadRequestError,
  ClientError,
  ConflictError,
  HttpError,
  NotFoundError,
  ServerError,
  UnauthorizedError,
  httpErrorFor,
  readServerMessage,
} from '../../../src/api/http';

describe('readServerMessage', () => {
  it('reads {message: string}', () => {
    assert.deepEqual(readServerMessage('{"message":"404 Branch Not Found"}', 404), {
      text: '404 Branch Not Found',
    });
  });

  it('reads field errors {message: {field: [..]}} including embedded entities', () => {
    const message = readServerMessage(
      '{"message":{"name":["has already been taken","is too short"],"namespace":{"path":["is reserved"]}}}',
      400,
    );
    assert.deepEqual(message.fieldErrors, {
      name: ['has already been taken', 'is too short'],
      'namespace.path': ['is reserved'],
    });
    assert.equal(message.text, 'name has already been taken, is too short; namespace.path is reserved');
  });

  it('reads {error: string}', () => {
    assert.deepEqual(readServerMessage('{"error":"title is missing"}', 400), { text: 'title is missing' });
  });

  it('reads plain text, first line only', () => {
    assert.deepEqual(readServerMessage('Retry later\nmore detail', 429), { text: 'Retry later' });
  });

  it('falls back to the status for an empty body or an unknown shape', () => {
    assert.equal(readServerMessage('', 502, 'Bad Gateway').text, 'Bad Gateway');
    assert.equal(readServerMessage('[1,2]', 500).text, 'HTTP 500');
    assert.equal(readServerMessage('{"foo":1}', 500).text, 'HTTP 500');
  });
});

describe('httpErrorFor', () => {
  it('picks one class per status and keeps method, path and message', () => {
    const error = httpErrorFor('PUT', '/projects/1/merge_requests/2/merge', 409, {
      text: 'SHA does not match',
    });
    assert.ok(error instanceof ConflictError);
    assert.ok(error instanceof HttpError);
    assert.equal(error.method, 'PUT');
    assert.equal(error.path, '/projects/1/merge_requests/2/merge');
    assert.equal(error.status, 409);
    assert.equal(error.serverMessage, 'SHA does not match');
    assert.match(
      error.message,
      /PUT \/projects\/1\/merge_requests\/2\/merge failed with 409: SHA does not match/,
    );
  });

  it('maps the other statuses to their classes', () => {
    assert.ok(httpErrorFor('GET', '/x', 400, { text: '' }) instanceof BadRequestError);
    assert.ok(httpErrorFor('GET', '/x', 401, { text: '' }) instanceof UnauthorizedError);
    assert.ok(httpErrorFor('GET', '/x', 404, { text: '' }) instanceof NotFoundError);
    assert.ok(httpErrorFor('GET', '/x', 418, { text: '' }) instanceof ClientError);
    assert.ok(httpErrorFor('GET', '/x', 503, { text: '' }) instanceof ServerError);
  });
});
