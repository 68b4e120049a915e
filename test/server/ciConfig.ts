/**
 * The fake forge's reading of a `.gitlab-ci.yml`, as much of GitLab's as the extension meets: stages
 * (with `.pre` and `.post`), jobs with `stage`, `script`, `needs`, `when`, `allow_failure`, `rules:
 * - if:` comparing variables (`$CI_PIPELINE_SOURCE == "web"`), `extends` of hidden templates, and
 * `trigger:` for child (`include:`) and multi-project pipelines; top-level `variables:` with
 * `description`, `value` and `options` (what GitLab's "Run pipeline" form offers). Errors are
 * GitLab's sentences (design.md section 3).
 */
import { parse, YAMLParseError } from 'yaml';

export interface CiJobPlan {
  name: string;
  stage: string;
  needs: string[] | undefined;
  when: 'on_success' | 'manual' | 'always' | 'delayed';
  allowFailure: boolean;
  /** A trigger job: a child pipeline from a file of this project, or a pipeline of another project. */
  trigger?: { include?: string; project?: string; branch?: string; depend: boolean };
}

export interface CiPlan {
  stages: string[];
  jobs: CiJobPlan[];
  /** Top-level variables with their default values. */
  variables: Record<string, string>;
}

const DEFAULT_STAGES = ['build', 'test', 'deploy'];
const GLOBAL_KEYWORDS = new Set([
  'image',
  'services',
  'stages',
  'variables',
  'default',
  'include',
  'workflow',
  'before_script',
  'after_script',
  'cache',
  'spec',
]);

/** GitLab's job keywords (doc/ci/yaml); any other key of a job is refused as unknown. */
const JOB_KEYWORDS = new Set([
  'after_script',
  'allow_failure',
  'artifacts',
  'before_script',
  'cache',
  'coverage',
  'dast_configuration',
  'dependencies',
  'environment',
  'extends',
  'hooks',
  'id_tokens',
  'identity',
  'image',
  'inherit',
  'interruptible',
  'manual_confirmation',
  'needs',
  'only',
  'except',
  'pages',
  'parallel',
  'release',
  'resource_group',
  'retry',
  'rules',
  'run',
  'script',
  'secrets',
  'services',
  'stage',
  'start_in',
  'tags',
  'timeout',
  'trigger',
  'variables',
  'when',
]);

type Yaml = Record<string, unknown>;

