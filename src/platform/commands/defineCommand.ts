import * as z from 'zod';
import { InvalidInputError } from './errorMessages';
import * as l10n from '@vscode/l10n';

/*
 * A command as a declaration: its id, a schema for each argument it takes (the tree row VS Code
 * passes first, trailing options that tests and automation pass last) and the `run` that does the
 * work by calling the feature's actions. Arguments are checked before `run`, the same way page
 * messages are; `run` keeps its types; errors go through the one wrapper in registerCommand.ts.
 * No vscode import: declarations are unit-tested in plain Node.
 */

type Outputs<Schemas extends readonly z.ZodType[]> = { -readonly [K in keyof Schemas]: z.output<Schemas[K]> };

export interface CommandDeclaration {
  readonly id: string;
  /** Checks the arguments, then runs; refused arguments throw `InvalidInputError`. */
  readonly handle: (...args: unknown[]) => Promise<unknown>;
}

export function defineCommand<const Schemas extends readonly z.ZodType[]>(declaration: {
  id: string;
  args: Schemas;
  run: (...args: Outputs<Schemas>) => unknown;
}): CommandDeclaration {
  const { id, args: schemas, run } = declaration;
  return {
    id,
    handle: async (...given: unknown[]) => {
      // VS Code may pass more than a command takes (a tree's selection after its row): ignored.
      const checked = schemas.map((schema, index) => {
        const result = schema.safeParse(isRowSelection(given[index]) && index > 0 ? undefined : given[index]);
        if (!result.success) {
          const issue = result.error.issues[0];
          const where = issue && issue.path.length > 0 ? ` (${issue.path.join('.')})` : '';
          throw new InvalidInputError(
            l10n.t(
              'The command {0} cannot take its argument {1}{2}: {3}.',
              id,
              index + 1,
              where,
              issue ? describeIssue(issue) : 'refused',
            ),
          );
        }
        return result.data;
      });
      return await run(...(checked as Outputs<Schemas>));
    },
  };
}

/** What was expected: for a choice of kinds, each kind ("expected a job or expected a project"). */
function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code !== 'invalid_union') return issue.message;
  const kinds = issue.errors.map((errors) => errors[0]?.message).filter((message) => message !== undefined);
  return kinds.length > 0 ? [...new Set(kinds)].join(' or ') : issue.message;
}

/** A tree row of one class, as VS Code passes it to a command run from a view. */
export function rowOf<T>(rowClass: abstract new (...args: never[]) => T, what: string): z.ZodType<T> {
  return z.custom<T>((value) => value instanceof rowClass, { error: l10n.t('expected {0}', what) });
}

/**
 * What VS Code passes after the row when a tree lets several rows be selected: the selected rows.
 * Where a command takes options, that array means no options.
 */
function isRowSelection(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0 && value.every(isTreeRow);
}

/** Whether a value is a tree row as VS Code passes it to a command: an object with `getTreeItem`. */
export function isTreeRow(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { getTreeItem?: unknown }).getTreeItem === 'function'
  );
}
