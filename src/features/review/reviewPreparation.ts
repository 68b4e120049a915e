/**
 * What opening a merge request's diff needs: the commits compared, the changed files and where the
 * sides are read. The commits of a head and the sides' source are kept between files, so opening
 * the next file asks the server for its two sides only. The threads start loading at once.
 */
import type { HostingClient, MergeRequestDiff } from '../../api/hosting';
import type { DiffRefs } from '../../domain/mergeRequestView';
import type { AccountManager } from '../../platform/accounts';
import { describeError } from '../../platform/commands/errorMessages';
import { type ReviewTarget, loadChangedFiles, loadDiffRefs, sideSource } from './changedFiles';
import type { SideSource } from './reviewContent';
import type { ReviewComments } from './reviewComments';

/** How long where a merge request's sides are read is kept (a clone opened since is found after it). */
const SOURCE_KEPT_MS = 60_000;

export class ReviewPreparation {
  private readonly refsKept = new Map<string, Promise<DiffRefs>>();
  private readonly sourcesKept = new Map<string, { source: Promise<SideSource>; at: number }>();

  constructor(
    private readonly accounts: AccountManager,
    private readonly comments: ReviewComments,
    private readonly log: { warn(line: string): void },
  ) {}

  async prepare(
    target: ReviewTarget,
    known?: Promise<MergeRequestDiff[]>,
  ): Promise<{ refs: DiffRefs; changes: MergeRequestDiff[]; source: SideSource }> {
    const client = await this.accounts.client(target.accountId);
    const [refs, changes, source] = await Promise.all([
      this.refs(client, target),
      known ?? loadChangedFiles(client, target),
      this.source(target),
    ]);
    // The threads load while the diff opens; the lines take comments at once.
    this.comments.show(target, refs, changes, source).catch((error: unknown) => {
      this.log.warn(`Loading the threads of !${target.mergeRequest.iid}: ${describeError(error)}`);
    });
    return { refs, changes, source };
  }

  private refs(client: HostingClient, target: ReviewTarget): Promise<DiffRefs> {
    const { accountId, project, mergeRequest } = target;
    const key = `${accountId}|${project.id}|${mergeRequest.iid}|${mergeRequest.sha ?? ''}`;
    let refs = this.refsKept.get(key);
    if (!refs) {
      refs = loadDiffRefs(client, target);
      this.refsKept.set(key, refs);
      refs.catch(() => this.refsKept.delete(key));
    }
    return refs;
  }

  private source(target: ReviewTarget): Promise<SideSource> {
    const key = `${target.accountId}|${target.project.id}|${target.mergeRequest.iid}`;
    const kept = this.sourcesKept.get(key);
    if (kept && Date.now() - kept.at < SOURCE_KEPT_MS) return kept.source;
    const source = sideSource(target, this.accounts.get(target.accountId)?.serverUrl);
    this.sourcesKept.set(key, { source, at: Date.now() });
    return source;
  }
}
