import { CI_TEMPLATES } from './ciTemplates';
import { Prng } from './prng';
import {
  ACCESS,
  defaultProjectSettings,
  type AwardableType,
  type FileChange,
  type ForgeState,
  type Issue,
  type Job,
  type JobStatus,
  type MergeRequest,
  type Namespace,
  type Note,
  type NoteableType,
  type Pipeline,
  type Project,
  type SeedFixtures,
  type TodoAction,
  type User,
  type Visibility,
} from './state';
import { buildFinishedTrace, type TraceOutcome } from './trace';
import { createHash } from 'node:crypto';

/*
 * Deterministic seed data. Every value comes from a seeded PRNG or a fixed base time, so two runs give
 * the same ids, shas, tokens, traces and artifacts. Times are in early 2024; the active broadcast message
 * runs until 2099 so that it is active "now" without depending on the clock.
 */

export type SeedSize = 'small' | 'large';

export interface SeededAccount {
  id: number;
  username: string;
}

export interface SeedResult {
  adminToken: string;
  userToken: string;
  oauthToken: string;
  /** Personal access tokens by username (root, alice, bob). */
  tokens: Record<string, string>;
  users: { admin: SeededAccount; user: SeededAccount; bob: SeededAccount; carol: SeededAccount };
  fixtures: SeedFixtures;
}

const BASE_TIME = Date.parse('2024-03-01T09:00:00.000Z');

/** A fixed time, `minutes` after the seed's base time (negative: before). */
function at(minutes: number): string {
  return new Date(BASE_TIME + minutes * 60_000).toISOString();
}

function gravatar(email: string): string {
  return `https://www.gravatar.com/avatar/${createHash('md5').update(email).digest('hex')}?s=80&d=identicon`;
}

export function newFile(path: string, lines: string[]): FileChange {
  return {
    oldPath: path,
    newPath: path,
    aMode: '0',
    bMode: '100644',
    diff: `--- /dev/null\n+++ b/${path}\n@@ -0,0 +1,${lines.length} @@\n${lines.map((line) => `+${line}`).join('\n')}\n`,
    newFile: true,
    renamedFile: false,
    deletedFile: false,
  };
}

function modifiedFile(path: string, diffBody: string): FileChange {
  return {
    oldPath: path,
    newPath: path,
    aMode: '100644',
    bMode: '100644',
    diff: `--- a/${path}\n+++ b/${path}\n${diffBody}`,
    newFile: false,
    renamedFile: false,
    deletedFile: false,
  };
}

interface CommitInput {
  parents: string[];
  title: string;
  body?: string;
  author: User;
  minutes: number;
  changes?: FileChange[];
}

interface JobInput {
  name: string;
  stage: string;
  status: JobStatus;
  artifacts?: boolean;
  allowFailure?: boolean;
  traceChars?: number;
}

class SeedBuilder {
  private readonly random: Prng;

  constructor(
    private readonly state: ForgeState,
    private readonly seed: string,
  ) {
    this.random = Prng.derive(seed, 'data');
  }

  user(
    username: string,
    name: string,
    options: { admin?: boolean; blocked?: boolean; avatar?: boolean; minutes: number },
  ): User {
    const email = `${username}@example.com`;
    const namespace: Namespace = {
      id: this.state.nextId('namespace'),
      name,
      path: username,
      kind: 'user',
      ownerId: null,
      members: new Map(),
      createdAt: at(options.minutes),
    };
    const user: User = {
      id: this.state.nextId('user'),
      username,
      name,
      email,
      state: options.blocked ? 'blocked' : 'active',
      isAdmin: options.admin ?? false,
      createdAt: at(options.minutes),
      bio: options.admin ? 'Keeps the lights on.' : null,
      websiteUrl: '',
      avatarUrl: options.avatar === false ? null : gravatar(email),
      namespaceId: namespace.id,
      currentSignInAt: options.blocked ? null : at(-60),
    };
    namespace.ownerId = user.id;
    this.state.namespaces.set(namespace.id, namespace);
    this.state.users.set(user.id, user);
    return user;
  }

  personalAccessToken(user: User): string {
    const token = `glpat-${this.random.alphanumeric(20)}`;
    this.state.personalAccessTokens.set(token, user.id);
    return token;
  }

  hex(length: number): string {
    return this.random.hex(length);
  }

  oauthToken(user: User): string {
    const token = this.random.hex(64);
    this.state.oauthTokens.set(token, user.id);
    return token;
  }

  group(path: string, name: string, members: [User, number][]): Namespace {
    const namespace: Namespace = {
      id: this.state.nextId('namespace'),
      name,
      path,
      kind: 'group',
      ownerId: null,
      members: new Map(members.map(([user, level]) => [user.id, level])),
      createdAt: at(-50_000),
    };
    this.state.namespaces.set(namespace.id, namespace);
    return namespace;
  }

  project(
    namespace: Namespace,
    path: string,
    name: string,
    options: {
      visibility: Visibility;
      creator: User;
      minutes: number;
      description?: string;
      members?: [User, number][];
      archived?: boolean;
      tags?: string[];
    },
  ): Project {
    const project: Project = {
      id: this.state.nextId('project'),
      name,
      path,
      namespaceId: namespace.id,
      description: options.description ?? null,
      defaultBranch: 'master',
      visibility: options.visibility,
      tagList: options.tags ?? [],
      creatorId: options.creator.id,
      createdAt: at(options.minutes),
      lastActivityAt: at(options.minutes),
      archived: options.archived ?? false,
      settings: defaultProjectSettings(),
      importUrl: null,
      runnersToken: `GR1348941${this.random.alphanumeric(20)}`,
      avatarUrl: null,
      starredBy: new Set(),
      members: new Map((options.members ?? []).map(([user, level]) => [user.id, level])),
      forkedFromId: null,
      forksCount: 0,
      sharedWithGroups: [],
      branches: new Map(),
    };
    this.state.projects.set(project.id, project);
    return project;
  }

  commit(input: CommitInput): string {
    return this.state.addCommit({
      id: this.random.hex(40),
      parentIds: input.parents,
      title: input.title,
      message: input.body ? `${input.title}\n\n${input.body}\n` : `${input.title}\n`,
      by: input.author,
      at: at(input.minutes),
      changes: input.changes ?? [],
    });
  }

  branch(
    project: Project,
    name: string,
    sha: string,
    protection?: { push?: boolean; merge?: boolean },
  ): void {
    project.branches.set(name, {
      name,
      commitSha: sha,
      protected: protection !== undefined,
      developersCanPush: protection?.push ?? false,
      developersCanMerge: protection?.merge ?? false,
    });
  }

