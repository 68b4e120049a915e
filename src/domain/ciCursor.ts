/*
 * Where the cursor is in a CI file being typed (issue 38), read from the lines above it by their
 * indentation, so that a file that does not parse yet still gets keywords, values and hovers: the
 * path of keys from the top (`['build', 'artifacts']`, `[]` for a list item) and whether a key, a
 * value or a list item is being typed. Flow collections (`{a: b}`) are not followed. Pure.
 */
import { type CiSchemaPath, LIST_ITEM } from './ciSchema';
import { CI_GLOBAL_KEYWORDS } from './ciYaml';

interface LineShape {
  /** Column of the first character that is not a space. */
  indent: number;
  /** The line is a list item (`- ...`). */
  dash: boolean;
  /** Column where the key (or the item's text) starts. */
  keyColumn: number;
  /** The key, when the line reads `key:` or `key: value`. */
  key?: string;
  /** Column just after the key's colon. */
  afterColon?: number;
  /** The value opens a block scalar (`|`, `>`): the lines under it are text. */
  blockScalar: boolean;
}

function unquote(key: string): string {
  const quoted = key.length >= 2 && (key[0] === '"' || key[0] === "'") && key.endsWith(key[0]);
  return quoted ? key.slice(1, -1) : key;
}

function shapeOf(text: string): LineShape | undefined {
  const indent = text.length - text.trimStart().length;
  const body = text.slice(indent);
  if (body === '' || body.startsWith('#')) return undefined;
  const dash = body === '-' || body.startsWith('- ');
  const keyColumn = dash ? indent + 1 + (body.slice(1).length - body.slice(1).trimStart().length) : indent;
  const rest = text.slice(keyColumn);
  const colon = rest.search(/:(?:\s|$)/);
  const keyText = colon > 0 ? rest.slice(0, colon).trim() : '';
  if (keyText === '' || keyText.startsWith('#') || keyText.startsWith('{') || keyText.startsWith('['))
    return { indent, dash, keyColumn, blockScalar: false };
  const value = rest.slice(colon + 1).trim();
  return {
    indent,
    dash,
    keyColumn,
    key: unquote(keyText),
    afterColon: keyColumn + colon + 1,
    blockScalar: /^[|>][-+0-9]*(?:\s|$)/.test(value),
  };
}

/** How far up a parent is looked for. */
const MAX_LINES_UP = 2000;

/**
 * The path of the block whose content starts at `column` on `line`, or undefined inside a block
 * scalar (the lines of a `script: |` are shell, not keys).
 */
function parentPath(lines: readonly string[], line: number, column: number): string[] | undefined {
  const path: string[] = [];
  let within = column;
  for (let above = line - 1; above >= 0 && line - above <= MAX_LINES_UP && within > 0; above--) {
    const shape = shapeOf(lines[above] ?? '');
    if (!shape) continue;
    if (shape.key !== undefined && shape.keyColumn < within) {
      if (shape.blockScalar && path.length === 0) return undefined;
      path.unshift(shape.key);
      if (shape.dash) path.unshift(LIST_ITEM);
      within = shape.dash ? shape.indent : shape.keyColumn;
    } else if (shape.dash && shape.indent < within) {
      path.unshift(LIST_ITEM);
      within = shape.indent;
    } else if (shape.indent < within) {
      // A plain line to the left (a multi-line scalar's text): the cursor is in that text.
      return undefined;
    }
  }
  return path;
}

export type CiCursor =
  /** Typing a key of the mapping at `path`. */
  | { kind: 'key'; path: CiSchemaPath; typed: string }
  /** Typing the value of the keyword at `path` (its last segment is the key). */
  | { kind: 'value'; path: CiSchemaPath; typed: string }
  /** Typing a list item: a value of the list at `path` (ending in `[]`) or a key of an item mapping. */
  | { kind: 'item'; path: CiSchemaPath; typed: string }
  /** Typing a variable's name after `$` or `${`. */
  | { kind: 'variable'; typed: string };

const VARIABLE_BEFORE = /\$\{?([A-Za-z0-9_]*)$/;

/** What is being typed at (0-based) `line`, `character`; undefined in comments and flow collections. */
export function ciCursorAt(lines: readonly string[], line: number, character: number): CiCursor | undefined {
  const text = lines[line] ?? '';
  const before = text.slice(0, character);
  const variable = VARIABLE_BEFORE.exec(before);
  if (variable) return { kind: 'variable', typed: variable[1] ?? '' };
  if (before.includes('#') || before.includes('{') || before.includes('[')) return undefined;
  const shape = shapeOf(before) ?? shapeOf(`${before}x`);
  if (!shape) return undefined;
  if (shape.key !== undefined && shape.afterColon !== undefined && character >= shape.afterColon) {
    const parents = parentPath(lines, line, shape.dash ? shape.indent : shape.keyColumn);
    if (!parents) return undefined;
    const path = shape.dash ? [...parents, LIST_ITEM, shape.key] : [...parents, shape.key];
    return { kind: 'value', path, typed: before.slice(shape.afterColon).trim() };
  }
  const typed = before.slice(shape.keyColumn);
  if (/\s/.test(typed.trim()) || typed !== typed.trimStart()) return undefined;
  if (shape.dash) {
    const parents = parentPath(lines, line, shape.indent);
    return parents && { kind: 'item', path: [...parents, LIST_ITEM], typed };
  }
  const parents = parentPath(lines, line, shape.keyColumn);
  return parents && { kind: 'key', path: parents, typed };
}

/** The key path of the key the cursor stands on (for its hover), or undefined when it is on none. */
export function ciKeyPathAt(
  lines: readonly string[],
  line: number,
  character: number,
): CiSchemaPath | undefined {
  const shape = shapeOf(lines[line] ?? '');
  if (shape?.key === undefined || shape.afterColon === undefined) return undefined;
  if (character < shape.keyColumn || character >= shape.afterColon) return undefined;
  const parents = parentPath(lines, line, shape.dash ? shape.indent : shape.keyColumn);
  if (!parents) return undefined;
  return shape.dash ? [...parents, LIST_ITEM, shape.key] : [...parents, shape.key];
}

/**
 * The job whose lines hold `line` (0-based): the nearest top-level key at or above it that names a
 * job (not a global keyword, not a hidden template); undefined elsewhere.
 */
export function ciJobAt(lines: readonly string[], line: number): string | undefined {
  for (let above = Math.min(line, lines.length - 1); above >= 0; above--) {
    const shape = shapeOf(lines[above] ?? '');
    if (!shape || shape.indent > 0) continue;
    if (shape.dash || shape.key === undefined) return undefined;
    return shape.key.startsWith('.') || CI_GLOBAL_KEYWORDS.has(shape.key) ? undefined : shape.key;
  }
  return undefined;
}
