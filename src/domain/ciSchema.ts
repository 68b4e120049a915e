/*
 * GitLab's JSON schema of the CI file (`schemas/gitlab-ci.json`, issue 38), read as a map of the file:
 * which keywords a place takes, which values a keyword takes, what a keyword means. The schema's
 * `$ref`s are followed and its `allOf`/`anyOf`/`oneOf` read as "any of these", which is what an editor
 * needs to offer and explain (the validation itself is Ajv's, in `ciSchemaCheck.ts`). Pure: no `vscode`.
 */

/** A place in the file: mapping keys, and `[]` for "an item of this list". */
export type CiSchemaPath = readonly string[];

export const LIST_ITEM = '[]';

type SchemaNode = Readonly<Record<string, unknown>>;

export interface CiKeyword {
  name: string;
  /** GitLab's description (Markdown), when the schema gives one. */
  description?: string;
}

const isNode = (value: unknown): value is SchemaNode =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** How deep `$ref`s and combinators are followed: the schema is recursive (`!reference`, steps). */
const MAX_DEPTH = 12;

export class CiSchema {
  constructor(private readonly root: SchemaNode) {}

  /** The keywords a mapping at `path` takes, with their descriptions, in the schema's order. */
  keywordsAt(path: CiSchemaPath): CiKeyword[] {
    const keywords = new Map<string, CiKeyword>();
    for (const node of this.nodesAt(path)) {
      const properties = node['properties'];
      if (!isNode(properties)) continue;
      for (const [name, property] of Object.entries(properties)) {
        if (keywords.has(name) || name === '$schema' || name.startsWith('!')) continue;
        keywords.set(name, { name, description: this.descriptionOf([property]) });
      }
    }
    return [...keywords.values()];
  }

  /** The values the schema lists for the keyword at `path` (`when:`, `artifacts:when:`, ...). */
  valuesAt(path: CiSchemaPath): string[] {
    const values = new Set<string>();
    for (const node of this.nodesAt(path)) {
      const listed = node['enum'];
      if (Array.isArray(listed)) for (const value of listed) if (typeof value === 'string') values.add(value);
    }
    return [...values];
  }

  /** What the keyword at `path` means, from the schema; undefined when it says nothing. */
  descriptionAt(path: CiSchemaPath): string | undefined {
    if (path.length === 0) return undefined;
    const parents = this.nodesAt(path.slice(0, -1));
    const key = path[path.length - 1] ?? '';
    return this.descriptionOf(parents.flatMap((parent) => this.childrenOf(parent, key, false)));
  }

  /** The schema nodes (references followed, combinators spread) that describe the place at `path`. */
  nodesAt(path: CiSchemaPath): SchemaNode[] {
    let nodes = this.spread(this.root, 0);
    for (const segment of path) {
      nodes = nodes.flatMap((node) => this.childrenOf(node, segment, true));
      if (nodes.length === 0) break;
    }
    return nodes;
  }

  private childrenOf(node: SchemaNode, segment: string, spread: boolean): SchemaNode[] {
    const found: SchemaNode[] = [];
    const take = (child: unknown): void => {
      if (isNode(child)) found.push(...(spread ? this.spread(child, 0) : [child]));
    };
    if (segment === LIST_ITEM) {
      const items = node['items'];
      if (Array.isArray(items)) items.forEach(take);
      else take(items);
      return found;
    }
    const properties = node['properties'];
    if (isNode(properties) && Object.hasOwn(properties, segment)) {
      take(properties[segment]);
      return found;
    }
    const patterns = node['patternProperties'];
    if (isNode(patterns))
      for (const [pattern, child] of Object.entries(patterns))
        if (matchesPattern(pattern, segment)) take(child);
    if (found.length === 0 && node['type'] !== 'array') take(node['additionalProperties']);
    return found;
  }

  /** `node` and what it stands for: its `$ref` followed, its `allOf`/`anyOf`/`oneOf` branches. */
  private spread(node: SchemaNode, depth: number): SchemaNode[] {
    if (depth > MAX_DEPTH) return [];
    const spread: SchemaNode[] = [node];
    const reference = node['$ref'];
    if (typeof reference === 'string') {
      const target = this.resolve(reference);
      if (target) spread.push(...this.spread(target, depth + 1));
    }
    for (const combinator of ['allOf', 'anyOf', 'oneOf'] as const) {
      const branches = node[combinator];
      if (Array.isArray(branches))
        for (const branch of branches) if (isNode(branch)) spread.push(...this.spread(branch, depth + 1));
    }
    return spread;
  }

  private resolve(reference: string): SchemaNode | undefined {
    if (!reference.startsWith('#/')) return undefined;
    let node: unknown = this.root;
    for (const part of reference.slice(2).split('/')) {
      const key = part.replaceAll('~1', '/').replaceAll('~0', '~');
      node = isNode(node) && Object.hasOwn(node, key) ? node[key] : undefined;
    }
    return isNode(node) ? node : undefined;
  }

  private descriptionOf(nodes: readonly unknown[]): string | undefined {
    for (const node of nodes)
      for (const candidate of isNode(node) ? this.spread(node, 0) : []) {
        const text = candidate['markdownDescription'] ?? candidate['description'];
        if (typeof text === 'string' && text.trim() !== '') return text;
      }
    return undefined;
  }
}

/** The schema's patterns are GitLab's (`^[.]`, ...); one that does not compile matches nothing. */
function matchesPattern(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(text);
  } catch {
    return false;
  }
}
