/** What a benchmark hands back to `bench/run.ts`, and the helpers the benchmarks share. */

export interface Table {
  title: string;
  columns: string[];
  rows: string[][];
  /** Printed under the table. */
  notes?: string[];
}

export interface SummaryRow {
  figure: string;
  value: string;
  target: string;
  met: boolean;
}

export interface BenchResult {
  name: string;
  title: string;
  tables: Table[];
  summary: SummaryRow[];
  /** Raw figures for `bench/results/latest.json`. */
  data: unknown;
}

export interface Benchmark {
  name: string;
  run(): Promise<BenchResult>;
}

/** A Markdown table, columns padded so that it also reads well in a terminal. */
export function formatTable(table: Pick<Table, 'columns' | 'rows'>): string {
  const widths = table.columns.map((column, index) =>
    Math.max(column.length, ...table.rows.map((row) => (row[index] ?? '').length), 3),
  );
  const line = (cells: readonly string[]): string =>
    `| ${widths.map((width, index) => (cells[index] ?? '').padEnd(width)).join(' | ')} |`;
  return [
    line(table.columns),
    `| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`,
    ...table.rows.map(line),
  ].join('\n');
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The value at percentile `p` (0–100) of `values`, NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
}

export function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/** CPU time of this process (user + system, all threads) since `start`, in milliseconds. */
export function cpuMsSince(start: NodeJS.CpuUsage): number {
  const delta = process.cpuUsage(start);
  return (delta.user + delta.system) / 1000;
}

export function ms(value: number, digits = 0): string {
  return `${value.toFixed(digits)} ms`;
}

export function ratio(value: number, digits = 2): string {
  return `${value.toFixed(digits)}×`;
}

export function mebibytes(bytes: number, digits = 1): string {
  return `${(bytes / 1024 / 1024).toFixed(digits)} MiB`;
}

export function yesNo(met: boolean): string {
  return met ? 'yes' : 'no';
}

/** Throws when a bounded benchmark runs past its time budget, instead of running on. */
export class Deadline {
  private readonly endsAt: number;

  constructor(
    private readonly what: string,
    budgetMs: number,
  ) {
    this.endsAt = performance.now() + budgetMs;
  }

  check(): void {
    if (this.expired) throw new Error(`${this.what}: over its time budget, stopped`);
  }

  get expired(): boolean {
    return performance.now() > this.endsAt;
  }

  get remainingMs(): number {
    return this.endsAt - performance.now();
  }
}
