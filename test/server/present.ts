import {
  ACCESS,
  BOOLEAN_PROJECT_SETTINGS,
  type AwardEmoji,
  type Board,
  type BoardList,
  type Branch,
  type BroadcastMessage,
  type Commit,
  type FileChange,
  type ForgeState,
  type Issue,
  type Job,
  type MergeRequest,
  type Pipeline,
  type Milestone,
  type Note,
  type Project,
  type ProjectEvent,
  type SshKey,
  type SystemHook,
  type Todo,
  type Trigger,
  type User,
} from './state';
import { hunksBetween, treeAt } from './repositoryFiles';

/*
 * Turns state records into the JSON shapes of the v4 API (see the spec's resource sections and the
 * fixtures in /work/shared/fixtures/gitlab-docs). Some fields depend on who is asking (permissions,
 * subscribed, runners_token, can_push), hence one presenter per request.
 */

type Json = Record<string, unknown>;

export type ProjectShape = 'full' | 'list' | 'simple' | 'starred';
/** `action`: cancel, retry and play (no pipeline). `artifacts`: erase and keep (download_url null). */
export type JobShape = 'full' | 'action' | 'artifacts';

export class Presenter {
  private readonly ancestryCache = new Map<string, Set<string>>();

  constructor(
    private readonly state: ForgeState,
    private readonly viewer: User | undefined,
  ) {}

  private get web(): string {
    return this.state.webOrigin;
  }

  // ---- users -------------------------------------------------------------------------------------

  userBasic(user: User): Json {
    return {
      id: user.id,
      username: user.username,
      name: user.name,
      state: user.state,
      avatar_url: user.avatarUrl,
      web_url: `${this.web}/${user.username}`,
    };
  }

  userById(id: number | null): Json | null {
    const user = id === null ? undefined : this.state.users.get(id);
    return user ? this.userBasic(user) : null;
  }

  /** Author shape of notes and events: the basic fields plus created_at. */
  userWithCreatedAt(user: User): Json {
    return { ...this.userBasic(user), created_at: user.createdAt };
  }

  userFull(user: User): Json {
    return {
      ...this.userBasic(user),
      created_at: user.createdAt,
      bio: user.bio,
      location: null,
      public_email: '',
      skype: '',
      linkedin: '',
      twitter: '',
      website_url: user.websiteUrl,
      organization: null,
      is_admin: user.isAdmin,
    };
  }

  /** The fuller user embedded in the SSH-key lookup. */
  userForKey(user: User): Json {
    return {
      ...this.userFull(user),
      email: user.email,
      theme_id: 1,
      color_scheme_id: 1,
      projects_limit: 100_000,
      current_sign_in_at: user.currentSignInAt,
      last_sign_in_at: user.currentSignInAt,
      identities: [],
      can_create_group: true,
      can_create_project: true,
      two_factor_enabled: false,
      external: false,
    };
  }

  // ---- projects ----------------------------------------------------------------------------------

  projectReference(project: Project): Json {
    return {
      id: project.id,
      name: project.name,
      name_with_namespace: this.state.nameWithNamespace(project),
      path: project.path,
      path_with_namespace: this.state.pathWithNamespace(project),
    };
  }

