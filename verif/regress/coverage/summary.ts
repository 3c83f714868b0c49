import type { CoverageFile, GoalKind, SuiteCoverage } from './data.ts';

/** Set bits of a `0x…` mask. */
function ones(mask: bigint): number {
  let count = 0;
  for (let rest = mask; rest > 0n; rest &= rest - 1n) count++;
  return count;
}

/** Toggle figures of a suite on an engine: bits, and those seen rising, falling, and both. */
export interface ToggleFigures {
  readonly signals: number;
  readonly bits: number;
  readonly both: number;
}

export function toggleFigures(coverage: SuiteCoverage): ToggleFigures {
  let bits = 0;
  let both = 0;
  for (const toggle of Object.values(coverage.toggles)) {
    bits += toggle.width;
    both += ones(BigInt(toggle.rose) & BigInt(toggle.fell));
  }
  return { signals: Object.keys(coverage.toggles).length, bits, both };
}

/** One coverage goal of a suite: its bins, how many some case hit, and the missed ones with the suite's reason. */
export interface GoalStatus {
  readonly suite: string;
  readonly engine: string;
  /** The goal's name, or `cover points` for the design's `m.cover`s. */
  readonly goal: string;
  readonly bins: number;
  readonly reached: number;
  readonly missed: readonly { readonly bin: string; readonly why?: string }[];
  /** For a state register's goals: what it was seen in (or moving along) that its declaration rules out, with the cycles. */
  readonly illegal?: readonly { readonly bin: string; readonly hits: number }[];
  readonly kind?: GoalKind;
}

const isFsmGoal = (kind: GoalKind | undefined): boolean => kind === 'fsm-states' || kind === 'fsm-transitions';

/** The goals of one suite on one engine: each declared bin goal, and the cover points when the design has any. */
export function goalStatuses(coverage: SuiteCoverage): GoalStatus[] {
  const base = { suite: coverage.suite, engine: coverage.engine };
  const goals: GoalStatus[] = Object.entries(coverage.bins).map(([goal, counts]) => {
    const missed = Object.entries(counts.bins)
      .filter(([, hits]) => hits === 0)
      .map(([bin]) => ({ bin, ...(counts.why?.[bin] === undefined ? {} : { why: counts.why[bin] }) }));
    const bins = Object.keys(counts.bins).length;
    const illegal = Object.entries(counts.other).map(([bin, hits]) => ({ bin, hits }));
    return {
      ...base,
      goal,
      bins,
      reached: bins - missed.length,
      missed,
      ...(counts.kind ? { kind: counts.kind } : {}),
      ...(isFsmGoal(counts.kind) && illegal.length > 0 ? { illegal } : {}),
    };
  });
  const covers = Object.entries(coverage.covers);
  if (covers.length > 0) {
    const missed = covers.filter(([, hits]) => hits === 0).map(([bin]) => ({ bin }));
    goals.push({ ...base, goal: 'cover points', bins: covers.length, reached: covers.length - missed.length, missed });
  }
  return goals;
}

const percent = (part: number, whole: number): string => (whole === 0 ? '—' : `${((100 * part) / whole).toFixed(1)} %`);

/** Totals over a coverage file: toggle bits, goal bins, and every missed bin. */
export function coverageTotals(file: CoverageFile): {
  readonly bits: number;
  readonly toggled: number;
  readonly bins: number;
  readonly reached: number;
  readonly goals: readonly GoalStatus[];
} {
  const figures = file.suites.map(toggleFigures);
  const goals = file.suites.flatMap(goalStatuses);
  return {
    bits: figures.reduce((sum, figure) => sum + figure.bits, 0),
    toggled: figures.reduce((sum, figure) => sum + figure.both, 0),
    bins: goals.reduce((sum, goal) => sum + goal.bins, 0),
    reached: goals.reduce((sum, goal) => sum + goal.reached, 0),
    goals,
  };
}

/**
 * The coverage table printed after a run: per suite × engine the toggle coverage (bits seen both
 * 0→1 and 1→0), cover points hit, the suite's goal bins, the state registers' state and
 * transition bins, and the crosses' bins reached; then every missed bin with its reason, and
 * every illegal state or move a state register made.
 */
export function coverageSummary(file: CoverageFile): string {
  const rows = file.suites.map((coverage) => {
    const toggles = toggleFigures(coverage);
    const goals = goalStatuses(coverage);
    const covers = goals.find((goal) => goal.goal === 'cover points');
    const column = (chosen: readonly GoalStatus[]): string => {
      const bins = chosen.reduce((sum, goal) => sum + goal.bins, 0);
      const reached = chosen.reduce((sum, goal) => sum + goal.reached, 0);
      return bins === 0 ? '—' : `${reached}/${bins} ${percent(reached, bins)}`;
    };
    return [
      coverage.suite,
      coverage.engine,
      `${toggles.both}/${toggles.bits} ${percent(toggles.both, toggles.bits)}`,
      covers ? `${covers.reached}/${covers.bins}` : '—',
      column(goals.filter((goal) => goal !== covers && goal.kind === undefined)),
      column(goals.filter((goal) => isFsmGoal(goal.kind))),
      column(goals.filter((goal) => goal.kind === 'cross')),
    ];
  });
  // The FSM and cross columns only where some suite has such goals: the table stays as narrow as it was.
  const shown = [0, 1, 2, 3, 4, 5, 6].filter((column) => column < 5 || rows.some((row) => row[column] !== '—'));
  const header = ['suite', 'engine', 'toggle bits', 'covers', 'goal bins', 'fsm bins', 'cross bins'].filter(
    (_, column) => shown.includes(column),
  );
  rows.forEach((row, index) => (rows[index] = shown.map((column) => row[column]!)));
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const format = (row: readonly string[]): string =>
    row.map((cell, column) => (column >= 2 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!))).join('  ');
  const lines = [format(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(format)];
  for (const goal of file.suites.flatMap(goalStatuses))
    for (const { bin, why } of goal.missed)
      lines.push(`MISSED ${goal.suite} on ${goal.engine}, ${goal.goal}: ${bin}${why === undefined ? '' : ` (${why})`}`);
  for (const goal of file.suites.flatMap(goalStatuses))
    for (const { bin, hits } of goal.illegal ?? [])
      lines.push(`ILLEGAL ${goal.suite} on ${goal.engine}, ${goal.goal}: ${bin} (${hits} times)`);
  return lines.join('\n');
}
