/** How credentials go on a request, and which of their spellings must never appear in a message. */
import type { Credentials } from './transportTypes';

/** The secrets to redact: the token, or the password and its Basic encoding. */
export function secretsOf(credentials: Credentials): string[] {
  switch (credentials.kind) {
    case 'private-token':
    case 'oauth':
      return [credentials.token];
    case 'basic':
      return [
        credentials.password,
        Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64'),
      ];
    case 'none':
      return [];
  }
}

export function credentialHeaders(
  credentials: Credentials,
  sudo: string | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {};
  switch (credentials.kind) {
    case 'private-token':
      headers['private-token'] = credentials.token;
      break;
    case 'oauth':
      headers['authorization'] = `Bearer ${credentials.token}`;
      break;
    case 'basic':
      headers['authorization'] =
        `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
      break;
    case 'none':
      break;
  }
  if (sudo) headers['sudo'] = sudo;
  return headers;
}
