// Server text once measured at seconds (quadratic regexes): each case builds its input of a given
// size once and returns the work to time. Shared by the unit guard (test/unit/security/linearTime.test.ts)
// and the timing benchmark (bench/linearText.bench.ts).
import { readServerMessage } from '../../src/api/http';
import { plainBroadcastText } from '../../src/domain/broadcasts';
import { bbcodeToText } from '../../src/domain/channel';
import { artifactsFileName, jobWebUrl } from '../../src/domain/jobActions';
import { safeMarkdown } from '../../src/domain/safeMarkdown';
import { suggestionFence } from '../../src/domain/suggestions';

/** A review note of `size` characters: one opener without its closer, repeated. */
function reviewNote(opener: string): (size: number) => () => unknown {
  const suggestion = { from_line: 1, to_line: 1, applied: false, from_content: 'a\n', to_content: 'b\n' };
  return (size) => {
    const note = opener.repeat(Math.floor(size / opener.length));
    return () => safeMarkdown(note, { fence: suggestionFence([suggestion]) });
  };
}

export const SLOW_SERVER_TEXT_CASES: readonly [string, (size: number) => () => unknown][] = [
  [
    'channel post, BBCode attributes that never close',
    (size) => {
      const text = '[img=[a='.repeat(Math.floor(size / 8));
      return () => bbcodeToText(text);
    },
  ],
  [
    'broadcast message, unclosed tags',
    (size) => {
      const text = '<'.repeat(size);
      return () => plainBroadcastText(text);
    },
  ],
  [
    'job link from a URL ending in slashes',
    (size) => {
      const url = `https://forge.example/a${'/'.repeat(size)}x`;
      return () => jobWebUrl({ id: 1, web_url: null }, url);
    },
  ],
  [
    'artifacts file name from a job name of dashes',
    (size) => {
      const name = `a${'-'.repeat(size)}a!`;
      return () => artifactsFileName('acme/web', name, 1);
    },
  ],
  [
    'HTML error page, unclosed title tags',
    (size) => {
      const html = `<html>${'<title'.repeat(Math.floor(size / 6))}`;
      return () => readServerMessage(html, 502, 'Bad Gateway');
    },
  ],
];

/**
 * Review notes once measured at seconds (issue 41): one opener without its closer, repeated. A whole
 * Markdown parse allocates tokens and strings, so the collector makes these grow a little faster than
 * the text even when the work is linear: the guard compares 256 KB with 1 MB.
 */
export const REVIEW_NOTE_CASES: readonly [string, (size: number) => () => unknown][] = [
  ['review note, link destinations in angle brackets that never close', reviewNote('](<')],
  ['review note, links whose destination never closes', reviewNote('[a](<')],
  ['review note, link titles that never close', reviewNote('](x (')],
  ['review note, suggestion blocks that never close', reviewNote('```suggestion\n')],
];
