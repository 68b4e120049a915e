// The job trace panel and output-channel tails inside a real VS Code, against a fake forge in this
// extension host: what the page is sent, what the server is asked, and how page messages are handled.
import * as assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import * as vscode from 'vscode';
import type { ForgeWorkbenchApi } from '../../src/extension';
import type { AccountInfo } from '../../src/platform/accounts';
import type { JobTraceHostMessage, JobTracePanel, TraceTail } from '../../src/features/jobs';
import type { PanelRegistry } from '../../src/webviews/shared/panelHost';
import { type FakeForge } from '../server';
import { buildTimestampedTrace } from '../server/trace';
import { recordMeasurement } from './index';
import { eventually, useForgeSession } from './support';

const utf8 = new TextDecoder();

/** The bytes a snapshot or an append carries (an append may be gzipped). */
function bytesOf(message: JobTraceHostMessage): Uint8Array {
  if (message.type === 'snapshot') return message.bytes;
  if (message.type !== 'append') return new Uint8Array(0);
  return message.gzip ? gunzipSync(message.bytes) : message.bytes;
}

/** The text a snapshot or an append carries. */
function textOf(message: JobTraceHostMessage): string {
  return utf8.decode(bytesOf(message));
}
const FAST = { minIntervalMs: 50, maxIntervalMs: 200 };

