import * as vscode from 'vscode';
import { CiSchema } from '../../domain/ciSchema';

interface ReadSchema {
  schema: CiSchema;
}

/** Red Hat's YAML extension: it reads our `contributes.yamlValidation` and validates with the schema itself. */
const RED_HAT_YAML = 'redhat.vscode-yaml';

/**
 * GitLab's JSON schema of the CI file, bundled in `schemas/gitlab-ci.json`, as a map for completion
 * and hover: read once, when they first need it (the checks as typed compile it on their own thread,
 * `ciCheckWorker.ts`). When Red Hat's YAML extension is installed it gets the
 * same schema through `contributes.yamlValidation` and gives the schema's problems, keywords and
 * hovers itself: ours then step aside so nothing is said twice.
 */
export class CiSchemaSource {
  private reading: Promise<ReadSchema | undefined> | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: { warn(message: string): void },
  ) {}

  /** Whether Red Hat's YAML extension does the schema's work in this window. */
  get schemaHandledElsewhere(): boolean {
    return vscode.extensions.getExtension(RED_HAT_YAML) !== undefined;
  }

  async schema(): Promise<CiSchema | undefined> {
    return (await this.read())?.schema;
  }

  private read(): Promise<ReadSchema | undefined> {
    this.reading ??= this.readOnce();
    return this.reading;
  }

  private async readOnce(): Promise<ReadSchema | undefined> {
    try {
      const bytes = await vscode.workspace.fs.readFile(
        vscode.Uri.joinPath(this.extensionUri, 'schemas', 'gitlab-ci.json'),
      );
      const json = JSON.parse(Buffer.from(bytes).toString('utf8')) as Readonly<Record<string, unknown>>;
      return { schema: new CiSchema(json) };
    } catch (error) {
      // A broken install: the reference checks and the server's lint still work.
      this.log.warn(`CI schema not read: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }
}
