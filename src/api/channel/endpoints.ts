import type { HttpMethod } from '../http';

/** Where the channel API lives under the server's address. */
export const CHANNEL_API_PREFIX = '/api/z/1.0';

export interface ChannelEndpointDefinition {
  /** The method the client sends. */
  method: HttpMethod;
  /** Path under `/api/z/1.0`, as the spec and real servers spell it. */
  path: string;
  /**
   * The method the spec states, or `'not shown'` where it leaves it out (the coverage test
   * matches on this). Real servers do not check the method of most routes.
   */
  specMethod: HttpMethod | 'not shown';
  /** Parameters and reply shape known from the design notes where the spec shows none. */
  note?: string;
}

const METHOD_NOT_SHOWN =
  'The spec does not give the method; real servers do not check it, so reads are sent as GET (never retried as a write).';

/**
 * One entry per endpoint the spec names: the eight rows of its endpoint table and the eleven
 * "named endpoints without stated parameters or replies".
 */
export const CHANNEL_ENDPOINTS = {
  // Rows of the endpoint table
  'channel.exportBasic': {
    method: 'GET',
    path: '/channel/export/basic',
    specMethod: 'not shown',
    note: `${METHOD_NOT_SHOWN} Takes \`sections\` (comma list) and \`posts\`; empty sections are left out of the reply.`,
  },
  'files.list': { method: 'GET', path: '/files', specMethod: 'GET' },
  'files.data': { method: 'GET', path: '/filedata', specMethod: 'GET' },
  'albums.list': { method: 'GET', path: '/albums', specMethod: 'GET' },
  'groups.list': { method: 'GET', path: '/group', specMethod: 'GET' },
  'groups.members': { method: 'GET', path: '/group_members', specMethod: 'GET' },
  'xchan.get': { method: 'GET', path: '/xchan', specMethod: 'GET' },
  'items.update': {
    method: 'POST',
    path: '/item/update',
    specMethod: 'POST',
    note: 'Real servers create the item on GET too: never probe this endpoint.',
  },

  // Named endpoints whose parameters and replies the spec does not show
  'channel.stream': {
    method: 'GET',
    path: '/channel/stream',
    specMethod: 'not shown',
    note: `${METHOD_NOT_SHOWN} Takes \`mindate\` (default: 14 days ago); answers a bare array of items.`,
  },
  'network.stream': {
    method: 'GET',
    path: '/network/stream',
    specMethod: 'not shown',
    note: `${METHOD_NOT_SHOWN} Takes \`dbegin\`/\`dend\`, \`start\`+\`records\` or \`page\`; pages by thread (10 a page), not by item.`,
  },
  'files.meta': {
    method: 'GET',
    path: '/filemeta',
    specMethod: 'not shown',
    note: `${METHOD_NOT_SHOWN} \`file_id\` must be the exact hash; answers {attach} without content.`,
  },
  'files.export': {
    method: 'GET',
    path: '/file/export',
    specMethod: 'not shown',
    note: `${METHOD_NOT_SHOWN} Answers with a path on the server, not the bytes.`,
  },
  'files.get': {
    method: 'GET',
    path: '/file',
    specMethod: 'not shown',
    note: `${METHOD_NOT_SHOWN} \`file_id\` must be the exact hash; answers {attach} with the whole file in base64.`,
  },
  'photos.list': {
    method: 'GET',
    path: '/photos',
    specMethod: 'not shown',
    note: `${METHOD_NOT_SHOWN} Takes \`album\`; one entry per image scale.`,
  },
  'photos.get': {
    method: 'GET',
    path: '/photo',
    specMethod: 'not shown',
    note: `${METHOD_NOT_SHOWN} Takes \`photo_id\` and \`scale\`; answers {photo} with base64 content.`,
  },
  'items.full': {
    method: 'GET',
    path: '/item/full',
    specMethod: 'not shown',
    note: `${METHOD_NOT_SHOWN} Takes \`mid\` or \`item_id\`; answers {item: [...]}, and \`[]\` for an unknown item.`,
  },
  'abook.list': {
    method: 'GET',
    path: '/abook',
    specMethod: 'not shown',
    note: `${METHOD_NOT_SHOWN} Takes \`abook_id\`; answers address-book rows joined with their xchan.`,
  },
  'abconfig.list': {
    method: 'GET',
    path: '/abconfig',
    specMethod: 'not shown',
    note: `${METHOD_NOT_SHOWN} Takes \`abook_id\`; values are strings like "1".`,
  },
  'permissions.allowed': {
    method: 'GET',
    path: '/perm_allowed',
    specMethod: 'not shown',
    note: `${METHOD_NOT_SHOWN} Takes \`perm\` and \`abook_id\` or an xchan address/hash/guid; answers [{perm, allowed}].`,
  },
} as const satisfies Record<string, ChannelEndpointDefinition>;

/**
 * Endpoints real hubs have that the spec does not name, used where the spec's own endpoints lose
 * data (design.md section 3, 2026-11). Kept apart so the registry above stays the spec's.
 */
export const CHANNEL_BEYOND_SPEC_ENDPOINTS = {
  'items.exportPage': {
    method: 'GET',
    path: '/item/export_page',
    specMethod: 'not shown',
    note: `Not in the spec. Real hubs export the channel's items a page at a time, oldest first: \`since\`, \`until\` (dates), \`page\` (from 0), \`records\` (default 50); answers {compatibility, item: [...]}, without \`item\` past the end. \`channel/export/basic\` ignores \`posts\`, so posts come from here.`,
  },
} as const satisfies Record<string, ChannelEndpointDefinition>;

export type ChannelEndpointId = keyof typeof CHANNEL_ENDPOINTS | keyof typeof CHANNEL_BEYOND_SPEC_ENDPOINTS;

export function channelEndpoint(id: ChannelEndpointId): ChannelEndpointDefinition {
  return id in CHANNEL_ENDPOINTS
    ? CHANNEL_ENDPOINTS[id as keyof typeof CHANNEL_ENDPOINTS]
    : CHANNEL_BEYOND_SPEC_ENDPOINTS[id as keyof typeof CHANNEL_BEYOND_SPEC_ENDPOINTS];
}

/** `GET /filedata`: how errors and logs name an endpoint. */
export function channelEndpointLabel(id: ChannelEndpointId): string {
  const endpoint = channelEndpoint(id);
  return `${endpoint.method} ${endpoint.path}`;
}
