import * as vscode from 'vscode';
import type { HostingClient, MergeRequest, Project } from '../../api/hosting';
import { mergeRequestAppearance } from '../../domain/mergeRequestStatus';
import { type ChangeOutcome, type MergeRequestChange, changeMergeRequest } from './changes';
import { describeError } from '../../platform/commands/errorMessages';
import type { AccountInfo } from '../../platform/accounts';
import type { Services } from '../../services';
import type { NoteDrafts } from '../../state/noteDrafts';
import type { CurrentUsers } from '../../state/currentUsers';
import { MergeRequestItemNode, type MergeRequestsTreeProvider, NoteNode } from './mergeRequestsTreeProvider';
import { type ProjectTarget, projectTarget } from '../projects';
import { MergeRequestNode } from './nodes/mergeRequestNodes';
import type { TreeNode } from '../../platform/tree/treeNode';
import {
  type PickItem,
  askText,
  createSearchPick,
  pickOne,
  showInformation,
  withProgress,
} from '../../platform/userMessages';
import { checkWebLink } from '../../domain/webLinks';
import { openServerLink } from '../../platform/serverLinks';
import type { ReviewFeature } from '../review';
import type { JobRef } from '../jobs';

/** What the merge request, note and award emoji commands share. */
/** What a command returns when the user dismissed a question. */
export const CANCELLED = { reason: 'cancelled' } as const;

export interface MergeRequestCommandContext {
  services: Services;
  view: MergeRequestsTreeProvider;
  currentUsers: CurrentUsers;
  drafts: NoteDrafts;
  /** Opens changed files in the diff editor from the server when there is no clone. */
  review?: ReviewFeature;
  /** Opens a job's trace panel (the jobs feature's). */
  showJobTrace?: (ref: JobRef) => Promise<unknown>;
  /** Opens an issue's panel (the issues feature's; built after this one, called only later). */
  openIssue?: (where: { accountId: string; project: number; iid: number }) => Promise<unknown>;
}

export interface MergeRequestTarget {
  account: AccountInfo;
  project: Project;
  mergeRequest: MergeRequest;
  /** The tree node the command ran on, if any. */
  node?: TreeNode;
}

export function projectPath(project: Project): string {
  return project.path_with_namespace ?? project.name ?? String(project.id);
}

/**
 * A merge request named without a tree node (the merge request panel's buttons pass one as the
 * command's first argument), so a command acts on it exactly as on its tree row.
 */
export interface MergeRequestRef {
  kind: 'forge.mergeRequestRef';
  account: AccountInfo;
  project: Project;
  mergeRequest: MergeRequest;
}

export function mergeRequestRef(target: Omit<MergeRequestTarget, 'node'>): MergeRequestRef {
  return {
    kind: 'forge.mergeRequestRef',
    account: target.account,
    project: target.project,
    mergeRequest: target.mergeRequest,
  };
}

export function isMergeRequestRef(arg: unknown): arg is MergeRequestRef {
  if (typeof arg !== 'object' || arg === null) return false;
  const ref = arg as Partial<MergeRequestRef>;
  return (
    ref.kind === 'forge.mergeRequestRef' &&
    typeof ref.account?.id === 'string' &&
    typeof ref.project?.id === 'number' &&
    typeof ref.mergeRequest?.iid === 'number'
  );
}

/**
 * The merge request behind a tree node of either view (or the one a note node belongs to), or
 * named by a `MergeRequestRef`.
 */
export function mergeRequestFromNode(arg: unknown): MergeRequestTarget | undefined {
  if (isMergeRequestRef(arg)) {
    return { account: arg.account, project: arg.project, mergeRequest: arg.mergeRequest };
  }
  if (arg instanceof MergeRequestNode) {
    return {
      account: arg.owner.account,
      project: arg.owner.project,
      mergeRequest: arg.mergeRequest,
      node: arg,
    };
  }
  if (arg instanceof MergeRequestItemNode) {
    return { account: arg.account, project: arg.project, mergeRequest: arg.mergeRequest, node: arg };
  }
  if (arg instanceof NoteNode) {
    const { owner } = arg;
    return { account: owner.account, project: owner.project, mergeRequest: owner.mergeRequest, node: owner };
  }
  return undefined;
}

