// Finds every regular expression literal in src/ (with TypeScript's own parser) and the inputs
// that make a backtracking engine slow on it: long runs of the characters the pattern names.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { RegExpParser, visitRegExpAST } from '@eslint-community/regexpp';
import type { Alternative, CharacterClass, CharacterSet } from '@eslint-community/regexpp/ast';
import * as ts from 'typescript';

export interface FoundRegex {
  file: string;
  line: number;
  source: string;
  flags: string;
}

export function sourceFiles(dir: string): string[] {
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

// Repeated short sequences: an opener without its closer (`](<`, "```suggestion\n") repeated makes
// a backtracking engine scan from every opener to the end, which runs of one or two characters miss.
type Element = Alternative['elements'][number];

const SAMPLE_CAP = 6;
const WINDOW = 6;

function capped(values: Iterable<string>): string[] {
  return [...new Set(values)].slice(0, SAMPLE_CAP);
}

/** A character a set or class accepts: one of a few plain ones, else the first it names. */
function classSample(node: CharacterClass | CharacterSet): string[] {
  const candidates = ['a', ' ', '0', '-', '\n'];
  let accepted: string[];
  try {
    const pattern = new RegExp(`^${node.raw}$`);
    accepted = candidates.filter((char) => pattern.test(char)).slice(0, 2);
  } catch {
    accepted = ['a'];
  }
  if (node.type === 'CharacterClass' && !node.negate) {
    for (const inner of node.elements) {
      if (inner.type === 'Character') accepted.push(String.fromCodePoint(inner.value));
      if (inner.type === 'CharacterClassRange') accepted.push(String.fromCodePoint(inner.min.value));
    }
  }
  return capped(accepted);
}

/** Short strings an element matches (with the empty one when it may match nothing). */
function samplesOf(element: Element): string[] {
  switch (element.type) {
    case 'Character':
      return [String.fromCodePoint(element.value)];
    case 'CharacterClass':
    case 'CharacterSet':
      return classSample(element);
    case 'Quantifier': {
      const inner = samplesOf(element.element);
      return capped(element.min === 0 ? ['', ...inner] : inner);
    }
    case 'Group':
    case 'CapturingGroup':
      return capped(element.alternatives.flatMap((alternative) => sequenceSamples(alternative.elements)));
    default:
      return [''];
  }
}

function sequenceSamples(elements: readonly Element[]): string[] {
  let results = [''];
  for (const element of elements) {
    const next = samplesOf(element);
    results = capped(results.flatMap((prefix) => next.map((sample) => prefix + sample)));
  }
  return results;
}

/** Each alternative's elements with runs of plain characters joined into one word. */
function windowsOf(elements: readonly Element[]): string[] {
  const words: Element[][] = [];
  for (const element of elements) {
    const last = words.at(-1);
    if (element.type === 'Character' && last?.every((item) => item.type === 'Character')) last.push(element);
    else words.push([element]);
  }
  const found: string[] = [];
  for (let start = 0; start < words.length; start++) {
    for (let end = start + 1; end <= Math.min(words.length, start + WINDOW); end++) {
      const head = sequenceSamples(words.slice(start, end - 1).flat());
      // The last element only begun: an opener whose closer never comes.
      const tails = sequenceSamples(words[end - 1]!).flatMap((tail) =>
        [...tail].map((_, cut) => tail.slice(0, cut + 1)),
      );
      for (const prefix of head) for (const tail of capped(tails)) found.push(prefix + tail);
    }
  }
  return found;
}

/** Repeated short sequences of a pattern's own elements, every alternative's openers included. */
export function sequenceInputs(source: string, flags: string, length: number): string[] {
  let ast;
  try {
    ast = new RegExpParser().parsePattern(source, undefined, undefined, { unicode: flags.includes('u') });
  } catch {
    return [];
  }
  const sequences = new Set<string>();
  visitRegExpAST(ast, {
    onAlternativeEnter(alternative) {
      for (const sequence of windowsOf(alternative.elements))
        if (sequence.length >= 2) sequences.add(sequence);
    },
  });
  return [...sequences].map((sequence) => `${sequence.repeat(Math.ceil(length / sequence.length))}\u0001`);
}
