// The CI file in the editor (issue 38): the server's CI lint on the lines it is about after a save,
// cleared when fixed; references checked as the user types; completion; the check from the palette;
// a server without the lint endpoint is one quiet note, the local checks still work, and the file is
// left as it was.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { CiCheckOutcome, LocalRunOutcome } from '../../src/features/ciConfig';
import type { ShownMessage } from '../../src/platform/userMessages';
import { HostingClient } from '../../src/api/hosting';
import { type FakeForge } from '../server';
import { bigCiFile } from '../support/ciFiles';
import { recordMeasurement } from './index';
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

  it('checks references as the user types, and leaves the saved text to the server', async () => {
    const document = await saveAs(VALID);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(ciFile, new vscode.Position(5, 0), 'test:\n  needs: [lint]\n  script: make test\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    const local = (): string[] =>
      vscode.languages
        .getDiagnostics(ciFile)
        .filter((diagnostic) => diagnostic.source === 'Forge CI check')
        .map((diagnostic) => `${diagnostic.range.start.line}: ${diagnostic.message}`);
    await eventually(
      () => assert.deepEqual(local(), ['6: needs: no job named "lint" in this file.']),
      15_000,
    );
    assert.ok(await document.save());
    await eventually(() => {
      assert.deepEqual(local(), []);
      assert.deepEqual(shownDiagnostics(), [
        '6: test job: need lint is not defined in current or prior stages',
      ]);
    }, 15_000);
    await saveAs(VALID);
    await eventually(() => assert.deepEqual(shownDiagnostics(), []), 15_000);
  });

  it('completes stages, jobs and templates where the file names them, as it is typed', async () => {
    /** The names offered at the end of the file's last line, typed as `last`. */
    const offered = async (last: string): Promise<string[]> => {
      const document = await saveAs(`${VALID}.base:\n  image: node:20\ntest:\n${last}`);
      const line = document.lineCount - 1;
      const list = await vscode.commands.executeCommand<vscode.CompletionList>(
        'vscode.executeCompletionItemProvider',
        ciFile,
        new vscode.Position(line, document.lineAt(line).text.length),
      );
      return list.items
        .filter((item) => item.detail !== undefined && /^(stage|job|template or job)$/.test(item.detail))
        .map((item) => (typeof item.label === 'string' ? item.label : item.label.label))
        .sort();
    };
    assert.deepEqual(await offered('  stage: '), ['.post', '.pre', 'build', 'test']);
    // An open list does not parse: the names come from the file without the line being typed.
    // (`test:` has no body without that line: it is no job yet.)
    assert.deepEqual(await offered('  needs: [bu'), ['build']);
    assert.deepEqual(await offered('  extends:\n    - '), ['.base', 'build', 'test']);
    assert.deepEqual(await offered('  script: make '), []);
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
      // The server's earlier verdict was of other text: it goes, rather than point at the wrong
      // lines; the checks made without the server stay.
      await eventually(
        () =>
          assert.deepEqual(shownDiagnostics(), [
            '2: Job "build" has no script:, run:, trigger: or extends:.',
            '4: "scirpt" is not a keyword here.',
          ]),
        15_000,
      );
      assert.match((await vscode.workspace.openTextDocument(ciFile)).getText(), /scirpt: make/);
    } finally {
      observing.dispose();
      forge.onRequest(undefined);
    }
  });

  it("warns of what GitLab's schema refuses as the user types, on the key or value itself", async () => {
    await saveAs(VALID);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(ciFile, new vscode.Position(5, 0), '  when: sometimes\n  artifacts:\n    paths: dist/\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    const schemaWarnings = (): string[] =>
      vscode.languages
        .getDiagnostics(ciFile)
        .filter((diagnostic) => diagnostic.source === 'GitLab CI schema')
        .map(
          (diagnostic) =>
            `${diagnostic.range.start.line}:${diagnostic.range.start.character} ${diagnostic.severity} ${diagnostic.message}`,
        );
    await eventually(
      () =>
        assert.deepEqual(schemaWarnings(), [
          `5:8 ${vscode.DiagnosticSeverity.Warning} Should be one of: on_success, on_failure, always, never, manual, delayed.`,
          `7:11 ${vscode.DiagnosticSeverity.Warning} Should be array.`,
        ]),
      15_000,
    );
    await saveAs(VALID);
    await eventually(() => assert.deepEqual(shownDiagnostics(), []), 15_000);
  });

  /** The labels offered at `position` of the file saved as `text`, with their details. */
  async function completionsAt(text: string, line: number, character?: number): Promise<Map<string, string>> {
    const document = await saveAs(text);
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      ciFile,
      new vscode.Position(line, character ?? document.lineAt(line).text.length),
    );
    return new Map(
      list.items.map((item) => [
        typeof item.label === 'string' ? item.label : item.label.label,
        item.detail ?? '',
      ]),
    );
  }

  it("completes GitLab's keywords and values, and $ variables: predefined, the file's and the project's", async () => {
    const keywords = await completionsAt(`${VALID}  art`, 5);
    assert.equal(keywords.get('artifacts'), 'keyword');
    assert.equal(keywords.get('rules'), 'keyword');
    const values = await completionsAt(`${VALID}  when: `, 5);
    assert.equal(values.get('manual'), 'value');
    const nested = await completionsAt(`${VALID}  artifacts:\n    `, 6);
    assert.equal(nested.get('expire_in'), 'keyword');
    assert.equal(nested.has('script'), false, 'the keywords of artifacts:, not of a job');

    const withVariables = `variables:\n  DEPLOY_ENVIRONMENT: staging\n${VALID}  script: echo $`;
    const variables = await completionsAt(withVariables, 7);
    assert.equal(variables.get('CI_COMMIT_SHA'), 'predefined, set before the pipeline is created');
    assert.equal(variables.get('CI_JOB_TOKEN'), 'predefined, set in the job only');
    assert.equal(variables.get('DEPLOY_ENVIRONMENT'), 'variable of this file');
    // alice maintains acme/web: the project's own variables are offered, by name only.
    assert.equal(variables.get('DEPLOY_TOKEN'), "project's CI/CD variable (environments production)");
    assert.equal(variables.get('NPM_REGISTRY'), "project's CI/CD variable");
    assert.ok(
      forge.requests.some(
        (request) => request.path === `/api/v4/projects/${forge.fixtures.projects.web}/variables`,
      ),
    );
    await saveAs(VALID);
  });

  it("explains a keyword, a variable and a job's stage on hover", async () => {
    const document = await saveAs(`${VALID}test:\n  needs: [build]\n  script: echo $CI_COMMIT_SHA\n`);
    const hoverText = async (line: number, character: number): Promise<string> => {
      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
        'vscode.executeHoverProvider',
        ciFile,
        new vscode.Position(line, character),
      );
      return (
        hovers
          .flatMap((hover) =>
            hover.contents.map((content) => (typeof content === 'string' ? content : content.value)),
          )
          .join('\n')
          // Server and file text is shown as text: Markdown's punctuation comes escaped.
          .replace(/\\(.)/g, '$1')
      );
    };
    assert.equal(document.lineAt(4).text, '  script: make');
    assert.match(await hoverText(4, 4), /Shell scripts executed by the Runner/);
    assert.match(await hoverText(6, 12), /Job build, stage build/);
    assert.match(await hoverText(7, 20), /CI_COMMIT_SHA: Full SHA of the commit being built/);
    assert.match(await hoverText(2, 2), /Job build, stage build/);
    await saveAs(VALID);
  });

  it('shows the merged configuration of the text in the editor, its includes linked to their files', async () => {
    const text = `include:\n  - local: ci/docs.yml\n${VALID}`;
    const document = await saveAs(text);
    await vscode.window.showTextDocument(document);
    const uri = await vscode.commands.executeCommand<vscode.Uri>('forge.ciConfig.showMerged');
    const merged = await vscode.workspace.openTextDocument(uri);
    assert.equal(merged.languageId, 'yaml');
    const lines = merged.getText().split('\n');
    assert.match(lines[0] ?? '', /^# \.gitlab-ci\.yml with its includes expanded/);
    assert.equal(lines[2], '#   local: ci/docs.yml');
    assert.match(merged.getText(), /\npages:\n/, "the included file's job is in");
    assert.match(merged.getText(), /\nbuild:\n/, "the editor's own job is in");
    const links = await vscode.commands.executeCommand<vscode.DocumentLink[]>(
      'vscode.executeLinkProvider',
      uri,
    );
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    assert.deepEqual(
      links.map((link) => [link.range.start.line, link.target?.fsPath]),
      [[2, vscode.Uri.joinPath(folder.uri, 'ci', 'docs.yml').fsPath]],
    );
    await saveAs(VALID);
  });

  it('runs the job under the cursor with gitlab-ci-local, its output plain in an Output channel', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'forge-fake-gcl-'));
    const fake = path.join(folder, 'gitlab-ci-local');
    // A stand-in for the CLI: it prints its arguments and folder in colour, a section marker, and
    // fails for a job named "broken".
    writeFileSync(
      fake,
      [
        '#!/usr/bin/env node',
        'const args = process.argv.slice(2);',
        "process.stdout.write(`\\x1b[32mran ${args.join(' ')} in ${process.cwd()}\\x1b[0m\\n`);",
        "process.stdout.write('section_start:1700000000:compile\\r\\x1b[0K\\x1b[36;1mCompiling\\x1b[0;m\\n');",
        "process.stderr.write('a warning\\n');",
        "process.exit(args.includes('--job=broken') ? 3 : 0);",
      ].join('\n'),
      { mode: 0o755 },
    );
    const settings = vscode.workspace.getConfiguration('forge.ciConfig');
    await settings.update('gitlabCiLocalPath', fake, vscode.ConfigurationTarget.Global);
    const shown: ShownMessage[] = [];
    const observing = session.api.messages.observe((message) => shown.push(message));
    try {
      const document = await saveAs(`${VALID}broken:\n  script: exit 3\n`);
      const editor = await vscode.window.showTextDocument(document);
      editor.selection = new vscode.Selection(4, 4, 4, 4);
      const passed = await vscode.commands.executeCommand<LocalRunOutcome>('forge.ciConfig.runJobLocally');
      assert.equal(passed.job, 'build', 'the job the cursor is in');
      assert.equal(passed.exitCode, 0);
      assert.ok(passed.output.includes(`ran --job=build in ${path.dirname(ciFile.fsPath)}`), passed.output);
      assert.ok(passed.output.includes('Compiling') && passed.output.includes('a warning'), passed.output);
      assert.ok(!passed.output.includes('\x1b') && !passed.output.includes('section_start'), passed.output);
      assert.match(passed.output, /── build passed\. ──/);
      const failed = await vscode.commands.executeCommand<LocalRunOutcome>(
        'forge.ciConfig.runJobLocally',
        'broken',
      );
      assert.equal(failed.exitCode, 3);
      assert.match(failed.output, /ended with exit code 3/);

      await settings.update(
        'gitlabCiLocalPath',
        path.join(folder, 'not-there'),
        vscode.ConfigurationTarget.Global,
      );
      const missing = await vscode.commands.executeCommand<LocalRunOutcome | undefined>(
        'forge.ciConfig.runJobLocally',
        'build',
      );
      assert.equal(missing, undefined);
      assert.ok(
        shown.some(
          (message) =>
            message.severity === 'error' && message.text.includes('npm install -g gitlab-ci-local'),
        ),
        JSON.stringify(shown),
      );
    } finally {
      observing.dispose();
      await settings.update('gitlabCiLocalPath', undefined, vscode.ConfigurationTarget.Global);
      rmSync(folder, { recursive: true, force: true });
    }
    await saveAs(VALID);
  });

  it('checks a 2,000-line file on save, its problem on its line (measured for bench/ciConfig)', async () => {
    // A CI file of its own, written before it is opened: a 2,000-line replacement in the editor
    // is not what a person types (and VS Code now and then refused to save one right after it).
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    const bigFile = vscode.Uri.joinPath(folder.uri, 'big', '.gitlab-ci.yml');
    const text = bigCiFile();
    await vscode.workspace.fs.writeFile(bigFile, Buffer.from(text));
    const lintOfBigFile = (): string[] =>
      vscode.languages
        .getDiagnostics(bigFile)
        .filter((diagnostic) => diagnostic.source === 'GitLab CI lint')
        .map((diagnostic) => `${diagnostic.range.start.line}: ${diagnostic.message}`);
    try {
      const document = await vscode.workspace.openTextDocument(bigFile);
      await vscode.window.showTextDocument(document);
      /** Adds a comment line at the end, as a person does, and saves. */
      const editAndSave = async (comment: string): Promise<void> => {
        const edit = new vscode.WorkspaceEdit();
        edit.insert(bigFile, new vscode.Position(document.lineCount, 0), `\n# ${comment}`);
        assert.ok(await vscode.workspace.applyEdit(edit));
        assert.ok(await document.save(), 'saved');
      };
      // The first save finds the file's project (git); the measured one is a later save.
      await editAndSave('first');
      await eventually(() => assert.equal(lintOfBigFile().length, 2), 15_000);
      // The measured save: the check's own timings (the request, and the save to the problems on
      // their lines), and a plain client's round trip of the same text when nothing else runs.
      const checked = new Promise<CiCheckOutcome>((resolve) => {
        const watching = session.api.ciChecks.onDidCheck(({ uri, outcome }) => {
          if (uri.toString() !== bigFile.toString()) return;
          watching.dispose();
          resolve(outcome);
        });
      });
      await editAndSave('second');
      const outcome = await checked;
      assert.deepEqual(lintOfBigFile(), [
        '1998: jobs:job399 config contains unknown keys: scirpt',
        '1996: jobs job399 config should implement the script:, run:, or trigger: keyword',
      ]);
      assert.ok(outcome.timings);
      const token = forge.tokens['alice'];
      assert.ok(token);
      const plain = HostingClient.create({
        baseUrl: forge.url,
        credentials: { kind: 'private-token', token },
      });
      const quiet: number[] = [];
      try {
        for (let run = 0; run < 5; run++) {
          const started = performance.now();
          await plain.lintCiConfig(forge.fixtures.projects.web, document.getText());
          quiet.push(performance.now() - started);
        }
      } finally {
        await plain.close();
      }
      recordMeasurement('CI lint request of the save, ms', outcome.timings.requestMs);
      recordMeasurement('CI save to diagnostics of a 2,000-line file, ms', outcome.timings.shownMs);
      recordMeasurement(
        'CI lint round trip when idle, plain client, median ms',
        quiet.sort((a, b) => a - b)[2] ?? 0,
      );
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder.uri, 'big'), { recursive: true });
    }
  });
});