  project(project: Project, shape: ProjectShape): Json {
    const path = this.state.pathWithNamespace(project);
    const namespace = this.state.namespaceOf(project);
    const webUrl = `${this.web}/${path}`;
    const simple: Json = {
      id: project.id,
      description: project.description,
      name: project.name,
      name_with_namespace: this.state.nameWithNamespace(project),
      path: project.path,
      path_with_namespace: path,
      created_at: project.createdAt,
      default_branch: project.defaultBranch,
      tag_list: [...project.tagList],
      topics: [...project.tagList],
      ssh_url_to_repo: `git@${new URL(this.web).hostname}:${path}.git`,
      http_url_to_repo: `${webUrl}.git`,
      web_url: webUrl,
      readme_url: `${webUrl}/-/blob/${project.defaultBranch}/README.md`,
      avatar_url: project.avatarUrl,
      forks_count: project.forksCount,
      star_count: project.starredBy.size,
      last_activity_at: project.lastActivityAt,
      namespace: {
        id: namespace.id,
        name: namespace.name,
        path: namespace.path,
        kind: namespace.kind,
        full_path: namespace.path,
        parent_id: null,
        avatar_url: null,
        web_url:
          namespace.kind === 'group'
            ? `${this.web}/groups/${namespace.path}`
            : `${this.web}/${namespace.path}`,
      },
    };
    if (shape === 'simple') return simple;

    const settings: Json = {};
    for (const name of BOOLEAN_PROJECT_SETTINGS) settings[name] = project.settings[name];
    const result: Json = {
      ...simple,
      _links: {
        self: `${this.web}/api/v4/projects/${project.id}`,
        issues: `${this.web}/api/v4/projects/${project.id}/issues`,
        merge_requests: `${this.web}/api/v4/projects/${project.id}/merge_requests`,
        repo_branches: `${this.web}/api/v4/projects/${project.id}/repository/branches`,
        labels: `${this.web}/api/v4/projects/${project.id}/labels`,
        events: `${this.web}/api/v4/projects/${project.id}/events`,
        members: `${this.web}/api/v4/projects/${project.id}/members`,
      },
      empty_repo: project.branches.size === 0,
      archived: project.archived,
      visibility: project.visibility,
      ...settings,
      creator_id: project.creatorId,
      import_url: null,
      import_status: 'none',
      open_issues_count: this.openIssuesCount(project),
      merge_method: project.mergeMethod ?? 'merge',
      shared_with_groups: project.sharedWithGroups.map((share) => ({
        group_id: share.groupId,
        group_name: share.groupName,
        group_access_level: share.groupAccessLevel,
      })),
    };
    if (namespace.kind === 'user' && namespace.ownerId !== null) {
      const owner = this.state.users.get(namespace.ownerId);
      if (owner) result['owner'] = this.userWithCreatedAt(owner);
    }
    if (project.forkedFromId !== null) {
      const source = this.state.projects.get(project.forkedFromId);
      if (source) result['forked_from_project'] = this.project(source, 'simple');
    }
    // Secret: only those who administer the project see it, and never in the star/unstar shapes.
    if (shape !== 'starred' && this.canAdminister(project)) result['runners_token'] = project.runnersToken;
    if (this.viewer && (shape === 'full' || shape === 'list'))
      result['permissions'] = this.permissions(project);
    return result;
  }

  private canAdminister(project: Project): boolean {
    if (!this.viewer) return false;
    return this.viewer.isAdmin || this.state.accessLevel(project, this.viewer) >= ACCESS.maintainer;
  }

  private permissions(project: Project): Json {
    const viewer = this.viewer;
    if (!viewer) return { project_access: null, group_access: null };
    const namespace = this.state.namespaceOf(project);
    const direct =
      project.members.get(viewer.id) ?? (namespace.ownerId === viewer.id ? ACCESS.owner : undefined);
    const group = namespace.kind === 'group' ? namespace.members.get(viewer.id) : undefined;
    return {
      project_access: direct === undefined ? null : { access_level: direct, notification_level: 3 },
      group_access: group === undefined ? null : { access_level: group, notification_level: 3 },
    };
  }

  private openIssuesCount(project: Project): number {
    let count = 0;
    for (const issue of this.state.issues.values())
      if (issue.projectId === project.id && issue.state === 'opened') count++;
    return count;
  }

  projectMember(user: User): Json {
    return this.userBasic(user);
  }

  event(event: ProjectEvent): Json {
    const author = this.state.users.get(event.authorId);
    const result: Json = {
      id: event.id,
      title: null,
      project_id: event.projectId,
      action_name: event.actionName,
      target_id: event.targetId,
      target_iid: event.targetIid,
      target_type: event.targetType,
      author_id: event.authorId,
      target_title: event.targetTitle,
      created_at: event.createdAt,
      author: author ? this.userBasic(author) : null,
      author_username: author?.username ?? null,
      data: null,
    };
    if (event.push) {
      const project = this.state.projects.get(event.projectId);
      const path = project ? this.state.pathWithNamespace(project) : '';
      const commits = event.push.commitShas.flatMap((sha) => {
        const commit = this.state.commits.get(sha);
        if (!commit) return [];
        return [
          {
            id: commit.id,
            message: commit.message,
            timestamp: commit.committedDate,
            url: `${this.web}/${path}/-/commit/${commit.id}`,
            author: { name: commit.authorName, email: commit.authorEmail },
          },
        ];
      });
      result['data'] = {
        before: event.push.before,
        after: event.push.after,
        ref: event.push.ref,
        user_id: event.authorId,
        user_name: author?.name ?? '',
        repository: {
          name: project?.name ?? '',
          url: `git@${new URL(this.web).hostname}:${path}.git`,
          description: project?.description ?? '',
          homepage: `${this.web}/${path}`,
        },
        commits,
        total_commits_count: commits.length,
      };
    }
    if (event.noteId !== null) {
      const note = this.state.notes.get(event.noteId);
      if (note) {
        result['note'] = {
          id: note.id,
          body: note.body,
          attachment: null,
          author: this.userById(note.authorId),
          created_at: note.createdAt,
          system: note.system,
          noteable_id: note.noteableId,
          noteable_type: note.noteableType,
        };
      }
    }
    return result;
  }