  pipeline(project: Project, ref: string, sha: string, user: User, minutes: number): Pipeline {
    const pipeline: Pipeline = {
      id: this.state.nextId('pipeline'),
      iid: this.state.nextIid(project.id, this.state.pipelines.values()),
      projectId: project.id,
      ref,
      sha,
      tag: false,
      userId: user.id,
      createdAt: at(minutes),
      updatedAt: at(minutes + 10),
      jobIds: [],
    };
    this.state.pipelines.set(pipeline.id, pipeline);
    return pipeline;
  }

  job(pipeline: Pipeline, input: JobInput, lazyTraces = true): Job {
    const created = Date.parse(pipeline.createdAt);
    const started = ['created', 'pending', 'manual', 'skipped'].includes(input.status)
      ? null
      : created + 60_000;
    const finished =
      started !== null && input.status !== 'running'
        ? started + 120_000 + this.random.int(0, 600) * 1000
        : null;
    const job: Job = {
      id: this.state.nextId('job'),
      projectId: pipeline.projectId,
      pipelineId: pipeline.id,
      name: input.name,
      stage: input.stage,
      ref: pipeline.ref,
      tag: false,
      status: input.status,
      allowFailure: input.allowFailure ?? input.status === 'manual',
      createdAt: pipeline.createdAt,
      startedAt: started === null ? null : new Date(started).toISOString(),
      finishedAt: finished === null ? null : new Date(finished).toISOString(),
      erasedAt: null,
      userId: pipeline.userId,
      commitSha: pipeline.sha,
      artifacts: input.artifacts ? { filename: 'artifacts.zip', expireAt: '2099-01-01T00:00:00.000Z' } : null,
      failureReason: input.status === 'failed' ? 'script_failure' : null,
    };
    this.state.jobs.set(job.id, job);
    pipeline.jobIds.push(job.id);
    const outcome = traceOutcome(input.status);
    if (outcome && lazyTraces)
      this.finishedTrace(job, outcome, input.traceChars ?? this.random.int(4, 40) * 1024);
    return job;
  }

  finishedTrace(job: Job, outcome: TraceOutcome, chars: number): void {
    const project = this.state.projects.get(job.projectId);
    const context = {
      jobName: job.name,
      stage: job.stage,
      projectPath: project ? this.state.pathWithNamespace(project) : 'unknown/unknown',
      projectId: job.projectId,
      ref: job.ref,
      sha: job.commitSha,
      startEpoch: Math.floor(Date.parse(job.startedAt ?? job.createdAt) / 1000),
    };
    const seed = this.seed;
    this.state.setLazyTrace(job.id, () =>
      buildFinishedTrace(Prng.derive(seed, `trace/${job.id}`), context, outcome, chars),
    );
  }

  label(project: Project, name: string, color: string, description: string | null = null): number {
    const id = this.state.nextId('label');
    this.state.labels.set(id, { id, projectId: project.id, name, color, description });
    return id;
  }

  milestone(project: Project, title: string, state: 'active' | 'closed', dueDate: string | null): number {
    const id = this.state.nextId('milestone');
    this.state.milestones.set(id, {
      id,
      iid: this.state.nextIid(project.id, this.state.milestones.values()),
      projectId: project.id,
      title,
      description: `Everything planned for ${title}.`,
      state,
      createdAt: at(-20_000),
      updatedAt: at(-20_000),
      dueDate,
    });
    return id;
  }

  issue(
    project: Project,
    input: Omit<Issue, 'id' | 'iid' | 'projectId' | 'createdAt' | 'updatedAt' | 'confidential'> & {
      minutes: number;
    },
  ): Issue {
    const { minutes, ...rest } = input;
    const issue: Issue = {
      ...rest,
      id: this.state.nextId('issue'),
      iid: this.state.nextIid(project.id, this.state.issues.values()),
      projectId: project.id,
      confidential: false,
      createdAt: at(minutes),
      updatedAt: at(minutes + 30),
    };
    this.state.issues.set(issue.id, issue);
    this.state.addEvent({
      projectId: project.id,
      actionName: 'opened',
      authorId: issue.authorId,
      targetType: 'Issue',
      targetId: issue.id,
      targetIid: issue.iid,
      targetTitle: issue.title,
      createdAt: issue.createdAt,
    });
    return issue;
  }

  snippet(project: Project, title: string, fileName: string, author: User, minutes: number): number {
    const id = this.state.nextId('snippet');
    this.state.snippets.set(id, {
      id,
      projectId: project.id,
      title,
      fileName,
      authorId: author.id,
      createdAt: at(minutes),
      updatedAt: at(minutes),
    });
    return id;
  }

  mergeRequest(
    project: Project,
    input: {
      title: string;
      description: string;
      source: string;
      target: string;
      author: User;
      assignee?: User;
      state: MergeRequest['state'];
      labels?: string[];
      milestoneId?: number;
      mergeStatus?: MergeRequest['mergeStatus'];
      baseSha: string;
      headSha: string;
      mergeCommitSha?: string;
      minutes: number;
      actor?: User;
      subscribers?: User[];
    },
  ): MergeRequest {
    const finishedAt = at(input.minutes + 600);
    const mergeRequest: MergeRequest = {
      id: this.state.nextId('mergeRequest'),
      iid: this.state.nextIid(project.id, this.state.mergeRequests.values()),
      projectId: project.id,
      sourceProjectId: project.id,
      targetProjectId: project.id,
      title: input.title,
      description: input.description,
      sourceBranch: input.source,
      targetBranch: input.target,
      state: input.state,
      authorId: input.author.id,
      assigneeId: input.assignee?.id ?? null,
      labels: input.labels ?? [],
      milestoneId: input.milestoneId ?? null,
      mergeWhenPipelineSucceeds: false,
      mergeStatus: input.mergeStatus ?? 'can_be_merged',
      mergeCommitSha: input.mergeCommitSha ?? null,
      shouldRemoveSourceBranch: input.state === 'merged' ? false : null,
      forceRemoveSourceBranch: false,
      subscriberIds: new Set((input.subscribers ?? [input.author]).map((user) => user.id)),
      createdAt: at(input.minutes),
      updatedAt: input.state === 'opened' ? at(input.minutes + 90) : finishedAt,
      mergedAt: input.state === 'merged' ? finishedAt : null,
      mergedById: input.state === 'merged' ? (input.actor ?? input.author).id : null,
      closedAt: input.state === 'closed' ? finishedAt : null,
      closedById: input.state === 'closed' ? (input.actor ?? input.author).id : null,
      headSha: input.headSha,
      baseSha: input.baseSha,
    };
    this.state.mergeRequests.set(mergeRequest.id, mergeRequest);
    const event = (actionName: string, authorId: number, createdAt: string): void => {
      this.state.addEvent({
        projectId: project.id,
        actionName,
        authorId,
        targetType: 'MergeRequest',
        targetId: mergeRequest.id,
        targetIid: mergeRequest.iid,
        targetTitle: mergeRequest.title,
        createdAt,
      });
    };
    event('opened', input.author.id, mergeRequest.createdAt);
    if (input.state === 'merged') event('accepted', mergeRequest.mergedById ?? input.author.id, finishedAt);
    if (input.state === 'closed') event('closed', mergeRequest.closedById ?? input.author.id, finishedAt);
    return mergeRequest;
  }

