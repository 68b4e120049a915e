import type { IncomingHttpHeaders } from 'node:http';
import { errors, paginate, type ApiResponse, type PageRequest, type Params } from './http';
import { Presenter } from './present';
import { ACCESS, type ForgeState, type Project, type User } from './state';

/** What a route handler gets: the state, the parsed request and the (possibly sudo'd) caller. */
export class RequestContext {
  readonly present: Presenter;

  constructor(
    readonly state: ForgeState,
    readonly params: Params,
    /** Path parameters, percent-decoded. */
    readonly path: Readonly<Record<string, string>>,
    readonly caller: User | undefined,
    readonly headers: IncomingHttpHeaders,
    private readonly pageRequest: Omit<PageRequest, 'params'>,
  ) {
    this.present = new Presenter(state, caller);
  }

  list<T>(items: readonly T[], present: (item: T) => unknown): ApiResponse {
    return paginate({ ...this.pageRequest, params: this.params }, items, present);
  }

  pathString(name: string): string {
    const value = this.path[name];
    if (value === undefined) throw new Error(`route has no :${name}`);
    return value;
  }

  /** An integer path parameter; anything else is 400 `<name> is invalid`, as real servers answer. */
  pathInt(name: string): number {
    const text = this.pathString(name);
    if (!/^\d+$/.test(text)) throw errors.badParameter(`${name} is invalid`);
    return Number(text);
  }

  requireCaller(): User {
    if (!this.caller) throw errors.unauthorized();
    return this.caller;
  }

  get isAdmin(): boolean {
    return this.caller?.isAdmin === true;
  }

  /** Guests get 401, other non-administrators 403. */
  requireAdmin(): User {
    const caller = this.requireCaller();
    if (!caller.isAdmin) throw errors.forbidden();
    return caller;
  }

  /** The `:id` project; a project the caller may not see is 404, exactly like one that does not exist. */
  project(): Project {
    const project = this.state.findProject(this.pathString('id'));
    if (!project || !this.state.canReadProject(project, this.caller)) throw errors.notFound('Project');
    return project;
  }

  accessLevel(project: Project): number {
    if (this.caller?.isAdmin) return ACCESS.owner;
    return this.state.accessLevel(project, this.caller);
  }

  /** At least `level` in the project (administrators always pass): else 401 for guests, 403 for others. */
  requireAccess(project: Project, level: number): User {
    const caller = this.requireCaller();
    if (this.accessLevel(project) < level) throw errors.forbidden();
    return caller;
  }

  /** Like requireAccess, and the project must not be archived (archived projects are read-only). */
  requireWrite(project: Project, level: number = ACCESS.developer): User {
    const caller = this.requireAccess(project, level);
    if (project.archived) throw errors.forbidden();
    return caller;
  }

  /** Administrator or project owner: archive, unarchive, delete a merge request or a board list. */
  requireOwner(project: Project): User {
    return this.requireAccess(project, ACCESS.owner);
  }
}

export type Handler = (ctx: RequestContext) => ApiResponse | Promise<ApiResponse>;
