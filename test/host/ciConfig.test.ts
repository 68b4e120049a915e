// The CI file in the editor (issue 38): the server's CI lint on the lines it is about after a save,
// cleared when fixed; the check from the palette; a server without the lint endpoint is one quiet
// note, and the file is left as it was.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CiCheckOutcome } from '../../src/features/ciConfig';
import type { ShownMessage } from '../../src/platform/userMessages';
import { type FakeForge } from '../server';
import { eventually, makeWorkspaceAClone, useForgeSession } from './support';

const VALID = ['stages: [build, test]', '', 'build:', '  stage: build', '  script: make', ''].join('\n');

describe('CI file checks', function () {
  this.timeout(30_000);
  const session = useForgeSession();
  let forge: FakeForge;
  let restoreClone: (() => void) | undefined;
  let ciFile: vscode.Uri;

  before(async () => {
    ({ forge } = session);
    restoreClone = makeWorkspaceAClone(forge, 'acme/web', 'master');
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    ciFile = vscode.Uri.joinPath(folder.uri, '.gitlab-ci.yml');
    await vscode.workspace.fs.writeFile(ciFile, Buffer.from(VALID));
  });

  session.cleanUps.push(async () => {
    forge.onRequest(undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(ciFile).then(undefined, () => undefined);
    restoreClone?.();
  });

  /** Replaces the file's text in the editor and saves it, as a person does. */
  async function saveAs(text: string): Promise<vscode.TextDocument> {
    const document = await vscode.workspace.openTextDocument(ciFile);
    await vscode.window.showTextDocument(document);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(ciFile, new vscode.Range(0, 0, document.lineCount, 0), text);
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await document.save(), 'saved');
    return document;
  }

  const shownDiagnostics = (): string[] =>
    vscode.languages
      .getDiagnostics(ciFile)
      .map((diagnostic) => `${diagnostic.range.start.line}: ${diagnostic.message}`);

  it("puts the server's errors on their lines after a save, and clears them once fixed", async () => {
    forge.clearRequests();
    await saveAs(VALID.replace('  script: make', '  scirpt: make\ntest:\n  stage: tst\n  script: make test'));
    await eventually(() => {
      assert.deepEqual(shownDiagnostics(), [
        '4: jobs:build config contains unknown keys: scirpt',
        '2: jobs build config should implement the script:, run:, or trigger: keyword',
        '6: test job: chosen stage tst does not exist; available stages are .pre, build, test, .post',
      ]);
    }, 15_000);
    const [diagnostic] = vscode.languages.getDiagnostics(ciFile);
    assert.equal(diagnostic?.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(diagnostic?.source, 'GitLab CI lint');
    assert.equal(diagnostic?.range.start.character, 2, 'on the unknown key itself');
    const sent = forge.requests.filter((request) => request.path.endsWith('/ci/lint'));
    assert.equal(sent.length, 1, 'one check for one save');
    assert.equal(sent[0]?.path, `/api/v4/projects/${forge.fixtures.projects.web}/ci/lint`);
    await saveAs(VALID);
    await eventually(() => assert.deepEqual(shownDiagnostics(), []), 15_000);
  });

  it('checks the open file from the palette and says what it found', async () => {
    await saveAs(VALID);
    const valid = await vscode.commands.executeCommand<CiCheckOutcome>('forge.ciConfig.check');
    assert.equal(valid.valid, true);
    const document = await saveAs(`${VALID}deploy:\n  stage: deploy\n  script: ./deploy\n`);
    await vscode.window.showTextDocument(document);
    const invalid = await vscode.commands.executeCommand<CiCheckOutcome>('forge.ciConfig.check');
    assert.equal(invalid.valid, false);
    assert.deepEqual(invalid.placed, [
      {
        message:
          'deploy job: chosen stage deploy does not exist; available stages are .pre, build, test, .post',
        line: 6,
      },
    ]);
    await saveAs(VALID);
    await eventually(() => assert.deepEqual(shownDiagnostics(), []), 15_000);
  });

  it('says once, quietly, that a server without the CI lint cannot check the file', async () => {
    const shown: ShownMessage[] = [];
    const observing = session.api.messages.observe((message) => shown.push(message));
    forge.onRequest((req, res) => {
      if (!/\/ci\/lint(\?|$)/.test(req.url ?? '')) return Promise.resolve(false);
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"404 Not Found"}');
      return Promise.resolve(true);
    });
    try {
      await saveAs(VALID.replace('  script: make', '  scirpt: make'));
      await eventually(() => {
        assert.ok(
          shown.some(
            (message) =>
              message.severity === 'status' && /this server has no CI lint \(GitLab 13\.6/.test(message.text),
          ),
          JSON.stringify(shown),
        );
      }, 15_000);
      assert.ok(
        shown.every((message) => message.severity !== 'error' && message.severity !== 'warning'),
        'no notification for a save',
      );
      // What was shown was of other text: it goes, rather than point at the wrong lines.
      assert.deepEqual(shownDiagnostics(), []);
      assert.match((await vscode.workspace.openTextDocument(ciFile)).getText(), /scirpt: make/);
    } finally {
      observing.dispose();
      forge.onRequest(undefined);
    }
  });
});
