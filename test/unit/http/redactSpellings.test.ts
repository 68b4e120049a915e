// Secrets stay secret in every spelling a server may echo them, whatever their length, and a body
// nested deeper than anything can walk still gives the error its status means.
import assert from 'node:assert/strict';
import {
  HttpTransport,
  REDACTED,
  ServerError,
  UnprocessableEntityError,
  readServerMessage,
  redact,
} from '../../../src/api/http';
import { sendJson, startScriptedServer } from '../../support/scriptedServer';

const SECRETS = ['abc', 'x', 'pa/ss"wörd 1', 'glpat-Aa0/+=\\tok', 'emoji🔑key', 'tab\tand\nline'];

function spellings(secret: string): Record<string, string> {
  const json = JSON.stringify(secret).slice(1, -1);
  return {
    raw: secret,
    json,
    'json with \\/': json.replaceAll('/', '\\/'),
    'json, every character \\u': [...secret]
      .flatMap((char) => Array.from({ length: char.length }, (_, index) => char.charCodeAt(index)))
      .map((unit) => `\\u${unit.toString(16).padStart(4, '0')}`)
      .join(''),
    'json, \\u in upper case': [...secret]
      .flatMap((char) => Array.from({ length: char.length }, (_, index) => char.charCodeAt(index)))
      .map((unit) => `\\u${unit.toString(16).toUpperCase().padStart(4, '0')}`)
      .join(''),
    'percent-encoded': encodeURIComponent(secret),
    'percent-encoded, lower case': encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (escape) =>
      escape.toLowerCase(),
    ),
    'form-encoded': new URLSearchParams({ v: secret }).toString().slice(2),
  };
}

describe('redaction in every spelling', () => {
  for (const secret of SECRETS) {
    for (const [how, spelled] of Object.entries(spellings(secret))) {
      it(`removes ${JSON.stringify(secret)} spelled ${how}`, () => {
        const text = `{"message":"token ${spelled} refused"}`;
        // Whole: a secret partly removed still gives part of it away.
        assert.equal(redact(text, [secret]), `{"message":"token ${REDACTED} refused"}`);
      });
    }
  }

  it('leaves text without the secret as it is', () => {
    assert.equal(redact('token axc refused', ['abc']), 'token axc refused');
    assert.equal(redact('nothing here', ['']), 'nothing here');
  });

  it('redacts a short password echoed JSON-escaped in an error the client raises', async () => {
    const server = await startScriptedServer();
    const password = 'a/b';
    const transport = new HttpTransport({
      baseUrl: server.url,
      apiPrefix: '/api/z/1.0',
      credentials: { kind: 'basic', username: 'wren', password },
      retry: { maxRetries: 0 },
    });
    try {
      // Once as a server writes it (`\/` and `\u` escapes in the JSON), once escaped twice.
      server.handle((request, response) =>
        server.seen.length % 2 === 1
          ? response
              .writeHead(422, { 'content-type': 'application/json' })
              .end('{"message":"bad login wren:a\\/b and \\u0061\\u002f\\u0062"}')
          : sendJson(response, 422, { message: `bad login wren:a\\/b and \\u0061\\u002f\\u0062` }),
      );
      await assert.rejects(
        transport.requestJson({ method: 'GET', path: 'channel/stream' }),
        (error: unknown) => {
          assert.ok(error instanceof UnprocessableEntityError, String(error));
          assert.ok(
            !error.message.includes('a\\/b') && !error.message.includes('\\u0061\\u002f'),
            error.message,
          );
          assert.match(error.message, /«redacted»/);
          return true;
        },
      );
    } finally {
      await transport.close();
      await server.close();
    }
  });
});

describe('deeply nested error bodies', () => {
  const DEPTH = 10_000;
  const nestedObject = `${'{"m":'.repeat(DEPTH)}"deep"${'}'.repeat(DEPTH)}`;
  const nestedFields = `{"message":${'{"a":'.repeat(DEPTH)}["x"]${'}'.repeat(DEPTH)}}`;
  const nestedArray = `{"message":${'['.repeat(DEPTH)}"x"${']'.repeat(DEPTH)}}`;

  for (const [what, body] of [
    ['objects', nestedObject],
    ['field errors', nestedFields],
    ['arrays', nestedArray],
  ] as const) {
    it(`reads ${what} nested ${DEPTH} deep (${Math.round(body.length / 1024)} KB) without a RangeError`, () => {
      assert.ok(body.length <= 64 * 1024);
      const message = readServerMessage(body, 500, 'Internal Server Error');
      assert.equal(typeof message.text, 'string');
    });
  }

  it('a 500 with such a body is a ServerError from the transport', async () => {
    const server = await startScriptedServer();
    const transport = new HttpTransport({
      baseUrl: server.url,
      apiPrefix: '/api/v4',
      credentials: { kind: 'private-token', token: 'glpat-deep-000' },
      retry: { maxRetries: 0 },
    });
    try {
      server.handle((_request, response) => {
        response.writeHead(500, { 'content-type': 'application/json' }).end(nestedFields);
      });
      await assert.rejects(transport.requestJson({ method: 'GET', path: 'projects' }), ServerError);
    } finally {
      await transport.close();
      await server.close();
    }
  });
});
