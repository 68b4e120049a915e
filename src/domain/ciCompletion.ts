/*
 * What to offer where the cursor is in a CI file (issue 38): job names after `needs:` and
 * `dependencies:` (inline lists and `- ` items under them), templates and jobs after `extends:`, the
 * file's stages after `stage:`. Read from the lines around the cursor, so that a half-typed file
 * (which does not parse) still completes; the names come from the last reading that parsed. Pure.
 */
import { isMap, isPair, isScalar, isSeq, parseDocument } from 'yaml';
import { CI_DEFAULT_STAGES, CI_GLOBAL_KEYWORDS } from './ciYaml';
import { ownEntry } from './ownEntry';

export type CiCompletionKind = 'job' | 'template' | 'stage';

const KEY_KINDS: Readonly<Record<string, CiCompletionKind>> = {
  needs: 'job',
  dependencies: 'job',
  extends: 'template',
  stage: 'stage',
};

function kindOfKey(key: string): CiCompletionKind | undefined {
  return ownEntry(KEY_KINDS, key);
}

const indentOf = (line: string): number => line.length - line.trimStart().length;

/**
 * The kind of name the cursor (0-based line, character) is typing, or undefined: after `stage: `,
 * inside `needs: [`, or on a `- ` item of a list whose key (the nearest line above with less
 * indentation) is one of those.
 */
export function ciCompletionKind(
  lines: readonly string[],
  line: number,
  character: number,
): CiCompletionKind | undefined {
  const before = (lines[line] ?? '').slice(0, character);
  const trimmed = before.trimStart();
  const item = trimmed.startsWith('-') ? trimmed.slice(1).trimStart() : trimmed;
  const colon = item.indexOf(':');
  if (colon > 0) {
    const rest = item.slice(colon + 1);
    // After `key:` on the cursor's line, in no comment and no closed list.
    if (rest.includes('#') || rest.includes(']')) return undefined;
    return /^[a-z_]+$/.test(item.slice(0, colon)) ? kindOfKey(item.slice(0, colon)) : undefined;
  }
  // A `- ` item typing one word: the list's key is the nearest line above with less indentation.
  if (!trimmed.startsWith('-') || /[\s#]/.test(item)) return undefined;
  const indent = indentOf(before);
  for (let above = line - 1; above >= 0 && line - above <= 200; above--) {
    const text = lines[above] ?? '';
    if (text.trim() === '' || text.trimStart().startsWith('#')) continue;
    if (indentOf(text) > indent) continue;
    if (indentOf(text) === indent && text.trimStart().startsWith('-')) continue;
    const key = text.trim().endsWith(':') ? text.trim().slice(0, -1) : undefined;
    return key !== undefined && /^[a-z_]+$/.test(key) ? kindOfKey(key) : undefined;
  }
  return undefined;
}

export interface CiFileVariable {
  name: string;
  /** The variable's `description:` (a variable offered in "Run pipeline"), when it has one. */
  description?: string;
  /** Where it is set: `variables` at the top, else the job's name. */
  setIn: string;
}

export interface CiNames {
  jobs: string[];
  templates: string[];
  stages: string[];
  /** The file's own `variables:`, at the top and in its jobs and templates. */
  variables: CiFileVariable[];
}

function variablesIn(value: unknown, setIn: string): CiFileVariable[] {
  if (!isMap(value)) return [];
  return value.items.flatMap((item) => {
    if (!isPair(item) || !isScalar(item.key) || typeof item.key.value !== 'string') return [];
    const description = isMap(item.value) ? item.value.get('description') : undefined;
    return [
      {
        name: item.key.value,
        setIn,
        ...(typeof description === 'string' ? { description } : {}),
      },
    ];
  });
}

/** The file's jobs, templates (hidden jobs) and stages; undefined when it does not parse. */
export function ciNames(text: string): CiNames | undefined {
  const document = parseDocument(text, { uniqueKeys: false });
  if (document.errors.length > 0 || !isMap(document.contents)) return undefined;
  const jobs: string[] = [];
  const templates: string[] = [];
  const variables: CiFileVariable[] = [];
  let stages = CI_DEFAULT_STAGES;
  for (const item of document.contents.items) {
    if (!isPair(item) || !isScalar(item.key) || typeof item.key.value !== 'string') continue;
    const name = item.key.value;
    if (name === 'stages' && isSeq(item.value))
      stages = item.value.items.flatMap((stage) =>
        isScalar(stage) && typeof stage.value === 'string' ? [stage.value] : [],
      );
    if (name === 'variables') variables.push(...variablesIn(item.value, name));
    if (CI_GLOBAL_KEYWORDS.has(name) || !isMap(item.value)) continue;
    (name.startsWith('.') ? templates : jobs).push(name);
    variables.push(...variablesIn(item.value.get('variables'), name));
  }
  return { jobs, templates, stages: ['.pre', ...stages, '.post'], variables };
}

/** The names to offer for `kind`. */
export function ciCompletions(names: CiNames, kind: CiCompletionKind): string[] {
  switch (kind) {
    case 'job':
      return names.jobs;
    case 'template':
      return [...names.templates, ...names.jobs];
    case 'stage':
      return names.stages;
  }
}
