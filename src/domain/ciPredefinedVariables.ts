/*
 * GitLab's predefined CI/CD variables, for completion and hover in the CI file (issue 38). The names
 * and when each is available come from GitLab's documentation, `doc/ci/variables/predefined_variables.md`
 * ("Predefined CI/CD variables reference"); `scripts/ci-variables.mjs` compares this list with a copy of
 * that page and prints what was added or removed. The one-line descriptions are our own words. Pure.
 */
import * as l10n from '@vscode/l10n';

/** When GitLab sets the variable: before the pipeline exists, while creating it, or only in the job. */
export type CiVariableAvailability = 'pre-pipeline' | 'pipeline' | 'job';

export interface CiPredefinedVariable {
  name: string;
  availability: CiVariableAvailability;
  description: string;
}

type Row = readonly [name: string, availability: CiVariableAvailability, description: string];

const rowsPart1 = (): Row[] => [
  ['CHAT_CHANNEL', 'pipeline', l10n.t('Chat channel a ChatOps command came from.')],
  ['CHAT_INPUT', 'pipeline', l10n.t('Arguments given to the ChatOps command.')],
  ['CHAT_USER_ID', 'pipeline', l10n.t('Chat user ID of whoever sent the ChatOps command.')],
  ['CI', 'pre-pipeline', l10n.t('"true" in every CI/CD job.')],
  ['CI_API_V4_URL', 'pre-pipeline', l10n.t("Root URL of the instance's REST API v4.")],
  ['CI_API_GRAPHQL_URL', 'pre-pipeline', l10n.t("Root URL of the instance's GraphQL API.")],
  ['CI_BUILDS_DIR', 'job', l10n.t('Directory on the runner under which jobs run.')],
  ['CI_COMMIT_AUTHOR', 'pre-pipeline', l10n.t('Commit author as "Name <email>".')],
  [
    'CI_COMMIT_BEFORE_SHA',
    'pre-pipeline',
    l10n.t("The branch's previous head commit; all zeros when there is none."),
  ],
  [
    'CI_COMMIT_BRANCH',
    'pre-pipeline',
    l10n.t('Branch name in branch pipelines; unset for tags and merge requests.'),
  ],
  ['CI_COMMIT_DESCRIPTION', 'pre-pipeline', l10n.t('Commit message without its first line.')],
  ['CI_COMMIT_MESSAGE', 'pre-pipeline', l10n.t('The whole commit message.')],
  ['CI_COMMIT_REF_NAME', 'pre-pipeline', l10n.t('Branch or tag the pipeline runs for.')],
  ['CI_COMMIT_REF_PROTECTED', 'pre-pipeline', l10n.t('"true" when that branch or tag is protected.')],
  [
    'CI_COMMIT_REF_SLUG',
    'pre-pipeline',
    l10n.t('Branch or tag name made safe for URLs and host names (63 bytes at most).'),
  ],
  ['CI_COMMIT_SHA', 'pre-pipeline', l10n.t('Full SHA of the commit being built.')],
  ['CI_COMMIT_SHORT_SHA', 'pre-pipeline', l10n.t('First eight characters of the commit SHA.')],
  ['CI_COMMIT_TAG', 'pre-pipeline', l10n.t('Tag name; set only in tag pipelines.')],
  ['CI_COMMIT_TAG_MESSAGE', 'pre-pipeline', l10n.t('Message of the tag; set only in tag pipelines.')],
  ['CI_COMMIT_TIMESTAMP', 'pre-pipeline', l10n.t('When the commit was made, ISO 8601.')],
  ['CI_COMMIT_TITLE', 'pre-pipeline', l10n.t('First line of the commit message.')],
  ['CI_CONCURRENT_ID', 'job', l10n.t("Number of this run among one executor's concurrent runs.")],
  [
    'CI_CONCURRENT_PROJECT_ID',
    'job',
    l10n.t("Number of this run among one executor's concurrent runs of the project."),
  ],
  [
    'CI_CONFIG_PATH',
    'pre-pipeline',
    l10n.t('Path of the CI configuration file (".gitlab-ci.yml" unless changed).'),
  ],
  ['CI_DEBUG_TRACE', 'pipeline', l10n.t('"true" when debug logging of the job is on.')],
  ['CI_DEBUG_SERVICES', 'pipeline', l10n.t('"true" when service containers\' logs are captured.')],
  ['CI_DEFAULT_BRANCH', 'pre-pipeline', l10n.t("The project's default branch.")],
  [
    'CI_DEPENDENCY_PROXY_DIRECT_GROUP_IMAGE_PREFIX',
    'pre-pipeline',
    l10n.t("Image prefix for the project's own group in the Dependency Proxy."),
  ],
  [
    'CI_DEPENDENCY_PROXY_GROUP_IMAGE_PREFIX',
    'pre-pipeline',
    l10n.t('Image prefix for the top-level group in the Dependency Proxy.'),
  ],
  ['CI_DEPENDENCY_PROXY_PASSWORD', 'pipeline', l10n.t('Password for pulling through the Dependency Proxy.')],
  ['CI_DEPENDENCY_PROXY_SERVER', 'pre-pipeline', l10n.t('Host and port to log in to the Dependency Proxy.')],
  ['CI_DEPENDENCY_PROXY_USER', 'pipeline', l10n.t('User name for pulling through the Dependency Proxy.')],
  ['CI_DEPLOY_FREEZE', 'pre-pipeline', l10n.t('"true" while a deploy freeze window is on.')],
  ['CI_DEPLOY_PASSWORD', 'job', l10n.t('Password of the project\'s "gitlab-deploy-token", when it has one.')],
  ['CI_DEPLOY_USER', 'job', l10n.t('User name of the project\'s "gitlab-deploy-token", when it has one.')],
  [
    'CI_DISPOSABLE_ENVIRONMENT',
    'pipeline',
    l10n.t('"true" when the job runs somewhere thrown away afterwards (not shell or ssh).'),
  ],
  ['CI_ENVIRONMENT_NAME', 'pipeline', l10n.t("The job's environment name (with environment:name).")],
  ['CI_ENVIRONMENT_SLUG', 'pipeline', l10n.t('The environment name made safe for DNS and URLs.')],
];