  // ---- repository --------------------------------------------------------------------------------

  commit(commit: Commit, project?: Project): Json {
    const result: Json = {
      id: commit.id,
      short_id: commit.id.slice(0, 8),
      created_at: commit.committedDate,
      parent_ids: [...commit.parentIds],
      title: commit.title,
      message: commit.message,
      author_name: commit.authorName,
      author_email: commit.authorEmail,
      authored_date: commit.authoredDate,
      committer_name: commit.committerName,
      committer_email: commit.committerEmail,
      committed_date: commit.committedDate,
    };
    if (project)
      result['web_url'] = `${this.web}/${this.state.pathWithNamespace(project)}/-/commit/${commit.id}`;
    return result;
  }

  /** The merge-request commit shape. */
  mergeRequestCommit(commit: Commit): Json {
    return {
      id: commit.id,
      short_id: commit.id.slice(0, 8),
      title: commit.title,
      author_name: commit.authorName,
      author_email: commit.authorEmail,
      created_at: commit.committedDate,
      message: commit.message,
      parent_ids: [...commit.parentIds],
    };
  }

  branch(project: Project, branch: Branch): Json {
    const commit = this.state.commits.get(branch.commitSha);
    const level = this.viewer?.isAdmin ? ACCESS.owner : this.state.accessLevel(project, this.viewer);
    const canPush =
      level >= ACCESS.maintainer ||
      (level >= ACCESS.developer && (!branch.protected || branch.developersCanPush));
    return {
      name: branch.name,
      merged: this.isMerged(project, branch),
      protected: branch.protected,
      default: branch.name === project.defaultBranch,
      developers_can_push: branch.developersCanPush,
      developers_can_merge: branch.developersCanMerge,
      can_push: canPush && !project.archived,
      web_url: `${this.web}/${this.state.pathWithNamespace(project)}/-/tree/${branch.name}`,
      commit: commit
        ? this.commit(commit, project)
        : { id: branch.commitSha, short_id: branch.commitSha.slice(0, 8) },
    };
  }

  private isMerged(project: Project, branch: Branch): boolean {
    const target = project.branches.get(project.defaultBranch);
    if (!target) return false;
    let ancestry = this.ancestryCache.get(target.commitSha);
    if (!ancestry) {
      ancestry = this.state.ancestry(target.commitSha);
      this.ancestryCache.set(target.commitSha, ancestry);
    }
    return this.state.isBranchMerged(project, branch, ancestry);
  }

  // ---- jobs --------------------------------------------------------------------------------------

