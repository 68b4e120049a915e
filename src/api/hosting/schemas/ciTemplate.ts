import * as z from 'zod';

/** One row of a template list (`GET /templates/gitlab_ci_ymls`). */
export const CiTemplateSummarySchema = z.looseObject({
  name: z.string(),
  /** The path key to fetch the template with; servers that omit it use the name. */
  key: z.string().optional(),
});
export type CiTemplateSummary = z.infer<typeof CiTemplateSummarySchema>;

/**
 * One template with its text. Dockerfile, .gitignore and licence templates share this
 * `{name, content}` shape.
 */
export const CiTemplateSchema = z.looseObject({
  name: z.string(),
  content: z.string(),
});
export type CiTemplate = z.infer<typeof CiTemplateSchema>;
