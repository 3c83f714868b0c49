import type { PortValues } from '../../../hw/contract/engine.ts';
import {
  combinations,
  CROSS_JOIN,
  inSignalBin,
  isCoverPart,
  isSignalGoal,
  signalBinLabel,
  type CaseSample,
  type CrossGoal,
  type CrossPart,
  type SignalBins,
} from './spec.ts';

/** What one case offers a cross: each signal's values per cycle (by goal path), the case's sample, and its cover hits. */
export interface CrossCase<Case> {
  readonly valuesOf: (signal: string) => readonly (bigint | undefined)[];
  readonly sample: CaseSample<Case>;
  readonly covers: Readonly<Record<string, number>>;
}

/**
 * A signal goal's label in one cycle (undefined in reset, when gated off or unknown): its bin, or
 * the raw value outside every bin. Reset cycles are left out: registers then hold the engine's
 * power-up value, which differs between engines.
 */
function cycleLabel<Case>(goal: SignalBins, data: CrossCase<Case>, cycle: number): string | undefined {
  if ((data.sample.inputs[cycle]?.['reset'] ?? 0n) !== 0n) return undefined;
  const value = data.valuesOf(goal.signal)[cycle];
  if (value === undefined) return undefined;
  if (goal.when !== undefined && data.valuesOf(goal.when)[cycle] !== 1n) return undefined;
  const bin = goal.bins.find((candidate) => inSignalBin(candidate, value));
  return bin === undefined ? String(value) : signalBinLabel(bin);
}

/** The labels a part reached over the whole case. */
function caseLabels<Case>(part: CrossPart<Case>, data: CrossCase<Case>, cycles: number): string[] {
  if (isCoverPart(part)) return (data.covers[part.cover] ?? 0) > 0 ? ['hit'] : [];
  if (isSignalGoal(part)) {
    const labels = new Set<string>();
    for (let cycle = 0; cycle < cycles; cycle++) {
      const label = cycleLabel(part, data, cycle);
      if (label !== undefined) labels.add(label);
    }
    return [...labels];
  }
  const labels = part.of(data.sample);
  return labels === undefined ? [] : typeof labels === 'string' ? [labels] : [...labels];
}

/**
 * Counts one case of a cross: with only signal parts, each cycle whose parts all have a label
 * adds one to their combination; otherwise each combination of the labels the parts reached in
 * the case adds one.
 */
export function countCross<Case>(
  goal: CrossGoal<Case>,
  data: CrossCase<Case>,
  inputs: readonly PortValues[],
  hit: (label: string) => void,
): void {
  const cycles = inputs.length;
  if (goal.parts.every((part) => !isCoverPart(part) && isSignalGoal(part))) {
    const parts = goal.parts as readonly SignalBins[];
    for (let cycle = 0; cycle < cycles; cycle++) {
      const labels = parts.map((part) => cycleLabel(part, data, cycle));
      if (labels.every((label) => label !== undefined)) hit(labels.join(CROSS_JOIN));
    }
    return;
  }
  for (const label of combinations(goal.parts.map((part) => caseLabels(part, data, cycles)))) hit(label);
}
