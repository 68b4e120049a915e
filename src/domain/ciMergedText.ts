/*
 * The text of the "merged CI configuration" document (issue 38): a comment header that names the
 * file and lists the files its `include:` brought in (one per line, so each can be a link), then the
 * server's `merged_yaml` as it sent it. Pure.
 */
import * as l10n from '@vscode/l10n';

export interface CiInclude {
  type?: string | null;
  location?: string | null;
  blob?: string | null;
  raw?: string | null;
}

export interface CiIncludeLine {
  /** 0-based line of the header that names it. */
  line: number;
  /** Where its location starts and ends on that line. */
  start: number;
  end: number;
  include: CiInclude;
}

export interface CiMergedText {
  text: string;
  includeLines: CiIncludeLine[];
}

/** One line of text: a hostile location cannot start a new line of the header. */
const oneLine = (text: string): string => text.replace(/[\r\n\u2028\u2029]+/g, ' ');

export function ciMergedText(
  fileName: string,
  mergedYaml: string,
  includes: readonly CiInclude[],
): CiMergedText {
  const header = [
    `# ${oneLine(l10n.t('{0} with its includes expanded, as the server reads it (read-only).', fileName))}`,
  ];
  const includeLines: CiIncludeLine[] = [];
  if (includes.length > 0) {
    header.push(`# ${oneLine(l10n.t('Included files:'))}`);
    for (const include of includes) {
      const location = oneLine(include.location ?? include.blob ?? include.raw ?? '?');
      const prefix = `#   ${oneLine(include.type ?? 'file')}: `;
      includeLines.push({
        line: header.length,
        start: prefix.length,
        end: prefix.length + location.length,
        include,
      });
      header.push(`${prefix}${location}`);
    }
  } else header.push(`# ${oneLine(l10n.t('No files are included.'))}`);
  return { text: `${header.join('\n')}\n\n${mergedYaml}`, includeLines };
}
