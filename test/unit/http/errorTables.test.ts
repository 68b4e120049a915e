// The error classes and their sentences as tables: every status with its class and name, and each
// message a person reads, where it is made (not only through a reliability suite).
import assert from 'node:assert/strict';
import {
  BadRequestError,
  ClientError,
  ConflictError,
  ForbiddenError,
  MalformedReplyError,
  MethodNotAllowedError,
  NotAcceptableError,
  NotFoundError,
  RateLimitedError,
  RedirectError,
  ReplyTooLargeError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
  UncertainWriteError,
  UnprocessableEntityError,
  httpErrorFor,
  readServerMessage,
} from '../../../src/api/http';

const BY_STATUS: [number, abstract new (...args: never[]) => Error, string][] = [
  [400, BadRequestError, 'BadRequestError'],
  [401, UnauthorizedError, 'UnauthorizedError'],
  [403, ForbiddenError, 'ForbiddenError'],
  [404, NotFoundError, 'NotFoundError'],
  [405, MethodNotAllowedError, 'MethodNotAllowedError'],
  [406, NotAcceptableError, 'NotAcceptableError'],
  [409, ConflictError, 'ConflictError'],
  [422, UnprocessableEntityError, 'UnprocessableEntityError'],
  [429, RateLimitedError, 'RateLimitedError'],
  [418, ClientError, 'ClientError'],
  [499, ClientError, 'ClientError'],
  [500, ServerError, 'ServerError'],
  [502, ServerError, 'ServerError'],
  [503, ServerError, 'ServerError'],
];

describe('HTTP errors as tables', () => {
  for (const [status, errorClass, name] of BY_STATUS) {
    it(`${status} is a ${name}, named so in logs`, () => {
      const error = httpErrorFor('GET', '/x', status, { text: 'why' });
      assert.ok(error instanceof errorClass);
      assert.equal(error.name, name);
      assert.equal(error.message, `GET /x failed with ${status}: why`);
    });
  }

  it('says how many times a request was tried, only when more than once', () => {
    assert.equal(
      httpErrorFor('GET', '/x', 503, { text: 'busy' }, undefined, 3).message,
      'GET /x failed with 503: busy (tried 3 times)',
    );
    assert.equal(
      httpErrorFor('GET', '/x', 503, { text: 'busy' }, undefined, 1).message,
      'GET /x failed with 503: busy',
    );
  });

  it('says a timeout in milliseconds below a second and in seconds from one', () => {
    assert.equal(new TimeoutError('GET', '/x', 250.4).message, 'GET /x timed out after 250 ms');
    assert.equal(new TimeoutError('GET', '/x', 999).message, 'GET /x timed out after 999 ms');
    assert.equal(new TimeoutError('GET', '/x', 1000).message, 'GET /x timed out after 1 s');
    assert.equal(new TimeoutError('GET', '/x', 30_000).message, 'GET /x timed out after 30 s');
    assert.match(new UncertainWriteError('POST', '/x', 'TIMEOUT', 2000).message, /no answer within 2 s/);
    assert.match(
      new UncertainWriteError('POST', '/x', 'ECONNRESET').message,
      /connection broke \(ECONNRESET\)/,
    );
  });

  it('tells a write that succeeded with a bad body not to be sent again, only for a write below 300', () => {
    const accepted = /The server did accept the request/;
    assert.match(
      new MalformedReplyError('POST', '/x', 201, 'cut-off', 10, 'application/json').message,
      accepted,
    );
    assert.match(new MalformedReplyError('PUT', '/x', 299, 'html', 10, 'text/html').message, accepted);
    assert.doesNotMatch(
      new MalformedReplyError('POST', '/x', 300, 'html', 10, 'text/html').message,
      accepted,
    );
    assert.doesNotMatch(
      new MalformedReplyError('GET', '/x', 200, 'not-json', 10, 'text/plain').message,
      accepted,
    );
    assert.match(
      new MalformedReplyError('GET', '/x', 200, 'not-json', 12, undefined).message,
      /not valid JSON \(no content type, 12 bytes\)/,
    );
  });

  it('says a reply size in whole megabytes from 10 MB and to a tenth below', () => {
    const MB = 1024 * 1024;
    assert.match(
      new ReplyTooLargeError('GET', '/x', 50 * MB, 'JSON').message,
      /the 50 MB limit for JSON replies; reading stopped/,
    );
    assert.match(new ReplyTooLargeError('GET', '/x', 10 * MB, 'JSON').message, /the 10 MB limit/);
    assert.match(
      new ReplyTooLargeError('GET', '/x', 2.5 * MB, 'text', 9.96 * MB).message,
      /2\.5 MB limit for text replies \(the server announced 10 MB\)/,
    );
    assert.match(new ReplyTooLargeError('GET', '/x', 1.04 * MB, 'text').message, /the 1 MB limit/);
  });

  it('names a redirect target without its query (tokens live there), and each reason in its words', () => {
    const write = new RedirectError('POST', '/x', 302, 'write', 'https://other.example/login?token=secret');
    assert.match(write.message, / to https:\/\/other\.example\/login \(HTTP 302\)/);
    assert.doesNotMatch(write.message, /secret/);
    assert.match(
      new RedirectError('GET', '/x', 301, 'too-many', '/y').message,
      /too many redirects \(the server kept redirecting to \/y\)/,
    );
    assert.equal(
      new RedirectError('GET', '/x', 302, 'no-location', '').message,
      'GET /x: the server redirected (HTTP 302) without saying where',
    );
  });

  it('reads lists of messages, numbers and booleans as text, and elides what is nested', () => {
    assert.equal(readServerMessage('{"message":["a",2,true,null,{"x":1}]}', 400).text, 'a; 2; true; ; …');
    assert.equal(
      readServerMessage('{"error":"invalid_token","error_description":"expired"}', 401).text,
      'invalid_token: expired',
    );
    assert.equal(readServerMessage('{"message":{}}', 422, 'Unprocessable').text, 'Unprocessable');
    assert.equal(readServerMessage('[1,2]', 500, '').text, 'HTTP 500');
    assert.equal(readServerMessage('"plain"', 500).text, 'plain');
    assert.equal(readServerMessage(`${'x'.repeat(400)}\nsecond`, 500).text, `${'x'.repeat(300)}…`);
  });

  it('says an HTML error page by its title, else its first heading, else its status', () => {
    assert.equal(
      readServerMessage('<html><title> Bad\n gateway </title></html>', 502).text,
      'Bad gateway (an HTML error page)',
    );
    assert.equal(readServerMessage('<!DOCTYPE html><h1>Down</h1>', 503).text, 'Down (an HTML error page)');
    assert.equal(
      readServerMessage('<html><body></body></html>', 504, 'Gateway Timeout').text,
      'Gateway Timeout (an HTML error page)',
    );
    assert.equal(readServerMessage('<html></html>', 504).text, 'HTTP 504 (an HTML error page)');
  });
});
