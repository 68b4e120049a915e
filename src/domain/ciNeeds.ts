/**
 * Which jobs a job needs (`needs:`), read from a CI file: the edges of a pipeline's graph. GitLab's
 * jobs API does not give them, so the graph reads the CI file at the pipeline's commit. `extends:`
 * (hidden templates, to any depth) and YAML anchors with `<<:` merges are followed; what comes in
 * through `include:` is not seen, and a job it defines simply has no edges. No `vscode`.
 */
import { parse } from 'yaml';
import { CI_GLOBAL_KEYWORDS } from './ciYaml';

/** How deep `extends:` is followed (GitLab refuses more than 11 levels). */
const MAX_EXTENDS_DEPTH = 11;

type Entry = Record<string, unknown>;

function isEntry(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The job names a `needs:` value lists (other pipelines' and projects' jobs left out). */
function neededNames(needs: unknown): string[] {
  if (!Array.isArray(needs)) return [];
  return needs.flatMap((need): string[] => {
    if (typeof need === 'string') return [need];
    if (!isEntry(need) || typeof need['job'] !== 'string') return [];
    return need['project'] === undefined && need['pipeline'] === undefined ? [need['job']] : [];
  });
}

/** A job's `needs:` as written, or inherited through `extends:` (the last template that has it). */
function needsOf(config: Entry, entry: Entry, depth: number): unknown {
  if ('needs' in entry) return entry['needs'];
  if (depth >= MAX_EXTENDS_DEPTH) return undefined;
  const extended = entry['extends'];
  const templates = typeof extended === 'string' ? [extended] : Array.isArray(extended) ? extended : [];
  let found: unknown;
  for (const name of templates) {
    if (typeof name !== 'string') continue;
    const template = Object.hasOwn(config, name) ? config[name] : undefined;
    if (!isEntry(template)) continue;
    const inherited = needsOf(config, template, depth + 1);
    if (inherited !== undefined) found = inherited;
  }
  return found;
}

/**
 * Each visible job's needed job names; a job without `needs:` is absent (it waits for the stages
 * before it), one with `needs: []` maps to an empty list (it starts at once). YAML that does not read
 * as a mapping gives undefined: the graph then shows stages and says the needs are unknown.
 */
export function jobNeedsFromCiFile(ciFile: string): Map<string, string[]> | undefined {
  const needs = new Map<string, string[]>();
  let config: unknown;
  try {
    config = parse(ciFile, { merge: true, maxAliasCount: 1_000 });
  } catch {
    return undefined;
  }
  if (!isEntry(config)) return undefined;
  for (const [name, entry] of Object.entries(config)) {
    if (name.startsWith('.') || CI_GLOBAL_KEYWORDS.has(name) || !isEntry(entry)) continue;
    const written = needsOf(config, entry, 0);
    if (written !== undefined) needs.set(name, neededNames(written));
  }
  return needs;
}
