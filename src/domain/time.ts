import * as l10n from '@vscode/l10n';
/** "3 minutes ago", "2 days ago": short relative ages for tree descriptions. */
export function formatAge(iso: string | null | undefined, now: number = Date.now()): string {
  if (!iso) return '';
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  const seconds = Math.round((now - then) / 1000);
  if (seconds < 0) return 'just now';
  const units: [number, string][] = [
    [60 * 60 * 24 * 365, 'year'],
    [60 * 60 * 24 * 30, 'month'],
    [60 * 60 * 24 * 7, 'week'],
    [60 * 60 * 24, 'day'],
    [60 * 60, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, name] of units) {
    const count = Math.floor(seconds / size);
    if (count >= 1) return l10n.t('{0} {1}{2} ago', count, name, count === 1 ? '' : 's');
  }
  return 'just now';
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
