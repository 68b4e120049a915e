import { ForgeError } from '../http';
import * as l10n from '@vscode/l10n';

/**
 * Why a channel reply counts as a failure. Channel servers answer most application errors with
 * status 200, so the status alone does not say it.
 */
export type ChannelProblem =
  /** 401: the nickname (or email) and password were not accepted. */
  | 'unauthorized'
  /** 200 with an empty body: a missing parameter or a record that does not exist. */
  | 'empty'
  /** 200 with the body `false`: nothing matched. */
  | 'false'
  /** 200 with `[]` where one record was asked for. */
  | 'nothing-found'
  /** 200 with `{"success": false, "message": ...}`. */
  | 'refused'
  /** 404 `{"error":"not implemented"}`: the server does not offer this endpoint. */
  | 'not-implemented'
  /** `item/update` refused a body identical to one posted minutes ago ("operation cancelled"). */
  | 'duplicate'
  /** An empty success for a record that does not exist (an unknown hash, album or connection). */
  | 'not-found';

/** A channel endpoint failed; the message names the endpoint and says why, never a password. */
export class ChannelReplyError extends ForgeError {
  override name = 'ChannelReplyError';
  constructor(
    /** e.g. `GET /filedata` (under `/api/z/1.0`). */
    readonly endpoint: string,
    readonly problem: ChannelProblem,
    /** One line a person can read. */
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(l10n.t('Channel {0} failed: {1}', endpoint, detail), options);
  }
}

/** The server refused the login (401). */
export class ChannelAuthError extends ChannelReplyError {
  override name = 'ChannelAuthError';
}

/** A chunked download could not be completed; `partialBytes` say what is kept for a resume. */
export class ChannelDownloadError extends ForgeError {
  override name = 'ChannelDownloadError';
  constructor(
    message: string,
    /** Bytes kept in the `.part` file for the next attempt (0 when it was discarded). */
    readonly partialBytes: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
