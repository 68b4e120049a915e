// Every string of the code a user reads goes through `l10n.t`, with a literal message (never server
// text as the format), and the bundle translators start from (l10n/bundle.l10n.json) is up to date.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import ts from 'typescript';
import * as l10n from '@vscode/l10n';
import { ConflictError } from '../../../src/api/http';
import { describeError } from '../../../src/platform/commands/errorMessages';
import { isL10nCall, isNeverShown, untranslatedStrings } from './userStrings';
import { projectRoot } from '../../support/projectRoot';

const root = projectRoot;

/** Type declarations, the endpoint tables (descriptions for developers) and the trace worker (it shows nothing). */
const NOT_SCANNED = [
  /\/app\/traceWorker\.ts$/,
  /\.d\.ts$/,
  /^src\/api\/hosting\/(endpoints|beyondSpecEndpoints)\.ts$/,
  /^src\/api\/channel\/endpoints\.ts$/,
];

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (path.endsWith('.ts')) out.push(relative(root, path).split('\\').join('/'));
  }
  return out;
}

const files = sourceFiles(join(root, 'src')).filter((file) => !NOT_SCANNED.some((rule) => rule.test(file)));

function l10nCalls(file: ts.SourceFile): ts.CallExpression[] {
  const calls: ts.CallExpression[] = [];
  const visit = (node: ts.Node): void => {
    if (isL10nCall(node, file)) calls.push(node);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return calls;
}

function parse(path: string): ts.SourceFile {
  return ts.createSourceFile(path, readFileSync(join(root, path), 'utf8'), ts.ScriptTarget.Latest, true);
}

describe('translation of the code', () => {
  it('finds user-facing strings, and leaves log lines, comparisons and ids alone', () => {
    const found = untranslatedStrings(
      'src/features/example.ts',
      [
        "showError('Could not load the jobs.');",
        "showWarning(vscode.l10n.t('Delete {0}?', name), { modal: true }, 'Delete');",
        "pickOne(rows, { title: 'Jobs' });",
        "const rows = [{ label: `${count} jobs`, id: 'forge.jobs' }];",
        "log.warn('the server answered 500 for the jobs');",
        "if (answer === 'Delete Hook') return;",
        "executeCommand('setContext', 'forge.hasAccount', true);",
        "item.tooltip = 'Open the job trace';",
        "const url = 'https://gitlab.example.com and more';",
        "readonly emptyMessage = 'No jobs';",
        "item.contextValue = 'folder jobs';",
        "const row = element('div', { className: 'diff-row added' });",
        "const KINDS = ['Issue', 'MergeRequest'] as const;",
        "new MessageNode('Empty folder');",
        "showInformation(`${archived ? vscode.l10n.t('Archived') : vscode.l10n.t('Unarchived')} ${path}.`);",
      ].join('\n'),
    ).map((string) => string.text);
    assert.deepEqual(found, [
      'Could not load the jobs.',
      'Delete',
      'Jobs',
      '{} jobs',
      'Open the job trace',
      'No jobs',
      'Empty folder',
      'glued: {} {}.',
    ]);
  });

  it('translates every string a user reads', () => {
    const untranslated = files.flatMap((path) =>
      untranslatedStrings(path, readFileSync(join(root, path), 'utf8')).map(
        (string) => `${path}:${string.line}:${string.column} ${JSON.stringify(string.text)}`,
      ),
    );
    assert.deepEqual(untranslated, [], 'wrap these in vscode.l10n.t (or l10n.t from @vscode/l10n)');
  });

  it('gives l10n.t a literal message, so server text is never read as the format', () => {
    const notLiteral = files.flatMap((path) =>
      l10nCalls(parse(path))
        .filter((call) => {
          const message = call.arguments[0];
          return message === undefined || !ts.isStringLiteral(message);
        })
        .map(
          (call) => `${path}:${call.getSourceFile().getLineAndCharacterOfPosition(call.getStart()).line + 1}`,
        ),
    );
    assert.deepEqual(notLiteral, []);
  });

  it('never translates what is read as a key or by a program (context values, ids, log lines)', () => {
    const misplaced = files.flatMap((path) => {
      const file = parse(path);
      return l10nCalls(file)
        .filter(
          (call) =>
            isNeverShown(call, file) &&
            !(
              ts.isBinaryExpression(call.parent) && /^[!=]==?$/.test(call.parent.operatorToken.getText(file))
            ),
        )
        .map(
          (call) =>
            `${path}:${file.getLineAndCharacterOfPosition(call.getStart()).line + 1} ${call.getText(file)}`,
        );
    });
    assert.deepEqual(misplaced, []);
  });

  it('compares the button a user chose with the translated label, not the English one', () => {
    const buttons = (file: ts.SourceFile): Set<string> => {
      const labels = new Set<string>();
      const visit = (node: ts.Node): void => {
        if (
          ts.isCallExpression(node) &&
          /show(Information|Warning|Error)$/.test(node.expression.getText(file))
        )
          for (const argument of node.arguments.slice(1)) {
            const [message] = ts.isCallExpression(argument) ? argument.arguments : [];
            if (message && ts.isStringLiteral(message)) labels.add(message.text);
          }
        ts.forEachChild(node, visit);
      };
      visit(file);
      return labels;
    };
    const english = files.flatMap((path) => {
      const file = parse(path);
      const labels = buttons(file);
      const found: string[] = [];
      const visit = (node: ts.Node): void => {
        const compared =
          ts.isBinaryExpression(node) && /^[!=]==?$/.test(node.operatorToken.getText(file))
            ? [node.left, node.right]
            : ts.isCaseClause(node)
              ? [node.expression]
              : [];
        for (const side of compared)
          if (ts.isStringLiteral(side) && labels.has(side.text)) found.push(`${path}: '${side.text}'`);
        ts.forEachChild(node, visit);
      };
      visit(file);
      return found;
    });
    assert.deepEqual(english, []);
  });

  it('translates the layers without vscode from the bundle VS Code gives (src/l10nSetup.ts)', () => {
    try {
      l10n.config({
        contents: {
          '{0} failed: {1}. Refresh and try again.':
            '{0} ist fehlgeschlagen: {1}. Aktualisieren und erneut versuchen.',
          'merging {0}': '{0} zusammenführen',
          'the merge request': 'den Merge-Request',
        },
      });
      const error = new ConflictError('PUT', '/projects/1/merge_requests/2/merge', 409, 'SHA does not match');
      assert.equal(
        describeError(error),
        'Den Merge-Request zusammenführen ist fehlgeschlagen: SHA does not match. Aktualisieren und erneut versuchen.',
      );
    } finally {
      l10n.config({ contents: {} });
    }
    assert.equal(
      describeError(new ConflictError('PUT', '/projects/1/merge_requests/2/merge', 409, 'x')),
      'Merging the merge request failed: x. Refresh and try again.',
    );
  });

  it('puts server text in as a value once: a {1} in it is not read as a place for another value', () => {
    assert.equal(l10n.t('Merge {0} into {1}?', '{1}', 'main'), 'Merge {1} into main?');
  });

  it('has the bundle for translators made from the code (npm run l10n:export)', function () {
    this.timeout(120_000);
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { l10n?: string };
    assert.equal(manifest.l10n, './l10n');
    const out = mkdtempSync(join(tmpdir(), 'forge-l10n-'));
    try {
      execFileSync(
        process.execPath,
        [
          join(root, 'node_modules', '@vscode', 'l10n-dev', 'dist', 'cli.js'),
          'export',
          '--outDir',
          out,
          'src',
        ],
        { cwd: root, stdio: 'pipe' },
      );
      const fresh = readFileSync(join(out, 'bundle.l10n.json'), 'utf8');
      const committed = readFileSync(join(root, 'l10n', 'bundle.l10n.json'), 'utf8');
      assert.ok(fresh === committed, 'l10n/bundle.l10n.json is out of date: run npm run l10n:export');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
