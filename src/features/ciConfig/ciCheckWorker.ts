/*
 * The CI file's checks as typed, on a thread of their own (built as dist/ciCheckWorker.js): reading
 * 2,000 lines of YAML takes tens of milliseconds and compiling GitLab's schema half a second, which
 * on the extension host's thread held up everything else, saves included (VS Code gives the host's
 * save participants 1.75 s and refused a save made while it was busy). No `vscode` here.
 */
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import * as l10n from '@vscode/l10n';
import { type CiLocalProblem, checkCiReferences } from '../../domain/ciLocalChecks';
import { type CiSchemaValidator, checkCiSchema, compileCiSchema } from '../../domain/ciSchemaCheck';
import { parseCiFile } from '../../domain/ciYaml';

export interface CiCheckWorkerData {
  schemaPath: string;
  /** VS Code's translations of the domain's messages (`vscode.l10n.bundle`). */
  l10nBundle?: Record<string, string>;
}

export interface CiCheckRequest {
  id: number;
  text: string;
  /** Whether GitLab's schema is checked too (not when Red Hat's YAML extension does it). */
  withSchema: boolean;
}

export interface CiCheckAnswer {
  id: number;
  references: CiLocalProblem[];
  schema: CiLocalProblem[];
  /** The schema could not be read or compiled (a broken install): said once, in English, for the log. */
  schemaError?: string;
}

const data = workerData as CiCheckWorkerData;
if (data.l10nBundle) l10n.config({ contents: data.l10nBundle });

let validator: CiSchemaValidator | undefined;
let schemaError: string | undefined;

function schemaValidator(): CiSchemaValidator | undefined {
  if (validator || schemaError !== undefined) return validator;
  try {
    validator = compileCiSchema(JSON.parse(readFileSync(data.schemaPath, 'utf8')) as object);
  } catch (error) {
    schemaError = error instanceof Error ? error.message : String(error);
  }
  return validator;
}

parentPort?.on('message', (request: CiCheckRequest) => {
  const file = parseCiFile(request.text);
  const validate = request.withSchema ? schemaValidator() : undefined;
  const answer: CiCheckAnswer = {
    id: request.id,
    references: checkCiReferences(file),
    schema: validate ? checkCiSchema(validate, file) : [],
    ...(request.withSchema && schemaError !== undefined ? { schemaError } : {}),
  };
  parentPort?.postMessage(answer);
});
