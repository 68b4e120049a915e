// String-keyed lookup tables (`const X: Record<string, T> = {…}`) are read only through
// `ownEntry`: `X[key]` with a key from outside also finds what every object inherits, and a server's
// permission, status or action named `constructor` came back as a function (the words of a request,
// a channel permission, a todo's icon and sentence, a job status). Read with TypeScript's parser.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';
import { sourceFiles } from './regexScan';
import { describePermission } from '../../../src/domain/channel';
import { statusAppearance } from '../../../src/domain/jobStatus';
import { ownEntry } from '../../../src/domain/ownEntry';
import { parseWhen } from '../../../src/domain/broadcasts';
import { projectRoot } from '../../support/projectRoot';

const root = projectRoot;

function isStringKeyedRecord(type: ts.TypeNode | undefined): boolean {
  if (!type || !ts.isTypeReferenceNode(type)) return false;
  const name = type.typeName.getText();
  const [first] = type.typeArguments ?? [];
  if (name === 'Readonly') return isStringKeyedRecord(first);
  return name === 'Record' && first?.kind === ts.SyntaxKind.StringKeyword;
}

/**
 * Lookup tables: module constants in capitals (`STATUS_TABLE`), and records named for what they are
 * looked up by (`collapsedByPath`). Records read by keys the code names itself (`record[key]` over a
 * server's JSON with `key` one of its own field names) are not tables.
 */
function isTableName(name: string): boolean {
  return /^[A-Z][A-Z0-9_]*$/.test(name) || /(?:^by|By)[A-Z]\w*$/.test(name);
}

/** `TABLE`, `this.table`, `this.state.table`: the last name. */
function tableName(expression: ts.Expression): string {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) return expression.name.text;
  return '';
}

/** `X[k] = v` and `delete X[k]` only write: nothing inherited is read. */
function isWrittenTo(node: ts.ElementAccessExpression): boolean {
  const parent = node.parent;
  return (
    (ts.isBinaryExpression(parent) &&
      parent.left === node &&
      parent.operatorToken.kind === ts.SyntaxKind.EqualsToken) ||
    ts.isDeleteExpression(parent)
  );
}

/** `file:line X[key]` for each direct read of a string-keyed table with a key that is not a literal. */
export function directTableLookups(fileName: string, text: string): string[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const tables = new Set<string>();
  const collect = (node: ts.Node): void => {
    if (
      (ts.isVariableDeclaration(node) ||
        ts.isParameter(node) ||
        ts.isPropertyDeclaration(node) ||
        ts.isPropertySignature(node)) &&
      (ts.isIdentifier(node.name) || ts.isPrivateIdentifier(node.name)) &&
      isStringKeyedRecord(node.type) &&
      isTableName(node.name.text)
    )
      tables.add(node.name.text);
    ts.forEachChild(node, collect);
  };
  collect(file);
  const found: string[] = [];
  const check = (node: ts.Node): void => {
    if (
      ts.isElementAccessExpression(node) &&
      tables.has(tableName(node.expression)) &&
      !ts.isStringLiteralLike(node.argumentExpression) &&
      !isWrittenTo(node)
    ) {
      const { line } = file.getLineAndCharacterOfPosition(node.getStart());
      found.push(`${fileName}:${line + 1} ${node.getText()}`);
    }
    ts.forEachChild(node, check);
  };
  check(file);
  return found;
}

describe('lookup tables and keys from outside', () => {
  it('reads every string-keyed table in src/ through ownEntry', function () {
    // Parses every file of src/ (seconds on a busy machine).
    this.timeout(60_000);
    const found = sourceFiles(join(root, 'src')).flatMap((path) =>
      directTableLookups(relative(root, path), readFileSync(path, 'utf8')),
    );
    assert.deepEqual(found, [], 'read these through ownEntry(table, key)');
  });

  it('catches a direct read, also of a Readonly table, and lets a literal key pass', () => {
    const source = [
      "const A: Record<string, string> = { x: 'y' };",
      'const B: Readonly<Record<string, number>> = { n: 1 };',
      "const C: Record<'x' | 'y', string> = { x: '', y: '' };",
      'export const f = (k: string) => A[k] ?? B[k] ?? A["x"] ?? C[k as "x"];',
      'export function g(SEEN: Record<string, boolean>, k: string) { SEEN[k] = true; delete SEEN[k]; return SEEN[k]; }',
      'class S { constructor(private readonly byPath: Record<string, boolean>) {} at(p: string) { return this.byPath[p]; } }',
    ].join('\n');
    assert.deepEqual(directTableLookups('sample.ts', source), [
      'sample.ts:4 A[k]',
      'sample.ts:4 B[k]',
      'sample.ts:5 SEEN[k]',
      'sample.ts:6 this.byPath[p]',
    ]);
  });

  it('gives nothing for the names every object inherits', () => {
    const table = { a: 1 } as Record<string, number>;
    for (const key of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'])
      assert.equal(ownEntry(table, key), undefined, key);
    assert.equal(ownEntry(table, 'a'), 1);
    assert.equal(describePermission('constructor'), 'constructor');
    assert.equal(describePermission('__proto__'), '__proto__');
    assert.equal(statusAppearance('constructor').label, 'Constructor');
    assert.equal(statusAppearance('toString').codicon, 'question');
    assert.ok('date' in parseWhen('in 2 hours', 0));
  });
});
