// Finds every regular expression literal in src/ (with TypeScript's own parser) and the inputs
// that make a backtracking engine slow on it: long runs of the characters the pattern names.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';

export interface FoundRegex {
  file: string;
  line: number;
  source: string;
  flags: string;
}

function sourceFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) found.push(path);
  }
  return found.sort();
}

export function regexLiterals(root: string, dir = 'src'): FoundRegex[] {
  const found: FoundRegex[] = [];
  for (const path of sourceFiles(join(root, dir))) {
    const text = readFileSync(path, 'utf8');
    const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const literal = node.getText(file);
        const end = literal.lastIndexOf('/');
        found.push({
          file: relative(root, path),
          line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1,
          source: literal.slice(1, end),
          flags: literal.slice(end + 1),
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

/** Characters a pattern mentions literally (escapes resolved), plus a few every text has. */
function mentionedCharacters(source: string): string[] {
  const chars = new Set<string>(['a', ' ', '\n', '0']);
  for (let index = 0; index < source.length; index++) {
    const char = source[index]!;
    if (char === '\\') {
      const next = source[index + 1];
      index++;
      if (next === undefined) continue;
      if ('dwsDWSbBnrtu'.includes(next)) {
        if (next === 'n') chars.add('\n');
        if (next === 'r') chars.add('\r');
        if (next === 't') chars.add('\t');
        continue;
      }
      chars.add(next);
    } else if (!'()[]{}?*+|^$.'.includes(char)) chars.add(char);
  }
  return [...chars];
}

/** Literal words of a pattern (`<title`, `section_`): runs of two or more plain characters. */
function literalWords(source: string): string[] {
  return source
    .replace(/\\./g, ' ')
    .split(/[()[\]{}?*+|^$.\s]/)
    .filter((word) => word.length >= 2);
}

/**
 * Runs of one or two mentioned characters, or of a literal word of the pattern, about `length`
 * long, each after a plain letter and before a character nothing expects.
 */
export function adversarialInputs(source: string, length: number): string[] {
  const chars = mentionedCharacters(source);
  const inputs: string[] = [];
  for (const word of literalWords(source)) {
    inputs.push(`${word.repeat(Math.ceil(length / word.length))}\u0001`);
  }
  for (const first of chars) {
    inputs.push(`${first.repeat(length)}\u0001`, `a${first.repeat(length)}a\u0001`);
    for (const second of chars) {
      if (second !== first) inputs.push(`${(first + second).repeat(length / 2)}\u0001`);
    }
  }
  return inputs;
}

/** Applies the regex the way code does: replace for global ones, exec for the rest. */
export function applyRegex(regex: RegExp, input: string): void {
  regex.lastIndex = 0;
  if (regex.global) input.replace(regex, '');
  else regex.exec(input);
}
