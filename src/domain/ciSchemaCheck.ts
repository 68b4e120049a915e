/*
 * The CI file checked against GitLab's JSON schema (issue 38) with Ajv, as the user types: each
 * problem on the YAML node it is about. Ajv reports every branch of a schema's `oneOf`/`anyOf` that
 * failed; a user needs the one that was meant, so the report is condensed: the deepest place wins,
 * a type mismatch gives way to what the matching type found, and the types one place may have are
 * said once ("should be string or array"). Pure: no `vscode`.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import * as l10n from '@vscode/l10n';
import { isMap, isSeq, type LineCounter, type Node } from 'yaml';
import type { CiLocalProblem } from './ciLocalChecks';
import { type CiTextRange, nodeRange, pairIn, type ParsedCiFile, parseCiFile } from './ciYaml';

export type CiSchemaValidator = ValidateFunction;

/** Compiles GitLab's schema (a few hundred milliseconds: once per session). */
export function compileCiSchema(schema: object): CiSchemaValidator {
  // GitLab's schema has keywords of its own (`markdownDescription`) and formats Ajv does not know.
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  return ajv.compile(schema);
}

/**
 * The file's problems by the schema (its text, or the file already read); none for a file that does
 * not parse (the server says why).
 */
export function checkCiSchema(
  validate: CiSchemaValidator,
  file: string | ParsedCiFile | undefined,
): CiLocalProblem[] {
  const parsed = typeof file === 'string' ? parseCiFile(file) : file;
  if (!parsed) return [];
  let value: unknown;
  try {
    value = parsed.value();
  } catch {
    return [];
  }
  if (validate(value)) return [];
  const places = new YamlPlaces(parsed.root, parsed.lines);
  return condense(validate.errors ?? []).map((error) => ({
    message: messageOf(error),
    range: places.of(error),
  }));
}

const segmentsOf = (instancePath: string): string[] =>
  instancePath === ''
    ? []
    : instancePath
        .slice(1)
        .split('/')
        .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));

/** Errors that only say "no branch matched": the branches' own errors say more. */
const SUMMARY_KEYWORDS = new Set(['oneOf', 'anyOf', 'allOf', 'if', 'not', 'false schema']);

function condense(errors: readonly ErrorObject[]): ErrorObject[] {
  const specific = errors.filter((error) => !SUMMARY_KEYWORDS.has(error.keyword));
  const kept = specific.length > 0 ? specific : errors.slice(0, 1);
  const paths = new Set(kept.map((error) => error.instancePath));
  const hasDeeper = (path: string): boolean =>
    [...paths].some((other) => other.length > path.length && other.startsWith(`${path}/`));
  const byPath = new Map<string, ErrorObject[]>();
  for (const error of kept) {
    // A type that did not match where another branch went deeper was not the one meant.
    if (error.keyword === 'type' && hasDeeper(error.instancePath)) continue;
    const group = byPath.get(error.instancePath) ?? [];
    group.push(error);
    byPath.set(error.instancePath, group);
  }
  const condensed: ErrorObject[] = [];
  for (const group of byPath.values()) {
    const other = group.filter((error) => error.keyword !== 'type');
    if (other.length > 0) {
      const seen = new Set<string>();
      for (const error of other) {
        const message = messageOf(error);
        if (!seen.has(message)) condensed.push(error);
        seen.add(message);
      }
      continue;
    }
    // `type: [object, "null"]` comes as one error whose type reads "object,null".
    const types = [...new Set(group.flatMap((error) => String(error.params['type']).split(',')))];
    const first = group[0];
    if (first) condensed.push({ ...first, params: { type: types.join(' | ') } });
  }
  return condensed;
}

function messageOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return l10n.t('"{0}" is not a keyword here.', String(params['additionalProperty']));
    case 'type':
      return l10n.t('Should be {0}.', String(params['type']).split(' | ').join(l10n.t(' or ')));
    case 'enum':
      return l10n.t(
        'Should be one of: {0}.',
        (Array.isArray(params['allowedValues']) ? params['allowedValues'] : []).map(String).join(', '),
      );
    case 'required':
      return l10n.t('"{0}" is missing here.', String(params['missingProperty']));
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return l10n.t('Should be {0} {1}.', String(params['comparison']), String(params['limit']));
    case 'minItems':
      return l10n.t('Should have at least {0} items.', String(params['limit']));
    case 'minLength':
      return l10n.t('Should not be empty.');
    case 'uniqueItems':
      return l10n.t('Items should not repeat.');
    default:
      return l10n.t("Does not match GitLab's CI schema: {0}.", error.message ?? error.keyword);
  }
}

/** Where an Ajv error's instance path stands in the YAML document. */
class YamlPlaces {
  constructor(
    private readonly root: Node,
    private readonly lines: LineCounter,
  ) {}

  of(error: ErrorObject): CiTextRange {
    const segments = segmentsOf(error.instancePath);
    let node: Node = this.root;
    let key: Node | undefined;
    for (const segment of segments) {
      const next = this.child(node, segment);
      if (!next) break;
      node = next.value;
      key = next.key ?? key;
    }
    if (error.keyword === 'additionalProperties' && isMap(node)) {
      const unknown = String((error.params as Record<string, unknown>)['additionalProperty']);
      const pair = pairIn(node, unknown);
      const range = pair && nodeRange(this.lines, pair.key as Node);
      if (range) return range;
    }
    // A mapping or list is marked by its key (the whole block would cover many lines).
    const target = isMap(node) || isSeq(node) ? key : node;
    return (
      (target && nodeRange(this.lines, target)) ?? {
        startLine: 0,
        startCharacter: 0,
        endLine: 0,
        endCharacter: 0,
      }
    );
  }

  private child(node: Node, segment: string): { key?: Node; value: Node } | undefined {
    if (isMap(node)) {
      const pair = pairIn(node, segment);
      if (!pair || pair.value === null || typeof pair.value !== 'object') return undefined;
      return { key: pair.key as Node, value: pair.value as Node };
    }
    if (isSeq(node)) {
      const item: unknown = node.items[Number(segment)];
      return item !== null && typeof item === 'object' ? { value: item as Node } : undefined;
    }
    return undefined;
  }
}
