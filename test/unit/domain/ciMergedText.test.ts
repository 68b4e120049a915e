// The merged CI configuration's document (issue 38): the header lists each include on a line of its
// own, where its link goes, and a hostile location cannot add lines to the header.
import assert from 'node:assert/strict';
import { ciMergedText } from '../../../src/domain/ciMergedText';

describe('ciMergedText', () => {
  it('lists the includes in a header, each on a line with its place, then the merged YAML', () => {
    const merged = ciMergedText('.gitlab-ci.yml', 'build:\n  script: make\n', [
      {
        type: 'local',
        location: '/ci/build.yml',
        blob: 'https://forge.example/acme/web/-/blob/abc/ci/build.yml',
      },
      { type: 'template', location: 'Auto-DevOps.gitlab-ci.yml' },
    ]);
    const lines = merged.text.split('\n');
    assert.match(lines[0] ?? '', /^# \.gitlab-ci\.yml with its includes expanded/);
    assert.equal(lines[2], '#   local: /ci/build.yml');
    assert.equal(lines[3], '#   template: Auto-DevOps.gitlab-ci.yml');
    assert.ok(merged.text.endsWith('\n\nbuild:\n  script: make\n'));
    assert.deepEqual(
      merged.includeLines.map(({ line, start, end }) => (lines[line] ?? '').slice(start, end)),
      ['/ci/build.yml', 'Auto-DevOps.gitlab-ci.yml'],
    );
  });

  it('keeps a location with line breaks on one header line, and says when nothing is included', () => {
    const merged = ciMergedText('.gitlab-ci.yml', 'a: 1\n', [
      { type: 'remote', location: 'x\nevil: true\r\n#' },
    ]);
    const lines = merged.text.split('\n');
    assert.equal(lines[2], '#   remote: x evil: true #');
    assert.equal(lines[3], '');
    assert.match(
      ciMergedText('.gitlab-ci.yml', 'a: 1\n', []).text,
      /^# .*\n# No files are included\.\n\na: 1\n$/,
    );
  });
});