/** The merge request a command acts on: the node it ran on, or a project and one of its merge requests. */
export async function pickMergeRequest(
  services: Services,
  arg: unknown,
  placeHolder = vscode.l10n.t('Which merge request?'),
  states: 'opened' | 'all' = 'opened',
): Promise<MergeRequestTarget | undefined> {
  const fromNode = mergeRequestFromNode(arg);
  if (fromNode) return fromNode;
  const target = await projectTarget(services, undefined, vscode.l10n.t('Project of the merge request'));
  if (!target) return undefined;
  return pickMergeRequestIn(services, target, placeHolder, states);
}

/**
 * One of the project's merge requests, picked by the user: opened ones (first page), or with
 * `states: 'all'` every state, found by `!iid` or title as the user types.
 */
export async function pickMergeRequestIn(
  services: Services,
  target: ProjectTarget,
  placeHolder = vscode.l10n.t('Which merge request?'),
  states: 'opened' | 'all' = 'opened',
): Promise<MergeRequestTarget | undefined> {
  const client = await services.accounts.client(target.account.id);
  if (states === 'all') return searchMergeRequestIn(client, target, placeHolder);
  const page = await withProgress(
    { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Loading merge requests…') },
    () => client.listMergeRequests(target.project.id, { state: 'opened' }).page({ perPage: 100 }),
  );
  if (page.items.length === 0) {
    void showInformation(vscode.l10n.t('{0} has no opened merge requests.', projectPath(target.project)));
    return undefined;
  }
  const picked = await pickOne(
    page.items.map((mergeRequest) => ({
      label: `!${mergeRequest.iid} ${mergeRequest.title}`,
      description: `${mergeRequest.source_branch} → ${mergeRequest.target_branch}`,
      detail: vscode.l10n.t('by {0}', mergeRequest.author.name),
      mergeRequest,
    })),
    { placeHolder, matchOnDescription: true, title: projectPath(target.project) },
  );
  return picked ? { ...target, mergeRequest: picked.mergeRequest } : undefined;
}

/** A positive whole number typed by the user (an iid or id), or undefined when cancelled. */
export async function askNumber(prompt: string, placeHolder?: string): Promise<number | undefined> {
  const value = await askText({
    prompt,
    placeHolder,
    validateInput: (text) =>
      /^\s*#?[!$]?\d+\s*$/.test(text) ? undefined : vscode.l10n.t('A number, e.g. 12'),
  });
  if (value === undefined) return undefined;
  return Number(value.replace(/[^\d]/g, ''));
}

/**
 * Redraws what an action changed: the Merge Requests view, the Projects view around the node, and
 * the merge request's open panel (through `Services.onDidAct`).
 */
export function afterMergeRequestChange(
  context: MergeRequestCommandContext,
  target: { node?: TreeNode; account: AccountInfo; mergeRequest?: { iid: number } } & (
    { project: { id: number } } | { projectId: number }
  ),
): void {
  context.services.afterAction(target.node instanceof MergeRequestNode ? target.node : undefined, {
    accountId: target.account.id,
    projectId: 'project' in target ? target.project.id : target.projectId,
    folder: 'mergeRequests',
    mergeRequestIid: target.mergeRequest?.iid,
  });
}

/**
 * A one-click change (close, reopen, subscribe, …) as a person makes it from a row, the palette or
 * the panel's header: sent, said, and every view showing the merge request (or the todos) reloaded.
 */
export async function applyMergeRequestChange(
  context: MergeRequestCommandContext,
  target: Omit<MergeRequestTarget, 'node'> & { node?: TreeNode },
  change: MergeRequestChange,
): Promise<ChangeOutcome> {
  const client = await context.services.accounts.client(target.account.id);
  const done = await changeMergeRequest(client, target.project.id, target.mergeRequest, change);
  if (done.changedMergeRequest) afterMergeRequestChange(context, target);
  if (done.changedTodos) context.services.todos.refresh();
  void showInformation(done.message);
  return done;
}

/**
 * Opens a server link in the browser; only http(s) links. Not awaited: the workbench may ask the
 * user first (or forward a port), and the command has nothing to wait for.
 */
export function openLink(url: string | null | undefined, log?: { warn(message: string): void }): boolean {
  openServerLink(url, vscode.l10n.t('the web page')).then(undefined, (error: unknown) => {
    log?.warn(`Could not open ${url ?? ''}: ${error instanceof Error ? error.message : String(error)}`);
  });
  return checkWebLink(url).ok;
}

function mergeRequestPickRow(mergeRequest: MergeRequest): PickItem & { mergeRequest: MergeRequest } {
  return {
    label: `!${mergeRequest.iid} ${mergeRequest.title}`,
    description: `${mergeRequestAppearance(mergeRequest).label} · ${mergeRequest.source_branch} → ${mergeRequest.target_branch}`,
    detail: vscode.l10n.t('by {0}', mergeRequest.author.name),
    icon: mergeRequestAppearance(mergeRequest).codicon,
    mergeRequest,
  };
}

/**
 * The project's merge requests in every state, most recently updated first; typing `!12` (or `12`)
 * fetches !12 when the first page does not have it.
 */
/** The merge request `wanted`, asked for once; undefined when there is none (the list then says nothing matches). */
function lookUpOnce(
  lookups: Map<number, Promise<MergeRequest | undefined>>,
  wanted: number,
  get: () => Promise<MergeRequest>,
): Promise<MergeRequest | undefined> {
  let found = lookups.get(wanted);
  if (!found) {
    found = get().then(
      (mergeRequest) => mergeRequest,
      () => undefined,
    );
    lookups.set(wanted, found);
  }
  return found;
}

/** `!12` or `12` typed in a pick, as a number. */
function typedNumber(value: string): number | undefined {
  const iid = /^\s*!?(\d{1,9})\s*$/.exec(value)?.[1];
  return iid === undefined ? undefined : Number(iid);
}

async function searchMergeRequestIn(
  client: HostingClient,
  target: ProjectTarget,
  placeHolder: string,
): Promise<MergeRequestTarget | undefined> {
  type Row = ReturnType<typeof mergeRequestPickRow>;
  const pick = createSearchPick<Row>({
    title: projectPath(target.project),
    placeholder: vscode.l10n.t('{0} (!number or title, any state)', placeHolder),
  });
  let rows: Row[] = [];
  pick.setBusy(true);
  const firstPage = client
    .listMergeRequests(target.project.id, { state: 'all', orderBy: 'updated_at' })
    .page({ perPage: 100 })
    .then((page) => {
      rows = [
        ...rows,
        ...page.items
          .filter((mr) => !rows.some((row) => row.mergeRequest.iid === mr.iid))
          .map(mergeRequestPickRow),
      ];
      pick.setItems(rows);
      if (rows.length === 0)
        pick.setPlaceholder(vscode.l10n.t('{0} has no merge requests yet', projectPath(target.project)));
    })
    .catch((error: unknown) => {
      pick.setPlaceholder(
        vscode.l10n.t(
          'Could not load the merge requests: {0} Type !number to open one.',
          describeError(error),
        ),
      );
    })
    .finally(() => pick.setBusy(false));
  // A number typed is looked up once, whatever its state; Enter before the answer came waits for it.
  const lookups = new Map<number, Promise<MergeRequest | undefined>>();
  const lookUp = (wanted: number): Promise<MergeRequest | undefined> =>
    lookUpOnce(lookups, wanted, () =>
      firstPage.then(() => client.getMergeRequest(target.project.id, wanted)),
    );
  let typed = '';
  pick.onDidChangeValue((value) => {
    typed = value;
    const wanted = typedNumber(value);
    if (wanted === undefined) return;
    if (rows.some((row) => row.mergeRequest.iid === wanted) || lookups.has(wanted)) return;
    pick.setBusy(true);
    void lookUp(wanted)
      .then((mergeRequest) => {
        if (!mergeRequest || rows.some((row) => row.mergeRequest.iid === mergeRequest.iid)) return;
        rows = [mergeRequestPickRow(mergeRequest), ...rows];
        pick.setItems(rows);
      })
      .finally(() => pick.setBusy(false));
  });
  const chosen = await new Promise<Row | undefined>((resolve) => {
    pick.onDidAccept((row) => {
      const wanted = typedNumber(typed);
      if (row || wanted === undefined) {
        resolve(row);
        pick.hide();
        return;
      }
      void lookUp(wanted).then((mergeRequest) => {
        resolve(mergeRequest ? mergeRequestPickRow(mergeRequest) : undefined);
        pick.hide();
      });
    });
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  await firstPage;
  return chosen ? { ...target, mergeRequest: chosen.mergeRequest } : undefined;
}
