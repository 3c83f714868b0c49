import type { PortValues } from '../../../hw/contract/engine.ts';

/**
 * What a suite declares about its coverage (the `coverage` field of a suite, verif/regress/suite.ts).
 * Toggle coverage and the design's `m.cover` points are collected for every suite without a
 * declaration; `bins` are the suite's coverage goals: each declared bin must be hit by some case
 * of the run, and a bin no case hits is reported missed (with its `why`, when the suite gives one).
 */
export interface CoverageSpec<Case = unknown> {
  readonly bins?: readonly BinGoal<Case>[];
  /** Crosses of goals and cover points (`cross(a, b)`): each combination of their bins is a bin. */
  readonly crosses?: readonly CrossGoal<Case>[];
}

/** A design's `m.cover` point as a part of a cross: its one bin, `hit`, is reached in a case where it held. */
export interface CoverPointPart {
  readonly cover: string;
}

/** What a cross is made of: goals (signal or case bins) and cover points. */
export type CrossPart<Case = unknown> = BinGoal<Case> | CoverPointPart;

/**
 * The cross of two or more parts: a bin per combination of their bins (labels joined by ` × `).
 * When every part is a signal goal the combination is sampled per cycle (each part's `when`
 * gating it); otherwise per case: every combination of the bins the parts reached in that case.
 */
export interface CrossGoal<Case = unknown> {
  readonly name: string;
  readonly parts: readonly CrossPart<Case>[];
  readonly why?: Readonly<Record<string, string>>;
}

/** Joins the labels of one combination of a cross's bins. */
export const CROSS_JOIN = ' × ';

/** The cross of `first`, `second` and any more parts, named after them (`a × b`) unless `name` is given later by spreading. */
export function cross<Case>(
  first: CrossPart<Case>,
  second: CrossPart<Case>,
  ...more: readonly CrossPart<Case>[]
): CrossGoal<Case> {
  const parts = [first, second, ...more];
  return { name: parts.map(partName).join(CROSS_JOIN), parts };
}

/** Whether a cross part is a cover point. */
export function isCoverPart<Case>(part: CrossPart<Case>): part is CoverPointPart {
  return 'cover' in part;
}

/** A cross part's name: the goal's, or the cover point's. */
export function partName<Case>(part: CrossPart<Case>): string {
  return isCoverPart(part) ? part.cover : goalName(part);
}

/** The declared bins of a cross part: the goal's labels, or `hit`. */
export function partBins<Case>(part: CrossPart<Case>): string[] {
  if (isCoverPart(part)) return ['hit'];
  return isSignalGoal(part) ? part.bins.map(signalBinLabel) : [...part.bins];
}

/** Every combination of the parts' bins, as cross bin labels, in order. */
export function crossBins<Case>(goal: CrossGoal<Case>): string[] {
  return combinations(goal.parts.map(partBins));
}

/** Every way to pick one label from each list, joined with CROSS_JOIN. */
export function combinations(lists: readonly (readonly string[])[]): string[] {
  const [first, ...rest] = lists;
  if (first === undefined) return [];
  return rest.reduce<string[]>(
    (sofar, labels) => sofar.flatMap((prefix) => labels.map((label) => `${prefix}${CROSS_JOIN}${label}`)),
    [...first],
  );
}

/** A goal: the bins of one sampled quantity. */
export type BinGoal<Case = unknown> = SignalBins | CaseBins<Case>;

/** A value bin of a signal: one value, or a named inclusive range. */
export type SignalBin =
  number | bigint | { readonly name: string; readonly min: number | bigint; readonly max: number | bigint };

/**
 * Bins of a named signal of the design, sampled in every cycle (before the clock edge, as the
 * engines sample outputs) — or only in cycles where the 1-bit signal `when` is 1. `signal` is the
 * DSL path below the top: a port or net of the top (`count`), or of an instance (`slice_0.count`).
 * Values outside every bin are counted as `other` (shown, not a goal).
 */
export interface SignalBins {
  /** The goal's name (default: the signal path). */
  readonly name?: string;
  readonly signal: string;
  readonly bins: readonly SignalBin[];
  readonly when?: string;
  /** Per bin label, why the default regression may not reach it (shown beside a missed bin). */
  readonly why?: Readonly<Record<string, string>>;
}

/** What `CaseBins.of` is given for each case: the case, the stimulus and the engine's sampled outputs. */
export interface CaseSample<Case> {
  readonly testCase: Case;
  readonly inputs: readonly PortValues[];
  readonly outputs: readonly PortValues[];
}

/**
 * Bins of any function of a case: `of` names the bins the case reaches (a label, several, or none).
 * Labels not among `bins` are counted as `other`.
 */
export interface CaseBins<Case> {
  readonly name: string;
  readonly bins: readonly string[];
  of(sample: CaseSample<Case>): string | readonly string[] | undefined;
  readonly why?: Readonly<Record<string, string>>;
}

/** The label of a signal bin: `3`, or the range's name. */
export function signalBinLabel(bin: SignalBin): string {
  return typeof bin === 'object' ? bin.name : String(bin);
}

/** Whether a sampled value falls in a bin. */
export function inSignalBin(bin: SignalBin, value: bigint): boolean {
  if (typeof bin === 'object') return value >= BigInt(bin.min) && value <= BigInt(bin.max);
  return value === BigInt(bin);
}

/** Whether a goal is over a signal (not a function of the case). */
export function isSignalGoal<Case>(goal: BinGoal<Case>): goal is SignalBins {
  return 'signal' in goal;
}

/** The goal's name as reports show it. */
export function goalName<Case>(goal: BinGoal<Case>): string {
  return isSignalGoal(goal) ? (goal.name ?? goal.signal) : goal.name;
}

/** Bins from `min` to `max` in powers of two: 0, 1, 2–3, 4–7, … (a depth or a shift amount). */
export function log2Bins(max: number): SignalBin[] {
  const bins: SignalBin[] = [0, 1];
  for (let low = 2; low <= max; low *= 2) {
    const high = Math.min(max, 2 * low - 1);
    bins.push(low === high ? low : { name: `${low}–${high}`, min: low, max: high });
  }
  return bins;
}
