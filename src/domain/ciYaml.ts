/*
 * What the CI file's readers share (the graph's `needs:`, the lint's places, the checks as typed,
 * completion): GitLab's global keywords and default stages, and, for readers of the YAML document
 * with its source positions, a scalar's text, a mapping's pair by key and a node's place. No `vscode`.
 */
import { isMap, isPair, isScalar, LineCounter, type Pair, parseDocument, type YAMLMap } from 'yaml';

/** Top-level keys that are settings, not jobs (GitLab's `Config::Entry::Root`). */
export const CI_GLOBAL_KEYWORDS: ReadonlySet<string> = new Set([
  'default',
  'include',
  'stages',
  'types',
  'variables',
  'workflow',
  'image',
  'services',
  'cache',
  'before_script',
  'after_script',
  'spec',
]);

/** The stages of a file without `stages:` (`.pre` and `.post` are always there). */
export const CI_DEFAULT_STAGES: readonly string[] = ['build', 'test', 'deploy'];

/** A place in the file, 0-based (as editors count), end exclusive. */
export interface CiTextRange {
  startLine: number;
  startCharacter: number;
  endLine: number;
  endCharacter: number;
}

/** A scalar's text (numbers and booleans as written); undefined for anything else. */
export function scalarText(node: unknown): string | undefined {
  if (!isScalar(node)) return undefined;
  const value = node.value;
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : undefined;
}

/** The pair of mapping `node` whose key is `key`; undefined when `node` is no mapping or has none. */
export function pairIn(node: unknown, key: string): Pair | undefined {
  if (!isMap(node)) return undefined;
  // A key written twice is its last one, as GitLab's YAML reader (Psych) keeps it.
  let found: Pair | undefined;
  for (const item of node.items) if (isPair(item) && scalarText(item.key) === key) found = item;
  return found;
}

/** Where a node of a document read with `lines` stands; undefined for a node without a source. */
export function nodeRange(
  lines: LineCounter,
  node: { range?: [number, number, number] | null | undefined },
): CiTextRange | undefined {
  if (!node.range) return undefined;
  const [start, end] = node.range;
  const from = lines.linePos(start);
  const to = lines.linePos(Math.max(start, end));
  return {
    startLine: from.line - 1,
    startCharacter: from.col - 1,
    endLine: to.line - 1,
    endCharacter: to.col - 1,
  };
}

/** A CI file read once with its source positions, for every check as the user types. */
export interface ParsedCiFile {
  lines: LineCounter;
  root: YAMLMap;
  /** The file's value, with `<<:` merges and aliases resolved (what GitLab reads). */
  value(): unknown;
}

/**
 * Reads the CI file (the most expensive step of a check: about 20 ms for 2,000 lines, so it is done
 * once per check); undefined when it does not parse or its top is no mapping (the server says why).
 */
export function parseCiFile(text: string): ParsedCiFile | undefined {
  const lines = new LineCounter();
  const document = parseDocument(text, {
    lineCounter: lines,
    uniqueKeys: false,
    merge: true,
    prettyErrors: false,
  });
  const root = document.contents;
  if (document.errors.length > 0 || !isMap(root)) return undefined;
  return { lines, root, value: () => document.toJS({ maxAliasCount: 1000 }) as unknown };
}
