import * as vscode from 'vscode';

/**
 * The review's diff sides (`forge-review:`) as a read-only file system, registered by the entry so
 * that it answers before the core has loaded. VS Code restores a diff tab after a window reload
 * only when both sides are files of a file system (a text document provider's documents have no
 * serializer in the workbench), and asks with `onFileSystem:forge-review` first thing.
 */
export function reviewFileSystem(sides: () => vscode.TextDocumentContentProvider): vscode.FileSystemProvider {
  const read = async (uri: vscode.Uri): Promise<Uint8Array> => {
    const source = new vscode.CancellationTokenSource();
    try {
      const text = await sides().provideTextDocumentContent(uri, source.token);
      return new TextEncoder().encode(text ?? '');
    } catch (error) {
      throw vscode.FileSystemError.Unavailable(error instanceof Error ? error.message : String(error));
    } finally {
      source.dispose();
    }
  };
  const readOnly = (): never => {
    throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('A side of a review diff cannot be changed.'));
  };
  return {
    // A commit's file never changes: nothing to watch.
    onDidChangeFile: new vscode.EventEmitter<vscode.FileChangeEvent[]>().event,
    watch: () => new vscode.Disposable(() => undefined),
    stat: async (uri) => ({
      type: vscode.FileType.File,
      ctime: 0,
      mtime: 0,
      size: (await read(uri)).byteLength,
      permissions: vscode.FilePermission.Readonly,
    }),
    readFile: read,
    readDirectory: () => [],
    createDirectory: readOnly,
    writeFile: readOnly,
    delete: readOnly,
    rename: readOnly,
  };
}
