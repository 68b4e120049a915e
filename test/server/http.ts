/*
 * HTTP helpers of the fake forge: response values, the error shapes of real servers, request parameters
 * (query, JSON and form bodies merged, as real servers do) and offset pagination with its headers.
 */

export interface ApiResponse {
  status: number;
  /** Serialised as JSON unless `body` is given. */
  json?: unknown;
  body?: Buffer | Uint8Array | string;
  contentType?: string;
  headers?: Record<string, string>;
}

export function ok(json: unknown): ApiResponse {
  return { status: 200, json };
}

export function created(json: unknown): ApiResponse {
  return { status: 201, json };
}

/** 204 with an empty body. */
export function noContent(): ApiResponse {
  return { status: 204 };
}

/** 304 with an empty body (star, unstar, subscribe, unsubscribe and create-todo when nothing changes). */
export function notModified(): ApiResponse {
  return { status: 304 };
}

/**
 * The answer to a DELETE of something that is already gone. Real servers answer 404 here; the spec makes
 * DELETE idempotent ("200 even when the resource was already deleted or does not exist"), so: 200 and an
 * empty body. Deleting something that exists answers 204 (202 for a project), as real servers do.
 */
export function alreadyDeleted(): ApiResponse {
  return { status: 200 };
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(typeof body === 'string' ? body : JSON.stringify(body));
  }
}

export const errors = {
  /** `{"message":"401 Unauthorized"}` */
  unauthorized: (): HttpError => new HttpError(401, { message: '401 Unauthorized' }),
  /** `{"message":"403 Forbidden"}` or `403 Forbidden - <reason>` */
  forbidden: (reason?: string): HttpError =>
    new HttpError(403, { message: reason ? `403 Forbidden - ${reason}` : '403 Forbidden' }),
  /** `{"message":"404 <Thing> Not Found"}` */
  notFound: (thing?: string): HttpError =>
    new HttpError(404, { message: thing ? `404 ${thing} Not Found` : '404 Not Found' }),
  /** Unknown route: `{"error":"404 Not Found"}` */
  noRoute: (): HttpError => new HttpError(404, { error: '404 Not Found' }),
  /** Parameter errors use `error`: `{"error":"title is missing"}` */
  badParameter: (text: string): HttpError => new HttpError(400, { error: text }),
  /** Validation failures: `{"message":{"name":["has already been taken"]}}` */
  validation: (fields: Record<string, string[]>): HttpError => new HttpError(400, { message: fields }),
  /** A plain 400 with a message string, e.g. `{"message":"Branch already exists"}` */
  badRequest: (message: string): HttpError => new HttpError(400, { message }),
  conflict: (message: unknown = '409 Already exists'): HttpError => new HttpError(409, { message }),
  status: (status: number, message: string): HttpError => new HttpError(status, { message }),
};

// ---- parameters ----------------------------------------------------------------------------------

export type ParamValue = string | number | boolean | null | ParamValue[] | { [key: string]: ParamValue };

/**
 * Request parameters from the query string and the body, merged (body wins), with `name[]` keys collected
 * into arrays under `name`. Typed readers raise the 400 errors real servers give.
 */
export class Params {
  private readonly values = new Map<string, ParamValue>();

  static fromPairs(pairs: Iterable<[string, string]>): Params {
    const params = new Params();
    params.addPairs(pairs);
    return params;
  }

  addPairs(pairs: Iterable<[string, string]>): void {
    const arrays = new Map<string, string[]>();
    for (const [key, value] of pairs) {
      if (key.endsWith('[]')) {
        const name = key.slice(0, -2);
        const list = arrays.get(name) ?? [];
        list.push(value);
        arrays.set(name, list);
      } else {
        this.values.set(key, value);
      }
    }
    for (const [name, list] of arrays) this.values.set(name, list);
  }