  job(job: Job, shape: JobShape): Json {
    const project = this.state.projects.get(job.projectId);
    const commit = this.state.commits.get(job.commitSha);
    const user = job.userId === null ? undefined : this.state.users.get(job.userId);
    const size = this.state.artifactsSize(job);
    const result: Json = {
      id: job.id,
      status: job.status,
      stage: job.stage,
      name: job.name,
      ref: job.ref,
      tag: job.tag,
      coverage: null,
      allow_failure: job.allowFailure,
      created_at: job.createdAt,
      started_at: job.startedAt,
      finished_at: job.finishedAt,
      erased_at: job.erasedAt,
      duration: secondsBetween(
        job.startedAt,
        job.finishedAt ?? (job.status === 'running' ? this.state.now() : null),
      ),
      queued_duration: secondsBetween(job.createdAt, job.startedAt),
      user: user ? this.userFull(user) : null,
      commit: commit
        ? this.commit(commit)
        : {
            id: job.commitSha,
            short_id: job.commitSha.slice(0, 8),
            title: '',
            message: '',
            author_name: '',
            author_email: '',
            created_at: job.createdAt,
          },
      web_url: project ? `${this.web}/${this.state.pathWithNamespace(project)}/-/jobs/${job.id}` : null,
      artifacts_file: job.artifacts && size !== undefined ? { filename: job.artifacts.filename, size } : null,
      artifacts:
        job.artifacts && size !== undefined
          ? [{ file_type: 'archive', size, filename: job.artifacts.filename, file_format: 'zip' }]
          : [],
      artifacts_expire_at: job.artifacts?.expireAt ?? null,
      runner: null,
      tag_list: [],
    };
    if (job.failureReason !== null) result['failure_reason'] = job.failureReason;
    if (shape !== 'action') {
      const pipeline = this.state.pipelines.get(job.pipelineId);
      if (pipeline) {
        result['pipeline'] = {
          id: pipeline.id,
          iid: pipeline.iid,
          project_id: pipeline.projectId,
          ref: pipeline.ref,
          sha: pipeline.sha,
          status: this.state.pipelineStatus(pipeline),
          source: 'push',
          created_at: pipeline.createdAt,
          updated_at: pipeline.updatedAt,
        };
      }
    }
    if (shape === 'artifacts') result['download_url'] = null;
    return result;
  }

  // ---- merge requests, issues, notes, award emoji ------------------------------------------------

  milestone(id: number | null): Json | null {
    const milestone: Milestone | undefined = id === null ? undefined : this.state.milestones.get(id);
    if (!milestone) return null;
    return {
      id: milestone.id,
      iid: milestone.iid,
      project_id: milestone.projectId,
      title: milestone.title,
      description: milestone.description,
      state: milestone.state,
      created_at: milestone.createdAt,
      updated_at: milestone.updatedAt,
      due_date: milestone.dueDate,
      start_date: null,
    };
  }

  private votes(type: 'Issue' | 'MergeRequest', id: number): { upvotes: number; downvotes: number } {
    let upvotes = 0;
    let downvotes = 0;
    for (const award of this.state.awardEmoji.values()) {
      if (award.awardableType !== type || award.awardableId !== id) continue;
      if (award.name === 'thumbsup') upvotes++;
      if (award.name === 'thumbsdown') downvotes++;
    }
    return { upvotes, downvotes };
  }

  private userNotesCount(type: 'Issue' | 'MergeRequest', id: number): number {
    let count = 0;
    for (const note of this.state.notes.values()) {
      if (note.noteableType === type && note.noteableId === id && !note.system) count++;
    }
    return count;
  }

  /** With a linear history, a merge request whose base is not its target's head must be rebased first. */
  private behindTarget(mergeRequest: MergeRequest, project: Project | undefined): boolean {
    if (!project || (project.mergeMethod ?? 'merge') === 'merge') return false;
    const target = project.branches.get(mergeRequest.targetBranch);
    return target !== undefined && target.commitSha !== mergeRequest.baseSha;
  }

  /** The project wants every thread resolved before a merge, and one is not. */
  private mustResolveThreads(mergeRequest: MergeRequest, project: Project | undefined): boolean {
    if (!project?.settings.only_allow_merge_if_all_discussions_are_resolved) return false;
    return [...this.state.notes.values()].some(
      (note) =>
        note.noteableType === 'MergeRequest' &&
        note.noteableId === mergeRequest.id &&
        note.resolvable === true &&
        note.resolvedById == null,
    );
  }

  /** A pipeline's page on the server. */
  pipelineWebUrl(pipeline: Pipeline): string {
    const project = this.state.projects.get(pipeline.projectId);
    return `${this.web}/${project ? this.state.pathWithNamespace(project) : ''}/-/pipelines/${pipeline.id}`;
  }

