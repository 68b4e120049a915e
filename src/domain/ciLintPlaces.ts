/*
 * Where in a `.gitlab-ci.yml` each of the CI lint's messages belongs. GitLab answers sentences, not
 * positions (`jobs:build config contains unknown keys: scirpt`, `test job: chosen stage tst does not
 * exist; ...`, a YAML syntax error with its line and column); each class of sentence names a node,
 * found here in the file's YAML with its source position (the `yaml` parser keeps offsets). A
 * sentence that names no node, or a node the file does not have, goes on the first line, the
 * message intact. Pure: no `vscode`.
 */
import { isMap, isPair, isScalar, isSeq, LineCounter, type Node, type Pair, parseDocument } from 'yaml';
import { type CiTextRange, nodeRange, pairIn } from './ciYaml';

export type { CiTextRange } from './ciYaml';

export interface PlacedCiMessage {
  message: string;
  range: CiTextRange;
  /** The message named a node and it was found; false: put on the first line. */
  found: boolean;
}

type Located = { range?: [number, number, number] | null | undefined };

/** The file read once for every message: its top-level pairs and where its lines begin. */
class CiFile {
  private readonly lines = new LineCounter();
  private readonly root: unknown;

  constructor(private readonly text: string) {
    const document = parseDocument(text, { lineCounter: this.lines, uniqueKeys: false, prettyErrors: false });
    this.root = document.contents;
  }

  /**
   * The top-level pair `name`, or the one whose key is the longest `:`-prefix of `name`, with the
   * `:`-parts after it (`test:unit:script` is the `script` of job `test:unit`). One pass over the
   * keys: a message full of colons costs no more. A key written twice is its last one, as GitLab's
   * YAML reader (Psych) keeps it.
   */
  topPair(name: string): { pair: Pair; rest: string[] } | undefined {
    if (!isMap(this.root)) return undefined;
    let best: Pair | undefined;
    let bestLength = -1;
    for (const item of this.root.items) {
      if (!isPair(item) || !isScalar(item.key)) continue;
      const key = String(item.key.value);
      const fits = name === key || name.startsWith(`${key}:`);
      if (fits && key.length >= bestLength) {
        best = item;
        bestLength = key.length;
      }
    }
    if (!best) return undefined;
    const after = name.slice(bestLength + 1);
    return { pair: best, rest: after.length === 0 ? [] : after.split(':') };
  }

  /** The node under `pair` that `path` names (keys and list indexes), as deep as the file has it. */
  descend(pair: Pair, path: readonly string[]): Node {
    let place: Node = pair.key as Node;
    let node: unknown = pair.value;
    for (const part of path) {
      if (isSeq(node) && /^\d+$/.test(part)) {
        const item: unknown = node.items[Number(part)];
        if (!item || typeof item !== 'object') break;
        place = item as Node;
        node = item;
        continue;
      }
      const child = pairIn(node, part);
      if (!child) break;
      place = child.key as Node;
      node = child.value;
    }
    return place;
  }

  /** The item of the list (or the scalar) under `pair` whose text, or `job:`, is `wanted`. */
  itemNamed(node: unknown, wanted: string): Node | undefined {
    if (isScalar(node) && String(node.value) === wanted) return node;
    if (!isSeq(node)) return undefined;
    for (const item of node.items) {
      if (isScalar(item) && String(item.value) === wanted) return item;
      const job = pairIn(item, 'job');
      if (job && isScalar(job.value) && String(job.value.value) === wanted) return job.value;
    }
    return undefined;
  }

  /** A scalar anywhere under `node` whose text contains `wanted` (an include's path). */
  scalarContaining(node: unknown, wanted: string): Node | undefined {
    if (isScalar(node)) return String(node.value).includes(wanted) ? node : undefined;
    if (isPair(node)) return this.scalarContaining(node.value, wanted);
    if (isMap(node) || isSeq(node)) {
      for (const item of node.items as unknown[]) {
        const found = this.scalarContaining(item, wanted);
        if (found) return found;
      }
    }
    return undefined;
  }

  rangeOf(node: Located): CiTextRange | undefined {
    return nodeRange(this.lines, node);
  }

  /** The rest of line `line` (1-based, as GitLab counts) from `column`. */
  lineFrom(line: number, column: number): CiTextRange {
    const lines = this.text.split('\n');
    const index = Math.min(Math.max(line - 1, 0), Math.max(lines.length - 1, 0));
    const length = (lines[index] ?? '').replace(/\r$/, '').length;
    const start = Math.min(Math.max(column - 1, 0), length);
    return { startLine: index, startCharacter: start, endLine: index, endCharacter: Math.max(length, start) };
  }
}

/** Finds the node one sentence names (from the sentence's parts); undefined when the file has none. */
type Locator = (file: CiFile, parts: readonly string[]) => Located | CiTextRange | undefined;
/** The parts of a sentence of one class, or undefined when the message is of another. */
type Reader = (message: string) => readonly string[] | undefined;

/**
 * `message` cut at each of `literals` in turn (the first occurrence after the previous one): the texts
 * before, between and after them. Linear in the message: server text never meets a regular expression
 * that could backtrack on it (a job name is any text).
 */
