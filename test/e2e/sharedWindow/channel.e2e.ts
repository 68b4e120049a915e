// The Channel view in a real VS Code in a browser, signed in to the fake channel server from the
// environment (FORGE_CHANNEL_URL / _USER / _PASSWORD): the stream with a hostile title shown as
// text, the files, and a post written through the command palette.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { FakeForge } from '../../server';
import { screenshot } from '../../vscode/harness';
import {
  answerQuickInput,
  collapsePane,
  collapseRow,
  expandPane,
  expandRow,
  expectQuickInput,
  openActivityBarView,
  rowLabels,
  runCommand,
  screenshotIfFailed,
  treeRow,
  viewPane,
  waitUntil,
} from '../support';
import { prepareSharedForge, sharedWorkbench } from './sharedWorkbench';

const HOSTILE = '<img src=x onerror=alert(1)>';

prepareSharedForge((forge) => {
  // Someone in the network posts markup: it must show as text, never as an element.
  const state = forge.channel.state;
  const template = state.findItem(forge.channel.fixtures.networkPost.id);
  assert.ok(template);
  const id = state.nextId('item', 5000);
  const mid = `hostile${id}@hub.example.net`;
  const at = '2024-06-30 10:00:00';
  state.items.push({
    ...template,
    id,
    mid,
    parent: id,
    parentMid: mid,
    thrParent: mid,
    title: HOSTILE,
    body: `${HOSTILE} [b]and bold[/b]`,
    created: at,
    edited: at,
    commented: at,
    changed: at,
    categories: [],
    iids: [],
  });
});

describe('the Channel view', () => {
  let forge: FakeForge;
  let page: Page;

  before(async () => {
    ({ forge, page } = await sharedWorkbench());
  });

  afterEach(async function () {
    await screenshotIfFailed(this, page);
  });

  it('opens the Channel view and expands Stream: markup in a title is shown as text', async () => {
    await openActivityBarView(page, 'Forge');
    for (const pane of ['Projects', 'Merge Requests', 'Todos']) await collapsePane(page, pane);
    await expandPane(page, 'Channel');
    await treeRow(page, 'Channel', 'Stream').waitFor({ timeout: 60_000 });
    for (const folder of ['Stream', 'Files']) await collapseRow(page, 'Channel', folder);
    assert.deepEqual(await rowLabels(page, 'Channel'), [
      'Stream',
      'Files',
      'Photo albums',
      'Privacy groups',
      'Connections',
    ]);
    await expandRow(page, 'Channel', 'Stream');
    await treeRow(page, 'Channel', 'Network').waitFor();
    await expandRow(page, 'Channel', 'Network');
    const hostile = treeRow(page, 'Channel', HOSTILE);
    await hostile.waitFor({ timeout: 30_000 });
    assert.equal((await hostile.locator('.label-name').innerText()).trim(), HOSTILE);
    assert.equal(await viewPane(page, 'Channel').locator('.monaco-list-row img').count(), 0, 'no <img> made');
    await screenshot(page, 'channel-stream');
    // Collapse the stream again to make room for the files.
    await collapseRow(page, 'Channel', 'Network');
    await collapseRow(page, 'Channel', 'Stream');
  });

  it('expands Files into folders', async () => {
    await expandRow(page, 'Channel', 'Files');
    await treeRow(page, 'Channel', 'Documents').waitFor({ timeout: 30_000 });
    await expandRow(page, 'Channel', 'Documents');
    await treeRow(page, 'Channel', 'notes.txt').waitFor({ timeout: 30_000 });
    const labels = await rowLabels(page, 'Channel');
    for (const name of ['archive.bin', 'design.md', 'Photos'])
      assert.ok(labels.includes(name), labels.join(', '));
    await screenshot(page, 'channel-files');
    await collapseRow(page, 'Channel', 'Files');
  });

  it('posts through the command palette and shows the post', async () => {
    forge.clearRequests();
    await runCommand(page, 'Forge: Post to Channel…');
    await expectQuickInput(page, /What to post/);
    await answerQuickInput(page, 'Type it');
    await expectQuickInput(page, /bbcode or plain text/);
    await answerQuickInput(page, 'Hello from a real VS Code');
    await expectQuickInput(page, /title/);
    await answerQuickInput(page, 'Posted from the palette');
    await expectQuickInput(page, /categories/);
    await answerQuickInput(page, 'e2e, vscode');
    await expectQuickInput(page, /who will see it/);
    await screenshot(page, 'channel-post-audience');
    await answerQuickInput(page, 'Everyone');
    await expectQuickInput(page, /comments/);
    await answerQuickInput(page, 'Allow comments');
    await waitUntil(
      () =>
        Promise.resolve(
          forge.requests.some(
            (request) =>
              request.method === 'POST' &&
              request.path === '/api/z/1.0/item/update' &&
              request.status === 200,
          ),
        ),
      20_000,
      'POST /item/update',
    );
    const sent = forge.requests.find((request) => request.path === '/api/z/1.0/item/update');
    assert.deepEqual(sent?.body, {
      body: 'Hello from a real VS Code',
      title: 'Posted from the palette',
      contact_allow: '',
      category: 'e2e,vscode',
    });
    await expandRow(page, 'Channel', 'Stream');
    await treeRow(page, 'Channel', 'My channel').waitFor();
    await expandRow(page, 'Channel', 'My channel');
    await treeRow(page, 'Channel', 'Posted from the palette').waitFor({ timeout: 30_000 });
    await screenshot(page, 'channel-posted');
  });
});