  mergeRequest(mergeRequest: MergeRequest, withChanges = false): Json {
    const project = this.state.projects.get(mergeRequest.projectId);
    const path = project ? this.state.pathWithNamespace(project) : '';
    const assignee = this.userById(mergeRequest.assigneeId);
    const draft = isDraftTitle(mergeRequest.title);
    const latest = this.state.latestPipeline(this.state.mergeRequestHeadSha(mergeRequest));
    const headPipeline = latest && {
      id: latest.id,
      sha: latest.sha,
      ref: latest.ref,
      status: this.state.pipelineStatus(latest),
      web_url: this.pipelineWebUrl(latest),
    };
    const result: Json = {
      id: mergeRequest.id,
      iid: mergeRequest.iid,
      project_id: mergeRequest.projectId,
      title: mergeRequest.title,
      description: mergeRequest.description,
      state:
        mergeRequest.state === 'opened' && mergeRequest.reopened === true ? 'reopened' : mergeRequest.state,
      created_at: mergeRequest.createdAt,
      updated_at: mergeRequest.updatedAt,
      merged_by: this.userById(mergeRequest.mergedById),
      merge_user: this.userById(mergeRequest.mergedById),
      merged_at: mergeRequest.mergedAt,
      closed_by: this.userById(mergeRequest.closedById),
      closed_at: mergeRequest.closedAt,
      target_branch: mergeRequest.targetBranch,
      source_branch: mergeRequest.sourceBranch,
      user_notes_count: this.userNotesCount('MergeRequest', mergeRequest.id),
      ...this.votes('MergeRequest', mergeRequest.id),
      author: this.userById(mergeRequest.authorId),
      assignees: assignee ? [assignee] : [],
      assignee,
      reviewers: [],
      source_project_id: mergeRequest.sourceProjectId,
      target_project_id: mergeRequest.targetProjectId,
      labels: [...mergeRequest.labels],
      draft,
      work_in_progress: draft,
      milestone: this.milestone(mergeRequest.milestoneId),
      merge_when_pipeline_succeeds: mergeRequest.mergeWhenPipelineSucceeds,
      merge_status: mergeRequest.mergeStatus,
      detailed_merge_status: detailedMergeStatus(mergeRequest, draft, {
        behind: this.behindTarget(mergeRequest, project),
        unresolved: this.mustResolveThreads(mergeRequest, project),
        pipeline: project?.settings.only_allow_merge_if_pipeline_succeeds
          ? (headPipeline?.status ?? 'none')
          : undefined,
      }),
      head_pipeline: headPipeline ?? null,
      merge_error: mergeRequest.mergeError ?? null,
      sha: this.state.mergeRequestHeadSha(mergeRequest),
      merge_commit_sha: mergeRequest.mergeCommitSha,
      squash_commit_sha: null,
      discussion_locked: null,
      should_remove_source_branch: mergeRequest.shouldRemoveSourceBranch,
      force_remove_source_branch: mergeRequest.forceRemoveSourceBranch,
      reference: `!${mergeRequest.iid}`,
      references: {
        short: `!${mergeRequest.iid}`,
        relative: `!${mergeRequest.iid}`,
        full: `${path}!${mergeRequest.iid}`,
      },
      web_url: `${this.web}/${path}/-/merge_requests/${mergeRequest.iid}`,
      time_stats: {
        time_estimate: 0,
        total_time_spent: 0,
        human_time_estimate: null,
        human_total_time_spent: null,
      },
      squash: false,
      task_completion_status: { count: 0, completed_count: 0 },
      has_conflicts: mergeRequest.mergeStatus === 'cannot_be_merged',
      blocking_discussions_resolved: true,
      subscribed: this.viewer ? mergeRequest.subscriberIds.has(this.viewer.id) : false,
    };
    if (withChanges) {
      const head = this.state.mergeRequestHeadSha(mergeRequest);
      // As GitLab's `.../changes`: the commits the diff is between.
      result['diff_refs'] = {
        base_sha: mergeRequest.baseSha,
        head_sha: head,
        start_sha: mergeRequest.baseSha,
      };
      const changes = this.mergeRequestChanges(mergeRequest);
      result['changes_count'] = String(changes.length);
      result['changes'] = changes.map(fileChange);
    }
    return result;
  }

  /** Changes of the request's own commits, later commits overriding earlier ones for the same file. */
  private mergeRequestChanges(mergeRequest: MergeRequest): FileChange[] {
    const commits = this.state
      .commitsBetween(mergeRequest.baseSha, this.state.mergeRequestHeadSha(mergeRequest))
      .reverse();
    const byPath = new Map<string, FileChange[]>();
    for (const commit of commits)
      for (const change of commit.changes)
        byPath.set(change.newPath, [...(byPath.get(change.newPath) ?? []), change]);
    return [...byPath.values()].flatMap((changes) => {
      const [first] = changes;
      const last = changes.at(-1);
      if (!first || !last) return [];
      if (changes.length === 1) return [first];
      // Changed by several commits (a suggestion applied): the diff from the base to the head.
      const before = first.newFile
        ? ''
        : (treeAt(this.state, mergeRequest.baseSha)?.get(first.oldPath) ?? '');
      const after = treeAt(this.state, this.state.mergeRequestHeadSha(mergeRequest))?.get(last.newPath) ?? '';
      return [{ ...last, oldPath: first.oldPath, newFile: first.newFile, diff: hunksBetween(before, after) }];
    });
  }

