import { strToU8, zipSync } from 'fflate';
import { Prng } from './prng';

export interface ArtifactsSource {
  jobId: number;
  jobName: string;
  projectPath: string;
  ref: string;
  sha: string;
}

/** Size of the pseudo-random binary in every artifacts archive: big enough to need streaming and progress. */
export const ARTIFACT_BINARY_BYTES = 200 * 1024;

/** Every archive is stamped with this time, so the same job always yields byte-identical zips. */
const FIXED_MTIME = new Date('2024-03-01T09:00:00Z');

/**
 * A real zip for a job's artifacts: a few text files and a ~200 KB pseudo-random binary, all derived from
 * the job, so the same job always gives the same bytes.
 */
export function buildArtifactsZip(source: ArtifactsSource): Uint8Array {
  const random = Prng.derive('artifacts', source.jobId);
  const summary = {
    job: { id: source.jobId, name: source.jobName },
    project: source.projectPath,
    ref: source.ref,
    sha: source.sha,
    files: ['dist/app.bin', 'dist/report.txt', 'dist/coverage.json'],
  };
  const coverage = { lines: { total: 1840, covered: 1602 }, branches: { total: 412, covered: 327 } };
  return zipSync(
    {
      'README.txt': strToU8(
        `Artifacts of job ${source.jobId} (${source.jobName}) on ${source.ref} @ ${source.sha}\n`,
      ),
      dist: {
        'summary.json': strToU8(JSON.stringify(summary, null, 2) + '\n'),
        'report.txt': strToU8(reportText(source)),
        'coverage.json': strToU8(JSON.stringify(coverage) + '\n'),
        // Random bytes do not compress: store them, and spare the CPU.
        'app.bin': [random.bytes(ARTIFACT_BINARY_BYTES), { level: 0 }],
      },
    },
    { level: 6, mtime: FIXED_MTIME },
  );
}

function reportText(source: ArtifactsSource): string {
  const lines = [`Test report for ${source.projectPath} (${source.jobName})`, ''];
  for (let i = 1; i <= 40; i++) lines.push(`ok ${i} - case ${i} passed`);
  lines.push('', '40 passed, 0 failed', '');
  return lines.join('\n');
}
