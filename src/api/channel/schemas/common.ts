/**
 * Building blocks of the channel API schemas.
 *
 * Older servers send every database column as a string (`"filesize": "3934"`), newer ones send
 * integer columns as JSON numbers: numeric fields accept both and come out as numbers. Records are
 * `z.looseObject`s: only what the code relies on is checked, every other field passes through.
 */
import * as z from 'zod';
import * as l10n from '@vscode/l10n';

/** An integer given as a JSON number or as a decimal string; parsed to a number. */
export const IntLikeSchema = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^\s*-?\d+\s*$/, l10n.t('should be an integer'))
    .transform((text) => Number(text.trim())),
]);

/** A 0/1 column (`"1"`, `1`, `true`); parsed to a boolean. */
export const FlagSchema = z.union([z.boolean(), IntLikeSchema.transform((value) => value !== 0)]);

/**
 * `'YYYY-MM-DD HH:MM:SS'` in UTC, kept as text: zero dates are `0000-00-00 00:00:00` or
 * `0001-01-01 00:00:00` and must not become invalid `Date`s.
 */
export const ChannelDateSchema = z.string();

/** Text columns of joined tables are null when the join found nothing. */
export const OptionalTextSchema = z.string().nullish();

/** The access lists of a record: `<hash><hash>` text, empty for "everyone". */
export const AccessFieldsShape = {
  allow_cid: OptionalTextSchema,
  allow_gid: OptionalTextSchema,
  deny_cid: OptionalTextSchema,
  deny_gid: OptionalTextSchema,
};

/** True for the zero dates servers write for "never". */
export function isZeroDate(value: string | null | undefined): boolean {
  return value === undefined || value === null || value === '' || /^000[01]-0[01]-0[01]/.test(value);
}
