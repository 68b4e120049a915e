import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { CHANNEL_API_PREFIX, CHANNEL_ENDPOINTS, ChannelClient } from '../../../src/api/channel';
import { type FakeForge, type RecordedRequest, startFakeForge } from '../../server';
import type { ServedRequest } from '../../server/channel';

/** Helpers for the ChannelClient tests against the fake forge. */

export { rejectsWith } from '../hostingClient/harness';

/** How many entries the channel registry has (the spec names 19 endpoints). */
export const CHANNEL_ENDPOINT_COUNT = Object.keys(CHANNEL_ENDPOINTS).length;

/**
 * Registry entries no request reached with the right method and a real answer. Channel servers answer
 * errors with 200, so the status cannot tell: the fake server's own record of how it answered does.
 */
export function unexercisedChannelEndpoints(served: readonly ServedRequest[]): string[] {
  return Object.entries(CHANNEL_ENDPOINTS)
    .filter(
      ([, entry]) =>
        !served.some(
          (each) => each.outcome === 'ok' && each.route === entry.path && each.method === entry.method,
        ),
    )
    .map(([id, entry]) => `${id} (${entry.method} ${entry.path})`);
}

/** Requests of this test to one channel route (path under /api/z/1.0, e.g. `/filedata`). */
export function channelRequests(forge: FakeForge, route: string): RecordedRequest[] {
  return forge.requests.filter((request) => request.path === `${CHANNEL_API_PREFIX}${route}`);
}

export function queryValue(request: RecordedRequest, name: string): string | undefined {
  const value = request.query[name];
  return Array.isArray(value) ? value[0] : value;
}

export function header(request: RecordedRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

export function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

export async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** A request straight to the fake server, bypassing the client (to look at raw replies). */
export async function rawRequest(
  forge: FakeForge,
  route: string,
  options: { method?: string; auth?: boolean; query?: Record<string, string> } = {},
): Promise<{ status: number; contentType: string | null; text: string; headers: Headers }> {
  const url = new URL(`${forge.url}${CHANNEL_API_PREFIX}${route}`);
  for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, value);
  const headers: Record<string, string> = {};
  if (options.auth !== false) {
    const { nickname, password } = forge.channel;
    headers['authorization'] = `Basic ${Buffer.from(`${nickname}:${password}`).toString('base64')}`;
  }
  const response = await fetch(url, { method: options.method ?? 'GET', headers });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text: await response.text(),
    headers: response.headers,
  };
}

/** A fake forge and a channel client signed in to its hub, made before a suite and closed after it. */
export interface HubSession {
  forge: FakeForge;
  client: ChannelClient;
}

/** Registers the suite's `before` and `after`; the fields are set once `before` has run. */
export function useFakeHub(): HubSession {
  const session = {} as HubSession;
  before(async () => {
    session.forge = await startFakeForge();
    session.client = ChannelClient.create({
      baseUrl: session.forge.url,
      login: session.forge.channel.nickname,
      password: session.forge.channel.password,
    });
  });
  after(async () => {
    // Set-up may have failed half-way: close what was made.
    await session.client?.close();
    await session.forge?.close();
  });
  return session;
}
