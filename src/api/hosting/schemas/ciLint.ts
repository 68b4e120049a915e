import * as z from 'zod';

/**
 * The CI lint's answer (`POST|GET /projects/:id/ci/lint`, GitLab 13.5 and later): whether the file is
 * valid, GitLab's sentences for what is wrong (`errors`) and what may be (`warnings`), the file with
 * its `include:`s expanded (`merged_yaml`), and, on GitLab 15 and later, the files it included.
 * Nothing but `valid` is required: documented answers leave parts out.
 */
export const CiLintIncludeSchema = z.looseObject({
  type: z.string().nullish(),
  location: z.string().nullish(),
  blob: z.string().nullish(),
  raw: z.string().nullish(),
  context_project: z.string().nullish(),
  context_sha: z.string().nullish(),
});
export type CiLintInclude = z.infer<typeof CiLintIncludeSchema>;

export const CiLintSchema = z.looseObject({
  valid: z.boolean(),
  errors: z.array(z.string()).nullish(),
  warnings: z.array(z.string()).nullish(),
  merged_yaml: z.string().nullish(),
  includes: z.array(CiLintIncludeSchema).nullish(),
  jobs: z.array(z.looseObject({ name: z.string(), stage: z.string().nullish() })).nullish(),
});
export type CiLint = z.infer<typeof CiLintSchema>;

/**
 * A project's CI/CD variable (`GET /projects/:id/variables`, Maintainer and up). Only the names and
 * descriptions are read: completion offers the names, and a value never leaves the client (a hidden
 * one is `null` from GitLab 17.4 on).
 */
export const ProjectVariableSchema = z.looseObject({
  key: z.string(),
  variable_type: z.string().nullish(),
  value: z.string().nullish(),
  protected: z.boolean().nullish(),
  masked: z.boolean().nullish(),
  hidden: z.boolean().nullish(),
  raw: z.boolean().nullish(),
  environment_scope: z.string().nullish(),
  description: z.string().nullish(),
});
export type ProjectVariable = z.infer<typeof ProjectVariableSchema>;
