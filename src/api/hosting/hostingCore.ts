import * as z from 'zod';
import { BEYOND_SPEC_ENDPOINTS, type BeyondSpecEndpointId } from './beyondSpecEndpoints';
import {
  type DownloadOptions,
  type DownloadResult,
  HttpTransport,
  ListRequest,
  headerValue,
  type Query,
  parseReply,
  saveStreamToFile,
} from '../http';
import {
  AWARD_ENDPOINT_PREFIX,
  type AwardableKind,
  ENDPOINTS,
  type EndpointDefinition,
  type SpecEndpointId,
  NOTE_ENDPOINT_PREFIX,
  type NoteParentKind,
  type PathParams,
  fillPath,
} from './endpoints';
import {
  type ProjectRef,
  type CallOptions,
  type StateChange,
  type NoteParent,
  type Awardable,
} from './hostingTypes';

/** An endpoint of the spec's registry or one beyond it. */
export type EndpointId = SpecEndpointId | BeyondSpecEndpointId;

const DEFINITIONS: Readonly<Record<EndpointId, EndpointDefinition>> = {
  ...ENDPOINTS,
  ...BEYOND_SPEC_ENDPOINTS,
};

function definitionOf(id: EndpointId): EndpointDefinition {
  return DEFINITIONS[id];
}

export function projectParam(project: ProjectRef): string {
  return String(project);
}

export function noteParentParams(parent: NoteParent): Record<string, string | number> {
  const id = projectParam(parent.project);
  switch (parent.kind) {
    case 'issue':
      return { id, issue_iid: parent.iid };
    case 'mergeRequest':
      return { id, merge_request_iid: parent.iid };
    case 'snippet':
      return { id, snippet_id: parent.snippetId };
  }
}

export function awardableParams(target: Awardable): Record<string, string | number> {
  switch (target.kind) {
    case 'issueNote':
      return { id: projectParam(target.project), issue_iid: target.iid, note_id: target.noteId };
    case 'mergeRequestNote':
      return { id: projectParam(target.project), merge_request_iid: target.iid, note_id: target.noteId };
    default:
      return noteParentParams(target);
  }
}

export function noteEndpoint(
  kind: NoteParentKind,
  operation: 'list' | 'get' | 'create' | 'update' | 'delete',
): EndpointId {
  return `${NOTE_ENDPOINT_PREFIX[kind]}.${operation}`;
}

export function awardEndpoint(
  kind: AwardableKind,
  operation: 'list' | 'get' | 'create' | 'delete',
): EndpointId {
  return `${AWARD_ENDPOINT_PREFIX[kind]}.${operation}`;
}

/**
 * What every group of endpoints shares: the transport, and one way each to call an endpoint of the
 * registry in `endpoints.ts` (JSON, a state change that may answer 304, no content, a paged list,
 * a download). The groups extend it, one file each (`projectEndpoints.ts`,
 * `mergeRequestEndpoints.ts`), and `HostingClient` is the last of them.
 */
export class HostingCore {
  constructor(readonly transport: HttpTransport) {}

  close(): Promise<void> {
    return this.transport.close();
  }

  // ---- plumbing -------------------------------------------------------------------------------

  protected label(id: EndpointId): string {
    const endpoint = definitionOf(id);
    return `${endpoint.method} ${endpoint.path}`;
  }

  protected async call<S extends z.ZodType>(
    id: EndpointId,
    params: PathParams,
    schema: S,
    options: { query?: Query; body?: object; signal?: AbortSignal } = {},
  ): Promise<z.infer<S>> {
    const endpoint = definitionOf(id);
    const response = await this.transport.requestJson({
      method: endpoint.method,
      path: fillPath(endpoint.path, params),
      query: options.query,
      json: options.body,
      signal: options.signal,
    });
    return parseReply(schema, response.data, this.label(id));
  }

  /**
   * A read sent with the ETag of the last answer (`If-None-Match`): `{unchanged: true}` on 304, else
   * the parsed reply and its new ETag (undefined when the server sends none).
   */
  protected async callIfChanged<S extends z.ZodType>(
    id: EndpointId,
    params: PathParams,
    schema: S,
    options: CallOptions & { etag?: string | undefined } = {},
  ): Promise<{ unchanged: true } | { unchanged: false; value: z.infer<S>; etag: string | undefined }> {
    const endpoint = definitionOf(id);
    const response = await this.transport.requestJson({
      method: endpoint.method,
      path: fillPath(endpoint.path, params),
      ...(options.etag ? { headers: { 'if-none-match': options.etag } } : {}),
      signal: options.signal,
    });
    if (response.notModified) return { unchanged: true };
    const value: z.infer<S> = parseReply(schema, response.data, this.label(id));
    return { unchanged: false, value, etag: headerValue(response.headers, 'etag') };
  }

  /** For endpoints that answer 304 when nothing had to change. */
  protected async callStateChange<S extends z.ZodType>(
    id: EndpointId,
    params: PathParams,
    schema: S,
    options: CallOptions = {},
  ): Promise<StateChange<z.infer<S>>> {
    const endpoint = definitionOf(id);
    const response = await this.transport.requestJson({
      method: endpoint.method,
      path: fillPath(endpoint.path, params),
      signal: options.signal,
    });
    if (response.notModified) return { changed: false };
    return { changed: true, value: parseReply(schema, response.data, this.label(id)) };
  }

  /** For endpoints that answer bytes (a file), not JSON: the body as received, not decoded. */
  protected async callBytes(
    id: EndpointId,
    params: PathParams,
    options: { query?: Query; signal?: AbortSignal } = {},
  ): Promise<Uint8Array> {
    const endpoint = definitionOf(id);
    const response = await this.transport.requestBytes({
      method: endpoint.method,
      path: fillPath(endpoint.path, params),
      query: options.query,
      headers: { accept: '*/*' },
      signal: options.signal,
    });
    return response.bytes;
  }

  /** For endpoints whose reply body is not shown or not needed (DELETE, mark all done). */
  protected async callNoContent(
    id: EndpointId,
    params: PathParams,
    options: { query?: Query; body?: object; signal?: AbortSignal } = {},
  ): Promise<void> {
    const endpoint = definitionOf(id);
    await this.transport.requestText({
      method: endpoint.method,
      path: fillPath(endpoint.path, params),
      query: options.query,
      json: options.body,
      signal: options.signal,
    });
  }

  protected list<S extends z.ZodType>(
    id: EndpointId,
    params: PathParams,
    schema: S,
    query?: Query,
  ): ListRequest<S> {
    const endpoint = definitionOf(id);
    return new ListRequest(
      this.transport,
      { path: fillPath(endpoint.path, params), query, endpoint: this.label(id) },
      schema,
    );
  }

  protected async download(
    id: EndpointId,
    params: PathParams,
    destination: string,
    options: DownloadOptions & { query?: Query },
  ): Promise<DownloadResult> {
    const endpoint = definitionOf(id);
    const response = await this.transport.requestStream({
      method: endpoint.method,
      path: fillPath(endpoint.path, params),
      query: options.query,
      signal: options.signal,
    });
    return saveStreamToFile(response, destination, options, this.label(id));
  }
}
