import assert from 'node:assert/strict';
import * as z from 'zod';
import { InvalidInputError } from '../../../src/platform/commands/errorMessages';
import { defineCommand, rowOf } from '../../../src/platform/commands/defineCommand';

class JobRow {
  constructor(readonly id: number) {}
}

describe('defineCommand', () => {
  const ran: unknown[][] = [];
  const retry = defineCommand({
    id: 'forge.test.retry',
    args: [
      rowOf(JobRow, 'a job row').optional(),
      z.strictObject({ confirmed: z.boolean().optional() }).optional(),
    ],
    run: (row, options) => {
      ran.push([row?.id, options?.confirmed]);
      return 'done';
    },
  });
  beforeEach(() => (ran.length = 0));

  it('runs with checked arguments and returns what run returns', async () => {
    assert.equal(await retry.handle(new JobRow(7), { confirmed: true }), 'done');
    assert.equal(await retry.handle(), 'done');
    assert.deepEqual(ran, [
      [7, true],
      [undefined, undefined],
    ]);
  });

  it('ignores what VS Code passes beyond the declared arguments (a selection after the row)', async () => {
    await retry.handle(new JobRow(3), undefined, [new JobRow(3), new JobRow(4)]);
    assert.deepEqual(ran, [[3, undefined]]);
  });

  it('reads the selected rows VS Code passes where options would be as no options', async () => {
    const row = Object.assign(new JobRow(5), { getTreeItem: () => ({}) });
    await retry.handle(row, [row, Object.assign(new JobRow(6), { getTreeItem: () => ({}) })]);
    assert.deepEqual(ran, [[5, undefined]]);
  });

  it('refuses a row of another kind before running, saying which argument and what it expected', async () => {
    await assert.rejects(retry.handle({ id: 7 }), (error: unknown) => {
      assert.ok(error instanceof InvalidInputError);
      assert.equal(
        error.message,
        'The command forge.test.retry cannot take its argument 1: expected a job row.',
      );
      return true;
    });
    assert.deepEqual(ran, []);
  });

  it('refuses unknown or mistyped options, naming the field', async () => {
    await assert.rejects(retry.handle(undefined, { confirmed: 'yes' }), /argument 2 \(confirmed\)/);
    await assert.rejects(retry.handle(undefined, { confrimed: true }), /argument 2: .*confrimed/);
    assert.deepEqual(ran, []);
  });

  it('names each kind a choice of arguments takes', async () => {
    const open = defineCommand({
      id: 'forge.test.open',
      args: [z.union([rowOf(JobRow, 'a job row'), z.string()])],
      run: () => 'opened',
    });
    await assert.rejects(open.handle(42), (error: unknown) => {
      assert.ok(error instanceof InvalidInputError);
      assert.match(error.message, /argument 1: expected a job row or .*string/i);
      return true;
    });
  });
});
