/*
 * A tiny path-template router. Templates are relative to /api/v4 and split on `/`:
 *   `literal`  matches that segment exactly;
 *   `:name`    matches one segment, percent-decoded (so `acme%2Fweb` gives `acme/web`);
 *   `*name`    matches one or more segments, joined with `/` (refs such as `feature/login`).
 * When several templates match, the one with more literal segments earlier wins, so
 * `/projects/:id/jobs/artifacts/*ref_name/download` beats `/projects/:id/jobs/:job_id/...`.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteOptions {
  /** Reachable without credentials (public projects' reads, project list, CI templates). */
  public?: boolean;
}

export interface Route<Handler> {
  method: HttpMethod;
  template: string;
  handler: Handler;
  options: RouteOptions;
  segments: readonly Segment[];
}

type Segment =
  { kind: 'literal'; text: string } | { kind: 'param'; name: string } | { kind: 'glob'; name: string };

export interface RouteMatch<Handler> {
  route: Route<Handler>;
  params: Record<string, string>;
}

export class Router<Handler> {
  private readonly routes: Route<Handler>[] = [];

  get(template: string, handler: Handler, options: RouteOptions = {}): void {
    this.add('GET', template, handler, options);
  }

  post(template: string, handler: Handler, options: RouteOptions = {}): void {
    this.add('POST', template, handler, options);
  }

  put(template: string, handler: Handler, options: RouteOptions = {}): void {
    this.add('PUT', template, handler, options);
  }

  delete(template: string, handler: Handler, options: RouteOptions = {}): void {
    this.add('DELETE', template, handler, options);
  }

  add(method: HttpMethod, template: string, handler: Handler, options: RouteOptions = {}): void {
    const segments = template
      .split('/')
      .filter((part) => part.length > 0)
      .map((part): Segment => {
        if (part.startsWith(':')) return { kind: 'param', name: part.slice(1) };
        if (part.startsWith('*')) return { kind: 'glob', name: part.slice(1) };
        return { kind: 'literal', text: part };
      });
    this.routes.push({ method, template, handler, options, segments });
  }

  get size(): number {
    return this.routes.length;
  }

  list(): readonly Route<Handler>[] {
    return this.routes;
  }

  /** `rawSegments` are the path segments after /api/v4, still percent-encoded. */
  match(method: string, rawSegments: readonly string[]): RouteMatch<Handler> | undefined {
    let best: { match: RouteMatch<Handler>; score: string } | undefined;
    for (const route of this.routes) {
      if (route.method !== method) continue;
      const params = matchSegments(route.segments, rawSegments);
      if (!params) continue;
      const score = route.segments
        .map((segment) => (segment.kind === 'literal' ? '2' : segment.kind === 'param' ? '1' : '0'))
        .join('');
      if (!best || score > best.score) best = { match: { route, params }, score };
    }
    return best?.match;
  }
}

function matchSegments(
  segments: readonly Segment[],
  raw: readonly string[],
): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  const walk = (segmentIndex: number, rawIndex: number): boolean => {
    if (segmentIndex === segments.length) return rawIndex === raw.length;
    const segment = segments[segmentIndex];
    if (!segment) return false;
    if (segment.kind === 'glob') {
      // Greedy first, then shorter: the segments after the glob must still match.
      for (let end = raw.length; end > rawIndex; end--) {
        const parts = raw.slice(rawIndex, end).map(decode);
        if (parts.some((part) => part === undefined)) return false;
        if (walk(segmentIndex + 1, end)) {
          params[segment.name] = parts.join('/');
          return true;
        }
      }
      return false;
    }
    const text = raw[rawIndex];
    if (text === undefined) return false;
    if (segment.kind === 'literal') return text === segment.text && walk(segmentIndex + 1, rawIndex + 1);
    const decoded = decode(text);
    if (decoded === undefined || decoded.length === 0) return false;
    if (!walk(segmentIndex + 1, rawIndex + 1)) return false;
    params[segment.name] = decoded;
    return true;
  };
  return walk(0, 0) ? params : undefined;
}

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