const rowsPart2 = (): Row[] => [
  ['CI_ENVIRONMENT_URL', 'pipeline', l10n.t("The job's environment URL (with environment:url).")],
  ['CI_ENVIRONMENT_ACTION', 'pipeline', l10n.t("The job's environment action: start, prepare or stop.")],
  ['CI_ENVIRONMENT_TIER', 'pipeline', l10n.t("Deployment tier of the job's environment.")],
  ['CI_GITLAB_FIPS_MODE', 'pre-pipeline', l10n.t('"true" when the instance runs in FIPS mode.')],
  ['CI_HAS_OPEN_REQUIREMENTS', 'pipeline', l10n.t('"true" when the project has an open requirement.')],
  ['CI_JOB_ID', 'job', l10n.t("The job's ID, unique on the instance.")],
  ['CI_JOB_IMAGE', 'pipeline', l10n.t('Docker image the job runs in.')],
  ['CI_JOB_MANUAL', 'pipeline', l10n.t('"true" when someone started the job by hand.')],
  ['CI_JOB_NAME', 'pipeline', l10n.t("The job's name.")],
  ['CI_JOB_NAME_SLUG', 'pipeline', l10n.t("The job's name made safe for paths (63 bytes at most).")],
  ['CI_JOB_STAGE', 'pipeline', l10n.t("The job's stage.")],
  ['CI_JOB_STATUS', 'job', l10n.t('success, failed or canceled; meant for after_script.')],
  ['CI_JOB_TIMEOUT', 'job', l10n.t("The job's timeout in seconds.")],
  ['CI_JOB_TOKEN', 'job', l10n.t('Short-lived token for some API calls, valid while the job runs.')],
  ['CI_JOB_URL', 'job', l10n.t('Web address of the job.')],
  ['CI_JOB_STARTED_AT', 'job', l10n.t('When the job started, ISO 8601.')],
  [
    'CI_KUBERNETES_ACTIVE',
    'pre-pipeline',
    l10n.t('"true" when a Kubernetes cluster is there for deployments.'),
  ],
  ['CI_NODE_INDEX', 'pipeline', l10n.t("This job's number among its parallel copies (with parallel:).")],
  ['CI_NODE_TOTAL', 'pipeline', l10n.t('How many parallel copies of the job run (1 without parallel:).')],
  [
    'CI_OPEN_MERGE_REQUESTS',
    'pre-pipeline',
    l10n.t('Up to four open merge requests from this branch, as "project!iid" separated by commas.'),
  ],
  ['CI_PAGES_DOMAIN', 'pre-pipeline', l10n.t('Domain serving GitLab Pages.')],
  ['CI_PAGES_URL', 'pre-pipeline', l10n.t("Address of the project's Pages site.")],
  ['CI_PIPELINE_ID', 'job', l10n.t("The pipeline's ID, unique on the instance.")],
  ['CI_PIPELINE_IID', 'pipeline', l10n.t("The pipeline's number within the project.")],
  [
    'CI_PIPELINE_SOURCE',
    'pre-pipeline',
    l10n.t('What started the pipeline: push, merge_request_event, schedule, web, api, trigger, ...'),
  ],
  ['CI_PIPELINE_TRIGGERED', 'pipeline', l10n.t('"true" when a trigger started the job.')],
  ['CI_PIPELINE_URL', 'job', l10n.t('Web address of the pipeline.')],
  ['CI_PIPELINE_CREATED_AT', 'pre-pipeline', l10n.t('When the pipeline was created, ISO 8601.')],
  ['CI_PIPELINE_NAME', 'pre-pipeline', l10n.t("The pipeline's name from workflow:name.")],
  ['CI_PROJECT_DIR', 'job', l10n.t('Where the repository is cloned and the job runs.')],
  ['CI_PROJECT_ID', 'pre-pipeline', l10n.t("The project's ID, unique on the instance.")],
  ['CI_PROJECT_NAME', 'pre-pipeline', l10n.t("Last part of the project's path.")],
  ['CI_PROJECT_NAMESPACE', 'pre-pipeline', l10n.t('User or group path the project lives in.')],
  ['CI_PROJECT_NAMESPACE_ID', 'pre-pipeline', l10n.t('ID of that user or group.')],
  ['CI_PROJECT_PATH_SLUG', 'pre-pipeline', l10n.t("The project's full path made safe for URLs and domains.")],
  ['CI_PROJECT_PATH', 'pre-pipeline', l10n.t("The project's full path, namespace included.")],
  [
    'CI_PROJECT_REPOSITORY_LANGUAGES',
    'pre-pipeline',
    l10n.t('Up to five languages of the repository, lower case, separated by commas.'),
  ],
  ['CI_PROJECT_ROOT_NAMESPACE', 'pre-pipeline', l10n.t("Top-level user or group of the project's path.")],
  ['CI_PROJECT_TITLE', 'pre-pipeline', l10n.t("The project's display name.")],
  ['CI_PROJECT_DESCRIPTION', 'pre-pipeline', l10n.t("The project's description.")],
  ['CI_PROJECT_URL', 'pre-pipeline', l10n.t('Web address of the project.')],
  ['CI_PROJECT_VISIBILITY', 'pre-pipeline', l10n.t('internal, private or public.')],
  ['CI_PROJECT_CLASSIFICATION_LABEL', 'pre-pipeline', l10n.t("The project's external authorization label.")],
  ['CI_REGISTRY', 'pre-pipeline', l10n.t('Container registry host[:port], when the instance has one.')],
  ['CI_REGISTRY_IMAGE', 'pre-pipeline', l10n.t('Base image path of the project in the container registry.')],
  [
    'CI_REGISTRY_PASSWORD',
    'job',
    l10n.t("Password for pushing to the project's registry, valid while the job runs."),
  ],
  ['CI_REGISTRY_USER', 'job', l10n.t("User name for pushing to the project's registry.")],
];

