import * as vscode from 'vscode';
import { CiSchema } from '../../domain/ciSchema';
import { type CiSchemaValidator, compileCiSchema } from '../../domain/ciSchemaCheck';

interface ReadSchema {
  schema: CiSchema;
  validate: () => CiSchemaValidator;
}

/** Red Hat's YAML extension: it reads our `contributes.yamlValidation` and validates with the schema itself. */
const RED_HAT_YAML = 'redhat.vscode-yaml';

/**
 * GitLab's JSON schema of the CI file, bundled in `schemas/gitlab-ci.json`: read once when a CI file
 * first needs it, compiled once for validation. When Red Hat's YAML extension is installed it gets the
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

  async validator(): Promise<CiSchemaValidator | undefined> {
    const read = await this.read();
    try {
      return read?.validate();
    } catch (error) {
      this.log.warn(`CI schema not compiled: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
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
      let compiled: CiSchemaValidator | undefined;
      return { schema: new CiSchema(json), validate: () => (compiled ??= compileCiSchema(json)) };
    } catch (error) {
      // A broken install: the reference checks and the server's lint still work.
      this.log.warn(`CI schema not read: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }
}
