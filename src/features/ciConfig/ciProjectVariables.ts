import type * as vscode from 'vscode';
import type { ProjectVariable } from '../../api/hosting';
import type { Services } from '../../services';
import type { FolderProject } from '../projects';

/** How long a project's variables are taken as known before they are asked for again. */
const FRESH_MS = 5 * 60_000;
/** How long completion waits for them before it offers what it has. */
const WAIT_MS = 1_500;

interface Known {
  at: number;
  names: Promise<ProjectVariable[]>;
}

/**
 * The CI/CD variables set in the project's settings (`GET /projects/:id/variables`), for completion
 * and hover in its CI file: only their names, scopes and descriptions are kept, never a value. Only a
 * Maintainer may read them: anyone else's server answers 403, and the project then offers none (asked
 * once per session, not per keystroke).
 */
export class CiProjectVariables implements vscode.Disposable {
  private readonly known = new Map<string, Known>();
  private readonly accountsChanged: vscode.Disposable;

  constructor(
    private readonly services: Services,
    private readonly projectOf: (document: vscode.TextDocument) => Promise<FolderProject | undefined>,
  ) {
    this.accountsChanged = services.accounts.onDidChange(() => this.known.clear());
  }

  dispose(): void {
    this.accountsChanged.dispose();
  }

  /** Starts reading the document's project's variables (when a CI file is opened). */
  prefetch(document: vscode.TextDocument): void {
    void this.of(document);
  }

  /** The variables, or none after `WAIT_MS` (a slow server: the next completion has them). */
  async namesFor(document: vscode.TextDocument): Promise<ProjectVariable[]> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<ProjectVariable[]>((resolve) => {
      timer = setTimeout(() => resolve([]), WAIT_MS);
    });
    try {
      return await Promise.race([this.of(document), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async of(document: vscode.TextDocument): Promise<ProjectVariable[]> {
    const found = await this.projectOf(document).catch(() => undefined);
    if (!found) return [];
    const key = `${found.account.id}\n${found.project.id}`;
    const known = this.known.get(key);
    if (known && Date.now() - known.at < FRESH_MS) return known.names;
    const names = this.read(found);
    this.known.set(key, { at: Date.now(), names });
    return names;
  }

  private async read(found: FolderProject): Promise<ProjectVariable[]> {
    try {
      const client = await this.services.accounts.client(found.account.id);
      const variables = await client.listProjectVariables(found.project.id).toArray();
      // Nothing but what completion shows is kept: the values stay on the server.
      return variables.map(
        ({ key, environment_scope, description, masked, hidden, protected: isProtected }) => ({
          key,
          environment_scope,
          description,
          masked,
          hidden,
          protected: isProtected,
        }),
      );
    } catch (error) {
      // 403 below Maintainer, 404 on a server without the endpoint: the project offers none.
      this.services.log.info(
        `CI variables of project ${found.project.id} not read: ${error instanceof Error ? error.message : String(error)}`,
      );
      return [];
    }
  }
}
