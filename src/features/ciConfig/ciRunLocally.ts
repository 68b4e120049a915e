import { spawn } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as z from 'zod';
import { ciNames } from '../../domain/ciCompletion';
import { ciJobAt } from '../../domain/ciCursor';
import { TracePlainTail } from '../../domain/trace';
import { defineCommand } from '../../platform/commands/defineCommand';
import { InvalidInputError, registerCommands } from '../../platform/commands/registerCommand';
import { openServerLink } from '../../platform/serverLinks';
import { pickOne, showError, withCancellableProgress } from '../../platform/userMessages';
import type { Services } from '../../services';
import { isCiFile } from './ciLintChecks';

const GITLAB_CI_LOCAL_PAGE = 'https://github.com/firecow/gitlab-ci-local';
/** Characters of output each run remembers for tests (the channel itself has it all). */
const RECENT_OUTPUT_CHARS = 64 * 1024;

/** How a local run ended (the command returns it; host tests read it). */
export interface LocalRunOutcome {
  job: string;
  exitCode: number | null;
  /** The end of what the channel showed. */
  output: string;
}

class NotInstalledError extends Error {}

/**
 * "Run Job Locally": the job the cursor is in (or one picked) run by `gitlab-ci-local`, a CLI that
 * runs GitLab CI jobs on the shell or in Docker, in the CI file's folder; its output streams into an
 * Output channel through the job trace's own plain-text tail (colours and section markers handled as
 * in a tailed trace). Only on command, only in a trusted workspace (it runs the file's scripts), with
 * an argument array (`--job=<name>`), never a shell string; Cancel stops the process. Without the
 * CLI, the message says how to install it.
 */
export function registerRunLocally(services: Services): void {
  const channels = new Map<string, vscode.OutputChannel>();
  services.context.subscriptions.push({
    dispose: () => {
      for (const channel of channels.values()) channel.dispose();
    },
  });
  registerCommands(services.context, services.log, [
    defineCommand({
      id: 'forge.ciConfig.runJobLocally',
      args: [z.string().max(255).optional()],
      run: async (jobArgument): Promise<LocalRunOutcome | undefined> => {
        const editor = vscode.window.activeTextEditor;
        const document = editor?.document;
        if (!document || !isCiFile(document))
          throw new InvalidInputError(
            vscode.l10n.t('Open the CI file (.gitlab-ci.yml) in the editor first, then run one of its jobs.'),
          );
        if (!vscode.workspace.isTrusted)
          throw new InvalidInputError(
            vscode.l10n.t("A job runs the CI file's scripts on this machine: trust this workspace first."),
          );
        const job = jobArgument ?? (await jobToRun(document, editor.selection.active.line));
        if (job === undefined) return undefined;
        // gitlab-ci-local reads the file from disk: what is in the editor is what runs.
        if (document.isDirty && !(await document.save()))
          throw new Error(vscode.l10n.t('The CI file could not be saved, so the job was not run.'));
        const channel =
          channels.get(job) ?? vscode.window.createOutputChannel(vscode.l10n.t('Forge: {0} (local)', job));
        channels.set(job, channel);
        channel.clear();
        channel.show(true);
        try {
          return await runGitlabCiLocal(job, path.dirname(document.uri.fsPath), channel);
        } catch (error) {
          if (!(error instanceof NotInstalledError)) throw error;
          const open = vscode.l10n.t("Open gitlab-ci-local's Page");
          void showError(error.message, open).then((answer) =>
            answer === open
              ? openServerLink(GITLAB_CI_LOCAL_PAGE, vscode.l10n.t("gitlab-ci-local's page"))
              : undefined,
          );
          return undefined;
        }
      },
    }),
  ]);
}

async function jobToRun(document: vscode.TextDocument, line: number): Promise<string | undefined> {
  const lines = document.getText().split(/\r?\n/);
  const here = ciJobAt(lines, line);
  if (here !== undefined) return here;
  const jobs = ciNames(document.getText())?.jobs ?? [];
  if (jobs.length === 0)
    throw new InvalidInputError(vscode.l10n.t('The CI file has no job to run (or does not parse).'));
  const picked = await pickOne(
    jobs.map((name) => ({ label: name, name })),
    {
      title: vscode.l10n.t('Job to run locally'),
      placeHolder: vscode.l10n.t('Which job gitlab-ci-local runs'),
    },
  );
  return picked?.name;
}

function runGitlabCiLocal(
  job: string,
  folder: string,
  channel: vscode.OutputChannel,
): Thenable<LocalRunOutcome> {
  const executable = vscode.workspace
    .getConfiguration('forge.ciConfig')
    .get<string>('gitlabCiLocalPath', 'gitlab-ci-local');
  return withCancellableProgress(vscode.l10n.t('Running {0} locally with gitlab-ci-local', job), (signal) => {
    const formatter = new TracePlainTail();
    let recent = '';
    const append = (text: string): void => {
      if (text === '') return;
      channel.append(text);
      recent = (recent + text).slice(-RECENT_OUTPUT_CHARS);
    };
    append(vscode.l10n.t('── gitlab-ci-local {0} in {1} ──\n', job, folder));
    return new Promise<LocalRunOutcome>((resolve, reject) => {
      // One argument, `--job=<name>`: a job named like an option is still a job. (After `--` the
      // CLI's argument parser, yargs, leaves names out of its job list and the whole pipeline runs.)
      const child = spawn(executable, [`--job=${job}`], { cwd: folder, shell: false, signal });
      const decoder = new TextDecoder();
      const take = (chunk: Buffer): void => append(formatter.push(decoder.decode(chunk, { stream: true })));
      child.stdout.on('data', take);
      child.stderr.on('data', take);
      child.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT')
          reject(
            new NotInstalledError(
              vscode.l10n.t(
                'gitlab-ci-local is not installed (or not at "{0}"): install it with "npm install -g gitlab-ci-local", or set forge.ciConfig.gitlabCiLocalPath.',
                executable,
              ),
            ),
          );
        // Cancelled: the process is stopped, and `close` says so.
        else if (error.name !== 'AbortError') reject(error);
      });
      child.on('close', (code) => {
        append(formatter.finish());
        append(
          signal.aborted
            ? vscode.l10n.t('\n── Stopped. ──\n')
            : code === 0
              ? vscode.l10n.t('\n── {0} passed. ──\n', job)
              : vscode.l10n.t('\n── gitlab-ci-local ended with exit code {0}. ──\n', String(code)),
        );
        resolve({ job, exitCode: signal.aborted ? null : code, output: recent });
      });
    });
  });
}
