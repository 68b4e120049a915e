import * as z from 'zod';
import { IdSchema, TimestampSchema } from './common';

export const NamespaceSchema = z.looseObject({
  id: IdSchema,
  name: z.string(),
  path: z.string(),
  /** `user` or `group`; older servers leave it out. */
  kind: z.string().optional(),
  full_path: z.string().optional(),
});
export type Namespace = z.infer<typeof NamespaceSchema>;

/** Owner of a personal project; some shapes give only `{id, name, created_at}`. */
export const ProjectOwnerSchema = z.looseObject({
  id: IdSchema,
  name: z.string(),
  username: z.string().optional(),
  created_at: TimestampSchema.optional(),
});
export type ProjectOwner = z.infer<typeof ProjectOwnerSchema>;

const AccessSchema = z.looseObject({
  access_level: z.number().int(),
  // Real servers send null when the member never chose a notification setting.
  notification_level: z.number().int().nullish(),
});

/** The caller's own access; each side is null when it does not apply (no group, not a member). */
export const ProjectPermissionsSchema = z.looseObject({
  project_access: AccessSchema.nullish(),
  group_access: AccessSchema.nullish(),
});
export type ProjectPermissions = z.infer<typeof ProjectPermissionsSchema>;

export const SharedGroupSchema = z.looseObject({
  group_id: IdSchema,
  group_name: z.string(),
  group_access_level: z.number().int(),
});

/**
 * A project. Only id, name and path are required so that the `simple=true` list shape and the
 * short project objects embedded in jobs, todos and boards parse too.
 */
export const ProjectSchema = z.looseObject({
  id: IdSchema,
  // Optional: trimmed shapes (and some settings replies) omit them; show path_with_namespace or id.
  name: z.string().optional(),
  path: z.string().optional(),
  name_with_namespace: z.string().optional(),
  path_with_namespace: z.string().optional(),
  description: z.string().nullish(),
  /** Null for a project whose repository is still empty. */
  default_branch: z.string().nullish(),
  /** private / internal / public; older servers send `visibility_level` instead. */
  visibility: z.string().optional(),
  web_url: z.string().optional(),
  ssh_url_to_repo: z.string().optional(),
  http_url_to_repo: z.string().optional(),
  avatar_url: z.string().nullish(),
  tag_list: z.array(z.string()).optional(),
  /** Absent for projects in a group namespace. */
  owner: ProjectOwnerSchema.nullish(),
  namespace: NamespaceSchema.optional(),
  /** Only in shapes fetched for an authenticated member. */
  permissions: ProjectPermissionsSchema.nullish(),
  archived: z.boolean().optional(),
  created_at: TimestampSchema.optional(),
  last_activity_at: TimestampSchema.optional(),
  creator_id: IdSchema.optional(),
  open_issues_count: z.number().int().optional(),
  forks_count: z.number().int().optional(),
  star_count: z.number().int().optional(),
  issues_enabled: z.boolean().optional(),
  merge_requests_enabled: z.boolean().optional(),
  jobs_enabled: z.boolean().optional(),
  wiki_enabled: z.boolean().optional(),
  snippets_enabled: z.boolean().optional(),
  container_registry_enabled: z.boolean().optional(),
  shared_runners_enabled: z.boolean().optional(),
  public_jobs: z.boolean().optional(),
  /** Secret; omitted in the star and unstar shapes and for non-maintainers. */
  runners_token: z.string().optional(),
  shared_with_groups: z.array(SharedGroupSchema).optional(),
  only_allow_merge_if_pipeline_succeeds: z.boolean().optional(),
  only_allow_merge_if_all_discussions_are_resolved: z.boolean().optional(),
  request_access_enabled: z.boolean().optional(),
});
export type Project = z.infer<typeof ProjectSchema>;
