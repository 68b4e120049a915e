// One fake forge and one client signed in as alice, for the feature use-case suites.
import { HostingClient } from '../../../src/api/hosting';
import { type FakeForge, startFakeForge } from '../../server';

export interface ForgeSession {
  forge: FakeForge;
  client: HostingClient;
  /** The id of acme/web. */
  web: number;
}

/** Starts the fake forge before the suite and closes it after; read the session inside tests. */
export function useForgeSession(): ForgeSession {
  const session = {} as ForgeSession;
  before(async () => {
    session.forge = await startFakeForge({ seed: 'small' });
    session.web = session.forge.fixtures.projects.web;
    session.client = HostingClient.create({
      baseUrl: session.forge.url,
      credentials: { kind: 'private-token', token: session.forge.userToken },
      retry: { baseDelayMs: 1 },
    });
  });
  after(async () => {
    await session.client.close();
    await session.forge.close();
  });
  return session;
}
