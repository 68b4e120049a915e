/**
 * A merge request row's approvals, read when its tooltip is shown (one request per row hovered, not
 * one per row drawn): who approved and how many approvals are still needed. A server without
 * approvals (404), or one that fails, leaves the tooltip as it was.
 */
import * as vscode from 'vscode';
import type { MergeRequest, Project } from '../../api/hosting';
import { isOpenState } from '../../domain/mergeRequestStatus';
import { approvalsView, describeApprovals } from '../../domain/mergeRequestView';
import type { AccountManager } from '../../platform/accounts';

export async function withApprovals(
  item: vscode.TreeItem,
  row: { account: { id: string }; project: Project; mergeRequest: MergeRequest },
  accounts: AccountManager,
  token: vscode.CancellationToken,
): Promise<vscode.TreeItem> {
  const { tooltip } = item;
  if (!(tooltip instanceof vscode.MarkdownString) || !isOpenState(row.mergeRequest.state)) return item;
  const controller = new AbortController();
  const cancelling = token.onCancellationRequested(() => controller.abort());
  try {
    const client = await accounts.client(row.account.id);
    const approvals = await client.getApprovals(row.project.id, row.mergeRequest.iid, {
      signal: controller.signal,
    });
    tooltip
      .appendMarkdown('\n\n')
      .appendText(vscode.l10n.t('Approvals: {0}', describeApprovals(approvalsView(approvals))));
  } catch {
    // No approvals on this server, or not now: the rest of the tooltip says enough.
  } finally {
    cancelling.dispose();
  }
  return item;
}
