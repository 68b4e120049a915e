import type { IncomingHttpHeaders } from 'node:http';
import type { ApiResponse } from '../http';
import { ChannelPresenter } from './present';
import { ChannelParams, parseMultipart } from './request';
import { CHANNEL_ROUTES } from './routes';
import { type ChannelFixtures, seedChannel } from './seed';
import { ChannelState, type ServedRequest } from './state';

/*
 * The fake channel server: an in-memory implementation of the channel API (spec/channel-api-z1.md) with the
 * real servers' habits: HTTP Basic with the nickname or the account email, 401 with a text body for a bad
 * login, 404 {"error":"not implemented"} for unknown routes, no method checks, and application errors as a
 * 200 with an empty body, `false`, `[]` or {"success": false}. The fake forge mounts it under /api/z/1.0.
 */

export { ChannelState, HUB_HOST, PERMISSIONS } from './state';
export type { NumberStyle, ServedRequest, StoredFile, StoredItem, StoredPhoto } from './state';
export type { ChannelFixtures, SeededConnection, SeededFile, SeededGroup } from './seed';

export const CHANNEL_API_PREFIX = '/api/z/1.0/';

/** What tests see of the channel: its credentials, notable records and the live state. */
export interface FakeChannel {
  nickname: string;
  email: string;
  password: string;
  fixtures: ChannelFixtures;
  state: ChannelState;
}

export interface ChannelRequest {
  method: string;
  /** Path as received, still percent-encoded. */
  rawPath: string;
  queryPairs: readonly [string, string][];
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface ChannelResponse {
  response: ApiResponse;
  /** The parsed form, for the forge's request record (multipart bodies are not readable as text). */
  recordedBody?: unknown;
}

export interface MountedChannelApi {
  channel: FakeChannel;
  /** Serves a request under /api/z/1.0; undefined for any other path. */
  handle(request: ChannelRequest): ChannelResponse | undefined;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Seeds a channel and returns the handler the fake forge dispatches `/api/z/1.0/` requests to. */
export function mountChannelApi(seed?: string): MountedChannelApi {
  const state = new ChannelState();
  const seeded = seedChannel(state, seed);
  const channel: FakeChannel = {
    nickname: seeded.nickname,
    email: seeded.email,
    password: seeded.password,
    fixtures: seeded.fixtures,
    state,
  };
  return {
    channel,
    handle: (request) => (request.rawPath.startsWith(CHANNEL_API_PREFIX) ? serve(state, request) : undefined),
  };
}

function serve(state: ChannelState, request: ChannelRequest): ChannelResponse {
  let route: string;
  try {
    route = decodeURIComponent(request.rawPath.slice(CHANNEL_API_PREFIX.length - 1));
  } catch {
    route = request.rawPath;
  }
  // `files.json` is the same route as `files`.
  route = route.replace(/\/+$/, '').replace(/\.json$/, '');
  const served = (outcome: ServedRequest['outcome']): void => {
    state.served.push({ method: request.method, route, outcome });
  };

  const handler = CHANNEL_ROUTES.get(route);
  if (!handler) {
    served('not-implemented');
    return { response: { status: 404, json: { error: 'not implemented' } } };
  }
  if (!authenticated(state, header(request.headers, 'authorization'))) {
    served('unauthorized');
    return {
      response: {
        status: 401,
        body: 'This api requires login',
        contentType: 'text/plain; charset=utf-8',
        headers: { 'WWW-Authenticate': 'Basic realm="Hubzilla"' },
      },
    };
  }

  const params = new ChannelParams();
  params.addPairs(request.queryPairs);
  const contentType = header(request.headers, 'content-type');
  let recordedBody: unknown;
  const multipart = parseMultipart(contentType, request.body);
  if (multipart) {
    params.addPairs(multipart.fields);
    params.files.push(...multipart.files);
    recordedBody = {
      fields: multipart.fields,
      files: multipart.files.map((file) => ({
        field: file.field,
        filename: file.filename,
        contentType: file.contentType,
        size: file.data.length,
      })),
    };
  } else if (/^application\/x-www-form-urlencoded/i.test(contentType ?? '') && request.body.length > 0) {
    params.addPairs([...new URLSearchParams(request.body.toString('utf8'))]);
  }

  const host = header(request.headers, 'host') ?? '127.0.0.1';
  const present = new ChannelPresenter(state, `http://${host}`);
  const reply = handler({ state, params, present, method: request.method });
  served(reply.outcome);
  return { response: reply.response, recordedBody };
}

/** HTTP Basic with the channel nickname or the account email, and the account password. */
function authenticated(state: ChannelState, authorization: string | undefined): boolean {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '');
  if (!match?.[1]) return false;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return false;
  const login = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  const known = login === state.channel.nickname || login.toLowerCase() === state.account.email.toLowerCase();
  return known && password === state.account.password;
}
