import * as l10n from '@vscode/l10n';
import { ownEntry } from './ownEntry';
/** Broadcast messages: which are showing now, and the times and colours people type for them. */

export interface BroadcastTiming {
  /** Real servers compute it (starts_at <= now < ends_at); the spec does not state it. */
  active?: boolean | undefined;
  starts_at?: string | null | undefined;
  ends_at?: string | null | undefined;
}

/**
 * Whether a broadcast message is showing now. The server's `active` flag wins when sent (its clock
 * decides, not ours); otherwise the window decides: started (or no start) and not yet ended (or no end).
 */
export function isBroadcastActive(message: BroadcastTiming, now: number = Date.now()): boolean {
  if (typeof message.active === 'boolean') return message.active;
  const starts = message.starts_at ? Date.parse(message.starts_at) : Number.NEGATIVE_INFINITY;
  const ends = message.ends_at ? Date.parse(message.ends_at) : Number.POSITIVE_INFINITY;
  if (Number.isNaN(starts) || Number.isNaN(ends)) return false;
  return starts <= now && now < ends;
}

/** The active messages whose id is not among those already shown, in the order given. */
export function unseenActiveBroadcasts<T extends BroadcastTiming & { id: number }>(
  messages: readonly T[],
  seen: Iterable<number>,
  now: number = Date.now(),
): T[] {
  const seenIds = new Set(seen);
  return messages.filter((message) => !seenIds.has(message.id) && isBroadcastActive(message, now));
}

/** Adds ids to a remembered list, keeping only the newest `limit` (ids grow over time). */
export function rememberIds(seen: readonly number[], ids: readonly number[], limit = 200): number[] {
  const merged = [...new Set([...seen, ...ids])].sort((a, b) => a - b);
  return merged.slice(Math.max(0, merged.length - limit));
}

const UNIT_MS: Record<string, number> = {
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 604_800_000,
};

const RELATIVE = /^in\s+(\d{1,4})\s*(minute|min|hour|h|day|d|week|w)s?$/;
const SHORT_UNITS: Record<string, string> = { min: 'minute', h: 'hour', d: 'day', w: 'week' };
/** A date, or a date and a time (seconds, fraction and offset optional). */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * A point in time as people type it: `now`, `in 2 hours`, `in 30 min`, `in 3 days`, `tomorrow`, or
 * an ISO 8601 date or date-time (`2024-05-01`, `2024-05-01T08:00Z`; no offset means local time).
 */
export function parseWhen(input: string, now: number = Date.now()): { date: Date } | { problem: string } {
  const text = input.trim().toLowerCase();
  if (text === '' || text === 'now') return { date: new Date(now) };
  if (text === 'tomorrow') return { date: new Date(now + UNIT_MS['day']!) };
  const relative = RELATIVE.exec(text);
  if (relative) {
    const unit = ownEntry(SHORT_UNITS, relative[2]!) ?? relative[2]!;
    return { date: new Date(now + Number(relative[1]) * (ownEntry(UNIT_MS, unit) ?? 0)) };
  }
  if (ISO_DATE.test(input.trim())) {
    const parsed = Date.parse(input.trim().replace(' ', 'T'));
    if (!Number.isNaN(parsed)) return { date: new Date(parsed) };
  }
  return {
    problem: l10n.t('Type "now", "in 2 hours", "in 3 days", "tomorrow", or a date like 2024-05-01T08:00Z'),
  };
}

const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** A colour as the server accepts it: `#rgb` or `#rrggbb`. */
export function isHexColor(text: string): boolean {
  return HEX_COLOR.test(text.trim());
}

/** "active · until 2099-12-31 23:59", "scheduled · from 2099-12-31 23:59", "ended 2023-05-02 08:00". */
export function describeBroadcastWindow(message: BroadcastTiming, now: number = Date.now()): string {
  const short = (iso: string | null | undefined): string =>
    iso && !Number.isNaN(Date.parse(iso))
      ? new Date(Date.parse(iso)).toISOString().slice(0, 16).replace('T', ' ')
      : '';
  if (isBroadcastActive(message, now)) {
    return message.ends_at ? l10n.t('active · until {0}', short(message.ends_at)) : 'active';
  }
  const starts = message.starts_at ? Date.parse(message.starts_at) : Number.NaN;
  if (!Number.isNaN(starts) && starts > now) return l10n.t('scheduled · from {0}', short(message.starts_at));
  return message.ends_at ? l10n.t('ended {0}', short(message.ends_at)) : 'inactive';
}

/**
 * A message as one line of plain text: servers allow HTML and Markdown in broadcast messages, and
 * notifications and tree rows show text only. Cut at `limit` characters with an ellipsis.
 */
export function plainBroadcastText(message: string, limit = 300): string {
  const text = message
    .replace(/<[^<>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > limit ? `${text.slice(0, Math.max(0, limit - 1)).trimEnd()}…` : text;
}
