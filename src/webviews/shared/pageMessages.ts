import * as z from 'zod';

/*
 * Messages every app sends, whatever its panel: the ready handshake and what the page saw go wrong.
 * Panels extend the union with their own messages; the host validates each one before acting.
 */

export const ReadyMessageSchema = z.strictObject({ type: z.literal('ready') });

/** The page reports any Content-Security-Policy violation it sees (none is expected). */
export const CspViolationMessageSchema = z.strictObject({
  type: z.literal('cspViolation'),
  directive: z.string().max(200),
  blockedUri: z.string().max(2000),
  sample: z.string().max(200),
});

/** An uncaught error or rejection in the page. */
export const PageErrorMessageSchema = z.strictObject({
  type: z.literal('pageError'),
  message: z.string().max(2000),
});

/** Milliseconds from the page script starting to the first content drawn, for benchmarks. */
export const RenderedMessageSchema = z.strictObject({
  type: z.literal('rendered'),
  what: z.string().max(100),
  ms: z.number().nonnegative().max(3_600_000),
});

/**
 * A link in the page was clicked: the host opens it through `openServerLink`, which refuses all but
 * web links, instead of VS Code's own handling of links in webviews.
 */
export const OpenLinkMessageSchema = z.strictObject({
  type: z.literal('openLink'),
  url: z.string().max(8192),
});

/** `#12` or `!3` clicked in Markdown (`app/references.ts`): that issue or merge request of the project. */
export const OpenReferenceMessageSchema = z.strictObject({
  type: z.literal('openReference'),
  kind: z.enum(['issue', 'mergeRequest']),
  iid: z.number().int().positive().max(999_999_999),
});
export type OpenReferenceMessage = z.infer<typeof OpenReferenceMessageSchema>;

export const CommonPageMessageSchemas = [
  ReadyMessageSchema,
  CspViolationMessageSchema,
  PageErrorMessageSchema,
  RenderedMessageSchema,
  OpenLinkMessageSchema,
] as const;

export type CspViolationMessage = z.infer<typeof CspViolationMessageSchema>;
export type RenderedMessage = z.infer<typeof RenderedMessageSchema>;
