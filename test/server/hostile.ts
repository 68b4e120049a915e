// The hostile corpus (test/fixtures/hostile/corpus.json) planted into every place the fake forge and
// its channel serve text that the extension shows: names, titles, descriptions, notes, diffs, file
// names, traces, todos, broadcast messages and channel posts. Additive: nothing seeded is changed
// except the showcase merge request (acme/web !1), whose description, notes and changes become hostile.
import corpusJson from '../fixtures/hostile/corpus.json';
import type { FakeForge } from './index';
import type { FileChange, MergeRequest, Project } from './state';

/** Places a case can be put in besides the ones every case goes to (see the corpus README). */
export type HostilePlace =
  | 'projectName'
  | 'jobName'
  | 'branchName'
  | 'mergeRequestTitle'
  | 'todo'
  | 'broadcast'
  | 'channelTitle'
  | 'channelFileName'
  | 'fileName';

export interface HostileCase {
  id: string;
  kind: string;
  /** The text as served: `repeat` applied and %PWNED% replaced with the listener's origin. */
  text: string;
  places: HostilePlace[];
}

interface StoredCase {
  id: string;
  kind: string;
  text: string;
  repeat?: number;
  places: string[];
}

/** Marks where a payload would call the listener that proves it ran. */
export const PWNED_PLACEHOLDER = '%PWNED%';

/** The corpus with `%PWNED%` replaced by `pwnedOrigin` (e.g. http://127.0.0.1:4321). */
export function hostileCorpus(pwnedOrigin: string): HostileCase[] {
  return (corpusJson.cases as StoredCase[]).map((stored) => ({
    id: stored.id,
    kind: stored.kind,
    text: stored.text
      .repeat(stored.repeat ?? 1)
      .split(PWNED_PLACEHOLDER)
      .join(pwnedOrigin),
    places: stored.places as HostilePlace[],
  }));
}

/** Every case on a line of its own, as a runner would print them, inside a GitLab section. */
export function hostileTrace(cases: readonly HostileCase[]): string {
  const lines = cases.map((entry) => `\x1b[31m[${entry.id}]\x1b[0m ${entry.text}\n`);
  return [
    '\x1b[0Ksection_start:1700000000:hostile[collapsed=false]\r\x1b[0K\x1b[36;1mHostile corpus\x1b[0;m\n',
    ...lines,
    'section_end:1700000005:hostile\r\x1b[0K',
    'end of the hostile corpus\n',
  ].join('');
}

export interface SeedHostileOptions {
  /** Whose todos and merge requests (assignee) carry the hostile text; usually the signed-in user. */
  userId: number;
  /** The job whose trace becomes the corpus; made running, so it can be tailed. */
  traceJobId: number;
}

export interface SeededHostile {
  cases: HostileCase[];
  projectIds: number[];
  jobIds: number[];
  traceJobId: number;
  branchNames: string[];
  /** acme/web !1: description, a note per case, a changed line per case, hostile file names. */
  showcaseMergeRequestIid: number;
  mergeRequestIids: number[];
  todoIds: number[];
  broadcastIds: number[];
  fileNames: string[];
  channel: { postId: number; postIds: number[]; commentIds: number[]; fileNames: string[] };
}

function inPlace(cases: readonly HostileCase[], place: HostilePlace): HostileCase[] {
  return cases.filter((entry) => entry.places.includes(place));
}

