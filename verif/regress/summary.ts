import type { SuiteRun } from './regression.ts';

/** The suite × engine table printed after a run: cases, failures and time of each. */
export function summaryTable(runs: readonly SuiteRun[]): string {
  const rows = runs.map((run) => [
    run.suite,
    run.engine,
    String(run.cases),
    String(run.failures.length),
    `${(run.milliseconds / 1000).toFixed(2)} s`,
  ]);
  const header = ['suite', 'engine', 'cases', 'failures', 'time'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const format = (row: readonly string[]): string =>
    row.map((cell, column) => (column >= 2 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!))).join('  ');
  return [format(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(format)].join('\n');
}
