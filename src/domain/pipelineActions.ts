/**
 * What can be done to a pipeline in its state (issue 37): the capability table the tree's menus,
 * the palette and the pipeline graph read, and the variables GitLab's "Run pipeline" form offers,
 * read from the CI file. No `vscode`.
 */
import { parse } from 'yaml';
import { ownEntry } from './ownEntry';

export type PipelineAction = 'retry' | 'cancel' | 'delete' | 'openInBrowser' | 'copyLink';

/**
 * GitLab's statuses, each with the actions it allows: a pipeline is retried when some job failed
 * or was canceled (a failure allowed to fail leaves `success-with-warnings`), canceled while a job
 * may still start or run. Deleting needs the Owner role, which only the server knows: it refuses
 * with 403 and the command says so.
 */
export const PIPELINE_ACTIONS_BY_STATUS: Readonly<Record<string, readonly PipelineAction[]>> = {
  created: ['cancel', 'delete'],
  waiting_for_resource: ['cancel', 'delete'],
  preparing: ['cancel', 'delete'],
  waiting_for_callback: ['cancel', 'delete'],
  pending: ['cancel', 'delete'],
  running: ['cancel', 'delete'],
  scheduled: ['cancel', 'delete'],
  canceling: ['delete'],
  manual: ['delete'],
  success: ['delete'],
  'success-with-warnings': ['retry', 'delete'],
  failed: ['retry', 'delete'],
  canceled: ['retry', 'delete'],
  skipped: ['delete'],
};

export interface PipelineShape {
  status: string;
  web_url?: string | null;
  detailed_status?: { group?: string | null } | null;
}

/** The actions a pipeline allows now; an unknown status allows only what needs no state. */
export function pipelineActions(pipeline: PipelineShape): PipelineAction[] {
  const group = pipeline.detailed_status?.group;
  const byStatus =
    (group ? ownEntry(PIPELINE_ACTIONS_BY_STATUS, group) : undefined) ??
    ownEntry(PIPELINE_ACTIONS_BY_STATUS, pipeline.status);
  const actions: PipelineAction[] = [...(byStatus ?? ['delete'])];
  if (pipeline.web_url) actions.push('openInBrowser', 'copyLink');
  return actions;
}

/** The tokens of a pipeline row's `contextValue` (`pipeline retryable cancelable ...`). */
export function pipelineContextTokens(pipeline: PipelineShape): string[] {
  const tokens: Record<PipelineAction, string> = {
    retry: 'retryable',
    cancel: 'cancelable',
    delete: 'deletable',
    openInBrowser: 'linked',
    copyLink: 'linked',
  };
  return [...new Set(pipelineActions(pipeline).map((action) => tokens[action]))];
}

/** A variable the "Run pipeline" form offers: from the CI file's top-level `variables:`. */
export interface PrefilledVariable {
  key: string;
  value: string;
  description: string | undefined;
  /** The values to pick from, when the file lists them (`options:`). */
  options: string[] | undefined;
}

/**
 * The prefilled variables of a CI file, as GitLab's form shows them: top-level variables with a
 * `description` (others are not offered). Unreadable YAML offers none: the server says what is wrong
 * when the pipeline is created.
 */
export function prefilledVariables(ciFile: string): PrefilledVariable[] {
  let config: unknown;
  try {
    config = parse(ciFile);
  } catch {
    return [];
  }
  const variables = (config as { variables?: unknown } | null)?.variables;
  if (typeof variables !== 'object' || variables === null || Array.isArray(variables)) return [];
  const offered: PrefilledVariable[] = [];
  for (const [key, entry] of Object.entries(variables as Record<string, unknown>)) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) continue;
    const { description, value, options } = entry as Record<string, unknown>;
    if (typeof description !== 'string') continue;
    offered.push({
      key,
      value:
        value === undefined || value === null
          ? ''
          : typeof value === 'string'
            ? value
            : JSON.stringify(value),
      description,
      options: Array.isArray(options)
        ? options.map((option) => (typeof option === 'string' ? option : JSON.stringify(option)))
        : undefined,
    });
  }
  return offered;
}
