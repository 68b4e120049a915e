// Server text once measured at seconds (quadratic regexes): each case builds its input of a given
// size once and returns the work to time. Shared by the unit guard (test/unit/security/linearTime.test.ts)
// and the timing benchmark (bench/linearText.bench.ts).
import { readServerMessage } from '../../src/api/http';
import { plainBroadcastText } from '../../src/domain/broadcasts';
import { artifactsFileName, jobWebUrl } from '../../src/domain/jobActions';

export const SLOW_SERVER_TEXT_CASES: readonly [string, (size: number) => () => unknown][] = [
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