  note(
    project: Project,
    type: NoteableType,
    noteableId: number,
    author: User,
    body: string,
    minutes: number,
    system = false,
  ): Note {
    const note: Note = {
      id: this.state.nextId('note'),
      projectId: project.id,
      noteableType: type,
      noteableId,
      body,
      authorId: author.id,
      system,
      createdAt: at(minutes),
      updatedAt: at(minutes),
    };
    this.state.notes.set(note.id, note);
    if (!system) {
      this.state.addEvent({
        projectId: project.id,
        actionName: 'commented on',
        authorId: author.id,
        targetType: 'Note',
        targetId: note.id,
        targetTitle: null,
        noteId: note.id,
        createdAt: note.createdAt,
      });
    }
    return note;
  }

  award(
    project: Project,
    type: AwardableType,
    awardableId: number,
    user: User,
    name: string,
    minutes: number,
  ): void {
    const id = this.state.nextId('award');
    this.state.awardEmoji.set(id, {
      id,
      projectId: project.id,
      name,
      userId: user.id,
      awardableType: type,
      awardableId,
      createdAt: at(minutes),
      updatedAt: at(minutes),
    });
  }

  todo(
    owner: User,
    project: Project,
    author: User,
    action: TodoAction,
    target: Issue | MergeRequest,
    state: 'pending' | 'done',
    minutes: number,
  ): void {
    const isMergeRequest = 'sourceBranch' in target;
    this.state.addTodo({
      userId: owner.id,
      projectId: project.id,
      authorId: author.id,
      actionName: action,
      targetType: isMergeRequest ? 'MergeRequest' : 'Issue',
      targetId: target.id,
      body: target.title,
      state,
      createdAt: at(minutes),
    });
  }
}

function traceOutcome(status: JobStatus): TraceOutcome | undefined {
  if (status === 'success') return 'success';
  if (status === 'failed') return 'failed';
  if (status === 'canceled') return 'canceled';
  return undefined;
}

// ---- hand-written diffs of acme/web --------------------------------------------------------------

const README_LINES = [
  '# Acme Web',
  '',
  'The web front end of Acme.',
  '',
  'Run `npm start` to serve it locally.',
];

const CHANGES = {
  initial: [
    newFile('README.md', README_LINES),
    newFile('package.json', [
      '{',
      '  "name": "acme-web",',
      '  "version": "1.0.0",',
      '  "private": true,',
      '  "scripts": {',
      '    "start": "node dist/index.js",',
      '    "test": "node --test"',
      '  }',
      '}',
    ]),
    newFile('src/index.ts', [
      "import { createServer } from 'node:http';",
      '',
      'const port = Number(process.env.PORT ?? 3000);',
      '',
      'createServer((_request, response) => {',
      "  response.end('Hello from Acme');",
      '}).listen(port);',
    ]),
    newFile('src/legacy.js', ['// Kept for the old widget loader.', 'window.acmeLegacy = true;']),
    newFile('src/styles.css', ['body {', '  font-family: system-ui, sans-serif;', '}']),
    // What "Create Merge Request" offers as descriptions, as GitLab's form does (issue 39).
    newFile('.gitlab/merge_request_templates/Default.md', [
      '## What does this change?',
      '',
      '## How was it tested?',
      '',
      '- [ ] Tests added or updated',
    ]),
    newFile('.gitlab/merge_request_templates/Bug fix.md', ['## The bug', '', 'Closes #', '', '## The fix']),
    newFile('.gitlab/issue_templates/Bug.md', [
      '## Steps to reproduce',
      '',
      '## What happens',
      '',
      '/label ~bug',
    ]),
    newFile('.gitlab/issue_templates/Feature.md', ['## The idea', '', '- [ ] design', '- [ ] build']),
  ],
  ci: [
    // What "Run pipeline" offers (prefilled variables, one with options), a DAG edge (`needs`), a
    // job only some sources get, a child pipeline and a manual deploy (issue 37).
    newFile('.gitlab-ci.yml', [
      'image: node:20',
      '',
      'stages: [build, test, deploy]',
      '',
      'variables:',
      '  DEPLOY_ENVIRONMENT:',
      '    value: staging',
      '    description: Where the deploy job sends the build.',
      '    options: [staging, production]',
      '  RUN_E2E:',
      '    value: "false"',
      '    description: Run the browser tests as well.',
      '',
      'build:',
      '  stage: build',
      '  script: npm ci && npm run build',
      '  artifacts:',
      '    paths: [dist/]',
      '',
      'test:',
      '  stage: test',
      '  needs: [build]',
      '  script: npm test',
      '',
      'e2e:',
      '  stage: test',
      '  script: npm run e2e',
      '  rules:',
      '    - if: $RUN_E2E == "true"',
      '',
      'docs:',
      '  stage: test',
      '  trigger:',
      '    include: ci/docs.yml',
      '',
      'deploy:',
      '  stage: deploy',
      '  script: ./deploy.sh "$DEPLOY_ENVIRONMENT"',
      '  rules:',
      '    - if: $CI_PIPELINE_SOURCE == "web" || $CI_PIPELINE_SOURCE == "api"',
      '      when: manual',
    ]),
    newFile('ci/docs.yml', ['stages: [docs]', '', 'pages:', '  stage: docs', '  script: npm run docs']),
  ],
  typo: [
    modifiedFile(
      'README.md',
      '@@ -1,5 +1,5 @@\n # Acme Web\n \n-The web front end of Acme.\n+The web frontend of Acme.\n \n Run `npm start` to serve it locally.\n',
    ),
  ],
  dependencies: [
    modifiedFile(
      'package.json',
      '@@ -5,5 +5,8 @@\n   "scripts": {\n     "start": "node dist/index.js",\n     "test": "node --test"\n-  }\n+  },\n+  "dependencies": {\n+    "undici": "^7.0.0"\n+  }\n }\n',
    ),
  ],
  loginForm: [
    newFile('src/login.ts', [
      'export interface Credentials {',
      '  username: string;',
      '  password: string;',
      '}',
      '',
      'export function renderLoginForm(): string {',
      '  return `<form method="post" action="/login">',
      '    <label>Nom d’utilisateur <input name="username"></label>',
      '    <label>Password <input name="password" type="password"></label>',
      '  </form>`;',
      '}',
    ]),
  ],
  validate: [
    modifiedFile(
      'src/index.ts',
      "@@ -1,7 +1,12 @@\n import { createServer } from 'node:http';\n+import { renderLoginForm } from './login';\n \n const port = Number(process.env.PORT ?? 3000);\n \n-createServer((_request, response) => {\n+createServer((request, response) => {\n+  if (request.url === '/login') {\n+    response.setHeader('Content-Type', 'text/html; charset=utf-8');\n+    return response.end(renderLoginForm());\n+  }\n   response.end('Hello from Acme');\n }).listen(port);\n",
    ),
    newFile('test/login.test.ts', [
      "import assert from 'node:assert/strict';",
      "import { test } from 'node:test';",
      "import { renderLoginForm } from '../src/login';",
      '',
      "test('the form posts to /login', () => {",
      '  assert.match(renderLoginForm(), /action="\\/login"/);',
      '});',
    ]),
  ],
  readme: [
    modifiedFile(
      'README.md',
      '@@ -1,5 +1,10 @@\n-# Acme Web\n+# Acme Web 🌐\n \n The web front end of Acme.\n \n-Run `npm start` to serve it locally.\n+## Development\n+\n+    npm ci\n+    npm start\n+\n+See CONTRIBUTING.md before sending a merge request.\n\\ No newline at end of file\n',
    ),
  ],
  conflict: [
    modifiedFile(
      'src/index.ts',
      "@@ -1,7 +1,8 @@\n-import { createServer } from 'node:http';\n+import { createServer } from 'node:https';\n+import { readFileSync } from 'node:fs';\n \n const port = Number(process.env.PORT ?? 3000);\n \n-createServer((_request, response) => {\n+createServer({ key: readFileSync('key.pem'), cert: readFileSync('cert.pem') }, (_request, response) => {\n   response.end('Hello from Acme');\n }).listen(port);\n",
    ),
  ],
  darkMode: [
    {
      oldPath: 'src/styles.css',
      newPath: 'src/theme/light.css',
      aMode: '100644',
      bMode: '100644',
      diff: '',
      newFile: false,
      renamedFile: true,
      deletedFile: false,
    },
    newFile('src/theme/dark.css', [':root {', '  color-scheme: dark;', '  --background: #1e1e1e;', '}']),
    {
      oldPath: 'src/legacy.js',
      newPath: 'src/legacy.js',
      aMode: '100644',
      bMode: '0',
      diff: '--- a/src/legacy.js\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-// Kept for the old widget loader.\n-window.acmeLegacy = true;\n',
      newFile: false,
      renamedFile: false,
      deletedFile: true,
    },
  ] satisfies FileChange[],
};

