// CI files the tests and benchmarks share.

/** 400 jobs of five lines: 2,000 lines (and `stages:`), the last job with an unknown key. */
export function bigCiFile(): string {
  const lines = ['stages: [build, test]'];
  for (let index = 0; index < 400; index++)
    lines.push(
      `job${index}:`,
      `  stage: ${index % 2 === 0 ? 'build' : 'test'}`,
      index === 399 ? `  scirpt: make ${index}` : `  script: make ${index}`,
      '  tags: [docker]',
      '',
    );
  return lines.join('\n');
}