describe('job trace panel and tails', function () {
  this.timeout(30_000);
  const session = useForgeSession();
  let forge: FakeForge;
  let api: ForgeWorkbenchApi;
  let account: AccountInfo;

  before(() => {
    ({ forge, api, account } = session);
  });

  session.cleanUps.push(() => {
    api.traceTails.stopAll();
    for (const panel of [...registry().values()]) panel.dispose();
  });

  function registry(): PanelRegistry<JobTracePanel> {
    const found = api.panels.jobTrace;
    return found;
  }

  async function jobRef(jobId: number) {
    const client = await api.accounts.client(account.id);
    const project = await client.getProject(forge.fixtures.projects.web);
    const job = await client.getJob(project.id, jobId);
    return { kind: 'forge.jobRef' as const, accountId: account.id, project, job };
  }

  async function openPanel(jobId: number, options: Record<string, number> = FAST): Promise<JobTracePanel> {
    const panel = await vscode.commands.executeCommand<JobTracePanel>(
      'forge.job.showTrace',
      await jobRef(jobId),
      options,
    );
    assert.ok(panel, 'the command returns the panel');
    await eventually(() => assert.ok(panel.host.isReady, 'the page said ready'), 15_000);
    return panel;
  }

  function sent(panel: JobTracePanel): JobTraceHostMessage[] {
    return panel.host.sent;
  }

  function lastOf<Type extends JobTraceHostMessage['type']>(
    panel: JobTracePanel,
    type: Type,
  ): Extract<JobTraceHostMessage, { type: Type }> | undefined {
    const matching = sent(panel).filter(
      (message): message is Extract<JobTraceHostMessage, { type: Type }> => message.type === type,
    );
    return matching[matching.length - 1];
  }

  function tracePath(jobId: number): string {
    return `/api/v4/projects/${forge.fixtures.projects.web}/jobs/${jobId}/trace`;
  }

  it('opens a finished job: the page gets the whole trace, draws it, and reports no CSP violation', async () => {
    const jobId = forge.fixtures.jobs.failed;
    const panel = await openPanel(jobId);
    const expected = forge.state.traceText(jobId) ?? '';
    assert.ok(expected.length > 0);
    await eventually(() => {
      const snapshot = lastOf(panel, 'snapshot');
      assert.ok(snapshot && snapshot.type === 'snapshot');
      // The page gets either the whole trace in the snapshot, or the snapshot plus what followed it.
      const appended = sent(panel)
        .slice(sent(panel).indexOf(snapshot) + 1)
        .map((message) => (message.type === 'append' ? textOf(message) : ''))
        .join('');
      assert.equal(utf8.decode(snapshot.bytes) + appended, expected);
    });
    await eventually(() => assert.ok(panel.host.renders.some((render) => render.what === 'trace')), 10_000);
    await eventually(() => assert.equal(panel.isFollowing, false, 'a finished job is not followed'));
    assert.deepEqual(panel.host.violations, []);
    assert.deepEqual(panel.host.pageErrors, []);
    assert.equal(panel.host.panel.title, `${panel.currentJob.name} #${jobId}`);
    // The page draws rows its worker parsed: workers from blob: URLs are allowed, nothing else.
    const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(
      panel.host.panel.webview.html,
    )?.[1];
    assert.match(csp ?? '', /(^|; )worker-src blob:(;|$)/);
    assert.match(csp ?? '', /default-src 'none'/);
  });

  it('opens a 20 MB trace: the first rows are drawn while the rest is still being parsed', async function () {
    this.timeout(60_000);
    const jobId = forge.fixtures.jobs.build;
    const line =
      '\x1b[32mok\x1b[0m test %n \x1b[38;5;208mpassed\x1b[0m in 12 ms, with some more words to fill the line\n';
    const lines: string[] = [];
    for (let index = 0, size = 0; size < 20 * 1024 * 1024; index++) {
      const text = line.replace('%n', String(index));
      lines.push(text);
      size += text.length;
    }
    const big = lines.join('');
    forge.state.setLazyTrace(jobId, () => big);
    const started = performance.now();
    // The page's HTML waits for the first piece as long as it takes here (in the product, 300 ms).
    const panel = await openPanel(jobId, { ...FAST, firstPaintWaitMs: 20_000 });
    await eventually(() => assert.ok(panel.host.renders.some((render) => render.what === 'trace')), 30_000);
    recordMeasurement('20 MB trace: command to first rows drawn, ms', performance.now() - started);
    // The read stopped after its first piece until the page had loaded (VS Code creates the page
    // faster with the extension host idle), and that piece went with the first snapshot.
    const readFirst = panel.bytesAtFirstSnapshot ?? Number.NaN;
    assert.ok(readFirst >= 64 * 1024 && readFirst < 1024 * 1024, `read before the page loaded: ${readFirst}`);
    // The page's first frame shows the rows its first snapshot draws (the end of the first 64 KB,
    // where it opens), written into its HTML before the stylesheets and the script load.
    const html = panel.host.panel.webview.html;
    const completeLines = big.slice(0, 64 * 1024).split('\n').length - 1;
    assert.match(
      html,
      new RegExp(`<span class="fp-fg-2">ok</span> test ${completeLines - 1} passed in 12 ms`),
      'the last complete line of the first piece',
    );
    assert.doesNotMatch(html, / test 0 passed/, 'only the rows at the end of the first piece');
    assert.ok(
      html.indexOf('id="first-paint"') < html.indexOf('rel="stylesheet"'),
      'drawn before the styles load',
    );
    assert.doesNotMatch(html, /unsafe-inline/);
    recordMeasurement(
      '20 MB trace: page script start to first rows drawn, ms',
      panel.host.renders[0]?.ms ?? -1,
    );
    // The rest is read once the page has drawn its first piece.
    await panel.settled();
    assert.ok(panel.rawTrace === big, 'the raw trace is all of it, in order');
    assert.deepEqual(panel.host.violations, []);
    assert.deepEqual(panel.host.pageErrors, []);
    const snapshot = lastOf(panel, 'snapshot');
    assert.ok(snapshot && snapshot.bytes.length < big.length, 'the remembered copy of a huge message is cut');

    // The page loads again (as when the panel is shown again): the rest waits until it has drawn.
    await panel.host.receive({ type: 'ready' });
    const reloaded = sent(panel).slice(-1)[0];
    assert.ok(reloaded?.type === 'snapshot', 'nothing follows the snapshot before the page has drawn it');
    assert.ok(reloaded.bytes.length <= 64 * 1024);
    await panel.host.receive({ type: 'snapshotDrawn' });
    const rest = sent(panel).slice(sent(panel).indexOf(reloaded) + 1);
    // Then as many pieces as the page may have waiting, and one more for each it has parsed.
    assert.equal(rest.length, 3);
    assert.ok(rest.every((message) => message.type === 'append' && !message.replaced));
    // Gzipped: a fraction of the bytes passes through the workbench on the way to the page.
    for (const message of rest) {
      assert.ok(message.type === 'append' && message.gzip);
      assert.ok(message.bytes.length < 64 * 1024, `${message.bytes.length} bytes for 256 KB of text`);
    }
    assert.ok(panel.unsentBytes > big.length - 4 * 256 * 1024, `${panel.unsentBytes} bytes wait`);
    await panel.host.receive({ type: 'parsed' });
    assert.equal(sent(panel).length - sent(panel).indexOf(reloaded), 5, 'one more piece');
    // The page (the real one, which got these messages too) parses them all and asks for the rest.
    await eventually(() => assert.equal(panel.unsentBytes, 0), 30_000);
    assert.ok(panel.rawTrace === big, 'the raw trace is still all of it');
    const afterReload = sent(panel).slice(sent(panel).indexOf(reloaded));
    assert.ok(afterReload.map(textOf).join('') === big, 'the page was sent all of it, in order');
    // …and parsed all of it, in its worker: the first paint and no error from the page.
    await eventually(() => assert.ok(panel.host.renders.length > 0));
    assert.deepEqual(panel.host.pageErrors, []);
    panel.dispose();
  });

  it('says from the first moment that a slow trace is on its way, and how much of it has come', async () => {
    const jobId = forge.fixtures.jobs.build;
    // The server answers at once and then sends a few bytes at a time, never finishing.
    const fault = forge.faults.add({
      method: 'GET',
      path: '/projects/:id/jobs/:job_id/trace',
      fault: { kind: 'never-ending', trickle: { bytes: 512, everyMs: 20 } },
    });
    try {
      const panel = await openPanel(jobId, { ...FAST, firstPaintWaitMs: 50 });
      // The page's first frame, before its script runs: no rows yet, and it says why.
      assert.match(panel.host.panel.webview.html, /role="status">Reading the trace…</);
      assert.equal(lastOf(panel, 'snapshot')?.reading, true, 'the page shows it while the read goes on');
      const progress = await eventually(() => {
        const last = lastOf(panel, 'progress');
        assert.ok(last && last.receivedBytes >= 2048, `received so far: ${last?.receivedBytes}`);
        return last;
      }, 10_000);
      assert.equal(progress.done, false);
      // Closed, the panel stops the read that never ends.
      panel.dispose();
    } finally {
      fault.remove();
    }
  });

  it('says that the read is done once the trace is all here', async () => {
    const panel = await openPanel(forge.fixtures.jobs.build);
    // A short trace is all here before the page loads: its snapshot says so; else a progress later.
    await eventually(() => {
      const last = sent(panel)
        .filter((message) => message.type === 'snapshot' || message.type === 'progress')
        .at(-1);
      assert.ok(last?.type === 'snapshot' ? !last.reading : last?.done, JSON.stringify(last));
    });
  });

  it('writes a hostile trace into the first paint as text: no element, no script, no CSP violation', async () => {
    const jobId = forge.fixtures.jobs.success;
    const hostile = [
      `</div></div><script>window.pwned = 1</script>`,
      `\x1b[31m<img src=x onerror="window.pwned = 2">\x1b[0m`,
      `"><iframe src="https://example.com"></iframe><style>body{display:none}</style>`,
    ];
    forge.state.removeTrace(jobId);
    forge.state.appendTrace(jobId, `${hostile.join('\n')}\n`);
    const panel = await openPanel(jobId, { ...FAST, firstPaintWaitMs: 20_000 });
    const html = panel.host.panel.webview.html;
    const firstPaint = html.slice(html.indexOf('<div id="first-paint">'), html.indexOf('<script nonce'));
    assert.match(firstPaint, /fp-row/, 'the rows are in the first paint');
    const tags = new Set([...firstPaint.matchAll(/<([a-z][a-z0-9-]*)/gi)].map((match) => match[1]));
    assert.deepEqual([...tags].sort(), ['div', 'header', 'span']);
    assert.match(
      firstPaint,
      /<span class="fp-fg-1">&#60;img src=x onerror=&#34;window\.pwned = 2&#34;&#62;<\/span>/,
    );
    await eventually(() => assert.ok(panel.host.renders.some((render) => render.what === 'trace')), 10_000);
    assert.deepEqual(panel.host.violations, []);
    assert.deepEqual(panel.host.pageErrors, []);
  });

  it('drops the first paint once hidden: shown again, the page loads without the rows it opened with', async () => {
    const jobId = forge.fixtures.jobs.success;
    const panel = await openPanel(jobId, { ...FAST, firstPaintWaitMs: 20_000 });
    assert.match(panel.host.panel.webview.html, /id="first-paint"/);
    const document = await vscode.workspace.openTextDocument({ content: 'in front of the trace' });
    await vscode.window.showTextDocument(document, {
      viewColumn: panel.host.panel.viewColumn,
      preview: false,
    });
    await eventually(() => assert.equal(panel.host.panel.visible, false), 10_000);
    await eventually(() => assert.doesNotMatch(panel.host.panel.webview.html, /first-paint/));
    // Closing the editor in front shows the panel again.
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await eventually(() => assert.ok(panel.host.isReady, 'the page loaded again'), 15_000);
    assert.deepEqual(panel.host.violations, []);
  });

  it('reveals the open panel instead of opening a second one for the same job', async () => {
    const jobId = forge.fixtures.jobs.failed;
    const before = registry().size;
    const first = registry().get(`${account.id}|${forge.fixtures.projects.web}|${jobId}`);
    const again = await vscode.commands.executeCommand<JobTracePanel>(
      'forge.job.showTrace',
      await jobRef(jobId),
    );
    assert.equal(again, first);
    assert.equal(registry().size, before);
  });

  it('follows a running job: sends If-None-Match, passes on only the new text, stops when it ends', async () => {
    // A job the fake forge's runner simulation does not grow, so the test decides every byte.
    const jobId = forge.fixtures.jobs.created;
    forge.state.setJobStatus(jobId, 'running');
    forge.state.appendTrace(jobId, 'step one\n');
    const panel = await openPanel(jobId);
    assert.equal(panel.isFollowing, true);
    await eventually(() =>
      assert.ok(panel.rawTrace.endsWith('step one\n'), JSON.stringify(panel.rawTrace.slice(-200))),
    );
    forge.clearRequests();
    forge.state.appendTrace(jobId, '\x1b[32mstep two\x1b[0m\n');
    panel.pollNow();
    await eventually(() =>
      assert.ok(
        sent(panel).some(
          (message) =>
            message.type === 'append' && !message.gzip && textOf(message) === '\x1b[32mstep two\x1b[0m\n',
        ),
      ),
    );
    const traceReads = forge.requests.filter((request) => request.path === tracePath(jobId));
    assert.ok(traceReads.length > 0);
    for (const read of traceReads)
      assert.ok(read.headers['if-none-match'], 'every later read sends the ETag');
    assert.ok(traceReads.some((read) => read.status === 304 || read.status === 200));

    forge.state.appendTrace(jobId, 'Job succeeded\n');
    forge.state.setJobStatus(jobId, 'success');
    panel.pollNow();
    await eventually(() => assert.equal(panel.isFollowing, false));
    const last = lastOf(panel, 'job');
    assert.ok(last?.type === 'job' && last.job.status === 'success' && !last.following);
    assert.ok(panel.rawTrace.endsWith('Job succeeded\n'), 'the last lines arrive before following stops');
    assert.ok(last.job.actions.retry && !last.job.actions.cancel, 'the header offers retry, not cancel');
  });

  it('validates page messages: an unknown action is rejected and sends nothing', async () => {
    const panel = await openPanel(forge.fixtures.jobs.failed);
    const rejectedBefore = panel.host.rejectedMessages;
    forge.clearRequests();
    await panel.host.receive({ type: 'action', action: 'rm -rf' });
    await panel.host.receive({ type: 'action', action: 'retry', extra: '<script>' });
    await panel.host.receive({ type: 'copy', text: 'x'.repeat(10) });
    await panel.host.receive('retry');
    assert.equal(panel.host.rejectedMessages, rejectedBefore + 4);
    assert.deepEqual(
      forge.requests.filter((request) => request.method !== 'GET'),
      [],
      'no write was sent for an invalid message',
    );
  });

  it('keeps the trace as the server sent it, bytes that are not UTF-8 included, for the page and Save', async () => {
    const jobId = forge.fixtures.jobs.failed;
    // A tool that printed Latin-1 (é as one byte 0xE9), then UTF-8: real servers pass both on as is.
    const served = Buffer.concat([
      Buffer.from('\x1b[31mcaf'),
      Buffer.from([0xe9]),
      Buffer.from(' au lait\x1b[0m\n✓ done\n'),
    ]);
    forge.state.setTraceBytes(jobId, served);
    // A panel an earlier test left open has read the job's trace before; this one reads it anew.
    registry().get(`${account.id}|${forge.fixtures.projects.web}|${jobId}`)?.dispose();
    const panel = await openPanel(jobId);
    await eventually(() => assert.ok(panel.rawTrace.endsWith('✓ done\n')));
    const toPage = Buffer.concat(sent(panel).map(bytesOf));
    assert.deepEqual([...toPage], [...served], 'the page is sent the bytes it decodes itself');
    const file = vscode.Uri.joinPath(api.services.context.globalStorageUri, `raw-${jobId}.log`);
    await panel.saveRawTo(file);
    assert.deepEqual([...(await vscode.workspace.fs.readFile(file))], [...served], 'saved byte for byte');
    await vscode.workspace.fs.delete(file);
  });

  it('copies the trace as plain text without escape codes', async () => {
    const panel = await openPanel(forge.fixtures.jobs.failed);
    await panel.host.receive({ type: 'copy' });
    const copied = await vscode.env.clipboard.readText();
    assert.ok(copied.length > 0);
    assert.ok(!copied.includes('\x1b'), 'no escape codes');
    assert.ok(!copied.includes('section_start'), 'no raw section markers');
  });

  it('retries from the header: sent once, then the panel follows the job again from an empty trace', async () => {
    const jobId = forge.fixtures.jobs.failed;
    const panel = await openPanel(jobId);
    forge.clearRequests();
    await panel.host.receive({ type: 'action', action: 'retry' });
    const retries = forge.requests.filter(
      (request) => request.method === 'POST' && request.path.endsWith(`/jobs/${jobId}/retry`),
    );
    assert.equal(retries.length, 1, 'retry is sent exactly once');
    // Real servers run a new job: the panel switches to it, under its new key, from an empty trace.
    const again = panel.currentJob.id;
    assert.notEqual(again, jobId);
    assert.equal(registry().get(`${account.id}|${forge.fixtures.projects.web}|${again}`), panel);
    await eventually(() => assert.equal(panel.isFollowing, true));
    await eventually(() => assert.equal(panel.rawTrace, ''));
    forge.state.appendTrace(again, 'second run\n');
    panel.pollNow();
    await eventually(() => assert.equal(panel.rawTrace, 'second run\n'));
  });

  it('cancels a running job from the header', async () => {
    const jobId = forge.fixtures.jobs.pending;
    const panel = await openPanel(jobId);
    forge.clearRequests();
    await panel.host.receive({ type: 'action', action: 'cancel' });
    assert.ok(
      forge.requests.some(
        (request) => request.method === 'POST' && request.path.endsWith(`/jobs/${jobId}/cancel`),
      ),
    );
    await eventually(() => assert.equal(panel.currentJob.status, 'canceled'));
  });

  it('says in the panel why a header action failed, and keeps following the job', async () => {
    const jobId = forge.fixtures.jobs.running;
    const panel = await openPanel(jobId);
    const fault = forge.faults.add({
      method: 'POST',
      path: '/projects/:id/jobs/:job_id/cancel',
      times: 1,
      fault: { kind: 'status', status: 500 },
    });
    try {
      await panel.host.receive({ type: 'action', action: 'cancel' });
    } finally {
      fault.remove();
    }
    const notice = lastOf(panel, 'notice');
    assert.equal(notice?.level, 'error');
    assert.match(notice?.message ?? '', /server/i);
    assert.equal(panel.currentJob.id, jobId);
  });

  it('shows a timestamped trace (GitLab Runner 17+) with its times in the panel and the tail', async () => {
    const jobId = forge.fixtures.jobs.olderBuild;
    const trace = buildTimestampedTrace(Date.parse('2024-05-14T11:19:19Z'));
    forge.state.setJobStatus(jobId, 'running');
    forge.state.removeTrace(jobId);
    forge.state.appendTrace(jobId, trace);
    const tail = await vscode.commands.executeCommand<TraceTail>(
      'forge.job.tailTrace',
      await jobRef(jobId),
      FAST,
    );
    assert.ok(tail);
    await eventually(() =>
      assert.ok(
        tail.recentText.includes(
          '[11:19:19.959]   warning: this line is long enough that the runner wrote it in two fragments, joined again on screen\n',
        ),
        tail.recentText,
      ),
    );
    assert.ok(
      tail.recentText.startsWith('[11:19:19.137] Running with gitlab-runner 17.0.0'),
      tail.recentText,
    );
    assert.ok(tail.recentText.includes('[11:19:19.274] ▸ Preparing the "docker" executor\n'));
    assert.ok(!/\d{4}-\d{2}-\d{2}T/.test(tail.recentText), 'no raw runner prefix');
    assert.ok(!tail.recentText.includes('section_'), 'sections named with section_ are understood');
    // As GitLab shows them: the overwritten progress and both prefixes gone; the line ends at the
    // section's end marker, and what follows is outside the section (not indented).
    await eventually(() => assert.match(tail.recentText, /\] {3}Downloading 100%\n/, tail.recentText));
    assert.ok(!tail.recentText.includes('Downloading 10%'), tail.recentText);
    assert.match(tail.recentText, /\] {3}tests done\n\[[\d:.]+\] after the section\n/);
    forge.state.setJobStatus(jobId, 'success');
    await eventually(() => assert.match(tail.endedWith ?? '', /ended/));

    const panel = await openPanel(jobId);
    const snapshot = await eventually(() => {
      const found = lastOf(panel, 'snapshot');
      assert.ok(found);
      return found;
    });
    assert.equal(snapshot.showTimestamps, true);
    assert.equal(snapshot.boldBright, true);
    // The panel's first frame, drawn by the host from the same parser, shows the same lines.
    const firstPaint = panel.host.panel.webview.html;
    assert.match(firstPaint, />Downloading 100%</);
    assert.doesNotMatch(firstPaint, /Downloading 10%|\d{4}-\d{2}-\d{2}T\d{2}/);
    assert.match(firstPaint, /fp-depth-1">tests done</);
    assert.match(firstPaint, /fp-depth-0">after the section</);
    await eventually(() => assert.ok(panel.host.renders.some((render) => render.what === 'trace')), 10_000);
    assert.deepEqual(panel.host.pageErrors, []);
    assert.deepEqual(panel.host.violations, []);
    panel.dispose();
  });

  it('tails two running jobs at once in their own output channels, each until its job ends', async () => {
    const first = forge.fixtures.jobs.olderBuild;
    const second = forge.fixtures.jobs.success;
    for (const jobId of [first, second]) {
      forge.state.setJobStatus(jobId, 'running');
      forge.state.removeTrace(jobId);
    }
    forge.state.appendTrace(
      first,
      '\x1b[0Ksection_start:1700000000:build\r\x1b[0K\x1b[36;1mBuilding\x1b[0;m\n',
    );
    forge.state.appendTrace(second, 'other job\n');
    const tailOne = await vscode.commands.executeCommand<TraceTail>(
      'forge.job.tailTrace',
      await jobRef(first),
      FAST,
    );
    const tailTwo = await vscode.commands.executeCommand<TraceTail>(
      'forge.job.tailTrace',
      await jobRef(second),
      FAST,
    );
    assert.ok(tailOne && tailTwo && tailOne !== tailTwo);
    assert.equal(api.traceTails.active().length, 2);
    assert.match(tailOne.channel.name, new RegExp(`#${first}`));
    await eventually(() =>
      assert.ok(tailOne.recentText.includes('▸ Building\n'), tailOne.recentText.slice(-300)),
    );
    await eventually(() => assert.ok(tailTwo.recentText.includes('other job\n')));
    const before = tailOne.appendedChars;
    forge.state.appendTrace(first, '  compiled \x1b[1m42\x1b[0m files\n');
    await eventually(() =>
      assert.ok(tailOne.recentText.endsWith('  compiled 42 files\n'), tailOne.recentText.slice(-200)),
    );
    const appended = tailOne.recentText.slice(before - tailOne.appendedChars);
    assert.equal(appended, '    compiled 42 files\n', 'only the new line, indented inside its section');
    assert.ok(!tailOne.recentText.includes('\x1b'));

    forge.state.appendTrace(first, 'section_end:1700000009:build\r\x1b[0KJob succeeded\n');
    forge.state.setJobStatus(first, 'success');
    await eventually(() => assert.match(tailOne.endedWith ?? '', /ended: Passed/));
    assert.ok(tailOne.recentText.includes('Job succeeded\n'));
    assert.equal(tailTwo.isActive, true, 'the other tail goes on');
    assert.equal(await vscode.commands.executeCommand('forge.job.stopTail', undefined, { tail: 'all' }), 1);
    assert.equal(tailTwo.isActive, false);
    assert.match(tailTwo.endedWith ?? '', /Stopped following/);

    // Tailing an ended job again follows it anew in the same channel, not in one more.
    forge.state.setJobStatus(second, 'running');
    const again = await vscode.commands.executeCommand<TraceTail>(
      'forge.job.tailTrace',
      await jobRef(second),
      FAST,
    );
    assert.ok(again && again !== tailTwo && again.isActive);
    assert.equal(again.channel, tailTwo.channel);
    await eventually(() => assert.ok(again.recentText.includes('other job\n')));
    assert.equal(await vscode.commands.executeCommand('forge.job.stopTail', undefined, { tail: 'all' }), 1);
  });
});
