/*
 * Trace colours in the page: the 16 basic colours come from the theme's terminal colours (classes in
 * style.css), so a trace looks like it would in VS Code's terminal in every theme; 256-colour indexes
 * and truecolor become explicit colours.
 */
import type { TraceColor } from '../../../../domain/trace';

const CUBE_LEVELS = [0, 95, 135, 175, 215, 255];

function hex(value: number): string {
  return value.toString(16).padStart(2, '0');
}

/** `fg-3` style class for a basic colour, or undefined when the colour needs an explicit value. */
export function colorClass(prefix: 'fg' | 'bg', color: TraceColor | undefined): string | undefined {
  return typeof color === 'number' && color >= 0 && color < 16 ? `${prefix}-${color}` : undefined;
}

/** An explicit CSS colour for 256-colour indexes 16–255 and truecolor; undefined otherwise. */
export function colorValue(color: TraceColor | undefined): string | undefined {
  if (color === undefined) return undefined;
  if (typeof color === 'string') return /^#[0-9a-f]{6}$/i.test(color) ? color : undefined;
  if (color < 16 || color > 255) return undefined;
  if (color >= 232) {
    const level = 8 + (color - 232) * 10;
    return `#${hex(level)}${hex(level)}${hex(level)}`;
  }
  const index = color - 16;
  const red = CUBE_LEVELS[Math.floor(index / 36)] ?? 0;
  const green = CUBE_LEVELS[Math.floor(index / 6) % 6] ?? 0;
  const blue = CUBE_LEVELS[index % 6] ?? 0;
  return `#${hex(red)}${hex(green)}${hex(blue)}`;
}
