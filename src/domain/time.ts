import * as l10n from '@vscode/l10n';
const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;

/** Below each limit (seconds), the unit an age is counted in. */
const AGE_UNITS: readonly [limit: number, size: number, name: string][] = [
  [MINUTE, 1, 'second'],
  [HOUR, MINUTE, 'minute'],
  [DAY, HOUR, 'hour'],
  [WEEK, DAY, 'day'],
  [MONTH, WEEK, 'week'],
  [YEAR, MONTH, 'month'],
  [Infinity, YEAR, 'year'],
];

/**
 * "3 minutes ago", "2 days ago": short relative ages for tree descriptions and panels. The rule is
 * VS Code's own (`fromNow`, which dates the comments in the diff editor and the Comments view): whole
 * units rounded down, the unit chosen by limits, "just now" under 30 seconds; so one note has one age
 * wherever it is shown.
 */
export function formatAge(iso: string | null | undefined, now: number = Date.now()): string {
  if (!iso) return '';
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  const seconds = Math.round((now - then) / 1000);
  if (seconds < 30) return l10n.t('just now');
  const [, size, name] = AGE_UNITS.find(([limit]) => seconds < limit) ?? [0, YEAR, 'year'];
  const count = Math.floor(seconds / size);
  return l10n.t('{0} {1}{2} ago', count, name, count === 1 ? '' : 's');
}

/** "1 min 5 s", "42 s": job durations from start and finish timestamps. */
export function formatDuration(
  startIso: string | null | undefined,
  endIso: string | null | undefined,
  now: number = Date.now(),
): string {
  if (!startIso) return '';
  const start = Date.parse(startIso);
  const end = endIso ? Date.parse(endIso) : now;
  if (Number.isNaN(start) || Number.isNaN(end) || end < start) return '';
  const total = Math.round((end - start) / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (hours > 0) return l10n.t('{0} h {1} min', hours, minutes);
  if (minutes > 0) return l10n.t('{0} min {1} s', minutes, seconds);
  return `${seconds} s`;
}
