import * as z from 'zod';
import { NotFoundError, parseReply } from '../http';
import type { CallOptions, HostingClient } from './client';
import { IdSchema } from './schemas/common';

/**
 * `GET /user` is not in the spec's tables, but real servers and the fake forge answer it with the
 * caller (the sudo user when sudo is set). Only the identity is read.
 */
export const CurrentUserSchema = z.looseObject({
  id: IdSchema,
  username: z.string(),
  name: z.string(),
});
export type CurrentUser = Pick<z.infer<typeof CurrentUserSchema>, 'id' | 'username' | 'name'>;

/** The user the client acts as, or undefined when the server has no `GET /user` (404). */
export async function fetchCurrentUser(
  client: HostingClient,
  options: CallOptions = {},
): Promise<CurrentUser | undefined> {
  try {
    const response = await client.transport.requestJson({
      method: 'GET',
      path: '/user',
      signal: options.signal,
    });
    const user = parseReply(CurrentUserSchema, response.data, 'GET /user');
    return { id: user.id, username: user.username, name: user.name };
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}