// ---- the seed ------------------------------------------------------------------------------------

export function seedState(state: ForgeState, size: SeedSize, seed = 'forge-workbench'): SeedResult {
  const b = new SeedBuilder(state, seed);
  for (const template of CI_TEMPLATES) state.ciTemplates.push(template);

  // Users: root (admin), alice (normal user), bob, and carol (blocked, no token).
  const root = b.user('root', 'Administrator', { admin: true, minutes: -400_000 });
  const alice = b.user('alice', 'Alice Liddell', { minutes: -300_000 });
  const bob = b.user('bob', 'Bob Builder', { minutes: -200_000, avatar: false });
  const carol = b.user('carol', 'Carol Danvers', { minutes: -100_000, blocked: true });
  const adminToken = b.personalAccessToken(root);
  const userToken = b.personalAccessToken(alice);
  const oauthToken = b.oauthToken(alice);
  const bobToken = b.personalAccessToken(bob);
  const userNamespace = (user: User): Namespace => {
    const namespace = state.namespaces.get(user.namespaceId);
    if (!namespace) throw new Error(`no namespace for ${user.username}`);
    return namespace;
  };

  // Projects. Group membership is root only; access to group projects is granted per project.
  const acme = b.group('acme', 'Acme', [[root, ACCESS.owner]]);
  const web = b.project(acme, 'web', 'Web', {
    visibility: 'public',
    creator: root,
    minutes: -40_000,
    description: 'The web front end of Acme.',
    members: [
      [alice, ACCESS.maintainer],
      [bob, ACCESS.developer],
    ],
    tags: ['frontend', 'typescript'],
  });
  web.ciVariables = [
    {
      key: 'DEPLOY_TOKEN',
      value: 'glpat-seeded-deploy-token',
      masked: true,
      hidden: true,
      protected: true,
      environmentScope: 'production',
      description: 'Token the deploy job pushes with.',
    },
    {
      key: 'NPM_REGISTRY',
      value: 'https://registry.npmjs.org/',
      masked: false,
      hidden: false,
      protected: false,
      environmentScope: '*',
      description: null,
    },
  ];
  const api = b.project(acme, 'api', 'API', {
    visibility: 'internal',
    creator: root,
    minutes: -39_000,
    description: 'Acme HTTP API.',
    members: [
      [alice, ACCESS.developer],
      [bob, ACCESS.developer],
    ],
  });
  const infra = b.project(acme, 'infra', 'Infra', {
    visibility: 'private',
    creator: root,
    minutes: -38_000,
    description: 'Terraform for everything.',
    members: [
      [alice, ACCESS.developer],
      [bob, ACCESS.reporter],
    ],
  });
  const secret = b.project(acme, 'secret', 'Secret', {
    visibility: 'private',
    creator: root,
    minutes: -37_000,
    description: 'Nothing to see here.',
    members: [[bob, ACCESS.maintainer]],
  });
  const dotfiles = b.project(userNamespace(alice), 'dotfiles', 'dotfiles', {
    visibility: 'private',
    creator: alice,
    minutes: -36_000,
    description: "Alice's dotfiles.",
  });
  const legacy = b.project(userNamespace(root), 'legacy', 'Legacy', {
    visibility: 'public',
    creator: root,
    minutes: -90_000,
    description: 'The old site. Read-only.',
    archived: true,
  });
  const sandbox = b.project(userNamespace(bob), 'sandbox', 'Sandbox', {
    visibility: 'internal',
    creator: bob,
    minutes: -35_000,
  });
  web.starredBy.add(alice.id).add(bob.id);
  api.starredBy.add(bob.id);

  // acme/web repository.
  const m1 = b.commit({
    parents: [],
    title: 'Initial commit',
    author: root,
    minutes: -40_000,
    changes: CHANGES.initial,
  });
  const m2 = b.commit({
    parents: [m1],
    title: 'Add CI configuration',
    author: alice,
    minutes: -30_000,
    changes: CHANGES.ci,
  });
  const t1 = b.commit({
    parents: [m2],
    title: 'Fix typo in README',
    author: bob,
    minutes: -25_000,
    changes: CHANGES.typo,
  });
  const m3 = b.commit({
    parents: [m2, t1],
    title: "Merge branch 'fix/typo' into 'master'",
    body: 'Fix typo in README\n\nSee merge request acme/web!2',
    author: alice,
    minutes: -24_000,
  });
  const m4 = b.commit({
    parents: [m3],
    title: 'Update dependencies',
    author: root,
    minutes: -20_000,
    changes: CHANGES.dependencies,
  });
  const l1 = b.commit({
    parents: [m4],
    title: 'Add login form',
    author: bob,
    minutes: -3_000,
    changes: CHANGES.loginForm,
  });
  const l2 = b.commit({
    parents: [l1],
    title: 'Validate credentials',
    body: 'Closes #1',
    author: bob,
    minutes: -2_000,
    changes: CHANGES.validate,
  });
  const d1 = b.commit({
    parents: [m2],
    title: 'Rewrite README',
    author: alice,
    minutes: -28_000,
    changes: CHANGES.readme,
  });
  const x1 = b.commit({
    parents: [m1],
    title: 'Serve over HTTPS',
    author: bob,
    minutes: -27_000,
    changes: CHANGES.conflict,
  });
  const k1 = b.commit({
    parents: [m4],
    title: 'Add a dark theme',
    author: alice,
    minutes: -1_500,
    changes: CHANGES.darkMode,
  });
  b.branch(web, 'master', m4, { push: false, merge: false });
  b.branch(web, 'release/1.0', m3, { push: false, merge: true });
  b.branch(web, 'fix/typo', t1);
  b.branch(web, 'feature/login', l2);
  b.branch(web, 'docs/readme', d1);
  b.branch(web, 'feature/https', x1);
  b.branch(web, 'feature/dark-mode', k1);
  state.addEvent({
    projectId: web.id,
    actionName: 'pushed to',
    authorId: root.id,
    targetType: null,
    targetId: null,
    targetTitle: null,
    createdAt: at(-20_000),
    push: { before: m3, after: m4, ref: 'master', commitShas: [m4] },
  });

  // acme/web labels, milestones, issues, snippets.
  b.label(web, 'bug', '#d9534f', 'Something is broken');
  b.label(web, 'feature', '#5cb85c', null);
  const labelToDo = b.label(web, 'To Do', '#F0AD4E', null);
  const labelDoing = b.label(web, 'Doing', '#428BCA', null);
  const labelReview = b.label(web, 'Review', '#FF5F00', 'Waiting for a review');
  b.label(web, 'Done', '#69D100', null);
  const v1 = b.milestone(web, 'v1.0', 'active', '2024-06-30');
  b.milestone(web, 'v0.9', 'closed', '2024-01-31');
  const crash = b.issue(web, {
    title: 'Login page crashes on Safari',
    description: 'Steps: open /login in Safari 17, type a username. The page goes blank.',
    state: 'opened',
    authorId: bob.id,
    assigneeId: alice.id,
    labels: ['bug'],
    milestoneId: v1,
    minutes: -5_000,
  });
  const darkModeIssue = b.issue(web, {
    title: 'Add a dark mode',
    description:
      'Follow the system setting.\n\n- [x] pick the colours\n- [ ] switch with the system\n- [ ] a setting to force it',
    state: 'opened',
    authorId: alice.id,
    assigneeId: bob.id,
    labels: ['feature'],
    milestoneId: v1,
    minutes: -4_500,
  });
  const closedIssue = b.issue(web, {
    title: 'Update the docs for 1.0',
    description: '',
    state: 'closed',
    authorId: root.id,
    assigneeId: null,
    labels: [],
    milestoneId: null,
    minutes: -9_000,
  });
  b.issue(web, {
    title: 'Flaky e2e test: checkout',
    description: 'Fails about one run in ten.',
    state: 'opened',
    authorId: alice.id,
    assigneeId: null,
    labels: ['bug'],
    milestoneId: null,
    minutes: -4_000,
  });
  const checklist = b.snippet(web, 'Deploy checklist', 'deploy.md', alice, -6_000);
  b.snippet(web, 'Debug helper', 'debug.sh', bob, -5_500);

  // acme/web merge requests: !1 opened, !2 merged, !3 closed, !4 opened with conflicts, !5 draft.
  const login = b.mergeRequest(web, {
    title: 'Add a login form',
    description: 'Adds the login form and validates credentials.\n\nCloses #1',
    source: 'feature/login',
    target: 'master',
    author: bob,
    assignee: alice,
    state: 'opened',
    labels: ['feature', 'Review'],
    milestoneId: v1,
    baseSha: m4,
    headSha: l2,
    minutes: -3_000,
    subscribers: [bob, alice],
  });
  const typo = b.mergeRequest(web, {
    title: 'Fix typo in README',
    description: '',
    source: 'fix/typo',
    target: 'master',
    author: bob,
    assignee: alice,
    state: 'merged',
    baseSha: m2,
    headSha: t1,
    mergeCommitSha: m3,
    minutes: -25_000,
    actor: alice,
  });
  const readme = b.mergeRequest(web, {
    title: 'Rewrite the README',
    description: 'Superseded by the docs site.',
    source: 'docs/readme',
    target: 'master',
    author: alice,
    state: 'closed',
    baseSha: m2,
    headSha: d1,
    minutes: -28_000,
  });
  const https = b.mergeRequest(web, {
    title: 'Serve over HTTPS',
    description: 'Conflicts with the dependency update.',
    source: 'feature/https',
    target: 'master',
    author: bob,
    state: 'opened',
    mergeStatus: 'cannot_be_merged',
    baseSha: m1,
    headSha: x1,
    minutes: -27_000,
  });
  const draft = b.mergeRequest(web, {
    title: 'Draft: Dark mode',
    description: 'Fixes #2',
    source: 'feature/dark-mode',
    target: 'master',
    author: alice,
    state: 'opened',
    labels: ['feature'],
    baseSha: m4,
    headSha: k1,
    minutes: -1_500,
  });

  // Notes and award emoji.
  const issueNote = b.note(
    web,
    'Issue',
    crash.id,
    alice,
    'I can reproduce this on Safari 17.2. @bob can you take a look?',
    -4_900,
  );
  b.note(web, 'Issue', crash.id, root, 'added ~1 label', -4_950, true);
  b.note(web, 'Issue', crash.id, bob, 'Looks like a missing polyfill. Fix in !1.', -4_800);
  const mrNote = b.note(
    web,
    'MergeRequest',
    login.id,
    alice,
    'Please add a test for the empty password case.',
    -2_500,
  );
  b.note(web, 'MergeRequest', login.id, bob, 'Done in the latest push 👍', -1_900);
  b.note(web, 'MergeRequest', login.id, root, 'mentioned in issue #1', -1_850, true);
  // As real servers send it: Markdown with HTML in it.
  b.note(
    web,
    'MergeRequest',
    login.id,
    alice,
    'added 2 commits\n\n<ul><li>4e1b0c2a - Keep the redirect after login</li><li>9f3d7e61 - Test the redirect :rocket:</li></ul>\n\n[Compare with previous version](/acme/web/-/merge_requests/1/diffs?diff_id=2&start_sha=4e1b0c2a)',
    -1_840,
    true,
  );
  b.note(web, 'MergeRequest', login.id, alice, 'Ship it :tada:', -1_830);
  b.note(
    web,
    'MergeRequest',
    login.id,
    alice,
    'Thanks! **LGTM** once the pipeline is green.\n\n```ts\nassert.equal(validate(x).length, 0);\n```',
    -1_800,
  );
  b.note(web, 'MergeRequest', typo.id, alice, 'Merged, thanks.', -24_000);
  b.note(web, 'MergeRequest', readme.id, alice, 'Closing in favour of the docs site.', -27_500);
  b.note(web, 'Snippet', checklist, bob, 'Step 3 needs the VPN.', -5_900);
  b.note(web, 'Snippet', checklist, alice, 'Added a note about the VPN.', -5_800);
  // Review threads on the lines of !5 "Draft: Dark mode": bob on the new dark theme (alice
  // answered), one on the removed legacy loader (resolved), a suggestion for the background, and
  // one written on an earlier push whose head is gone (outdated: it is not shown on the lines).
  const thread = (name: string): string => createHash('sha1').update(`seed-thread-${name}`).digest('hex');
  const onLine = (path: string, lines: { old_line: number | null; new_line: number | null }, head = k1) => ({
    base_sha: m4,
    start_sha: m4,
    head_sha: head,
    old_path: path,
    new_path: path,
    position_type: 'text' as const,
    ...lines,
  });
  const diffNote = (
    author: User,
    body: string,
    minutes: number,
    review: { discussionId: string; position: Note['position']; resolved?: boolean },
  ): void => {
    const note = b.note(web, 'MergeRequest', draft.id, author, body, minutes);
    note.discussionId = review.discussionId;
    note.position = review.position;
    note.resolvable = true;
    note.resolvedById = review.resolved ? alice.id : null;
  };
  const darkTheme = {
    discussionId: thread('dark'),
    position: onLine('src/theme/dark.css', { old_line: null, new_line: 2 }),
  };
  diffNote(bob, 'Should this follow the system theme (`light dark`) instead?', -1_300, darkTheme);
  diffNote(
    alice,
    'The light theme stays the default; this file is only loaded in dark mode.',
    -1_250,
    darkTheme,
  );
  const legacyLoader = {
    discussionId: thread('legacy'),
    position: onLine('src/legacy.js', { old_line: 2, new_line: null }),
    resolved: true,
  };
  diffNote(bob, 'Is anything still reading `window.acmeLegacy`?', -1_240, legacyLoader);
  diffNote(alice, 'No: the widget loader went in 2.0.', -1_230, legacyLoader);
  diffNote(
    bob,
    'A shade lighter reads better on most screens:\n\n```suggestion:-0+0\n  --background: #1f1f1f;\n```',
    -1_220,
    {
      discussionId: thread('suggestion'),
      position: onLine('src/theme/dark.css', { old_line: null, new_line: 3 }),
    },
  );
  diffNote(bob, 'Typo: `backgroud`.', -1_450, {
    discussionId: thread('outdated'),
    position: onLine('src/theme/dark.css', { old_line: null, new_line: 3 }, m4),
  });
  // On !1, alice's thread on its first push (the form alone): outdated since the second push.
  const firstPush = b.note(
    web,
    'MergeRequest',
    login.id,
    alice,
    'Should the username label be in English, like the rest of the form?',
    -2_500,
  );
  firstPush.discussionId = thread('first-push');
  firstPush.position = onLine('src/login.ts', { old_line: null, new_line: 8 }, l1);
  firstPush.resolvable = true;
  firstPush.resolvedById = null;
  b.award(web, 'MergeRequest', login.id, alice, 'thumbsup', -1_700);
  b.award(web, 'MergeRequest', login.id, root, 'thumbsup', -1_650);
  b.award(web, 'MergeRequest', login.id, carol, 'thumbsdown', -1_600);
  b.award(web, 'MergeRequest', https.id, alice, 'thumbsdown', -26_000);
  b.award(web, 'Issue', crash.id, bob, 'thumbsup', -4_700);
  b.award(web, 'Issue', crash.id, root, 'eyes', -4_600);
  b.award(web, 'Note', issueNote.id, bob, 'heart', -4_750);
  b.award(web, 'Note', mrNote.id, bob, 'ok_hand', -2_400);
  b.award(web, 'Snippet', checklist, alice, 'star', -5_700);

  // Board with three label lists.
  const boardId = state.nextId('board');
  state.boards.set(boardId, {
    id: boardId,
    projectId: web.id,
    name: 'Development',
    lists: [labelToDo, labelDoing, labelReview].map((labelId, position) => ({
      id: state.nextId('boardList'),
      labelId,
      position,
    })),
  });

  // Triggers.
  for (const [description, owner] of [
    ['Nightly build', alice],
    ['Deploy from chatops', null],
  ] as const) {
    const id = state.nextId('trigger');
    state.triggers.set(id, {
      id,
      projectId: web.id,
      description,
      token: `glptt-${b.hex(40)}`,
      ownerId: owner?.id ?? null,
      createdAt: at(-10_000),
      updatedAt: at(-10_000),
      lastUsed: owner ? at(-60) : null,
    });
  }

  // Pipelines and jobs of acme/web.
  const masterFailed = b.pipeline(web, 'master', m2, alice, -29_000);
  const olderBuild = b.job(masterFailed, {
    name: 'build',
    stage: 'build',
    status: 'success',
    artifacts: true,
  });
  b.job(masterFailed, { name: 'test', stage: 'test', status: 'failed' });

  const masterSuccess = b.pipeline(web, 'master', m4, root, -19_000);
  const build = b.job(masterSuccess, { name: 'build', stage: 'build', status: 'success', artifacts: true });
  b.job(masterSuccess, { name: 'lint', stage: 'test', status: 'success' });
  const success = b.job(masterSuccess, { name: 'test', stage: 'test', status: 'success' });
  b.job(masterSuccess, { name: 'deploy-staging', stage: 'deploy', status: 'success' });
  const manual = b.job(masterSuccess, { name: 'deploy-production', stage: 'deploy', status: 'manual' });

  const featureRunning = b.pipeline(web, 'feature/login', l2, bob, -1_900);
  b.job(featureRunning, { name: 'build', stage: 'build', status: 'success' });
  const failed = b.job(featureRunning, { name: 'lint', stage: 'test', status: 'failed' });
  const running = b.job(featureRunning, { name: 'test:unit', stage: 'test', status: 'running' });
  const pending = b.job(featureRunning, { name: 'test:e2e', stage: 'test', status: 'pending' });
  const canceled = b.job(featureRunning, { name: 'test:flaky', stage: 'test', status: 'canceled' });
  const skipped = b.job(featureRunning, { name: 'audit', stage: 'test', status: 'skipped' });
  const createdJob = b.job(featureRunning, { name: 'deploy-review', stage: 'deploy', status: 'created' });
  // A long job: its trace grows on every tick to 8 MB (about half an hour at the default pace), so a
  // test that finds it running does not depend on how fast the machine is (at 150 KB it ended after
  // about 30 s, and tests that ran late under load saw it passed). Tests end it with `setJobStatus`.
  state.attachGrowingTrace(running.id, {
    initialChars: 6 * 1024,
    plannedChars: 8 * 1024 * 1024,
    outcome: 'success',
  });

  // Other projects: a little of everything.
  const a1 = b.commit({
    parents: [],
    title: 'Initial commit',
    author: root,
    minutes: -39_000,
    changes: [newFile('README.md', ['# API'])],
  });
  const a2 = b.commit({
    parents: [a1],
    title: 'Paginate the list endpoints',
    author: alice,
    minutes: -1_000,
    changes: [
      modifiedFile('README.md', '@@ -1 +1,3 @@\n # API\n+\n+Lists are paginated: see the Link header.\n'),
    ],
  });
  b.branch(api, 'master', a1, {});
  b.branch(api, 'feature/pagination', a2);
  const apiPipeline = b.pipeline(api, 'master', a1, alice, -38_000);
  b.job(apiPipeline, { name: 'build', stage: 'build', status: 'success', artifacts: true });
  b.job(apiPipeline, { name: 'test', stage: 'test', status: 'success' });
  const apiMergeRequest = b.mergeRequest(api, {
    title: 'Paginate the list endpoints',
    description: '',
    source: 'feature/pagination',
    target: 'master',
    author: alice,
    assignee: bob,
    state: 'opened',
    baseSha: a1,
    headSha: a2,
    minutes: -1_000,
  });
  b.issue(api, {
    title: 'Document rate limits',
    description: '',
    state: 'opened',
    authorId: bob.id,
    assigneeId: null,
    labels: [],
    milestoneId: null,
    minutes: -2_000,
  });

  for (const [project, author] of [
    [infra, root],
    [secret, bob],
    [dotfiles, alice],
    [legacy, root],
    [sandbox, bob],
  ] as const) {
    const sha = b.commit({
      parents: [],
      title: 'Initial commit',
      author,
      minutes: -35_000,
      changes: [newFile('README.md', [`# ${project.name}`])],
    });
    b.branch(project, 'master', sha, {});
    state.addEvent({
      projectId: project.id,
      actionName: 'created',
      authorId: author.id,
      targetType: null,
      targetId: null,
      targetTitle: null,
      createdAt: project.createdAt,
    });
  }
  const infraPipeline = b.pipeline(
    infra,
    'master',
    infra.branches.get('master')?.commitSha ?? '',
    alice,
    -30_000,
  );
  b.job(infraPipeline, { name: 'plan', stage: 'build', status: 'success' });
  b.job(infraPipeline, { name: 'apply', stage: 'deploy', status: 'manual' });
  const secretIssue = b.issue(secret, {
    title: 'Rotate the keys',
    description: '',
    state: 'opened',
    authorId: bob.id,
    assigneeId: root.id,
    labels: [],
    milestoneId: null,
    minutes: -800,
  });

  // Todos: several actions, pending and done.
  b.todo(alice, web, bob, 'assigned', login, 'pending', -2_900);
  b.todo(alice, web, bob, 'mentioned', crash, 'pending', -2_800);
  b.todo(alice, web, root, 'build_failed', login, 'pending', -1_850);
  b.todo(alice, web, alice, 'marked', darkModeIssue, 'pending', -1_400);
  b.todo(alice, web, bob, 'approval_required', https, 'pending', -1_300);
  b.todo(alice, api, bob, 'assigned', apiMergeRequest, 'pending', -900);
  b.todo(alice, web, bob, 'mentioned', typo, 'done', -24_500);
  b.todo(alice, web, root, 'assigned', closedIssue, 'done', -8_900);
  b.todo(bob, web, alice, 'assigned', darkModeIssue, 'pending', -4_400);
  b.todo(bob, web, alice, 'mentioned', draft, 'pending', -1_400);
  b.todo(root, secret, bob, 'assigned', secretIssue, 'pending', -800);
  b.todo(root, web, alice, 'mentioned', login, 'done', -1_750);

  // System hooks, broadcast messages, SSH keys.
  for (const [url, push, tagPush] of [
    ['https://hooks.example.com/gitlab', true, false],
    ['https://ci.example.com/tag-hook', false, true],
  ] as const) {
    const id = state.nextId('hook');
    state.systemHooks.set(id, {
      id,
      url,
      token: 'seeded-secret',
      pushEvents: push,
      tagPushEvents: tagPush,
      enableSslVerification: true,
      createdAt: at(-50_000),
    });
  }
  for (const [message, startsAt, endsAt, color] of [
    [
      'Scheduled maintenance on Sunday 02:00 UTC: expect short outages.',
      '2020-01-01T00:00:00.000Z',
      '2099-12-31T23:59:59.000Z',
      '#E75E40',
    ],
    ['Upgrade to 16.0 complete.', '2023-05-01T08:00:00.000Z', '2023-05-02T08:00:00.000Z', '#1068bf'],
    ['Welcome to the next century.', '2099-12-31T23:59:59.000Z', '2100-01-01T23:59:59.000Z', '#6666c4'],
  ] as const) {
    const id = state.nextId('broadcast');
    state.broadcastMessages.set(id, { id, message, startsAt, endsAt, color, font: '#FFFFFF' });
  }
  for (const [user, title, kind] of [
    [root, 'root@workstation', 'ssh-ed25519'],
    [alice, 'alice@laptop', 'ssh-ed25519'],
    [bob, 'bob@desktop', 'ssh-rsa'],
  ] as const) {
    const id = state.nextId('sshKey');
    const body = Buffer.from(b.hex(48), 'hex').toString('base64');
    state.sshKeys.set(id, {
      id,
      userId: user.id,
      title,
      key: `${kind} AAAAC3NzaC1lZDI1NTE5${body} ${title}`,
      createdAt: at(-45_000),
    });
  }
  const fixtures: SeedFixtures = {
    groupNamespaceId: acme.id,
    projects: {
      web: web.id,
      api: api.id,
      infra: infra.id,
      secret: secret.id,
      dotfiles: dotfiles.id,
      legacy: legacy.id,
      sandbox: sandbox.id,
    },
    jobs: {
      running: running.id,
      manual: manual.id,
      build: build.id,
      olderBuild: olderBuild.id,
      failed: failed.id,
      success: success.id,
      pending: pending.id,
      created: createdJob.id,
      canceled: canceled.id,
      skipped: skipped.id,
    },
    pipelines: {
      masterSuccess: masterSuccess.id,
      featureRunning: featureRunning.id,
      masterFailed: masterFailed.id,
    },
    mergeRequests: {
      opened: login.iid,
      merged: typo.iid,
      closed: readme.iid,
      conflict: https.iid,
      draft: draft.iid,
    },
    issues: { crash: crash.iid, darkMode: darkModeIssue.iid, closed: closedIssue.iid },
    snippets: { checklist },
    boards: { development: boardId },
  };

  if (size === 'large') seedLarge(state, b, fixtures, { root, alice, bob });
  state.fixtures = fixtures;

  const account = (user: User): SeededAccount => ({ id: user.id, username: user.username });
  return {
    adminToken,
    userToken,
    oauthToken,
    tokens: { root: adminToken, alice: userToken, bob: bobToken },
    users: { admin: account(root), user: account(alice), bob: account(bob), carol: account(carol) },
    fixtures,
  };
}