  addObject(object: Record<string, unknown>): void {
    for (const [key, value] of Object.entries(object)) {
      if (value === undefined) continue;
      this.values.set(key.endsWith('[]') ? key.slice(0, -2) : key, value as ParamValue);
    }
  }

  /** The value as sent (an array of hashes stays one). */
  raw(name: string): ParamValue | undefined {
    return this.values.get(name);
  }

  has(name: string): boolean {
    const value = this.values.get(name);
    return value !== undefined && value !== null;
  }

  /** 400 `a is missing, b is missing` naming every absent one. */
  require(...names: string[]): void {
    const missing = names.filter((name) => !this.has(name));
    if (missing.length > 0) throw errors.badParameter(missing.map((name) => `${name} is missing`).join(', '));
  }

  /** 400 `a, b are missing, at least one parameter must be provided` (Grape's at_least_one_of). */
  requireOneOf(...names: string[]): void {
    if (!names.some((name) => this.has(name))) {
      throw errors.badParameter(`${names.join(', ')} are missing, at least one parameter must be provided`);
    }
  }

  /** An object parameter: a JSON object, or form fields `name[key]` (as Grape reads both). */
  object(name: string): Record<string, ParamValue> | undefined {
    const value = this.values.get(name);
    if (value !== undefined && value !== null && typeof value === 'object' && !Array.isArray(value))
      return value;
    const prefix = `${name}[`;
    const fields: Record<string, ParamValue> = {};
    for (const [key, field] of this.values) {
      if (key.startsWith(prefix) && key.endsWith(']')) fields[key.slice(prefix.length, -1)] = field;
    }
    return Object.keys(fields).length > 0 ? fields : undefined;
  }

  string(name: string): string | undefined {
    const value = this.values.get(name);
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    throw errors.badParameter(`${name} is invalid`);
  }

  integer(name: string): number | undefined {
    const value = this.values.get(name);
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value === 'number' && Number.isInteger(value)) return value;
    if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return Number(value.trim());
    throw errors.badParameter(`${name} is invalid`);
  }

  /** true/false, "true"/"false", 1/0 and "1"/"0". */
  boolean(name: string): boolean | undefined {
    const value = this.values.get(name);
    if (value === undefined || value === null || value === '') return undefined;
    if (value === true || value === 1 || value === 'true' || value === '1') return true;
    if (value === false || value === 0 || value === 'false' || value === '0') return false;
    throw errors.badParameter(`${name} is invalid`);
  }

  /** A string value must be one of `allowed`: otherwise 400 `name does not have a valid value`. */
  oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    if (!(allowed as readonly string[]).includes(value)) {
      throw errors.badParameter(`${name} does not have a valid value`);
    }
    return value as T;
  }

  /** An array (`name[]=a&name[]=b`, a JSON array) or a single value. */
  stringArray(name: string): string[] | undefined {
    const value = this.values.get(name);
    if (value === undefined || value === null) return undefined;
    const list = Array.isArray(value) ? value : [value];
    return list.map((item) => {
      if (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean')
        return String(item);
      throw errors.badParameter(`${name} is invalid`);
    });
  }

  integerArray(name: string): number[] | undefined {
    const list = this.stringArray(name);
    if (!list) return undefined;
    return list.map((item) => {
      if (!/^-?\d+$/.test(item.trim())) throw errors.badParameter(`${name} is invalid`);
      return Number(item.trim());
    });
  }

  /** A date-time; 400 `name is invalid` when it does not parse. */
  dateTime(name: string): string | undefined {
    const text = this.string(name);
    if (text === undefined) return undefined;
    const time = Date.parse(text);
    if (Number.isNaN(time)) throw errors.badParameter(`${name} is invalid`);
    return new Date(time).toISOString();
  }
}