const rowsPart3 = (): Row[] => [
  [
    'CI_RELEASE_DESCRIPTION',
    'pipeline',
    l10n.t("The release's description (first 1,024 characters); tag pipelines only."),
  ],
  ['CI_REPOSITORY_URL', 'job', l10n.t('HTTP clone address of the repository, job token included.')],
  ['CI_RUNNER_DESCRIPTION', 'job', l10n.t("The runner's description.")],
  ['CI_RUNNER_EXECUTABLE_ARCH', 'job', l10n.t('OS and architecture of the runner program.')],
  ['CI_RUNNER_ID', 'job', l10n.t("The runner's ID.")],
  ['CI_RUNNER_REVISION', 'job', l10n.t("The runner program's revision.")],
  ['CI_RUNNER_SHORT_TOKEN', 'job', l10n.t("Short identifier taken from the runner's token.")],
  ['CI_RUNNER_TAGS', 'job', l10n.t("The runner's tags, separated by commas.")],
  ['CI_RUNNER_VERSION', 'job', l10n.t("The runner program's version.")],
  ['CI_SERVER_FQDN', 'pre-pipeline', l10n.t("The instance's fully qualified domain name, with its port.")],
  ['CI_SERVER_HOST', 'pre-pipeline', l10n.t("The instance's host, without protocol or port.")],
  ['CI_SERVER_NAME', 'pre-pipeline', l10n.t('Name of the CI/CD server.')],
  ['CI_SERVER_PORT', 'pre-pipeline', l10n.t("The instance's port.")],
  ['CI_SERVER_PROTOCOL', 'pre-pipeline', l10n.t("The instance's protocol, such as https.")],
  ['CI_SERVER_SHELL_SSH_HOST', 'pre-pipeline', l10n.t('Host for Git over SSH.')],
  ['CI_SERVER_SHELL_SSH_PORT', 'pre-pipeline', l10n.t('Port for Git over SSH.')],
  ['CI_SERVER_REVISION', 'pre-pipeline', l10n.t('Revision of the GitLab server.')],
  [
    'CI_SERVER_TLS_CA_FILE',
    'pipeline',
    l10n.t('File with the CA certificate the runner trusts for the server.'),
  ],
  ['CI_SERVER_TLS_CERT_FILE', 'pipeline', l10n.t("File with the runner's TLS certificate for the server.")],
  ['CI_SERVER_TLS_KEY_FILE', 'pipeline', l10n.t("File with the runner's TLS key for the server.")],
  ['CI_SERVER_URL', 'pre-pipeline', l10n.t("The instance's base address, protocol and port included.")],
  ['CI_SERVER_VERSION_MAJOR', 'pre-pipeline', l10n.t('Major version of the GitLab server.')],
  ['CI_SERVER_VERSION_MINOR', 'pre-pipeline', l10n.t('Minor version of the GitLab server.')],
  ['CI_SERVER_VERSION_PATCH', 'pre-pipeline', l10n.t('Patch version of the GitLab server.')],
  ['CI_SERVER_VERSION', 'pre-pipeline', l10n.t('Full version of the GitLab server.')],
  ['CI_SERVER', 'job', l10n.t('"yes" in every CI/CD job.')],
  [
    'CI_SHARED_ENVIRONMENT',
    'pipeline',
    l10n.t('"true" when the job runs somewhere kept between jobs (shell or ssh).'),
  ],
  ['CI_TEMPLATE_REGISTRY_HOST', 'pre-pipeline', l10n.t('Registry host the CI templates pull from.')],
  [
    'CI_TRIGGER_SHORT_TOKEN',
    'job',
    l10n.t('First characters of the trigger token that started the pipeline.'),
  ],
  ['GITLAB_CI', 'pre-pipeline', l10n.t('"true" in every CI/CD job.')],
  ['GITLAB_FEATURES', 'pre-pipeline', l10n.t('Licensed features of the instance, separated by commas.')],
  ['GITLAB_USER_EMAIL', 'pipeline', l10n.t('E-mail of who started the pipeline (or the manual job).')],
  ['GITLAB_USER_ID', 'pipeline', l10n.t('User ID of who started the pipeline (or the manual job).')],
  ['GITLAB_USER_LOGIN', 'pipeline', l10n.t('User name of who started the pipeline (or the manual job).')],
  ['GITLAB_USER_NAME', 'pipeline', l10n.t('Full name of who started the pipeline (or the manual job).')],
  ['KUBECONFIG', 'pipeline', l10n.t('Path of a kubeconfig with a context per authorized GitLab agent.')],
  ['TRIGGER_PAYLOAD', 'pipeline', l10n.t("The webhook's payload, when a webhook triggered the pipeline.")],
  ['CI_MERGE_REQUEST_APPROVED', 'pre-pipeline', l10n.t('"true" when the merge request is approved.')],
  [
    'CI_MERGE_REQUEST_ASSIGNEES',
    'pre-pipeline',
    l10n.t("User names of the merge request's assignees, separated by commas."),
  ],
  ['CI_MERGE_REQUEST_DIFF_BASE_SHA', 'pre-pipeline', l10n.t("Base SHA of the merge request's diff.")],
  ['CI_MERGE_REQUEST_DIFF_ID', 'pre-pipeline', l10n.t("Version of the merge request's diff.")],
  ['CI_MERGE_REQUEST_EVENT_TYPE', 'pre-pipeline', l10n.t('detached, merged_result or merge_train.')],
  [
    'CI_MERGE_REQUEST_DESCRIPTION',
    'pre-pipeline',
    l10n.t("The merge request's description (first 2,700 characters)."),
  ],
];

