import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TracePlainTail } from '../../../src/domain/trace';

const FIXTURE = readFileSync(join(__dirname, '../../fixtures/traces/node-test-failure.log'), 'utf8');

function tailAll(chunks: string[]): string {
  const tail = new TracePlainTail();
  let out = '';
  for (const chunk of chunks) out += tail.push(chunk);
  return out + tail.finish();
}

describe('TracePlainTail', () => {
  it('turns a runner trace into readable plain lines with section headers', () => {
    const text = tailAll([FIXTURE]);
    assert.ok(!text.includes('\x1b'), 'no escape codes left');
    assert.doesNotMatch(text, /section_(start|end)/, 'no raw section markers');
    const lines = text.split('\n');
    assert.ok(lines.includes('▸ Preparing the "docker" executor'));
    assert.ok(lines.includes('▸ Executing "step_script" stage of the job script'));
    // nested section header indented one level, its body two
    assert.ok(lines.includes('  ▸ Unit tests'));
    assert.ok(lines.includes('      ✓ parses a trace (3ms)'), lines.join('\n'));
    // progress collapsed to its last state
    assert.ok(lines.includes('  Receiving objects: 100% (120/120), done.'));
    assert.ok(!text.includes('55%'));
    // OSC 8 hyperlink reduced to its text
    assert.ok(lines.includes('        at test/diff.test.ts:12:7'));
    assert.ok(lines.includes('ERROR: Job failed: exit code 1'));
  });

  it('gives the same text however the trace is split, and only complete lines before the end', () => {
    const whole = tailAll([FIXTURE]);
    for (let size = 1; size <= 97; size += 8) {
      const chunks: string[] = [];
      for (let start = 0; start < FIXTURE.length; start += size)
        chunks.push(FIXTURE.slice(start, start + size));
      assert.equal(tailAll(chunks), whole, `chunks of ${size}`);
    }
    const tail = new TracePlainTail();
    assert.equal(tail.push('Downloading 10%\rDownloading 90%'), '');
    assert.equal(tail.push('\rDownloaded\nnext'), 'Downloaded\n');
    assert.equal(tail.finish(), 'next\n');
  });

  it('starts over after reset', () => {
    const tail = new TracePlainTail();
    assert.equal(tail.push('first run\n'), 'first run\n');
    tail.reset();
    assert.equal(tail.push('second run\n'), 'second run\n');
  });
});

describe('TracePlainTail with runner timestamps', () => {
  const trace = [
    '2024-05-14T11:19:19.899359Z 00O first\n',
    '2024-05-14T11:19:21.5Z 00O \x1b[0Ksection_start:1715685561:build\r\x1b[0KBuilding\n',
    '2024-05-14T11:19:22Z 00O compiled\n',
    '2024-05-14T11:19:22.5Z 00O \x1b[0Ksection_end:1715685562:build\r\x1b[0K\n',
    '2024-05-14T11:19:23Z 00O done\n',
  ].join('');

  it('puts each line’s time in front of it when asked, and leaves it out otherwise', () => {
    const timed = new TracePlainTail({ timestamps: true });
    assert.equal(
      timed.push(trace) + timed.finish(),
      '[11:19:19.899] first\n[11:19:21.500] ▸ Building\n[11:19:22.000]   compiled\n[11:19:23.000] done\n',
    );
    const plain = new TracePlainTail();
    assert.equal(plain.push(trace) + plain.finish(), 'first\n▸ Building\n  compiled\ndone\n');
  });
});

describe('TracePlainTail edges', () => {
  it('forgets the open line on reset', () => {
    const tail = new TracePlainTail();
    assert.equal(tail.push('a\nopen'), 'a\n');
    tail.reset();
    assert.equal(tail.push('x\n'), 'x\n');
  });

  it('trims a header, and indents deeply nested sections by their depth', () => {
    const tail = new TracePlainTail();
    let text = '';
    for (let depth = 0; depth < 40; depth++) text += `section_start:1:s${depth}\r  Header ${depth}  \n`;
    text += 'deep\n';
    const out = tail.push(text).split('\n');
    assert.equal(out[0], '▸ Header 0');
    assert.equal(out[39], `${'  '.repeat(39)}▸ Header 39`);
    assert.equal(out[40], `${'  '.repeat(40)}deep`);
  });

  it('leaves the time out for a line without one and for a timestamp no calendar has', () => {
    const tail = new TracePlainTail({ timestamps: true });
    const out = tail.push('untimed\n2024-13-45T99:99:99Z 00O odd\n') + tail.finish();
    assert.equal(out, 'untimed\nodd\n');
  });
});