/** Body as recorded and as merged into the parameters. */
export function parseBody(
  contentType: string | undefined,
  raw: Buffer,
): { recorded: unknown; object?: Record<string, unknown>; pairs?: [string, string][] } {
  if (raw.length === 0) return { recorded: undefined };
  const text = raw.toString('utf8');
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/json' || type.endsWith('+json')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw errors.badParameter("The provided content-type 'application/json' is not valid JSON");
    }
    const object =
      typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
        ? (parsed as Record<string, unknown>)
        : undefined;
    return { recorded: parsed, object };
  }
  if (type === 'application/x-www-form-urlencoded') {
    const pairs = [...new URLSearchParams(text)];
    const recorded: Record<string, string | string[]> = {};
    for (const [key, value] of pairs) appendToRecord(recorded, key, value);
    return { recorded, pairs };
  }
  return { recorded: text };
}

export function appendToRecord(record: Record<string, string | string[]>, key: string, value: string): void {
  const existing = record[key];
  if (existing === undefined) record[key] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else record[key] = [existing, value];
}

// ---- pagination ----------------------------------------------------------------------------------

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;
/** Above this many rows real servers stop counting: no X-Total, no X-Total-Pages, no rel="last". */
export const COUNT_LIMIT = 10_000;

export interface PageRequest {
  params: Params;
  /** Origin and path (as received, still percent-encoded) that Link URLs point at. */
  linkBase: string;
  /** The query string pairs the client sent, in order; echoed into Link URLs. */
  queryPairs: [string, string][];
}

export function paginate<T>(
  request: PageRequest,
  items: readonly T[],
  present: (item: T) => unknown,
): ApiResponse {
  const page = Math.max(1, request.params.integer('page') ?? 1);
  const requestedPerPage = request.params.integer('per_page') ?? DEFAULT_PER_PAGE;
  const perPage = requestedPerPage < 1 ? DEFAULT_PER_PAGE : Math.min(requestedPerPage, MAX_PER_PAGE);
  const total = items.length;
  const totalPages = Math.ceil(total / perPage);
  const slice = items.slice((page - 1) * perPage, page * perPage);
  const nextPage = page * perPage < total ? page + 1 : undefined;
  const prevPage = page > 1 ? page - 1 : undefined;
  const counted = total <= COUNT_LIMIT;

  const link = (target: number): string => pageUrl(request, target, perPage);
  const links: string[] = [];
  if (prevPage !== undefined) links.push(`<${link(prevPage)}>; rel="prev"`);
  if (nextPage !== undefined) links.push(`<${link(nextPage)}>; rel="next"`);
  links.push(`<${link(1)}>; rel="first"`);
  // An empty list points rel="last" at page=0, as real servers do.
  if (counted) links.push(`<${link(totalPages)}>; rel="last"`);

  const headers: Record<string, string> = {
    'X-Page': String(page),
    'X-Per-Page': String(perPage),
    'X-Next-Page': nextPage === undefined ? '' : String(nextPage),
    'X-Prev-Page': prevPage === undefined ? '' : String(prevPage),
    Link: links.join(', '),
  };
  if (counted) {
    headers['X-Total'] = String(total);
    headers['X-Total-Pages'] = String(Math.max(1, totalPages));
  }
  return { status: 200, json: slice.map(present), headers };
}

/**
 * The client's query pairs with page and per_page set, keys in Rails `to_query` order (sorted), each
 * percent-encoded (`scope[]` becomes `scope%5B%5D`).
 */
function pageUrl(request: PageRequest, page: number, perPage: number): string {
  const pairs = request.queryPairs.filter(([key]) => key !== 'page' && key !== 'per_page');
  pairs.push(['page', String(page)], ['per_page', String(perPage)]);
  const sorted = pairs
    .map((pair, index) => ({ pair, index }))
    .sort((a, b) => (a.pair[0] < b.pair[0] ? -1 : a.pair[0] > b.pair[0] ? 1 : a.index - b.index))
    .map(({ pair }) => `${encodeURIComponent(pair[0])}=${encodeURIComponent(pair[1])}`);
  return `${request.linkBase}?${sorted.join('&')}`;
}