const rowsPart4 = (): Row[] => [
  [
    'CI_MERGE_REQUEST_DESCRIPTION_IS_TRUNCATED',
    'pre-pipeline',
    l10n.t('"true" when that description was cut.'),
  ],
  ['CI_MERGE_REQUEST_ID', 'pre-pipeline', l10n.t("The merge request's ID, unique on the instance.")],
  [
    'CI_MERGE_REQUEST_IID',
    'pre-pipeline',
    l10n.t("The merge request's number within the project (as in !12)."),
  ],
  ['CI_MERGE_REQUEST_LABELS', 'pre-pipeline', l10n.t("The merge request's labels, separated by commas.")],
  ['CI_MERGE_REQUEST_MILESTONE', 'pre-pipeline', l10n.t("Title of the merge request's milestone.")],
  ['CI_MERGE_REQUEST_PROJECT_ID', 'pre-pipeline', l10n.t("ID of the merge request's project.")],
  ['CI_MERGE_REQUEST_PROJECT_PATH', 'pre-pipeline', l10n.t("Path of the merge request's project.")],
  ['CI_MERGE_REQUEST_PROJECT_URL', 'pre-pipeline', l10n.t("Web address of the merge request's project.")],
  [
    'CI_MERGE_REQUEST_REF_PATH',
    'pre-pipeline',
    l10n.t('Ref of the merge request, such as refs/merge-requests/1/head.'),
  ],
  ['CI_MERGE_REQUEST_SOURCE_BRANCH_NAME', 'pre-pipeline', l10n.t("The merge request's source branch.")],
  [
    'CI_MERGE_REQUEST_SOURCE_BRANCH_PROTECTED',
    'pre-pipeline',
    l10n.t('"true" when the source branch is protected.'),
  ],
  [
    'CI_MERGE_REQUEST_SOURCE_BRANCH_SHA',
    'pre-pipeline',
    l10n.t('Head of the source branch; set in merged results pipelines only.'),
  ],
  ['CI_MERGE_REQUEST_SOURCE_PROJECT_ID', 'pre-pipeline', l10n.t('ID of the source project.')],
  ['CI_MERGE_REQUEST_SOURCE_PROJECT_PATH', 'pre-pipeline', l10n.t('Path of the source project.')],
  ['CI_MERGE_REQUEST_SOURCE_PROJECT_URL', 'pre-pipeline', l10n.t('Web address of the source project.')],
  [
    'CI_MERGE_REQUEST_SQUASH_ON_MERGE',
    'pre-pipeline',
    l10n.t('"true" when the merge request squashes on merge.'),
  ],
  ['CI_MERGE_REQUEST_TARGET_BRANCH_NAME', 'pre-pipeline', l10n.t("The merge request's target branch.")],
  [
    'CI_MERGE_REQUEST_TARGET_BRANCH_PROTECTED',
    'pre-pipeline',
    l10n.t('"true" when the target branch is protected.'),
  ],
  [
    'CI_MERGE_REQUEST_TARGET_BRANCH_SHA',
    'pre-pipeline',
    l10n.t('Head of the target branch; set in merged results pipelines only.'),
  ],
  ['CI_MERGE_REQUEST_TITLE', 'pre-pipeline', l10n.t("The merge request's title.")],
  ['CI_EXTERNAL_PULL_REQUEST_IID', 'pre-pipeline', l10n.t('Number of the external (GitHub) pull request.')],
  [
    'CI_EXTERNAL_PULL_REQUEST_SOURCE_REPOSITORY',
    'pre-pipeline',
    l10n.t('Source repository of the pull request.'),
  ],
  [
    'CI_EXTERNAL_PULL_REQUEST_TARGET_REPOSITORY',
    'pre-pipeline',
    l10n.t('Target repository of the pull request.'),
  ],
  [
    'CI_EXTERNAL_PULL_REQUEST_SOURCE_BRANCH_NAME',
    'pre-pipeline',
    l10n.t('Source branch of the pull request.'),
  ],
];