/** Plants `cases` into the forge's and the channel's state; returns where each went. */
export function seedHostileCorpus(
  forge: FakeForge,
  cases: readonly HostileCase[],
  options: SeedHostileOptions,
): SeededHostile {
  const { state } = forge;
  const web = state.projects.get(forge.fixtures.projects.web);
  const showcase = state.findMergeRequest(forge.fixtures.projects.web, forge.fixtures.mergeRequests.opened);
  if (!web || !showcase) throw new Error('the small seed has acme/web and its opened merge request');
  const now = state.now();
  const bob = forge.users.bob.id;

  // Projects: name and description, in the group of acme/web, with the user as a developer.
  const projectIds = inPlace(cases, 'projectName').map((entry, index) => {
    const project: Project = {
      ...web,
      id: state.nextId('project'),
      name: entry.text,
      path: `hostile-${index + 1}`,
      description: entry.text,
      tagList: [],
      starredBy: new Set(),
      members: new Map([[options.userId, 30]]),
      sharedWithGroups: [],
      branches: new Map(web.branches),
      createdAt: now,
      lastActivityAt: now,
    };
    state.projects.set(project.id, project);
    return project.id;
  });

  // Jobs of acme/web's newest pipeline with hostile names; the trace job gets the whole corpus.
  const pipeline = [...state.pipelines.values()]
    .filter((candidate) => candidate.projectId === web.id)
    .sort((a, b) => b.id - a.id)[0];
  const template = state.jobs.get(options.traceJobId);
  if (!pipeline || !template) throw new Error('acme/web has a pipeline and the trace job exists');
  const jobIds = inPlace(cases, 'jobName').map((entry) => {
    const id = state.nextId('job');
    state.jobs.set(id, { ...template, id, name: entry.text, pipelineId: pipeline.id, artifacts: null });
    pipeline.jobIds.push(id);
    return id;
  });
  state.setJobStatus(options.traceJobId, 'running');
  state.removeTrace(options.traceJobId);
  state.appendTrace(options.traceJobId, hostileTrace(cases));

  const head = web.branches.get(web.defaultBranch);
  if (!head) throw new Error('acme/web has its default branch');
  const branchNames = inPlace(cases, 'branchName').map((entry) => {
    web.branches.set(entry.text, { ...head, name: entry.text });
    return entry.text;
  });

  // Merge requests titled with hostile text, assigned to the user; the showcase carries everything.
  const mergeRequestIids = inPlace(cases, 'mergeRequestTitle').map((entry) => {
    const iid = state.nextIid(web.id, state.mergeRequests.values());
    const mergeRequest: MergeRequest = {
      ...showcase,
      id: state.nextId('mergeRequest'),
      iid,
      title: entry.text,
      description: entry.text,
      assigneeId: options.userId,
      subscriberIds: new Set(),
      createdAt: now,
      updatedAt: now,
    };
    state.mergeRequests.set(mergeRequest.id, mergeRequest);
    return iid;
  });
  showcase.assigneeId = options.userId;
  showcase.description = cases.map((entry) => `### ${entry.id}\n\n${entry.text}`).join('\n\n');
  for (const entry of cases) {
    const id = state.nextId('note');
    state.notes.set(id, {
      id,
      projectId: web.id,
      noteableType: 'MergeRequest',
      noteableId: showcase.id,
      body: `${entry.id}: ${entry.text}`,
      authorId: bob,
      system: false,
      createdAt: now,
      updatedAt: now,
    });
  }
  const fileNames = inPlace(cases, 'fileName').map((entry) => `hostile/${entry.text}.txt`);
  const added = (path: string, lines: readonly string[]): FileChange => ({
    oldPath: path,
    newPath: path,
    aMode: '0',
    bMode: '100644',
    diff: `@@ -0,0 +1,${lines.length} @@\n${lines.map((line) => `+${line}`).join('\n')}\n`,
    newFile: true,
    renamedFile: false,
    deletedFile: false,
  });
  const source = web.branches.get(showcase.sourceBranch);
  if (!source) throw new Error('the showcase merge request has its source branch');
  const sha = state.addCommit({
    parentIds: [source.commitSha],
    title: 'Add the hostile corpus',
    message: 'Add the hostile corpus',
    by: { name: 'Bob Builder', email: 'bob@example.com' },
    at: now,
    changes: [
      // One line per case; a diff line cannot hold a line break, so those are split.
      added(
        'hostile/corpus.txt',
        cases.flatMap((entry) => `${entry.id}: ${entry.text}`.split(/\r?\n|\r/)),
      ),
      ...fileNames.map((path) => added(path, [path])),
    ],
  });
  source.commitSha = sha;

  // A todo's label is its target's title and its body is in the tooltip: both kinds are planted.
  const todo = (body: string, targetId: number): number =>
    state.addTodo({
      userId: options.userId,
      projectId: web.id,
      authorId: bob,
      actionName: 'mentioned',
      targetType: 'MergeRequest',
      targetId,
      body,
    }).id;
  const todoIds = [
    ...inPlace(cases, 'todo').map((entry) => todo(entry.text, showcase.id)),
    ...mergeRequestIids.map((iid) => {
      const target = state.findMergeRequest(web.id, iid);
      if (!target) throw new Error(`merge request !${iid} was just made`);
      return todo(target.title, target.id);
    }),
  ];

  const broadcastIds = inPlace(cases, 'broadcast').map((entry) => {
    const id = state.nextId('broadcast');
    state.broadcastMessages.set(id, {
      id,
      message: entry.text,
      startsAt: '2020-01-01T00:00:00.000Z',
      endsAt: '2099-12-31T23:59:59.000Z',
      color: '#E75E40',
      font: '#FFFFFF',
    });
    return id;
  });

  return {
    cases: [...cases],
    projectIds,
    jobIds,
    traceJobId: options.traceJobId,
    branchNames,
    showcaseMergeRequestIid: showcase.iid,
    mergeRequestIids,
    todoIds,
    broadcastIds,
    fileNames,
    channel: seedHostileChannel(forge, cases),
  };
}

/** Network posts titled with hostile text, one post with a comment per case, and hostile file names. */
function seedHostileChannel(forge: FakeForge, cases: readonly HostileCase[]): SeededHostile['channel'] {
  const { state, fixtures } = forge.channel;
  const template = state.findItem(fixtures.networkPost.id);
  const file = state.findFile(fixtures.textFile.hash);
  if (!template || !file) throw new Error('the channel seed has a network post and a text file');
  const at = '2024-06-30 10:00:00';
  const post = (title: string, body: string, parent?: { id: number; mid: string }): number => {
    const id = state.nextId('item', 5000);
    const mid = `hostile${id}@hub.example.net`;
    state.items.push({
      ...template,
      id,
      mid,
      parent: parent?.id ?? id,
      parentMid: parent?.mid ?? mid,
      thrParent: parent?.mid ?? mid,
      title,
      body,
      created: at,
      edited: at,
      commented: at,
      changed: at,
      categories: [],
      iids: [],
    });
    return id;
  };
  const postIds = inPlace(cases, 'channelTitle').map((entry) => post(entry.text, entry.text));
  const showcaseId = post('Hostile corpus', cases.map((entry) => entry.text).join('\n'));
  const showcaseMid = `hostile${showcaseId}@hub.example.net`;
  const commentIds = cases.map((entry) =>
    post('', `${entry.id}: ${entry.text}`, { id: showcaseId, mid: showcaseMid }),
  );
  const fileNames = inPlace(cases, 'channelFileName').map((entry, index) => {
    const id = state.nextId('attach', 9000);
    const filename = `${entry.text}.txt`;
    state.files.push({
      ...file,
      id,
      hash: `hostile-file-${index + 1}`,
      filename,
      displayPath: file.displayPath.replace(/[^/]*$/, filename),
    });
    return filename;
  });
  return { postId: showcaseId, postIds, commentIds, fileNames };
}