const LARGE_PROJECT_COUNT = 2_100;
const MONOREPO_PIPELINES = 1_050;
const MONOREPO_JOBS: readonly { name: string; stage: string }[] = [
  { name: 'build', stage: 'build' },
  { name: 'lint', stage: 'test' },
  { name: 'test', stage: 'test' },
  { name: 'e2e', stage: 'test' },
  { name: 'deploy', stage: 'deploy' },
];
const ADMIN_TODOS = 10_500;
const HUGE_TRACE_CHARS = 20 * 1024 * 1024;

/** Thousands of projects, a project with 5,000+ jobs, 10,000+ todos for the admin, a ~20 MB trace (lazy). */
function seedLarge(
  state: ForgeState,
  b: SeedBuilder,
  fixtures: SeedFixtures,
  users: { root: User; alice: User; bob: User },
): void {
  const fleet = b.group('fleet', 'Fleet', [[users.root, ACCESS.owner]]);
  const sharedSha = b.commit({
    parents: [],
    title: 'Initial commit',
    author: users.root,
    minutes: -60_000,
    changes: [newFile('README.md', ['# Service'])],
  });
  const visibilities: Visibility[] = ['public', 'internal', 'private'];
  for (let i = 1; i <= LARGE_PROJECT_COUNT; i++) {
    const number = String(i).padStart(4, '0');
    const project = b.project(fleet, `service-${number}`, `Service ${number}`, {
      visibility: visibilities[i % 3] ?? 'private',
      creator: users.root,
      minutes: -60_000 + i,
      description: `Micro-service number ${i}.`,
      archived: i % 97 === 0,
    });
    b.branch(project, 'master', sharedSha, {});
  }

  const acme = state.namespaces.get(fixtures.groupNamespaceId);
  if (!acme) throw new Error('no acme group');
  const monorepo = b.project(acme, 'monorepo', 'Monorepo', {
    visibility: 'public',
    creator: users.root,
    minutes: -70_000,
    description: 'Everything in one place: thousands of jobs.',
    members: [
      [users.alice, ACCESS.developer],
      [users.bob, ACCESS.developer],
    ],
  });
  let parent: string[] = [];
  for (let i = 0; i < MONOREPO_PIPELINES; i++) {
    const sha = b.commit({
      parents: parent,
      title: `Change ${i + 1}`,
      author: i % 2 === 0 ? users.alice : users.bob,
      minutes: -70_000 + i * 60,
    });
    parent = [sha];
    const pipeline = b.pipeline(monorepo, 'master', sha, users.alice, -70_000 + i * 60);
    for (const [index, spec] of MONOREPO_JOBS.entries()) {
      let status: JobStatus = 'success';
      if (spec.name === 'test' && i % 7 === 3) status = 'failed';
      if (spec.name === 'e2e' && i % 13 === 5) status = 'canceled';
      if (spec.name === 'deploy' && i % 10 === 9) status = 'skipped';
      b.job(pipeline, { ...spec, status, artifacts: index === 0 && i % 10 === 0, traceChars: 2 * 1024 });
    }
  }
  b.branch(monorepo, 'master', parent[0] ?? sharedSha, {});
  const hugePipeline = b.pipeline(monorepo, 'master', parent[0] ?? sharedSha, users.root, -100);
  const huge = b.job(hugePipeline, { name: 'test:huge-log', stage: 'test', status: 'success' }, false);
  b.finishedTrace(huge, 'success', HUGE_TRACE_CHARS);
  fixtures.projects.monorepo = monorepo.id;
  fixtures.jobs.hugeTrace = huge.id;

  state.bulkAddTodos(users.root.id, ADMIN_TODOS);
}
