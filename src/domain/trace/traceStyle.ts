/**
 * Text styles of a job trace and the SGR (`ESC [ … m`) rules that change them.
 * Pure: no vscode, no DOM.
 */

/** A palette index (0–255; 0–15 are the basic and bright colours) or a truecolor `#rrggbb`. */
export type TraceColor = number | string;

/** Immutable; a parser hands out one shared instance per distinct style. */
export interface TraceStyle {
  readonly fg: TraceColor | undefined;
  readonly bg: TraceColor | undefined;
  readonly bold: boolean;
  readonly italic: boolean;
  readonly underline: boolean;
  /** SGR 9 (29 off), as GitLab shows it. */
  readonly strike: boolean;
  /** SGR 8 (28 off): hidden text, as GitLab shows it. */
  readonly conceal: boolean;
}

/** The working copy a parser mutates while reading SGR parameters. */
export interface StyleAttributes {
  fg: TraceColor | undefined;
  bg: TraceColor | undefined;
  bold: boolean;
  italic: boolean;
  underline: boolean;
  strike: boolean;
  conceal: boolean;
}

export const DEFAULT_STYLE: TraceStyle = Object.freeze({
  fg: undefined,
  bg: undefined,
  bold: false,
  italic: false,
  underline: false,
  strike: false,
  conceal: false,
});

const MAX_TRANSITIONS_PER_STYLE = 1024;

/**
 * Hands out one frozen `TraceStyle` per distinct combination, so millions of spans share a handful
 * of objects and style equality is identity. One table per parser (no module-level state).
 */
export class StyleTable {
  private readonly stylesByKey = new Map<string, TraceStyle>([[styleKey(DEFAULT_STYLE), DEFAULT_STYLE]]);
  /**
   * Traces repeat the same few sequences (`ESC[0;m`, `ESC[32;1m`) millions of times: remember
   * where each one leads from each style instead of re-reading its parameters.
   */
  private readonly transitions = new Map<TraceStyle, Map<string, TraceStyle>>();

  /** The style after applying one SGR sequence's parameters to `from`. */
  applySgr(from: TraceStyle, parameters: string): TraceStyle {
    let known = this.transitions.get(from);
    const cached = known?.get(parameters);
    if (cached) return cached;
    const attributes: StyleAttributes = { ...from };
    applySgr(parameters, attributes);
    const to = this.intern(attributes);
    if (!known) {
      known = new Map();
      this.transitions.set(from, known);
    }
    // Bounded so a truecolor gradient cannot grow the cache without end.
    if (known.size < MAX_TRANSITIONS_PER_STYLE) known.set(parameters, to);
    return to;
  }

  intern(attributes: StyleAttributes): TraceStyle {
    const key = styleKey(attributes);
    const known = this.stylesByKey.get(key);
    if (known) return known;
    const style: TraceStyle = Object.freeze({
      fg: attributes.fg,
      bg: attributes.bg,
      bold: attributes.bold,
      italic: attributes.italic,
      underline: attributes.underline,
      strike: attributes.strike,
      conceal: attributes.conceal,
    });
    this.stylesByKey.set(key, style);
    return style;
  }
}

function styleKey(style: TraceStyle): string {
  const flags =
    (style.bold ? 1 : 0) |
    (style.italic ? 2 : 0) |
    (style.underline ? 4 : 0) |
    (style.strike ? 8 : 0) |
    (style.conceal ? 16 : 0);
  return `${String(style.fg)}|${String(style.bg)}|${flags}`;
}

/**
 * Applies the parameters of one SGR sequence (the text between `ESC [` and `m`) to `attributes`.
 * Understands reset, bold/italic/underline/strikethrough/conceal on and off, the 8 + 8 bright colours, `38;5;n` /
 * `48;5;n`, `38;2;r;g;b` / `48;2;r;g;b` and their colon forms (`38:2::r:g:b`). Unknown codes are
 * ignored, as terminals do.
 */
