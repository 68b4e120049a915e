// Copies the screenshots the UI tests took (test-results/screenshots, after `npm run test:e2e`)
// that the marketplace page shows into media/screenshots. Run after a UI change; commit the images.
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const from = join(root, 'test-results', 'screenshots');
const to = join(root, 'media', 'screenshots');
/** The UI test's name for it -> the name the marketplace README uses. */
const SHOWN = {
  'projects.png': 'projects.png',
  'todos.png': 'todos.png',
  'job-trace-running.png': 'job-trace.png',
  'status-bar-clone.png': 'status-bar.png',
  'channel-stream.png': 'channel.png',
  'admin.png': 'admin.png',
  'merge-request-changes-dark-theme.png': 'merge-request-dark.png',
  'job-trace-dark-theme.png': 'job-trace-dark.png',
  'review-pending.png': 'review.png',
  'review-diff-threads-dark.png': 'review-dark.png',
};
mkdirSync(to, { recursive: true });
const missing = [];
for (const [taken, shown] of Object.entries(SHOWN)) {
  if (existsSync(join(from, taken))) copyFileSync(join(from, taken), join(to, shown));
  else missing.push(taken);
}
if (missing.length > 0) {
  console.error(`Not taken yet (run npm run test:e2e): ${missing.join(', ')}`);
  process.exitCode = 1;
}