function cut(message: string, literals: readonly string[]): string[] | undefined {
  const parts: string[] = [];
  let from = 0;
  for (const literal of literals) {
    const at = message.indexOf(literal, from);
    if (at < 0) return undefined;
    parts.push(message.slice(from, at));
    from = at + literal.length;
  }
  parts.push(message.slice(from));
  return parts;
}

/** The parts after a sentence that must begin with `literals[0]`. */
function cutFromStart(message: string, literals: readonly string[]): string[] | undefined {
  const parts = cut(message, literals);
  return parts?.[0] === '' ? parts.slice(1) : undefined;
}

function jobPair(file: CiFile, name: string): Pair | undefined {
  return file.topPair(name)?.pair;
}

/** A key of a job (`stage`, `needs`, `extends`) and the item of its value named `item`, as far as found. */
function jobKeyItem(file: CiFile, job: string, key: string, item?: string): Located | undefined {
  const pair = jobPair(file, job);
  if (!pair) return undefined;
  const keyPair = pairIn(pair.value, key);
  if (!keyPair) return pair.key as Node;
  const named = item === undefined ? undefined : file.itemNamed(keyPair.value, item);
  return named ?? (isScalar(keyPair.value) ? keyPair.value : (keyPair.key as Node));
}

/** GitLab's sentences, most specific first (doc/ci/yaml, lib/gitlab/ci/config/entry in GitLab's source). */
const LOCATORS: readonly [Reader, Locator][] = [
  // Psych's syntax errors: `(<unknown>): did not find expected key ... at line 3 column 1`.
  [
    (message) => /at line (\d{1,9}),? column (\d{1,9})/.exec(message)?.slice(1),
    (file, [line, column]) => file.lineFrom(Number(line), Number(column)),
  ],
  [
    (message) => cutFromStart(message, ['jobs:', ' config contains unknown key']),
    (file, [job = '', rest = '']) => {
      const found = file.topPair(job);
      if (!found) return undefined;
      const key = rest.replace(/^s?: /, '').split(/[,\s]/)[0] ?? '';
      return pairIn(found.pair.value, key)?.key ?? file.descend(found.pair, found.rest);
    },
  ],
  [
    (message) => cut(message, [' job: chosen stage ', 'does not exist']),
    (file, [job = '', stage = '']) => jobKeyItem(file, job, 'stage', stage.trim() || undefined),
  ],
  [
    (message) => cut(message, [' job: need ', ' is not defined']),
    (file, [job = '', need = '']) => jobKeyItem(file, job, 'needs', need),
  ],
  [
    (message) => cutFromStart(message, ["'", "' job needs '", "' job"]),
    (file, [job = '', need = '']) => jobKeyItem(file, job, 'needs', need),
  ],
  [
    (message) => cut(message, [' job: undefined dependency: ']),
    (file, [job = '', need = '']) => jobKeyItem(file, job, 'dependencies', need),
  ],
  [
    (message) => cut(message, [': unknown keys in `extends` (']),
    (file, [job = '', parent = '']) => jobKeyItem(file, job, 'extends', parent.replace(/\)$/, '')),
  ],
  [
    (message) => {
      const parts = cut(message, [' file `', '`']);
      return parts && /(Local|Remote|Included|`)$/.test(parts[0] ?? '') ? parts.slice(1) : undefined;
    },
    (file, [path = '']) => {
      const include = file.topPair('include');
      return include
        ? (file.scalarContaining(include.pair.value, path) ?? (include.pair.key as Node))
        : undefined;
    },
  ],
  [
    (message) => cutFromStart(message, ['jobs ', ' config should']),
    (file, [job = '']) => jobPair(file, job)?.key as Node | undefined,
  ],
  // A key path before ` config`: `jobs:test:script config should be ...`, `variables config ...`.
  [
    (message) => /^(\S+) config\b/.exec(message)?.slice(1),
    (file, [path = '']) => {
      const named = path.replace(/^(jobs|root):/, '');
      const found = file.topPair(named);
      return found ? file.descend(found.pair, found.rest) : undefined;
    },
  ],
  [(message) => cut(message, [' job: ']), (file, [job = '']) => jobPair(file, job)?.key as Node | undefined],
];

function isRange(value: Located | CiTextRange): value is CiTextRange {
  return 'startLine' in value;
}

/** Each message with the place it belongs in `text` (the first line when it names nothing found). */
export function placeCiMessages(text: string, messages: readonly string[]): PlacedCiMessage[] {
  return ciMessagePlacer(text)(messages);
}

/**
 * Reads `text` now and places messages about it later: the reading (most of the work) can be done
 * while the server is still checking the same text.
 */
export function ciMessagePlacer(text: string): (messages: readonly string[]) => PlacedCiMessage[] {
  const file = new CiFile(text);
  return (messages) =>
    messages.map((message) => {
      for (const [read, locate] of LOCATORS) {
        const parts = read(message);
        if (!parts) continue;
        const located = locate(file, parts);
        if (!located) continue;
        const range = isRange(located) ? located : file.rangeOf(located);
        if (range) return { message, range, found: true };
      }
      return { message, range: file.lineFrom(1, 1), found: false };
    });
}
