// Every error class named in logs as itself, and the sentences people read, as tables.
import assert from 'node:assert/strict';
import {
  CrossOriginError,
  ForgeError,
  HttpError,
  MalformedReplyError,
  TimeoutError,
  RedirectError,
  ReplyTooLargeError,
  RunawayListError,
  SchemaMismatchError,
  UncertainWriteError,
  readServerMessage,
} from '../../../src/api/http';

describe('error classes and their sentences', () => {
  it('each class carries its own name', () => {
    const table: [Error, string][] = [
      [new ForgeError('x'), 'ForgeError'],
      [new HttpError('GET', '/x', 418, 'why'), 'HttpError'],
      [new TimeoutError('GET', '/x', 1000), 'TimeoutError'],
      [new MalformedReplyError('GET', '/x', 200, 'html', 10, 'text/html'), 'MalformedReplyError'],
      [new UncertainWriteError('POST', '/x', 'ECONNRESET'), 'UncertainWriteError'],
      [new ReplyTooLargeError('GET', '/x', 1024, 'JSON'), 'ReplyTooLargeError'],
      [new SchemaMismatchError('GET /x', 'id', 'is missing'), 'SchemaMismatchError'],
      [new CrossOriginError('GET /x', 'https://elsewhere.example'), 'CrossOriginError'],
      [new RedirectError('GET', '/x', 302, 'too-many', '/y'), 'RedirectError'],
      [new RunawayListError('GET /x', 'cap', 'it never ended'), 'RunawayListError'],
    ];
    for (const [error, name] of table) assert.equal(error.name, name);
  });

  it('says how large a refused reply was, in MB, rounded as people read it', () => {
    const MB = 1024 * 1024;
    assert.equal(
      new ReplyTooLargeError('GET', '/x', 10 * MB, 'JSON', 12.4 * MB).message,
      'GET /x: the reply is larger than the 10 MB limit for JSON replies (the server announced 12 MB); it was not read. A reply this large is not a normal answer: check the server address, or narrow the request',
    );
    assert.match(
      new ReplyTooLargeError('GET', '/x', 2.55 * MB, 'text').message,
      /the 2\.6 MB limit for text replies; reading stopped at the limit\./,
    );
    assert.match(new ReplyTooLargeError('GET', '/x', 9.96 * MB, 'text').message, /the 10 MB limit/);
  });

  it('names the other site of a cross-origin link and where a redirect went, without its query', () => {
    assert.equal(
      new CrossOriginError('GET /projects/1/jobs', 'https://elsewhere.example').message,
      'GET /projects/1/jobs: the server pointed to another site (https://elsewhere.example); not followed, so your token stays with your server',
    );
    assert.equal(
      new RedirectError('GET', '/x', 302, 'too-many', 'https://a.example/y?private_token=z').message,
      'GET /x: too many redirects (the server kept redirecting to https://a.example/y)',
    );
    assert.equal(
      new RedirectError('GET', '/x', 302, 'too-many', '').message,
      'GET /x: too many redirects (the server kept redirecting)',
    );
    assert.equal(
      new RedirectError('GET', '/x', 301, 'no-location', '').message,
      'GET /x: the server redirected (HTTP 301) without saying where',
    );
  });

  it('reads the message of every body shape, falling back to the status text, then the status', () => {
    const table: [string, string, { text: string; fieldErrors?: Record<string, string[]> }][] = [
      ['', 'Bad Gateway', { text: 'Bad Gateway' }],
      ['   ', '', { text: 'HTTP 502' }],
      ['[1, 2]', 'Bad Gateway', { text: 'Bad Gateway' }],
      ['[1, 2]', '', { text: 'HTTP 502' }],
      ['null', '', { text: 'HTTP 502' }],
      ['42', 'Oops', { text: 'Oops' }],
      ['{"message": {}}', '', { text: 'HTTP 502', fieldErrors: {} }],
      ['{"message": {}}', 'Bad Gateway', { text: 'Bad Gateway', fieldErrors: {} }],
      ['{"message": ["a", 1, true, null, {"x": 1}]}', '', { text: 'a; 1; true; ; …' }],
      [
        '{"message": {"name": "taken", "project": {"path": ["bad"]}, "n": null, "k": 3}}',
        '',
        {
          text: 'name taken; project.path bad',
          fieldErrors: { name: ['taken'], 'project.path': ['bad'] },
        },
      ],
      ['{"other": 1}', 'Teapot', { text: 'Teapot' }],
      ['{"other": 1}', '', { text: 'HTTP 502' }],
    ];
    for (const [body, statusText, expected] of table) {
      assert.deepEqual(readServerMessage(body, 502, statusText), expected, `${body} / ${statusText}`);
    }
  });

  it('reads field errors eight levels deep and no deeper', () => {
    const nest = (depth: number): unknown => (depth === 0 ? ['deep'] : { a: nest(depth - 1) });
    const eight = readServerMessage(JSON.stringify({ message: nest(9) }), 400);
    assert.deepEqual(eight.fieldErrors, { 'a.a.a.a.a.a.a.a.a': ['deep'] });
    const nine = readServerMessage(JSON.stringify({ message: nest(10) }), 400);
    assert.deepEqual(nine.fieldErrors, {});
  });

  it('tells that a write was accepted when its reply did not parse, and never for a read', () => {
    assert.match(
      new MalformedReplyError('POST', '/x', 201, 'not-json', 5, 'text/plain').message,
      /did accept the request/,
    );
    assert.doesNotMatch(
      new MalformedReplyError('GET', '/x', 200, 'not-json', 5, 'text/plain').message,
      /did accept/,
    );
    assert.doesNotMatch(
      new MalformedReplyError('HEAD', '/x', 200, 'not-json', 5, 'text/plain').message,
      /did accept/,
    );
    assert.doesNotMatch(
      new MalformedReplyError('POST', '/x', 302, 'not-json', 5, 'text/plain').message,
      /did accept/,
    );
  });
});