export function applySgr(parameters: string, attributes: StyleAttributes): void {
  const fields = parameters.split(';');
  let index = 0;
  while (index < fields.length) {
    const field = fields[index] ?? '';
    index++;
    if (field.includes(':')) {
      applyColonField(field.split(':'), attributes);
      continue;
    }
    const code = toCode(field);
    if (code === 38 || code === 48) {
      const extended = readExtendedColor(fields, index);
      index += extended.consumed;
      if (extended.color !== undefined) {
        if (code === 38) attributes.fg = extended.color;
        else attributes.bg = extended.color;
      }
      continue;
    }
    applySimpleCode(code, attributes);
  }
}

/** An empty field means 0 (`ESC [ m`, `ESC [ ; 1 m`); anything not a number is ignored (-1). */
function toCode(field: string): number {
  if (field === '') return 0;
  const value = Number(field);
  return Number.isInteger(value) && value >= 0 ? value : -1;
}

function applySimpleCode(code: number, attributes: StyleAttributes): void {
  if (code === 0) {
    attributes.fg = undefined;
    attributes.bg = undefined;
    attributes.bold = false;
    attributes.italic = false;
    attributes.underline = false;
    attributes.strike = false;
    attributes.conceal = false;
  } else if (code === 1) attributes.bold = true;
  else if (code === 3) attributes.italic = true;
  else if (code === 4) attributes.underline = true;
  // 21 is "double underline" in ECMA-48, but GitLab (and xterm before 2020) read it as bold off.
  else if (code === 22 || code === 21) attributes.bold = false;
  else if (code === 23) attributes.italic = false;
  else if (code === 24) attributes.underline = false;
  else if (code === 8) attributes.conceal = true;
  else if (code === 28) attributes.conceal = false;
  else if (code === 9) attributes.strike = true;
  else if (code === 29) attributes.strike = false;
  else if (code >= 30 && code <= 37) attributes.fg = code - 30;
  else if (code === 39) attributes.fg = undefined;
  else if (code >= 40 && code <= 47) attributes.bg = code - 40;
  else if (code === 49) attributes.bg = undefined;
  else if (code >= 90 && code <= 97) attributes.fg = code - 90 + 8;
  else if (code >= 100 && code <= 107) attributes.bg = code - 100 + 8;
}

/** Reads `5;n` or `2;r;g;b` after a 38/48 in the semicolon form. */
function readExtendedColor(
  fields: readonly string[],
  start: number,
): { color: TraceColor | undefined; consumed: number } {
  const mode = toCode(fields[start] ?? 'x');
  if (mode === 5) {
    return { color: paletteIndex(fields[start + 1]), consumed: 2 };
  }
  if (mode === 2) {
    return { color: rgb(fields[start + 1], fields[start + 2], fields[start + 3]), consumed: 4 };
  }
  // Unknown or missing mode (`38;1`): the next field is a code of its own, as terminals and GitLab read it.
  return { color: undefined, consumed: 0 };
}

/** `38:5:n`, `38:2:r:g:b`, `38:2:<colour space>:r:g:b`, `4:0` (underline off), `4:3` (curly). */
function applyColonField(parts: readonly string[], attributes: StyleAttributes): void {
  const code = toCode(parts[0] ?? '');
  if (code === 4) {
    attributes.underline = toCode(parts[1] ?? '') !== 0;
    return;
  }
  if (code !== 38 && code !== 48) return;
  const mode = toCode(parts[1] ?? 'x');
  let color: TraceColor | undefined;
  if (mode === 5) color = paletteIndex(parts[2]);
  else if (mode === 2) {
    const rgbStart = parts.length >= 6 ? 3 : 2;
    color = rgb(parts[rgbStart], parts[rgbStart + 1], parts[rgbStart + 2]);
  }
  if (color === undefined) return;
  if (code === 38) attributes.fg = color;
  else attributes.bg = color;
}

function paletteIndex(field: string | undefined): number | undefined {
  if (field === undefined) return undefined;
  const value = toCode(field);
  return value >= 0 && value <= 255 ? value : undefined;
}

function rgb(
  red: string | undefined,
  green: string | undefined,
  blue: string | undefined,
): string | undefined {
  if (red === undefined || green === undefined || blue === undefined) return undefined;
  const channels = [toCode(red), toCode(green), toCode(blue)];
  if (channels.some((channel) => channel < 0 || channel > 255)) return undefined;
  return `#${channels.map((channel) => channel.toString(16).padStart(2, '0')).join('')}`;
}