  issue(issue: Issue): Json {
    const project = this.state.projects.get(issue.projectId);
    const path = project ? this.state.pathWithNamespace(project) : '';
    const assignee = this.userById(issue.assigneeId);
    return {
      id: issue.id,
      iid: issue.iid,
      project_id: issue.projectId,
      title: issue.title,
      description: issue.description,
      state: issue.state,
      created_at: issue.createdAt,
      updated_at: issue.updatedAt,
      closed_at: issue.closedAt ?? null,
      closed_by: this.userById(issue.closedById ?? null),
      labels: [...issue.labels],
      milestone: this.milestone(issue.milestoneId),
      assignees: assignee ? [assignee] : [],
      assignee,
      author: this.userById(issue.authorId),
      user_notes_count: this.userNotesCount('Issue', issue.id),
      ...this.votes('Issue', issue.id),
      due_date: issue.dueDate ?? null,
      confidential: issue.confidential,
      ...taskCompletion(issue.description),
      web_url: `${this.web}/${path}/-/issues/${issue.iid}`,
      references: { short: `#${issue.iid}`, relative: `#${issue.iid}`, full: `${path}#${issue.iid}` },
    };
  }

  note(note: Note): Json {
    const author = this.state.users.get(note.authorId);
    let noteableIid: number | null = null;
    if (note.noteableType === 'Issue') noteableIid = this.state.issues.get(note.noteableId)?.iid ?? null;
    if (note.noteableType === 'MergeRequest')
      noteableIid = this.state.mergeRequests.get(note.noteableId)?.iid ?? null;
    // A diff note (beyond the seed spec) comes with its position and thread state, as on GitLab.
    const diffNote = note.position
      ? {
          type: 'DiffNote',
          position: note.position,
          resolvable: true,
          resolved: note.resolvedById != null,
        }
      : {};
    return {
      id: note.id,
      type: null,
      body: note.body,
      attachment: null,
      author: author ? this.userWithCreatedAt(author) : null,
      created_at: note.createdAt,
      updated_at: note.updatedAt,
      system: note.system,
      noteable_id: note.noteableId,
      noteable_type: note.noteableType,
      noteable_iid: noteableIid,
      project_id: note.projectId,
      resolvable: false,
      confidential: false,
      internal: false,
      ...diffNote,
    };
  }

  awardEmoji(award: AwardEmoji): Json {
    return {
      id: award.id,
      name: award.name,
      user: this.userById(award.userId),
      created_at: award.createdAt,
      updated_at: award.updatedAt,
      awardable_id: award.awardableId,
      awardable_type: award.awardableType,
    };
  }

  // ---- boards, triggers, hooks, todos, broadcast messages, keys ----------------------------------

  boardList(list: BoardList): Json {
    const label = this.state.labels.get(list.labelId);
    return {
      id: list.id,
      label: label
        ? { id: label.id, name: label.name, color: label.color, description: label.description }
        : null,
      position: list.position,
      max_issue_count: 0,
    };
  }

  board(board: Board): Json {
    const project = this.state.projects.get(board.projectId);
    return {
      id: board.id,
      name: board.name,
      project: project ? this.projectReference(project) : null,
      milestone: null,
      lists: [...board.lists].sort((a, b) => a.position - b.position).map((list) => this.boardList(list)),
    };
  }

  trigger(trigger: Trigger): Json {
    return {
      id: trigger.id,
      description: trigger.description,
      created_at: trigger.createdAt,
      updated_at: trigger.updatedAt,
      deleted_at: null,
      last_used: trigger.lastUsed,
      token: trigger.token,
      owner: this.userById(trigger.ownerId),
    };
  }

  systemHook(hook: SystemHook): Json {
    return {
      id: hook.id,
      url: hook.url,
      created_at: hook.createdAt,
      push_events: hook.pushEvents,
      tag_push_events: hook.tagPushEvents,
      merge_requests_events: false,
      repository_update_events: true,
      enable_ssl_verification: hook.enableSslVerification,
    };
  }

