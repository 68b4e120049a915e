import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import * as vscode from 'vscode';
import type { CiCheckAnswer, CiCheckRequest, CiCheckWorkerData } from './ciCheckWorker';

/** What the checks as typed found in a text. */
export type CiCheckResult = Omit<CiCheckAnswer, 'id'>;

/**
 * The thread the checks as typed run on (`ciCheckWorker.ts`), started on the first check and kept
 * for the session; requests are answered in order. A thread that fails is logged and started again
 * on the next check; its pending checks resolve with nothing found (the next keystroke checks again).
 */
export class CiCheckThread implements vscode.Disposable {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, (result: CiCheckResult) => void>();
  private loggedSchemaError = false;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: { warn(message: string): void },
  ) {}

  check(text: string, withSchema: boolean): Promise<CiCheckResult> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      worker.postMessage({ id, text, withSchema } satisfies CiCheckRequest);
    });
  }

  dispose(): void {
    void this.worker?.terminate();
    this.worker = undefined;
    this.settleAll();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const workerData: CiCheckWorkerData = {
      schemaPath: vscode.Uri.joinPath(this.extensionUri, 'schemas', 'gitlab-ci.json').fsPath,
      ...(vscode.l10n.bundle ? { l10nBundle: vscode.l10n.bundle } : {}),
    };
    const worker = new Worker(path.join(this.extensionUri.fsPath, 'dist', 'ciCheckWorker.js'), {
      workerData,
    });
    worker.on('message', (answer: CiCheckAnswer) => {
      if (answer.schemaError !== undefined && !this.loggedSchemaError) {
        this.loggedSchemaError = true;
        this.log.warn(`CI schema not read: ${answer.schemaError}`);
      }
      const resolve = this.pending.get(answer.id);
      this.pending.delete(answer.id);
      resolve?.({ references: answer.references, schema: answer.schema });
    });
    const failed = (reason: string): void => {
      if (this.worker !== worker) return;
      this.log.warn(`CI check thread stopped (its error, or its exit code): ${reason}`);
      this.worker = undefined;
      this.settleAll();
    };
    worker.on('error', (error) => failed(error.message));
    worker.on('exit', (code) => failed(String(code)));
    // The thread does not keep the extension host alive on its own.
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private settleAll(): void {
    for (const resolve of this.pending.values()) resolve({ references: [], schema: [] });
    this.pending.clear();
  }
}