/** A YAML scalar as text (null as empty); a mapping or list as JSON, never `[object Object]`. */
export function scalar(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
const isRecord = (value: unknown): value is Yaml =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The top-level variables with their values (a `{value, description, options}` entry gives its value). */
function topLevelVariables(config: Yaml): Record<string, string> {
  const variables: Record<string, string> = {};
  if (!isRecord(config['variables'])) return variables;
  for (const [key, entry] of Object.entries(config['variables'])) {
    variables[key] = scalar(isRecord(entry) ? entry['value'] : entry);
  }
  return variables;
}

/** `$A == "x"`, `$A != 'x'`, `$A` (set and not empty), joined by `&&` or `||` (no parentheses). */
export function ruleMatches(expression: string, variables: Record<string, string>): boolean {
  return expression.split('||').some((any) =>
    any.split('&&').every((part) => {
      const comparison = /^\s*\$(\w+)\s*(==|!=)\s*["']([^"']*)["']\s*$/.exec(part);
      if (comparison) {
        const [, name = '', operator, expected] = comparison;
        const actual = variables[name];
        return operator === '==' ? actual === expected : actual !== expected;
      }
      const presence = /^\s*\$(\w+)\s*$/.exec(part);
      if (presence) return (variables[presence[1] ?? ''] ?? '') !== '';
      return false;
    }),
  );
}

/** A job's keys with its templates' (`extends`) under them, nearest last. */
function resolveExtends(config: Yaml, name: string, job: Yaml, errors: string[], depth = 0): Yaml {
  const parents = job['extends'] === undefined ? [] : [job['extends']].flat();
  let merged: Yaml = {};
  for (const parent of parents.map(scalar)) {
    const template = config[parent];
    if (!isRecord(template) || depth > 10) {
      errors.push(`${name}: unknown keys in \`extends\` (${parent})`);
      continue;
    }
    merged = { ...merged, ...resolveExtends(config, parent, template, errors, depth + 1) };
  }
  return { ...merged, ...job };
}

function triggerOf(job: Yaml): CiJobPlan['trigger'] {
  const trigger = job['trigger'];
  if (trigger === undefined) return undefined;
  if (typeof trigger === 'string') return { project: trigger, depend: false };
  if (!isRecord(trigger)) return undefined;
  const include = trigger['include'];
  const includePath =
    typeof include === 'string'
      ? include
      : Array.isArray(include) && isRecord(include[0])
        ? scalar(include[0]['local'])
        : undefined;
  return {
    ...(includePath ? { include: includePath.replace(/^\//, '') } : {}),
    ...(typeof trigger['project'] === 'string' ? { project: trigger['project'] } : {}),
    ...(typeof trigger['branch'] === 'string' ? { branch: trigger['branch'] } : {}),
    depend: trigger['strategy'] === 'depend',
  };
}

/** The job's `when` after its rules, or undefined when no rule lets it into the pipeline. */
function whenAfterRules(job: Yaml, variables: Record<string, string>): string | undefined {
  const rules = job['rules'];
  if (!Array.isArray(rules)) return typeof job['when'] === 'string' ? job['when'] : 'on_success';
  for (const rule of rules) {
    if (!isRecord(rule)) continue;
    if (typeof rule['if'] === 'string' && !ruleMatches(rule['if'], variables)) continue;
    const when = typeof rule['when'] === 'string' ? rule['when'] : 'on_success';
    return when === 'never' ? undefined : when;
  }
  return undefined;
}

function planJob(
  config: Yaml,
  name: string,
  raw: Yaml,
  stages: string[],
  variables: Record<string, string>,
  errors: string[],
): CiJobPlan | undefined {
  const unknown = Object.keys(raw).filter((key) => !JOB_KEYWORDS.has(key));
  if (unknown.length > 0) errors.push(`jobs:${name} config contains unknown keys: ${unknown.join(', ')}`);
  const job = resolveExtends(config, name, raw, errors);
  const stage = typeof job['stage'] === 'string' ? job['stage'] : 'test';
  if (!stages.includes(stage))
    errors.push(
      `${name} job: chosen stage ${stage} does not exist; available stages are ${stages.join(', ')}`,
    );
  const trigger = triggerOf(job);
  if (job['script'] === undefined && job['run'] === undefined && !trigger)
    errors.push(`jobs ${name} config should implement the script:, run:, or trigger: keyword`);
  const when = whenAfterRules(job, variables);
  if (when === undefined) return undefined;
  const needs = Array.isArray(job['needs'])
    ? job['needs'].map((need) => scalar(isRecord(need) ? need['job'] : need))
    : undefined;
  // GitLab: a `when: manual` job outside rules may fail without failing the pipeline.
  const manualDefault = when === 'manual' && !Array.isArray(job['rules']);
  return {
    name,
    stage,
    needs,
    when: when === 'manual' || when === 'always' || when === 'delayed' ? when : 'on_success',
    allowFailure: job['allow_failure'] === undefined ? manualDefault : job['allow_failure'] === true,
    ...(trigger ? { trigger } : {}),
  };
}

/** The plan of a pipeline, or GitLab's sentences for what is wrong with the file. */
export function planPipeline(
  text: string,
  predefined: Record<string, string>,
): { plan: CiPlan } | { errors: string[] } {
  const config = readCiYaml(text);
  if ('error' in config) return { errors: [config.error] };
  return planParsed(config.yaml, predefined);
}

/**
 * A CI file's YAML as GitLab's Psych reads it (`<<:` merges), or its syntax error in Psych's words:
 * `(<unknown>): <reason> at line L column C` (GUESSED: the reason is the `yaml` library's, Psych words
 * it differently; the place is what clients read).
 */
export function readCiYaml(text: string): { yaml: unknown } | { error: string } {
  try {
    return { yaml: parse(text, { merge: true }) };
  } catch (error) {
    if (!(error instanceof YAMLParseError)) return { error: '(<unknown>): bad YAML' };
    const reason = error.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '') ?? 'bad YAML';
    const place = error.linePos?.[0];
    return {
      error: place
        ? `(<unknown>): ${reason} at line ${place.line} column ${place.col}`
        : `(<unknown>): ${reason}`,
    };
  }
}

function planParsed(
  config: unknown,
  predefined: Record<string, string>,
): { plan: CiPlan } | { errors: string[] } {
  if (!isRecord(config)) return { errors: ['Invalid configuration format'] };
  const declared = Array.isArray(config['stages']) ? config['stages'].map(scalar) : DEFAULT_STAGES;
  const stages = ['.pre', ...declared, '.post'];
  const variables = topLevelVariables(config);
  const errors: string[] = [];
  const jobs: CiJobPlan[] = [];
  for (const [name, raw] of Object.entries(config)) {
    if (GLOBAL_KEYWORDS.has(name) || name.startsWith('.') || !isRecord(raw)) continue;
    const job = planJob(config, name, raw, stages, { ...variables, ...predefined }, errors);
    if (job) jobs.push(job);
  }
  for (const job of jobs) {
    for (const need of job.needs ?? []) {
      const needed = jobs.find((other) => other.name === need);
      if (!needed || stages.indexOf(needed.stage) > stages.indexOf(job.stage))
        errors.push(`${job.name} job: need ${need} is not defined in current or prior stages`);
    }
  }
  if (errors.length > 0) return { errors };
  return { plan: { stages, jobs, variables } };
}
