/**
 * Building blocks shared by the v4 resource schemas.
 *
 * Every resource schema is a `z.looseObject`: real servers send many more fields than the spec
 * lists, and we validate only what the code relies on while passing the rest through untouched.
 */
import * as z from 'zod';

/** Server-wide and project-internal ids are JSON integers. */
export const IdSchema = z.number().int();

/**
 * ISO 8601 timestamps, kept as strings: real servers vary in precision, offsets and even spacing
 * (one documented sample has `"2013-09-30T13: 46: 02Z"`), so strict datetime checks would reject
 * payloads the UI can still show.
 */
export const TimestampSchema = z.string();

/**
 * Error bodies: `{"message": "404 Branch Not Found"}`, `{"message": {"field": ["..."]}}` for
 * validation failures, and `{"error": "title is missing"}` for parameter errors.
 */
export const ApiErrorBodySchema = z.looseObject({
  message: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  error: z.string().optional(),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBodySchema>;