const rowsPart5 = (): Row[] => [
  [
    'CI_EXTERNAL_PULL_REQUEST_SOURCE_BRANCH_SHA',
    'pre-pipeline',
    l10n.t("Head of the pull request's source branch."),
  ],
  [
    'CI_EXTERNAL_PULL_REQUEST_TARGET_BRANCH_NAME',
    'pre-pipeline',
    l10n.t('Target branch of the pull request.'),
  ],
  [
    'CI_EXTERNAL_PULL_REQUEST_TARGET_BRANCH_SHA',
    'pre-pipeline',
    l10n.t("Head of the pull request's target branch."),
  ],
];

/** The rows, in the page's order; functions, so that the descriptions are read in the user's language. */
const rows = (): readonly Row[] => [
  ...rowsPart1(),
  ...rowsPart2(),
  ...rowsPart3(),
  ...rowsPart4(),
  ...rowsPart5(),
];

/**
 * Every predefined variable, in the documentation's order. Built at each call, not kept: 160 rows
 * are cheap next to a completion list, and a table kept from the first call would also outlive a
 * mutation run's mutants (Stryker's runner keeps the module loaded), which then never run.
 */
export function ciPredefinedVariables(): readonly CiPredefinedVariable[] {
  return rows().map(([name, availability, description]) => ({ name, availability, description }));
}

export function predefinedVariable(name: string): CiPredefinedVariable | undefined {
  const row = rows().find(([rowName]) => rowName === name);
  return row ? { name: row[0], availability: row[1], description: row[2] } : undefined;
}
