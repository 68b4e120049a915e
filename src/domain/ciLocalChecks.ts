/*
 * The CI file's checks that need the whole file and no server (issue 38): a `stage:` not in
 * `stages:`, a `needs:` or `dependencies:` naming no job (or one in a later stage), an `extends:`
 * naming no template, a job with neither `script:`, `run:`, `trigger:` nor `extends:`. They run as
 * the user types; the server's lint is the verdict on save. A file with `include:` may get jobs and
 * templates from elsewhere: names it does not define are then not reported. Pure: no `vscode`.
 */
import { isMap, isPair, isSeq, type LineCounter, type Node, type Pair, type YAMLMap } from 'yaml';
import * as l10n from '@vscode/l10n';
import {
  CI_DEFAULT_STAGES,
  CI_GLOBAL_KEYWORDS,
  type CiTextRange,
  nodeRange,
  pairIn,
  type ParsedCiFile,
  parseCiFile,
  scalarText,
} from './ciYaml';

export interface CiLocalProblem {
  message: string;
  range: CiTextRange;
}

/** A job or template of the file: its name, its top-level pair, its mapping. */
export interface JobEntry {
  name: string;
  pair: Pair;
  map: YAMLMap;
}

function keyText(pair: Pair): string | undefined {
  return scalarText(pair.key);
}

/** The items of a list value (or the one scalar) with their text: `needs: [a, {job: b}]`. */
function namedItems(value: unknown, objectKey?: string): { name: string; node: Node }[] {
  const items: unknown[] = isSeq(value) ? value.items : [value];
  return items.flatMap((item) => {
    const text = scalarText(item);
    if (text !== undefined) return [{ name: text, node: item as Node }];
    if (objectKey !== undefined && isMap(item)) {
      const named = pairIn(item, objectKey);
      const name = scalarText(named?.value);
      if (named && name !== undefined) return [{ name, node: named.value as Node }];
    }
    return [];
  });
}

/** One reading of the file: its jobs and templates, its stages, where its lines begin. */
class CiReferences {
  readonly problems: CiLocalProblem[] = [];
  private readonly byName: Map<string, JobEntry>;
  private readonly stages: string[];
  private readonly included: boolean;

  constructor(
    private readonly lines: LineCounter,
    root: YAMLMap,
  ) {
    const pairs = root.items.filter(isPair);
    const top = new Map(
      pairs.flatMap((pair) => (keyText(pair) === undefined ? [] : [[keyText(pair), pair]])),
    );
    this.included = top.has('include');
    const stagesPair = top.get('stages');
    const declared = stagesPair ? namedItems(stagesPair.value).map((item) => item.name) : CI_DEFAULT_STAGES;
    this.stages = ['.pre', ...declared, '.post'];
    this.byName = new Map(
      pairs.flatMap((pair) => {
        const name = keyText(pair);
        return name !== undefined && !CI_GLOBAL_KEYWORDS.has(name) && isMap(pair.value)
          ? [[name, { name, pair, map: pair.value }] as const]
          : [];
      }),
    );
  }

  /** Each job's and template's stage, as `stage:` and `extends:` give it. */
  stagesOfJobs(): Map<string, string> {
    return new Map([...this.byName.values()].map((entry) => [entry.name, this.stageOf(entry)]));
  }

  check(): CiLocalProblem[] {
    for (const entry of this.byName.values()) this.checkJob(entry);
    return this.problems;
  }

  private report(node: { range?: [number, number, number] | null }, message: string): void {
    const range = nodeRange(this.lines, node);
    if (range) this.problems.push({ message, range });
  }

  /** A job's stage: its own, else its templates' (nearest last), else `test`. */
  private stageOf(entry: JobEntry, depth = 0): string {
    const own = scalarText(pairIn(entry.map, 'stage')?.value);
    if (own !== undefined) return own;
    if (depth < 10)
      for (const parent of namedItems(pairIn(entry.map, 'extends')?.value).reverse()) {
        const template = this.byName.get(parent.name);
        if (template) return this.stageOf(template, depth + 1);
      }
    return 'test';
  }

  private checkJob(entry: JobEntry): void {
    const stage = pairIn(entry.map, 'stage');
    const stageName = scalarText(stage?.value);
    if (stage && stageName !== undefined && !this.stages.includes(stageName))
      this.report(
        stage.value as Node,
        l10n.t('Stage "{0}" is not in stages: ({1}).', stageName, this.stages.join(', ')),
      );
    for (const parent of namedItems(pairIn(entry.map, 'extends')?.value))
      if (!this.byName.has(parent.name) && !this.included)
        this.report(
          parent.node,
          l10n.t('extends: no template or job named "{0}" in this file.', parent.name),
        );
    // A hidden job is a template: what it lacks, the jobs extending it may have.
    if (entry.name.startsWith('.')) return;
    this.checkNeeds(entry, 'needs', 'job');
    this.checkNeeds(entry, 'dependencies', undefined);
    const runs = ['script', 'run', 'trigger', 'extends', '<<'].some((key) => pairIn(entry.map, key));
    if (!runs)
      this.report(
        entry.pair.key as Node,
        l10n.t('Job "{0}" has no script:, run:, trigger: or extends:.', entry.name),
      );
  }

  private checkNeeds(entry: JobEntry, key: 'needs' | 'dependencies', objectKey: string | undefined): void {
    const own = this.stageOf(entry);
    for (const needed of namedItems(pairIn(entry.map, key)?.value, objectKey)) {
      const other = this.byName.get(needed.name);
      if (!other) {
        if (!this.included)
          this.report(needed.node, l10n.t('{0}: no job named "{1}" in this file.', key, needed.name));
        continue;
      }
      const theirs = this.stageOf(other);
      if (this.stages.indexOf(theirs) > this.stages.indexOf(own))
        this.report(
          needed.node,
          l10n.t(
            '{0}: "{1}" runs in a later stage ({2}) than this job ({3}).',
            key,
            needed.name,
            theirs,
            own,
          ),
        );
    }
  }
}

function readReferences(file: string | ParsedCiFile | undefined): CiReferences | undefined {
  const parsed = typeof file === 'string' ? parseCiFile(file) : file;
  return parsed && new CiReferences(parsed.lines, parsed.root);
}

/**
 * Problems of the file's references (its text, or the file already read), on the nodes they are
 * about; none for a file that does not parse.
 */
export function checkCiReferences(file: string | ParsedCiFile | undefined): CiLocalProblem[] {
  return readReferences(file)?.check() ?? [];
}

/** The stage of each job and template of the file; undefined when it does not parse. */
export function ciJobStages(text: string): Map<string, string> | undefined {
  return readReferences(text)?.stagesOfJobs();
}