  todo(todo: Todo): Json {
    const project = this.state.projects.get(todo.projectId);
    const path = project ? this.state.pathWithNamespace(project) : '';
    let target: Json | null = null;
    let targetUrl = `${this.web}/${path}`;
    if (todo.targetType === 'MergeRequest') {
      const mergeRequest = this.state.mergeRequests.get(todo.targetId);
      if (mergeRequest) {
        target = this.mergeRequest(mergeRequest);
        targetUrl = `${this.web}/${path}/-/merge_requests/${mergeRequest.iid}`;
      }
    } else {
      const issue = this.state.issues.get(todo.targetId);
      if (issue) {
        target = this.issue(issue);
        targetUrl = `${this.web}/${path}/-/issues/${issue.iid}`;
      }
    }
    return {
      id: todo.id,
      project: project ? this.projectReference(project) : null,
      author: this.userById(todo.authorId),
      action_name: todo.actionName,
      target_type: todo.targetType,
      target,
      target_url: targetUrl,
      body: todo.body,
      state: todo.state,
      created_at: todo.createdAt,
    };
  }

  broadcastMessage(message: BroadcastMessage): Json {
    const now = Date.now();
    return {
      id: message.id,
      message: message.message,
      starts_at: message.startsAt,
      ends_at: message.endsAt,
      color: message.color,
      font: message.font,
      // Not stated by the spec; real servers: active while starts_at <= now < ends_at.
      active: Date.parse(message.startsAt) <= now && now < Date.parse(message.endsAt),
      target_path: '',
      broadcast_type: 'banner',
      dismissable: false,
    };
  }

  sshKey(key: SshKey): Json {
    const user = this.state.users.get(key.userId);
    return {
      id: key.id,
      title: key.title,
      key: key.key,
      created_at: key.createdAt,
      expires_at: null,
      user: user ? this.userForKey(user) : null,
    };
  }
}

function fileChange(change: FileChange): Json {
  return {
    old_path: change.oldPath,
    new_path: change.newPath,
    a_mode: change.aMode,
    b_mode: change.bMode,
    diff: change.diff,
    new_file: change.newFile,
    renamed_file: change.renamedFile,
    deleted_file: change.deletedFile,
  };
}

export function isDraftTitle(title: string): boolean {
  return /^\s*(\[draft\]|\(draft\)|draft:|draft\s-|\[wip\]|wip:|wip\s)/i.test(title);
}

function detailedMergeStatus(
  mergeRequest: MergeRequest,
  draft: boolean,
  blocks: { behind: boolean; unresolved: boolean; pipeline?: string },
): string {
  if (mergeRequest.state !== 'opened') return 'not_open';
  if (draft) return 'draft_status';
  if (mergeRequest.mergeStatus === 'cannot_be_merged') return 'broken_status';
  // With "Pipelines must succeed": a running one is waited for, anything else but success blocks.
  if (blocks.pipeline === 'running' || blocks.pipeline === 'pending' || blocks.pipeline === 'created')
    return 'ci_still_running';
  if (blocks.pipeline !== undefined && blocks.pipeline !== 'success') return 'ci_must_pass';
  if (blocks.unresolved) return 'discussions_not_resolved';
  if (blocks.behind) return 'need_rebase';
  if (approvalsLeft(mergeRequest) > 0) return 'not_approved';
  return 'mergeable';
}

/** Approvals still needed: what is required less who approved. */
export function approvalsLeft(mergeRequest: MergeRequest): number {
  return Math.max(0, (mergeRequest.approvalsRequired ?? 0) - (mergeRequest.approvedByIds?.size ?? 0));
}

function secondsBetween(from: string | null, to: string | null): number | null {
  if (from === null || to === null) return null;
  return Math.max(0, (Date.parse(to) - Date.parse(from)) / 1000);
}

/** GitLab's count of a description's task list items (`- [ ]`, `* [x]`, `1. [ ]`), outside code blocks. */
function taskCompletion(description: string): Json {
  let count = 0;
  let completed = 0;
  let fenced = false;
  for (const line of description.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const task = fenced ? null : /^\s{0,3}(?:>\s*)*(?:\s*)(?:[-*+]|\d+[.)])\s+\[([ xX])\]\s/.exec(line);
    if (!task) continue;
    count++;
    if (task[1] !== ' ') completed++;
  }
  return { has_tasks: count > 0, task_completion_status: { count, completed_count: completed } };
}
