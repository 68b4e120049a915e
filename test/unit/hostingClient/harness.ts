import assert from 'node:assert/strict';
import { HostingClient } from '../../../src/api/hosting';
import { ENDPOINTS } from '../../../src/api/hosting/endpoints';
import type { FakeForge, RecordedRequest } from '../../server';

/** Helpers for the HostingClient tests against the fake forge. */

/** A client signed in as a seeded user (`alice`, `bob`, `root`), retrying without waiting. */
export function clientAs(forge: FakeForge, user: string): HostingClient {
  const token = forge.tokens[user];
  assert.ok(token, `the seed has a token for ${user}`);
  return HostingClient.create({
    baseUrl: forge.url,
    credentials: { kind: 'private-token', token },
    retry: { baseDelayMs: 1 },
  });
}

const API_PREFIX = '/api/v4';

interface EndpointPattern {
  id: string;
  method: string;
  path: string;
  regex: RegExp;
  /** One digit per segment, 2 for a literal and 1 for a parameter: the most literal match wins. */
  score: string;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const PATTERNS: readonly EndpointPattern[] = Object.entries(ENDPOINTS).map(([id, definition]) => {
  const segments = definition.path.split('/').filter((segment) => segment.length > 0);
  const source = segments
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : escapeRegExp(segment)))
    .join('/');
  return {
    id,
    method: definition.method,
    path: definition.path,
    regex: new RegExp(`^${API_PREFIX}/${source}$`),
    score: segments.map((segment) => (segment.startsWith(':') ? '1' : '2')).join(''),
  };
});

/** How many entries the registry has (the spec has 106 rows). */
export const ENDPOINT_COUNT = PATTERNS.length;

/** The registry entry a recorded request was sent to (the most literal template when several match). */
export function endpointFor(request: Pick<RecordedRequest, 'method' | 'path'>): string | undefined {
  let best: EndpointPattern | undefined;
  for (const pattern of PATTERNS) {
    if (pattern.method !== request.method || !pattern.regex.test(request.path)) continue;
    if (!best || pattern.score > best.score) best = pattern;
  }
  return best?.id;
}

function succeeded(status: number): boolean {
  return (status >= 200 && status < 300) || status === 304;
}

/** Registry entries that no recorded request reached with a 2xx or 304, as `id (METHOD /path)`. */
export function unexercisedEndpoints(requests: readonly RecordedRequest[]): string[] {
  const exercised = new Set<string>();
  for (const request of requests) {
    if (!succeeded(request.status)) continue;
    const id = endpointFor(request);
    if (id !== undefined) exercised.add(id);
  }
  return PATTERNS.filter((pattern) => !exercised.has(pattern.id)).map(
    (pattern) => `${pattern.id} (${pattern.method} ${pattern.path})`,
  );
}

export function header(request: RecordedRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function describeRequests(forge: FakeForge): string {
  return forge.requests.map((request) => `${request.method} ${request.path}`).join(', ') || 'none';
}

export function requestsTo(forge: FakeForge, method: string, path: string): RecordedRequest[] {
  return forge.requests.filter((request) => request.method === method && request.path === path);
}

/** The last request the forge received for exactly this method and (still encoded) path. */
export function lastRequestTo(forge: FakeForge, method: string, path: string): RecordedRequest {
  const last = requestsTo(forge, method, path).at(-1);
  assert.ok(last, `no ${method} ${path}; received: ${describeRequests(forge)}`);
  return last;
}

/** The only request of this test, checked against method and path. */
export function onlyRequest(forge: FakeForge, method: string, path: string): RecordedRequest {
  assert.equal(forge.requests.length, 1, `expected one request; received: ${describeRequests(forge)}`);
  return lastRequestTo(forge, method, path);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON object body the forge received. */
export function jsonBody(request: RecordedRequest): Record<string, unknown> {
  assert.ok(isRecord(request.body), `${request.method} ${request.path} had no JSON object body`);
  assert.match(header(request, 'content-type') ?? '', /^application\/json/);
  return request.body;
}

/** Awaits a rejection of exactly this error class, runs `check` on it and returns it. */
export async function rejectsWith<E extends Error>(
  promise: Promise<unknown>,
  type: abstract new (...args: never[]) => E,
  check?: (error: E) => void,
): Promise<E> {
  let caught: unknown;
  let resolved = false;
  try {
    await promise;
    resolved = true;
  } catch (error) {
    caught = error;
  }
  assert.ok(!resolved, `expected ${type.name}, but the call succeeded`);
  assert.ok(
    caught instanceof type,
    `expected ${type.name}, got ${caught instanceof Error ? `${caught.name}: ${caught.message}` : String(caught)}`,
  );
  check?.(caught);
  return caught;
}
