import type { z } from 'zod';
import { SchemaMismatchError } from './errors';
import * as l10n from '@vscode/l10n';

/**
 * Parses a reply with the schema the code relies on. A reply that does not fit becomes an error
 * naming the endpoint and the field, never a crash further down.
 */
export function parseReply<S extends z.ZodType>(
  schema: S,
  data: unknown,
  endpoint: string | (() => string),
): z.infer<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const fieldPath =
    issue && issue.path.length > 0 ? issue.path.map(String).join('.') : l10n.t('(whole reply)');
  throw new SchemaMismatchError(
    typeof endpoint === 'string' ? endpoint : endpoint(),
    fieldPath,
    issue ? describeIssue(issue) : l10n.t('does not match'),
  );
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') return l10n.t('should be {0}', issue.expected);
  return issue.message.toLowerCase();
}
