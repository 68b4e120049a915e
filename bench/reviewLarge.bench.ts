/**
 * A merge request of 1,000 changed files (issue 39), in the real VS Code (the host test "a merge
 * request of 1,000 changed files", run alone in a fresh window):
 * - the Changes folder's rows the first time (the files read from the server, every row built), as
 *   a ratio of a plain client reading the same diffs; target 1.1x at most;
 * - its rows again (what VS Code asks after each redraw), as a ratio of as many plain file rows
 *   (name, folder, icon, click; no "Viewed" logic); target 2x at most;
 * - "Mark All as Viewed" and the rows again, as a ratio of the plain rows (reported).
 * Measured, not asserted.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { runHostSuite } from './hostSuite';
import { type BenchResult, ms, ratio } from './report';

const ROOT = path.resolve(__dirname, '..');
const COLD_TARGET = 1.1;
const WARM_TARGET = 2;

export async function runReviewLargeBench(): Promise<BenchResult> {
  execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'ignore' });
  execFileSync(process.execPath, ['scripts/build-tests.mjs'], { cwd: ROOT, stdio: 'ignore' });
  const measured = await runHostSuite({ name: 'review-large', grep: '1,000 changed files' }, ({ report }) =>
    Promise.resolve(report.measurements ?? {}),
  );
  const figure = (name: string): number => measured[name] ?? Number.NaN;
  const cold = figure('1,000 files: Changes folder listed cold, ms');
  const plainRead = figure('1,000 files: diffs read by a plain client, ms');
  const warm = figure('1,000 files: Changes folder listed warm, median ms');
  const plainRows = figure('1,000 plain tree items listed, median ms');
  const markAll = figure('1,000 files: Mark All as Viewed and the rows again, median ms');
  return {
    name: 'reviewLarge',
    title: 'A merge request of 1,000 changed files: the Changes folder and "Mark All as Viewed"',
    tables: [
      {
        title: 'In the real VS Code (extension host)',
        columns: ['What', 'Ours', 'Floor', 'Ratio'],
        rows: [
          [
            'Changes folder, first time (files read)',
            ms(cold, 1),
            `${ms(plainRead, 1)} (plain client)`,
            ratio(cold / plainRead),
          ],
          [
            'Changes folder, rows again (median of 7)',
            ms(warm, 1),
            `${ms(plainRows, 1)} (plain rows)`,
            ratio(warm / plainRows),
          ],
          [
            'Mark All as Viewed + rows (median of 5)',
            ms(markAll, 1),
            `${ms(plainRows, 1)} (plain rows)`,
            ratio(markAll / plainRows),
          ],
        ],
        notes: [
          'Rows: `getChildren` then `getTreeItem` of every child, as VS Code asks a tree for a folder. Plain rows: a file name, its folder, a file icon and a click. Mark All: the ticks stored (one write of the workspace state), the folders redrawn, the 1,000 rows built again.',
        ],
      },
    ],
    summary: [
      {
        figure: 'Changes folder first time ÷ plain client',
        value: ratio(cold / plainRead),
        target: `≤ ${COLD_TARGET}×`,
        met: cold / plainRead <= COLD_TARGET,
      },
      {
        figure: 'Changes folder rows ÷ plain rows',
        value: ratio(warm / plainRows),
        target: `≤ ${WARM_TARGET}×`,
        met: warm / plainRows <= WARM_TARGET,
      },
    ],
    data: { cold, plainRead, warm, plainRows, markAll },
  };
}
