import * as z from 'zod';
import {
  HttpTransport,
  NotFoundError,
  type Query,
  type RequestOptions,
  UnauthorizedError,
  parseReply,
  redact,
} from '../http';
import { channelEndpoint, type ChannelEndpointId, channelEndpointLabel } from './endpoints';
import { ChannelAuthError, ChannelReplyError } from './errors';
import { StreamItemSchema } from './schemas';
import * as l10n from '@vscode/l10n';

export const PAGE_SIZE = 50;
/** Items per `item/export_page` request. */
export const EXPORT_PAGE_RECORDS = 100;
export const NETWORK_THREADS_PER_PAGE = 50;

export interface RequestSpec {
  query?: Query;
  form?: Query;
  /** undici's `FormData`: undici writes the boundary and the content type. */
  multipart?: RequestOptions['multipart'];
  signal?: AbortSignal;
  /** What an empty 200 or `false` means for this call, in words. */
  emptyMeans: string;
  /** `{success: false}` without a message is a normal answer here (photos of a channel without any). */
  allowUnsuccessful?: boolean;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function decodeBase64(text: string, what: string): Buffer {
  const compact = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) {
    throw new Error(l10n.t('{0} is not valid base64', what));
  }
  return Buffer.from(compact, 'base64');
}

/**
 * What every group of channel endpoints shares: the transport, the secrets kept out of messages,
 * and the one way to call an endpoint (a reply that is an error in disguise becomes a
 * `ChannelReplyError` naming it). The groups extend it: `channelFileEndpoints.ts`, then
 * `ChannelClient`.
 */
export class ChannelCore {
  private readonly secrets: readonly string[];

  constructor(
    readonly transport: HttpTransport,
    /** Nickname or email, for messages (never the password). */
    readonly login: string,
    password: string,
  ) {
    this.secrets = [password, Buffer.from(`${login}:${password}`).toString('base64')];
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  // ---- plumbing -------------------------------------------------------------------------------

  /** Sends the request and returns the JSON reply once it is known not to be an error in disguise. */
  protected async request(id: ChannelEndpointId, spec: RequestSpec): Promise<unknown> {
    const endpoint = channelEndpoint(id);
    const label = channelEndpointLabel(id);
    let data: unknown;
    try {
      const response = await this.transport.requestJson({
        method: endpoint.method,
        path: endpoint.path,
        query: spec.query,
        form: spec.form,
        multipart: spec.multipart,
        signal: spec.signal,
      });
      data = response.data;
    } catch (error) {
      throw this.translate(error, label);
    }
    if (data === undefined) {
      throw new ChannelReplyError(
        label,
        'empty',
        l10n.t(
          'the server answered 200 with an empty body, which is how it reports an error: {0}',
          spec.emptyMeans,
        ),
      );
    }
    if (data === false) {
      throw new ChannelReplyError(
        label,
        'false',
        l10n.t('the server answered `false`: {0}', spec.emptyMeans),
      );
    }
    if (isRecord(data) && data['success'] === false) {
      const message = data['message'];
      if (typeof message !== 'string' && spec.allowUnsuccessful) return data;
      const reason =
        typeof message === 'string' && message.trim() !== '' ? message : l10n.t('no reason given');
      throw new ChannelReplyError(
        label,
        'refused',
        l10n.t('the server refused: {0}', redact(reason, this.secrets)),
      );
    }
    return data;
  }

  protected async call<S extends z.ZodType>(
    id: ChannelEndpointId,
    schema: S,
    spec: RequestSpec,
  ): Promise<z.infer<S>> {
    const data = await this.request(id, spec);
    return parseReply(schema, data, channelEndpointLabel(id));
  }

  protected translate(error: unknown, label: string): unknown {
    if (error instanceof UnauthorizedError) {
      const said = redact(error.serverMessage, this.secrets);
      return new ChannelAuthError(
        label,
        'unauthorized',
        l10n.t(
          'the server refused the login "{0}" (401{1}). Check the channel nickname or account email and the password.',
          this.login,
          said ? `: ${said}` : '',
        ),
        { cause: error },
      );
    }
    if (error instanceof NotFoundError && /not implemented/i.test(error.serverMessage)) {
      return new ChannelReplyError(
        label,
        'not-implemented',
        l10n.t(
          'the server does not offer this endpoint (404 not implemented); it may run an older or differently configured version',
        ),
        { cause: error },
      );
    }
    return error;
  }

  /** A list reply (bare JSON array) of loose records. */
  protected async records(id: ChannelEndpointId, spec: RequestSpec): Promise<Record<string, unknown>[]> {
    return this.call(id, z.array(StreamItemSchema), spec);
  }
}
